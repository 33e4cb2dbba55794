import Foundation
import WebRuntime
/// One `browser.storage` area (`local`, `sync` or `session`) of an extension.
///
/// Values are kept as JSON text (keys in their own order; the area's keys sorted), so every
/// read returns a fresh copy (as structured cloning does) and values JSON cannot hold are dropped on write, as Chromium's storage does
/// (extensions/browser/api/storage/storage_api.cc serializes through base::Value).
final class StorageArea {
    /// `local`, `sync` or `session`.
    let name: String
    /// QUOTA_BYTES. Bytes in use are the UTF-8 length of each key plus its JSON value in both
    /// browsers (Chromium's settings_storage_quota_enforcer.cc; WebKit's storageSizeOf).
    var quotaBytes = 10_485_760
    /// storage.sync's QUOTA_BYTES_PER_ITEM and MAX_ITEMS (nil for the other areas).
    var quotaBytesPerItem: Int?
    var maxItems: Int?
    /// Whether content scripts may use the area (storage.session's access level).
    var openToContentScripts = true
    /// Key -> value JSON. Every change to it either patches ``cachedJSON`` or drops it.
    private(set) var items: [String: String] = [:]
    /// The keys in canonical (sorted) order, kept as keys come and go so that reading everything
    /// never sorts.
    private var order: [String] = []
    /// Bytes in use, kept as items change.
    private var usedBytes = 0
    /// The whole area as canonical JSON, kept until the next write (get() of everything is the
    /// common read). A write that only changes values of existing keys patches it in place.
    private var cachedJSON: String?
    /// Where each value lies in ``cachedJSON`` (UTF-8 offsets), in ``order``.
    private var cachedValueRanges: [Range<Int>] = []

    init(name: String) { self.name = name }

    /// The area's limits in `profile`, from each browser's constants (Chromium's
    /// extensions/common/api/storage.json; WebKit's Shared/Extensions/WebExtensionConstants.h):
    /// local 10 MB in Chrome and 5 MB in Safari, session 10 MB, sync 100 KB with 8 KB an item
    /// and 512 items in both. storage.session starts closed to content scripts
    /// (TRUSTED_CONTEXTS in both).
    convenience init(name: String, profile: Browser.Profile) {
        self.init(name: name)
        switch name {
        case "local": quotaBytes = profile == .chromium ? 10_485_760 : 5_242_880
        case "sync":
            quotaBytes = 102_400
            quotaBytesPerItem = 8_192
            maxItems = 512
        default:
            quotaBytes = 10_485_760
            openToContentScripts = false
        }
    }

    /// The keys, sorted (getKeys).
    var keys: [String] { order }

    /// A change of one key: old and new JSON (nil when absent).
    struct Change { let key: String; let old: String?; let new: String? }

    func bytes(for keys: [String]? = nil) -> Int {
        guard let keys else { return usedBytes }
        return keys.reduce(0) { total, key in
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
        // The text comes from JSON.stringify of one object, so no key repeats; one look-up per
        // key decides both the new size and whether the value changed. Values are compared as
        // bytes in place: only a changed value is copied out of the text.
        var used = usedBytes
        var changes: [Change] = []
        var text = itemsJSON
        text.withUTF8 { bytes in
            let ranges = JSONText.memberRanges(bytes)
            for pair in stride(from: 0, to: ranges.count - 1, by: 2) {
                let key = JSONText.decodeString(String(decoding: bytes[ranges[pair]], as: UTF8.self))
                let valueBytes = UnsafeBufferPointer(rebasing: bytes[ranges[pair + 1]])
                let old = items[key]
                if var stored = old {
                    let same = stored.withUTF8 { $0.count == valueBytes.count && ($0.count == 0 || memcmp($0.baseAddress!, valueBytes.baseAddress!, valueBytes.count) == 0) }
                    if same { continue }
                }
                let value = String(decoding: valueBytes, as: UTF8.self)
                let keyBytes = key.utf8.count
                used += keyBytes + valueBytes.count - (old.map { keyBytes + $0.utf8.count } ?? 0)
                changes.append(Change(key: key, old: old, new: value))
            }
        }
        if let perItem = quotaBytesPerItem, let big = changes.first(where: { $0.key.utf8.count + ($0.new?.utf8.count ?? 0) > perItem }) {
            return .failure(.itemTooLarge(big.key))
        }
        guard used <= quotaBytes else { return .failure(.quotaExceeded) }
        if let maxItems, items.count + changes.filter({ $0.old == nil }).count > maxItems { return .failure(.tooManyItems) }
        guard !changes.isEmpty else { return .success(changes) }
        for change in changes {
            if change.old == nil { order.insert(change.key, at: insertionIndex(change.key)) }
            items[change.key] = change.new
        }
        usedBytes = used
        // Only values of keys already there: the cached text keeps its shape and is patched.
        if changes.allSatisfy({ $0.old != nil }) { patchCache(changes) } else { cachedJSON = nil }
        return .success(changes)
    }

    /// Replaces the changed values inside ``cachedJSON`` (same keys, so same order).
    private func patchCache(_ changes: [Change]) {
        guard var old = cachedJSON else { return }
        let replaced = changes.compactMap { change -> (index: Int, value: String)? in
            let index = insertionIndex(change.key)
            guard index < order.count, order[index] == change.key, let value = change.new else { return nil }
            return (index, value)
        }.sorted { $0.index < $1.index }
        guard replaced.count == changes.count else { cachedJSON = nil; return }
        var ranges = cachedValueRanges
        let patched: [UInt8] = old.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 64)
            var cursor = 0
            var shift = 0
            var next = 0
            for index in ranges.indices {
                let range = ranges[index]
                if next < replaced.count, replaced[next].index == index {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[cursor..<range.lowerBound]))
                    let start = out.count
                    out.append(contentsOf: replaced[next].value.utf8)
                    ranges[index] = start..<out.count
                    shift += (out.count - start) - range.count
                    cursor = range.upperBound
                    next += 1
                } else if shift != 0 {
                    ranges[index] = (range.lowerBound + shift)..<(range.upperBound + shift)
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[cursor..<bytes.count]))
            return out
        }
        cachedJSON = String(decoding: patched, as: UTF8.self)
        cachedValueRanges = ranges
    }

    /// Where `key` goes in ``order`` (binary search; the same `<` as JSONText.object's sort).
    private func insertionIndex(_ key: String) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let mid = (low + high) / 2
            if order[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
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
            guard let old = items.removeValue(forKey: key) else { continue }
            changes.append(Change(key: key, old: old, new: nil))
            usedBytes -= key.utf8.count + old.utf8.count
            let index = insertionIndex(key)
            if index < order.count, order[index] == key { order.remove(at: index) }
        }
        if !changes.isEmpty { cachedJSON = nil }
        return .success(changes)
    }

    /// `clear`.
    func clear() -> [Change] {
        let changes = order.map { Change(key: $0, old: items[$0], new: nil) }
        items = [:]
        order = []
        usedBytes = 0
        cachedJSON = nil
        return changes
    }

    /// Replaces everything (scenario setup, restore after a restart).
    func replaceAll(_ itemsJSON: String) {
        items = JSONText.fields(itemsJSON)
        order = items.keys.sorted()
        usedBytes = items.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        cachedJSON = nil
    }

    /// The whole area as canonical JSON.
    var json: String {
        if let cachedJSON { return cachedJSON }
        var made = "{"
        made.reserveCapacity(usedBytes + 4 * order.count + 2)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(order.count)
        for (index, key) in order.enumerated() {
            if index > 0 { made += "," }
            made += JSONText.string(key)
            made += ":"
            let start = made.utf8.count
            made += items[key] ?? "null"
            ranges.append(start..<made.utf8.count)
        }
        made += "}"
        cachedJSON = made
        cachedValueRanges = ranges
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

/// Storage failures. `description` is Chromium's message; ``message(area:profile:)`` the
/// profile's.
enum StorageError: Error, CustomStringConvertible {
    case invalidKeys, invalidItems, quotaExceeded, itemTooLarge(String), tooManyItems
    var description: String {
        switch self {
        case .invalidKeys: return "Error in invocation of storage.get(optional [string|array|object] keys): No matching signature."
        case .invalidItems: return "Error in invocation of storage.set(object items): No matching signature."
        // Chromium: extensions/browser/api/storage/settings_storage_quota_enforcer.cc.
        case .quotaExceeded: return "QUOTA_BYTES quota exceeded"
        case .itemTooLarge: return "QUOTA_BYTES_PER_ITEM quota exceeded"
        case .tooManyItems: return "MAX_ITEMS quota exceeded"
        }
    }

    /// What `area`'s set rejects with in `profile`: Chrome's enforcer messages (session storage
    /// has its own, session_storage_manager.cc); Safari's UI-process errors
    /// (WebExtensionContextAPIStorageCocoa.mm, "Invalid call to browser.storage.sync.set().
    /// Exceeded storage quota."). Safari refuses an oversized sync item in the caller instead
    /// (browser-api.js); this is its message should one reach here.
    func message(area: String, profile: Browser.Profile) -> String {
        if profile == .chromium {
            if case .quotaExceeded = self, area == "session" { return "Session storage quota bytes exceeded. Values were not stored." }
            return description
        }
        let api = "Invalid call to browser.storage.\(area).set(). "
        switch self {
        case .quotaExceeded: return api + "Exceeded storage quota."
        case .tooManyItems: return api + "Exceeded maximum number of items."
        case let .itemTooLarge(key): return "Invalid call to storageArea.set(). The 'items[`\(key)`]' value is invalid, because it exceeded maximum size for a single item."
        default: return description
        }
    }
}
