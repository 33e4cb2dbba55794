/// Moves browser-local rules, deletion markers included, into the shared file exactly once.
///
/// Exactly-once comes from a marker written in the same atomic replace as the merged
/// rules: either both land or neither does. Every step before the replace can be
/// repeated without effect, and a run that finds the marker only finishes the local
/// bookkeeping. Merging is by id and latest modification (`RuleCollection.merged`),
/// so rules already in the shared file are never downgraded.
public enum RuleMigration {
    /// The marker recorded for the extension's browser-local storage.
    public static let browserLocalSource = "browser-local"

    /// What a run did.
    public enum Outcome: Equatable, Sendable {
        /// The rules were merged in now; `changed` records were new or newer than the shared file's.
        case migrated(changed: Int)
        /// An earlier run already merged them (possibly interrupted before the local flag was set).
        case alreadyMigrated
    }

    /// Runs or completes the migration from `local` into `shared`.
    /// - Parameter hook: called after each `MigrationStep`; tests throw from it to simulate a crash.
    /// - Throws: `RuleStoreError` from the shared file, or what `local` or `hook` throw;
    ///   a later run picks up where this one stopped.
    public static func run(
        from local: BrowserLocalRuleSource, into shared: SharedRuleFile, source: String = browserLocalSource,
        hook: @escaping @Sendable (MigrationStep) throws -> Void = { _ in }
    ) throws -> Outcome {
        if try local.isMigrated() { return .alreadyMigrated }
        try hook(.checkedLocalFlag)
        let rules = try local.loadRules()
        try hook(.loadedLocalRules)
        let outcome = try merge(rules, source: source, into: shared, hook: hook)
        try hook(.sharedCommitted)
        try local.markMigrated()
        try hook(.markedLocal)
        return outcome
    }

    /// The shared-file half on its own: what the native handler does for the extension's `migrate` message.
    /// - Throws: `RuleStoreError` from the shared file, or what `hook` throws.
    public static func merge(
        _ rules: RuleCollection, source: String = browserLocalSource, into shared: SharedRuleFile,
        hook: @escaping @Sendable (MigrationStep) throws -> Void = { _ in }
    ) throws -> Outcome {
        let file = SharedRuleFile(url: shared.url) { step in
            try shared.stepHook(step)
            try hook(.sharedFile(step))
        }
        return try file.update { document -> Outcome in
            if document.migrations.contains(source) { return .alreadyMigrated }
            let before = document.collection
            document.collection = before.merged(with: rules)
            document.migrations = (document.migrations + [source]).sorted()
            let changed = document.collection.recordsByID.filter { before[$0.key] != $0.value }.count
            return .migrated(changed: changed)
        }
    }
}
