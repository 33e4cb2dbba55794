// Temporary stand-in for `adv-check rules` on the rulestore branch, until the merge
// wires Sources/adv-check/RulesSubcommand.swift into adv-check's own main.swift.
import Foundation

exit(RulesSubcommand.run(Array(CommandLine.arguments.dropFirst())))
