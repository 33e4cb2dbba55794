import BlockerCore
import CommandLineKit
import Foundation
import StrictJSON

/// `adv-check package`: the extension's resources in the layout of Safari's
/// `ADV.appex/Contents/Resources`, with networkRules.json regenerated from Swift.
enum PackageCommand {
    static let spec = CommandSpec(
        tool: "adv-check", command: "package", options: ["--out", "--source"], maxPositionals: 0,
        help: """
            usage: adv-check package [--source DIR] [--out DIR]

            Copies the extension folder (default WebExtension) into DIR (default
            .build/adv-package/ADV.appex/Contents/Resources), writes networkRules.json
            from the Swift source of truth, and validates the result: every file the
            manifest names exists and every DNR rule resource parses and validates.
            The output folder is assembled beside DIR and renamed into place, so a
            failure leaves no half-written package.
            """)

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp {
            output.out(spec.help)
            return 0
        }
        let source = arguments.value("--source") ?? "WebExtension"
        let out = arguments.value("--out") ?? ".build/adv-package/ADV.appex/Contents/Resources"
        let count = try assemble(source: source, out: out)
        output.out("packaged \(count) files from \(source) into \(out)")
        return 0
    }

    /// Validates `source`, then builds the package at `out`; returns the number of files.
    /// - Throws: `InputError` naming the file, line and column, and key path of the first problem.
    static func assemble(source: String, out: String) throws -> Int {
        let fileManager = FileManager.default
        let manifestPath = source + "/manifest.json"
        let manifestBytes = [UInt8](try FileHandleWriter.read(manifestPath))
        let files: ManifestFiles
        do {
            files = try ManifestFiles(manifest: try JSONValue.parse(manifestBytes), file: manifestPath)
        } catch let error as JSONInputError {
            throw InputError(error, file: manifestPath)
        } catch let error as InputError {
            throw error.located(in: manifestBytes)
        }
        let generated = try DNRRuleset.encodeRules(BuiltInRules.rules)
        for reference in files.references {
            let isGenerated = files.ruleResources.contains { $0.id == BuiltInRules.rulesetID && $0.path == reference.path }
            if !isGenerated && !fileManager.fileExists(atPath: FileHandleWriter.resolve(source + "/" + reference.path)) {
                throw InputError(file: manifestPath, position: reference.keyPath,
                                 message: "names '\(reference.path)', which does not exist in \(source)/").located(in: manifestBytes)
            }
        }
        // Assemble beside the destination, then swap it in.
        let outURL = URL(fileURLWithPath: FileHandleWriter.resolve(out)).standardizedFileURL
        try checkDestination(outURL, shown: out, source: URL(fileURLWithPath: FileHandleWriter.resolve(source)).standardizedFileURL)
        let parent = outURL.deletingLastPathComponent()
        try? fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(".\(outURL.lastPathComponent).staging-\(ProcessInfo.processInfo.processIdentifier)")
        try? fileManager.removeItem(at: staging)
        defer { try? fileManager.removeItem(at: staging) }
        var count = 0
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
            let sourceURL = URL(fileURLWithPath: FileHandleWriter.resolve(source))
            let walker = fileManager.enumerator(atPath: sourceURL.path)
            while let relative = walker?.nextObject() as? String {
                if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                let from = sourceURL.appendingPathComponent(relative)
                let to = staging.appendingPathComponent(relative)
                var isDirectory: ObjCBool = false
                guard fileManager.fileExists(atPath: from.path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    try fileManager.createDirectory(at: to, withIntermediateDirectories: true)
                } else {
                    try fileManager.copyItem(at: from, to: to)
                    count += 1
                }
            }
            // The mark that lets a later run replace this folder, and nothing it did not make.
            try Data("made by adv-check package\n".utf8).write(to: staging.appendingPathComponent(marker))
            for resource in files.ruleResources where resource.id == BuiltInRules.rulesetID {
                let target = staging.appendingPathComponent(resource.path)
                if !fileManager.fileExists(atPath: target.path) { count += 1 }
                try? fileManager.removeItem(at: target)
                try generated.write(to: target)
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(file: out, message: "cannot assemble the package: \(error.localizedDescription.lowercased())")
        }
        // Validate the assembled rule resources as Safari would read them.
        for (index, resource) in files.ruleResources.enumerated() {
            let path = staging.appendingPathComponent(resource.path).path
            let label = "\(source)/\(resource.path)"
            let data = try FileHandleWriter.read(path)
            let rules = try DNRRuleset.decodeRules(from: data, file: label)
            if let error = DNRRuleValidator.validate(ruleset: rules, source: .staticRuleset(index: index)).first {
                throw InputError(file: label, position: error.keyPath, message: error.message).located(in: [UInt8](data))
            }
        }
        // The old package (checked to be one of ours) moves aside first, so a failure leaves it.
        let previous = parent.appendingPathComponent(".\(outURL.lastPathComponent).previous-\(ProcessInfo.processInfo.processIdentifier)")
        let hadPrevious = fileManager.fileExists(atPath: outURL.path)
        if hadPrevious, rename(outURL.path, previous.path) != 0 {
            throw InputError(file: out, message: "cannot move the previous package aside (errno \(errno))")
        }
        guard rename(staging.path, outURL.path) == 0 else {
            let code = errno
            if hadPrevious { _ = rename(previous.path, outURL.path) }
            throw InputError(file: out, message: "cannot move the assembled package into place (errno \(code))")
        }
        if hadPrevious { try? fileManager.removeItem(at: previous) }
        return count
    }

    /// The file a package folder holds to say adv-check made it (hidden: sources' dot-files are
    /// never copied, so no extension file can be mistaken for it).
    static let marker = ".adv-check-package"

    /// Refuses a destination the command would have to destroy: a file, a folder that is neither
    /// empty nor a package this command made, or a folder inside the source (or the source).
    /// - Throws: ``UsageError`` saying what is there and how to go on.
    static func checkDestination(_ out: URL, shown: String, source: URL) throws {
        let fileManager = FileManager.default
        if out.path == source.path || out.path.hasPrefix(source.path + "/") || source.path.hasPrefix(out.path + "/") {
            throw UsageError("--out '\(shown)' overlaps the source folder '\(source.path)'; choose a folder outside it")
        }
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: out.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw UsageError("--out '\(shown)' is a file; it is left as it is (choose a folder path)")
            }
            let contents = (try? fileManager.contentsOfDirectory(atPath: out.path)) ?? []
            guard contents.isEmpty || contents.contains(marker) else {
                throw UsageError("--out '\(shown)' exists and was not made by adv-check package; it is left as it is (remove it yourself or choose another folder)")
            }
        }
        try OutputPath.checkParent(of: out.path, shown: shown, option: "--out")
    }
}
