/// The pseudo-class and pseudo-element names WebKit's selector parser knows (Source/WebCore/css/
/// SelectorPseudoClassAndCompatibilityElementMap.in and SelectorPseudoElementMap.in), as far as a
/// page's filters can use them. A name outside these lists makes WebKit refuse the whole selector.
enum PseudoNames {
    /// Pseudo-classes without arguments.
    static let keywords: Set<String> = [
        "active", "any-link", "-webkit-any-link", "autofill", "-webkit-autofill", "buffering", "checked",
        "default", "defined", "disabled", "empty", "enabled", "first-child", "first-of-type", "focus",
        "focus-visible", "focus-within", "fullscreen", "-webkit-full-screen", "future", "host", "hover",
        "-webkit-drag", "in-range", "indeterminate", "invalid", "last-child", "last-of-type", "link", "modal",
        "muted", "only-child", "only-of-type", "open", "optional", "out-of-range", "past", "paused",
        "picture-in-picture", "placeholder-shown", "playing", "popover-open", "read-only", "read-write",
        "required", "root", "scope", "seeking", "stalled", "target", "user-invalid", "user-valid", "valid",
        "visited", "volume-locked", "window-inactive",
    ]

    /// Pseudo-classes that take arguments (and are refused without them).
    static let functional: Set<String> = [
        "not", "is", "where", "-webkit-any", "has", "nth-child", "nth-last-child", "nth-of-type",
        "nth-last-of-type", "lang", "dir", "state",
    ]

    /// Pseudo-elements also written with one colon (CSS 2).
    static let legacyPseudoElements: Set<String> = ["before", "after", "first-line", "first-letter"]

    /// Pseudo-elements; any `::-webkit-` name is accepted too (WebKit keeps unknown ones as such).
    static let pseudoElements: Set<String> = [
        "after", "before", "first-letter", "first-line", "marker", "selection", "placeholder", "backdrop",
        "file-selector-button", "grammar-error", "spelling-error", "target-text", "cue", "details-content",
        "view-transition",
    ]

    /// Pseudo-elements with arguments.
    static let functionalPseudoElements: Set<String> = ["highlight", "part", "slotted", "cue"]

    /// An example argument for messages.
    static func example(_ name: String) -> String {
        switch name {
        case "not", "is", "where", "-webkit-any": return ".ad"
        case "has": return "> img"
        case "lang": return "en"
        case "dir": return "ltr"
        case "state": return "checked"
        default: return "2n+1"
        }
    }
}
