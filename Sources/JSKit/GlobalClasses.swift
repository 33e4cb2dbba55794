import CJavaScriptCore
import Foundation

/// JSClasses for global objects, one per class name, made once per process and never released
/// (a handful of names at most: they describe shapes, not per-object data).
final class GlobalClasses: @unchecked Sendable {
    static let shared = GlobalClasses()
    private let lock = NSLock()
    private var classes: [String: JSClassRef] = [:]
    private var names: [UnsafeMutablePointer<CChar>] = []

    func named(_ name: String) -> JSClassRef? {
        lock.lock()
        defer { lock.unlock() }
        if let existing = classes[name] { return existing }
        let cName = strdup(name)
        guard let cName else { return nil }
        names.append(cName)
        var definition = kJSClassDefinitionEmpty
        definition.className = UnsafePointer(cName)
        guard let made = JSClassCreate(&definition) else { return nil }
        classes[name] = made
        return made
    }
}
