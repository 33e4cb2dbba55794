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
        let outURL = URL(fileURLWithPath: FileHandleWriter.resolve(out))
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
        try? fileManager.removeItem(at: outURL)
        guard rename(staging.path, outURL.path) == 0 else {
            throw InputError(file: out, message: "cannot move the assembled package into place (errno \(errno))")
        }
        return count
    }
}
