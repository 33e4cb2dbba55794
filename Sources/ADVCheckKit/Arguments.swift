import BlockerCore

/// A hand-written argument parser: options with values, repeatable multi-value
/// options, boolean flags, positionals, `--help`, and a clear error for anything else.
struct Arguments {
    /// How one subcommand accepts its arguments.
    struct Spec {
        let command: String
        /// Options that take one value (`--out DIR`).
        var valued: Set<String> = []
        /// Options that take every following non-option word (`--requests a.json b.json`).
        var multiValued: Set<String> = []
        /// Boolean flags (`--json`).
        var flags: Set<String> = []
        var maxPositionals = 0
        let help: String
    }

    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    /// Parses `words` by `spec`.
    /// - Throws: `InputError` for unknown options, missing values or extra words.
    init(_ words: [String], spec: Spec) throws {
        var index = 0
        func usageError(_ message: String) -> InputError {
            InputError(file: nil, message: "\(message) (see 'adv-check \(spec.command) --help')")
        }
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--help" || word == "-h" {
                wantsHelp = true
            } else if spec.flags.contains(word) {
                flags.insert(word)
            } else if spec.valued.contains(word) {
                guard index < words.count, !words[index].hasPrefix("--") else {
                    throw usageError("option '\(word)' needs a value")
                }
                if values[word] != nil { throw usageError("option '\(word)' given twice") }
                values[word] = [words[index]]
                index += 1
            } else if spec.multiValued.contains(word) {
                var taken: [String] = []
                while index < words.count, !words[index].hasPrefix("--") {
                    taken.append(words[index])
                    index += 1
                }
                if taken.isEmpty { throw usageError("option '\(word)' needs at least one value") }
                values[word, default: []] += taken
            } else if word.hasPrefix("-") && word != "-" {
                let known = spec.valued.union(spec.multiValued).union(spec.flags)
                let hint = known.sorted().first { $0.dropFirst(2).hasPrefix(word.drop { $0 == "-" }.prefix(3)) }.map { "; did you mean '\($0)'?" } ?? ""
                throw usageError("unknown option '\(word)' for 'adv-check \(spec.command)'\(hint)")
            } else {
                positionals.append(word)
                if positionals.count > spec.maxPositionals {
                    throw usageError("unexpected argument '\(word)'")
                }
            }
        }
    }

    func value(_ name: String) -> String? { values[name]?.first }
}
