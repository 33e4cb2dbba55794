/// A WebKit Content Blocker rule: a trigger and an action
/// (Apple, "Creating a content blocker"; WebCore/contentextensions/ContentExtensionParser.cpp).
public struct ContentBlockerRule: Codable, Sendable, Hashable {
    /// When the rule applies.
    public var trigger: ContentBlockerTrigger
    /// What it does.
    public var action: ContentBlockerAction

    /// Creates a rule.
    public init(trigger: ContentBlockerTrigger, action: ContentBlockerAction) {
        self.trigger = trigger
        self.action = action
    }
}
