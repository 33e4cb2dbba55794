import RuleStore

/// `adv-check rules ...`: forwards the arguments after `rules` to the RuleStore library.
enum RulesSubcommand {
    /// Runs `adv-check rules` with `arguments` (those after the word `rules`) and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        RulesCommand.run(arguments: arguments)
    }
}
