/// A Content Blocker `load-type` value: relative to the main document.
public enum ContentBlockerLoadType: String, Codable, Sendable, Hashable {
    case firstParty = "first-party"
    case thirdParty = "third-party"
}
