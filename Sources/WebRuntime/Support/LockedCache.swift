import Foundation

/// A string-keyed cache that sessions on several threads (`--jobs`) may share, guarded by one
/// lock. With `capacity`, it empties itself when full rather than growing without bound (for
/// keys that come from pages, such as URLs).
package final class LockedCache<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: Value] = [:]
    private let capacity: Int?

    package init(capacity: Int? = nil) {
        self.capacity = capacity
    }

    package subscript(key: String) -> Value? {
        get { lock.withLock { entries[key] } }
        set {
            lock.withLock {
                if let capacity, entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
                entries[key] = newValue
            }
        }
    }
}
