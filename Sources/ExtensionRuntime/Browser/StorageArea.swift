/// One `browser.storage` area (`local` or `session`) of an extension.
///
/// Values are kept as canonical JSON text, so every read returns a fresh copy (as structured
/// cloning does) and values JSON cannot hold are dropped on write, as Chromium's storage does
/// (extensions/browser/api/storage/storage_api.cc serializes through base::Value).
final class StorageArea {
    /// `local` or `session`.
    let name: String
    /// QUOTA_BYTES: 10,485,760 for both areas (Chromium's extensions/common/api/storage.json;
    /// storage.session was raised to 10 MB in Chrome 112). Bytes in use are the UTF-8 length of
    /// each key plus its JSON value.
    var quotaBytes = 10_485_760
    private(set) var items: [String: String] = [:] {
        didSet { cachedJSON = nil }
    }
    /// The whole area as canonical JSON, kept until the next write (get() of everything is the
    /// common read).
    private var cachedJSON: String?

    init(name: String) { self.name = name }

    /// A change of one key: old and new JSON (nil when absent).
    struct Change { let key: String; let old: String?; let new: String? }

    func bytes(for keys: [String]? = nil) -> Int {
        (keys ?? Array(items.keys)).reduce(0) { total, key in
            guard let value = items[key] else { return total }
            return total + key.utf8.count + value.utf8.count
        }
    }

    /// `get`: keys as JSON (null/undefined = everything; a string; an array; an object of defaults).
    func get(_ keysJSON: String?) -> Result<String, StorageError> {
        guard let keysJSON, JSONText.kind(keysJSON) != .null else { return .success(json) }
        switch JSONText.kind(keysJSON) {
        case .string:
            let key = JSONText.decodeString(keysJSON)
            return .success(JSONText.object(items[key].map { [(key, $0)] } ?? []))
        case .array:
            var pairs: [(String, String)] = []
            for element in JSONText.elements(keysJSON) {
                guard JSONText.kind(element) == .string else { return .failure(.invalidKeys) }
                let key = JSONText.decodeString(element)
                if let value = items[key] { pairs.append((key, value)) }
            }
            return .success(JSONText.object(pairs))
        case .object:
            let pairs = JSONText.entries(keysJSON).map { ($0.key, items[$0.key] ?? $0.value) }
            return .success(JSONText.object(pairs))
        default:
            return .failure(.invalidKeys)
        }
    }

    /// `set`: all items are written or none (the quota is checked on the result first).
    func set(_ itemsJSON: String) -> Result<[Change], StorageError> {
        guard JSONText.kind(itemsJSON) == .object else { return .failure(.invalidItems) }
        let entries = JSONText.entries(itemsJSON)
        var next = items
        for entry in entries { next[entry.key] = entry.value }
        let used = next.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        guard used <= quotaBytes else { return .failure(.quotaExceeded) }
        let changes = entries.compactMap { entry -> Change? in
            let old = items[entry.key]
            return old == entry.value ? nil : Change(key: entry.key, old: old, new: entry.value)
        }
        items = next
        return .success(changes)
    }

    /// `remove`: a key or an array of keys.
    func remove(_ keysJSON: String?) -> Result<[Change], StorageError> {
        guard let keysJSON else { return .failure(.invalidKeys) }
        let keys: [String]
        switch JSONText.kind(keysJSON) {
        case .string: keys = [JSONText.decodeString(keysJSON)]
        case .array: keys = JSONText.elements(keysJSON).map(JSONText.decodeString)
        default: return .failure(.invalidKeys)
        }
        var changes: [Change] = []
        for key in keys {
            if let old = items.removeValue(forKey: key) { changes.append(Change(key: key, old: old, new: nil)) }
        }
        return .success(changes)
    }

    /// `clear`.
    func clear() -> [Change] {
        let changes = items.keys.sorted().map { Change(key: $0, old: items[$0], new: nil) }
        items = [:]
        return changes
    }

    /// Replaces everything (scenario setup, restore after a restart).
    func replaceAll(_ itemsJSON: String) {
        items = Dictionary(JSONText.entries(itemsJSON).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// The whole area as canonical JSON.
    var json: String {
        if let cachedJSON { return cachedJSON }
        let made = JSONText.object(items.map { ($0.key, $0.value) })
        cachedJSON = made
        return made
    }

    /// The `changes` object storage.onChanged delivers.
    static func changesJSON(_ changes: [Change]) -> String {
        JSONText.object(changes.map { change in
            var fields: [(String, String)] = []
            if let new = change.new { fields.append(("newValue", new)) }
            if let old = change.old { fields.append(("oldValue", old)) }
            return (change.key, JSONText.object(fields))
        })
    }
}

/// Storage failures, with Chromium's messages.
enum StorageError: Error, CustomStringConvertible {
    case invalidKeys, invalidItems, quotaExceeded
    var description: String {
        switch self {
        case .invalidKeys: return "Error in invocation of storage.get(optional [string|array|object] keys): No matching signature."
        case .invalidItems: return "Error in invocation of storage.set(object items): No matching signature."
        // Chromium: extensions/browser/api/storage/storage_api.cc, "QUOTA_BYTES quota exceeded".
        case .quotaExceeded: return "QUOTA_BYTES quota exceeded"
        }
    }
}
