/// Weak references to objects a test expects to be freed, by name.
///
/// Watch what a session made while it is alive; once the test has dropped its own references,
/// ``survivors`` names whatever something else (a reference cycle) still keeps.
public final class ReleaseProbe {
    private var watched: [(name: String, object: () -> AnyObject?)] = []

    /// Makes an empty probe.
    public init() {}

    /// Watches `object` under `name`, without keeping it alive.
    public func watch(_ object: AnyObject?, as name: String) {
        weak let reference = object
        watched.append((name, { reference }))
    }

    /// The names of the watched objects still alive, in the order they were watched.
    public var survivors: [String] { watched.filter { $0.object() != nil }.map(\.name) }

    /// How many objects are watched.
    public var count: Int { watched.count }
}
