import Foundation

/// A short content fingerprint (64-bit FNV-1a, hex) that changes when the file's bytes change.
///
/// The extension polls it to notice another process's write; it is not a security hash.
enum Revision {
    static func of(_ data: Data) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
