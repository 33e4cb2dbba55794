import CommandLineKit
import Foundation
import RuleStore
import Suggestion

/// `adv-check rules show|validate|check|merge|bench`: inspect and combine personal-rule files.
enum RulesCommand {
    static let usage = """
        usage: adv-check rules <subcommand> [options] FILE...

        subcommands:
          show FILE...                  print each file's rules by hostname, deletion markers and findings
          validate FILE...              check files and print one line each; exit 2 if any is invalid
          check FILE [--page FIXTURE]   Check existing filters: syntax, duplicates, generated or
                                        positional selectors; with a page, no matches and overlap
          merge FILE... [--output OUT]  merge files by id and latest modification; print the result or write OUT
          bench [--runs N]              time a 5,000-record merge and encode/decode round trip

        files use the personal-rules-v1 format (fixtures/rules/README.md).
        run 'adv-check rules <subcommand> --help' for details.
        """

    static let subcommands = ["show", "validate", "check", "merge", "bench"]

    static let showSpec = CommandSpec(tool: "adv-check", command: "rules show", help: """
        usage: adv-check rules show FILE...

        prints each file's live rules grouped by hostname, its deletion markers and findings;
        a live rule whose selector is not valid CSS is reported as an error (exit 2).
        """)
    static let validateSpec = CommandSpec(tool: "adv-check", command: "rules validate", help: """
        usage: adv-check rules validate FILE...

        checks each file and prints one line per file; exits 2 if any file is invalid,
        a live rule's selector that is not valid CSS included.
        """)
    static let mergeSpec = CommandSpec(tool: "adv-check", command: "rules merge", options: ["--output"], help: """
        usage: adv-check rules merge FILE... [--output OUT]

        merges the files by stable id, latest modifiedAt winning and deletion winning ties;
        prints the merged document, or writes it atomically to OUT.
        """)
    static let benchSpec = CommandSpec(tool: "adv-check", command: "rules bench", options: ["--runs"], maxPositionals: 0, help: """
        usage: adv-check rules bench [--runs N]

        times a merge of two 5,000-record collections and a full encode/decode round trip;
        prints the median of N runs (default 25). build with -c release for meaningful figures.
        """)

    /// Runs the subcommand that follows `rules`.
    /// - Returns: the exit status (0 done, 1 the output could not be written, 2 bad input).
    /// - Throws: ``UsageError`` or `RuleStoreError` for bad arguments or files (exit 2).
    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        guard let subcommand = words.first else {
            output.err(usage)
            return ExitStatus.badInput
        }
        let rest = Array(words.dropFirst())
        switch subcommand {
        case "-h", "--help", "help":
            output.out(usage)
            return ExitStatus.success
        case "show": return try show(rest, output)
        case "validate": return try validate(rest, output)
        case "check": return try RulesCheckCommand.run(rest, output)
        case "merge": return try merge(rest, output)
        case "bench": return try bench(rest, output)
        default:
            let hint = Suggestion.nearest(to: subcommand, in: subcommands).map { "did you mean '\($0)'?" } ?? "use show, validate, check, merge or bench"
            throw UsageError("unknown subcommand 'rules \(subcommand)'; \(hint) (see 'adv-check rules --help')")
        }
    }

    static func show(_ words: [String], _ output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: showSpec)
        if arguments.wantsHelp { output.out(showSpec.help); return ExitStatus.success }
        let loaded = try load(try files(arguments, showSpec))
        output.out(loaded.map { RulesReport.show(path: $0.path, bytes: $0.data.count, document: $0.document) }.joined(separator: "\n"),
                   terminator: "")
        // The store keeps records whose selector is not CSS (the extension never applies them).
        let errors = loaded.flatMap { RulesCheckCommand.selectorErrors(path: $0.path, data: $0.data, collection: $0.document.collection) }
        for error in errors { output.err("adv-check: \(error)") }
        return errors.isEmpty ? ExitStatus.success : ExitStatus.badInput
    }

    static func validate(_ words: [String], _ output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: validateSpec)
        if arguments.wantsHelp { output.out(validateSpec.help); return ExitStatus.success }
        var status = ExitStatus.success
        for path in try files(arguments, validateSpec) {
            // Every file is checked and reported, valid or not.
            do {
                guard let file = try load([path]).first else { continue }
                let errors = RulesCheckCommand.selectorErrors(path: path, data: file.data, collection: file.document.collection)
                if !errors.isEmpty {
                    for error in errors { output.err("adv-check: \(error)") }
                    status = ExitStatus.badInput
                    continue
                }
                output.out(RulesReport.summary(path: path, bytes: file.data.count, collection: file.document.collection))
                for finding in RulesReport.findings(file.document.collection, bytes: file.data.count) {
                    output.out("  warning: \(finding)")
                }
            } catch {
                output.err("adv-check: \(error)")
                status = ExitStatus.badInput
            }
        }
        return status
    }

    static func merge(_ words: [String], _ output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: mergeSpec)
        if arguments.wantsHelp { output.out(mergeSpec.help); return ExitStatus.success }
        let loaded = try load(try files(arguments, mergeSpec))
        let merged = loaded.reduce(RuleCollection()) { $0.merged(with: $1.document.collection) }
        let target = arguments.value("--output")
        let data: Data
        do {
            data = try RuleCodec.encodeChecked(RuleDocument(collection: merged))
        } catch {
            throw error.located(in: target ?? "merged collection")
        }
        guard let target else {
            output.out(String(decoding: data, as: UTF8.self), terminator: "")
            return ExitStatus.success
        }
        do {
            // No lock here, so leave other writers' temp files alone.
            try AtomicWriter(destination: URL(fileURLWithPath: target), sweepsStaleTempFiles: false, stepHook: { _ in })
                .replaceContents(with: data)
        } catch {
            output.err("adv-check: \(error)")
            return ExitStatus.checkFailed
        }
        output.out(RulesReport.summary(path: target, bytes: data.count, collection: merged))
        return ExitStatus.success
    }

    static func bench(_ words: [String], _ output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: benchSpec)
        if arguments.wantsHelp { output.out(benchSpec.help); return ExitStatus.success }
        var runs = 25
        if let text = arguments.value("--runs") {
            guard let value = Int(text), (1...10_000).contains(value) else {
                throw UsageError("--runs '\(text)' must be a whole number from 1 to 10000")
            }
            runs = value
        }
        for figure in RuleStoreBenchmark.run(runs: runs) { output.out(figure.description) }
        return ExitStatus.success
    }

    /// The FILE arguments, at least one.
    private static func files(_ arguments: Arguments, _ spec: CommandSpec) throws -> [String] {
        guard !arguments.positionals.isEmpty else { throw spec.error("'\(spec.command)' needs at least one FILE") }
        return arguments.positionals
    }

    /// Reads and validates every file before anything is printed or written.
    /// - Throws: `RuleStoreError` for the first file that cannot be read or is invalid.
    static func load(_ paths: [String]) throws -> [(path: String, data: Data, document: RuleDocument)] {
        try paths.map { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                let code: Int32 = FileManager.default.fileExists(atPath: path) ? EACCES : ENOENT
                throw RuleStoreError.fileSystem(path: path, operation: "read", code: code)
            }
            return (path, data, try RuleCodec.decode(data, file: path))
        }
    }
}
