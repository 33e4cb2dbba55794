import Suggestion

/// A command line parsed by a ``CommandSpec``: option values, flags, positionals and `--help`.
///
/// Words that start with `-` are options (`-` alone is a positional, meaning standard input or
/// output); `--` ends the options. Values may follow as the next word or after `=`.
public struct Arguments: Sendable {
    /// Values by option name, in the order given (one for plain options).
    public private(set) var values: [String: [String]] = [:]
    /// The flags given.
    public private(set) var flags: Set<String> = []
    /// The words that are not options, in order.
    public private(set) var positionals: [String] = []
    /// True when `--help` or `-h` was given (nothing else is checked then).
    public private(set) var wantsHelp = false

    /// Parses `words` by `spec`.
    /// - Throws: ``UsageError`` for an unknown option (with the nearest known one), a missing,
    ///   repeated or unexpected value, or too many positionals.
    public init(_ words: [String], spec: CommandSpec) throws {
        if words.contains(where: { $0 == "--help" || $0 == "-h" }) {
            wantsHelp = true
            return
        }
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                if let limit = spec.maxPositionals, positionals.count > limit {
                    throw spec.error(limit == 0 ? "'\(spec.command)' takes no arguments, got '\(word)'" : "unexpected argument '\(word)'")
                }
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            var inline: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inline = String(word[word.index(after: equals)...])
            }
            if spec.flags.contains(name) {
                guard inline == nil else { throw spec.error("flag '\(name)' takes no value") }
                flags.insert(name)
            } else if spec.options.contains(name) || spec.repeatable.contains(name) {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < words.count, !isOption(words[index]) else { throw spec.error("option '\(name)' needs a value") }
                    value = words[index]
                    index += 1
                }
                if spec.options.contains(name), values[name] != nil { throw spec.error("option '\(name)' given twice") }
                values[name, default: []].append(value)
            } else if spec.lists.contains(name) {
                var taken = inline.map { [$0] } ?? []
                while index < words.count, !isOption(words[index]) {
                    taken.append(words[index])
                    index += 1
                }
                if taken.isEmpty { throw spec.error("option '\(name)' needs at least one value") }
                values[name, default: []] += taken
            } else {
                let hint = Suggestion.hint(for: name, in: spec.known)
                throw spec.error("unknown option '\(name)' for '\(spec.tool) \(spec.command)'\(hint)")
            }
        }
    }

    /// The value of a one-value option, if given.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// True when `flag` was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    private func isOption(_ word: String) -> Bool { word.hasPrefix("-") && word != "-" }
}
