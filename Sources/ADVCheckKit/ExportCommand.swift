import BlockerCore
import CommandLineKit

/// `adv-check export [output.json]`: the built-in rules as DNR JSON.
enum ExportCommand {
    static let spec = CommandSpec(
        tool: "adv-check", command: "export", maxPositionals: 1,
        help: """
            usage: adv-check export [output.json]

            Writes the 14 built-in DNR rules (from BlockerCore's AdvertisingDomains) as
            the JSON rule file Safari and Chromium load from the manifest's
            declarative_net_request.rule_resources. Without a file, prints to stdout.
            The file is written through a temporary file and a rename.
            """)

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp {
            output.out(spec.help)
            return 0
        }
        let data = try DNRRuleset.encodeRules(BuiltInRules.rules)
        if let path = arguments.positionals.first {
            try FileHandleWriter.writeAtomically(data, to: path)
            output.err("wrote \(BuiltInRules.rules.count) rules to \(path)")
        } else {
            output.out(String(decoding: data, as: UTF8.self), terminator: "")
        }
        return 0
    }
}
