/// A Content Blocker `load-context` value: which frame the load happens in.
public enum ContentBlockerLoadContext: String, Codable, Sendable, Hashable {
    case topFrame = "top-frame"
    case childFrame = "child-frame"
}
