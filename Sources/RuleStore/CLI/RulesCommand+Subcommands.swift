import Foundation

extension RulesCommand {
    static func show(_ arguments: [String], _ output: Output) -> Int32 {
        let files: [String]
        switch fileArguments(arguments, "show", "usage: adv-check rules show FILE...\n\nprints each file's live rules grouped by hostname, its deletion markers and findings.\n", output) {
        case .exit(let status): return status
        case .files(let value): files = value
        }
        switch load(files) {
        case .failure(let error):
            output.err("adv-check rules: \(error)\n")
            return 2
        case .success(let loaded):
            output.out(loaded.map { RulesReport.show(path: $0.path, bytes: $0.data.count, document: $0.document) }
                .joined(separator: "\n"))
            return 0
        }
    }

    static func validate(_ arguments: [String], _ output: Output) -> Int32 {
        let files: [String]
        switch fileArguments(arguments, "validate", "usage: adv-check rules validate FILE...\n\nchecks each file and prints one line per file; exits 2 if any file is invalid.\n", output) {
        case .exit(let status): return status
        case .files(let value): files = value
        }
        var status: Int32 = 0
        for path in files {
            switch load([path]) {
            case .failure(let error):
                output.err("adv-check rules: \(error)\n")
                status = 2
            case .success(let loaded):
                guard let file = loaded.first else { continue }
                output.out(RulesReport.summary(path: path, bytes: file.data.count, collection: file.document.collection) + "\n")
                for finding in RulesReport.findings(file.document.collection, bytes: file.data.count) {
                    output.out("  warning: \(finding)\n")
                }
            }
        }
        return status
    }

    static func merge(_ arguments: [String], _ output: Output) -> Int32 {
        let help = "usage: adv-check rules merge FILE... [--output OUT]\n\nmerges the files by stable id, latest modifiedAt winning and deletion winning ties;\nprints the merged document, or writes it atomically to OUT.\n"
        let parsed: (files: [String], options: [String: String])
        switch parse(arguments, subcommand: "merge", options: ["--output"]) {
        case .failure(.help): output.out(help); return 0
        case .failure(.message(let message)): output.err("adv-check rules: \(message)\n"); return 2
        case .success(let value): parsed = value
        }
        guard !parsed.files.isEmpty else {
            output.err("adv-check rules: merge needs at least one FILE (adv-check rules merge --help)\n")
            return 2
        }
        let loaded: [(path: String, data: Data, document: RuleDocument)]
        switch load(parsed.files) {
        case .failure(let error): output.err("adv-check rules: \(error)\n"); return 2
        case .success(let value): loaded = value
        }
        let merged = loaded.reduce(RuleCollection()) { $0.merged(with: $1.document.collection) }
        let data: Data
        do {
            data = try RuleCodec.encodeChecked(RuleDocument(collection: merged))
        } catch {
            output.err("adv-check rules: \(error.located(in: parsed.options["--output"] ?? "merged collection"))\n")
            return 2
        }
        guard let target = parsed.options["--output"] else {
            output.out(String(decoding: data, as: UTF8.self))
            return 0
        }
        do {
            // No lock here, so leave other writers' temp files alone.
            try AtomicWriter(destination: URL(fileURLWithPath: target), sweepsStaleTempFiles: false, stepHook: { _ in })
                .replaceContents(with: data)
        } catch {
            output.err("adv-check rules: \(error)\n")
            return 1
        }
        output.out(RulesReport.summary(path: target, bytes: data.count, collection: merged) + "\n")
        return 0
    }

    static func bench(_ arguments: [String], _ output: Output) -> Int32 {
        let help = "usage: adv-check rules bench [--runs N]\n\ntimes a merge of two 5,000-record collections and a full encode/decode round trip;\nprints the median of N runs (default 25). build with -c release for meaningful figures.\n"
        let options: [String: String]
        switch parse(arguments, subcommand: "bench", options: ["--runs"]) {
        case .failure(.help): output.out(help); return 0
        case .failure(.message(let message)): output.err("adv-check rules: \(message)\n"); return 2
        case .success(let value):
            guard value.files.isEmpty else {
                output.err("adv-check rules: bench takes no files, found '\(value.files[0])'\n")
                return 2
            }
            options = value.options
        }
        var runs = 25
        if let text = options["--runs"] {
            guard let value = Int(text), (1...10_000).contains(value) else {
                output.err("adv-check rules: --runs '\(text)' must be a whole number from 1 to 10000\n")
                return 2
            }
            runs = value
        }
        for figure in RuleStoreBenchmark.run(runs: runs) { output.out(figure.description + "\n") }
        return 0
    }

    /// Either the FILE arguments, or the status to exit with after help or a usage error.
    private enum FileArguments {
        case files([String])
        case exit(Int32)
    }

    private static func fileArguments(_ arguments: [String], _ name: String, _ help: String, _ output: Output) -> FileArguments {
        switch parse(arguments, subcommand: name, options: []) {
        case .failure(.help):
            output.out(help)
            return .exit(0)
        case .failure(.message(let message)):
            output.err("adv-check rules: \(message)\n")
            return .exit(2)
        case .success(let value) where value.files.isEmpty:
            output.err("adv-check rules: \(name) needs at least one FILE (adv-check rules \(name) --help)\n")
            return .exit(2)
        case .success(let value):
            return .files(value.files)
        }
    }
}
