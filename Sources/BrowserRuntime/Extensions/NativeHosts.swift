import Foundation
import WebRuntime

/// Native messaging hosts a scenario can route `runtime.sendNativeMessage` to, by kind.
///
/// The runtime knows no particular extension; a product registers its real native handler
/// under a kind name (ADV registers its rule store, see Sources/ADVHarnessSupport), and a
/// scenario names that kind for an application id instead of scripting the answers.
public enum NativeHosts {
    /// Makes a handler: the options the scenario gave (file paths already resolved), a folder
    /// for the host's files, and the virtual clock in epoch milliseconds. The handler takes and
    /// answers one JSON message.
    public typealias Factory = @Sendable (_ options: [String: String], _ workFolder: URL, _ clock: @escaping @Sendable () -> Int64) throws
        -> (String) -> Result<String, NativeMessageError>

    private static let lock = NSLock()
    nonisolated(unsafe) private static var factories: [String: Factory] = [:]

    /// Registers (or replaces) the factory for `kind`.
    public static func register(_ kind: String, _ factory: @escaping Factory) {
        lock.lock()
        defer { lock.unlock() }
        factories[kind] = factory
    }

    /// The registered kinds, sorted.
    public static var kinds: [String] {
        lock.lock()
        defer { lock.unlock() }
        return factories.keys.sorted()
    }

    package static func factory(_ kind: String) -> Factory? {
        lock.lock()
        defer { lock.unlock() }
        return factories[kind]
    }
}
