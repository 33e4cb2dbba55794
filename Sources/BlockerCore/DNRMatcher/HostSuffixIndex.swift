/// Maps hostnames to rule numbers and answers "which entries are the host or one
/// of its parent domains" without allocating: the host's label suffixes are hashed
/// right to left in one pass, so `a.b.example.com` costs one pass and four probes.
struct HostSuffixIndex: Sendable {
    private var keys: [[UInt8]] = []
    private var values: [[Int32]] = []
    private var hashes: [UInt64] = []
    private var slots: [Int32] = []
    private var mask = 0

    init(_ entries: [String: [Int32]]) {
        let capacity = max(16, (entries.count * 2).nextPowerOfTwo)
        slots = Array(repeating: -1, count: capacity)
        mask = capacity - 1
        for (key, rules) in entries.sorted(by: { $0.key < $1.key }) {
            let bytes = Array(key.utf8)
            let hash = Self.hash(bytes[...])
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != -1 { slot = (slot + 1) & mask }
            slots[slot] = Int32(keys.count)
            keys.append(bytes)
            values.append(rules)
            hashes.append(hash)
        }
    }

    /// FNV-1a over the bytes from last to first, so suffixes extend the hash.
    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes.reversed() { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return h
    }

    /// Calls `body` with the rule numbers of every entry equal to `host` or a parent domain of it.
    @inline(__always)
    func forEachMatch(_ url: UnsafeBufferPointer<UInt8>, host: Range<Int>, _ body: (Int32) -> Void) {
        if keys.isEmpty { return }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var i = host.upperBound
        while i > host.lowerBound {
            i -= 1
            h = (h ^ UInt64(url[i])) &* 0x100_0000_01b3
            if i == host.lowerBound || url[i - 1] == UInt8(ascii: ".") {
                probe(h, url, i..<host.upperBound, body)
            }
        }
    }

    @inline(__always)
    private func probe(_ hash: UInt64, _ url: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Int32) -> Void) {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { return }
            if hashes[entry] == hash, keys[entry].count == range.count,
                keys[entry].withUnsafeBufferPointer({ key in
                    var k = 0
                    for index in range {
                        if key[k] != url[index] { return false }
                        k += 1
                    }
                    return true
                }) {
                for rule in values[entry] { body(rule) }
                return
            }
            slot = (slot + 1) & mask
        }
    }
}
