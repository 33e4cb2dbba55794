/// Finds where a value sits in a document's text, for errors found after parsing (a
/// semantic check at `steps[3].at`) that should still name a line and column.
///
/// It re-scans the document, so call it when reporting an error, not for every value.
public enum JSONLocator {
    /// The location of the value at `path` in `bytes`.
    ///
    /// Where the path leaves the document (a missing key, an index past the end, a scalar
    /// where a container was expected), the innermost value on the path that exists: the
    /// enclosing object of a missing key. Nil when the document is malformed before that.
    public static func locate(_ path: JSONPath, in bytes: [UInt8]) -> JSONLocation? {
        // The default nesting limit: a document deeper than that was never read either.
        var scanner = JSONScanner(bytes)
        var found: Int?
        do {
            try scanner.beginDocument()
            try find(path.components[...], in: &scanner, found: &found)
        } catch {
            // A problem after the value was found does not make its location wrong.
        }
        return found.map { JSONLocation(offset: $0, in: bytes) }
    }

    /// The location of the value at the rendered `path` (`rules[3].id`); nil when the path
    /// is not one `JSONPath` renders or the document is malformed before the value.
    public static func locate(_ path: String, in bytes: [UInt8]) -> JSONLocation? {
        JSONPath(rendered: path).flatMap { locate($0, in: bytes) }
    }

    /// Moves past the value at the scanner's position, setting `found` to the offset of the
    /// value at `remaining` below it, or of the innermost value on the way that exists.
    private static func find(
        _ remaining: ArraySlice<JSONPath.Component>, in scanner: inout JSONScanner, found: inout Int?
    ) throws(JSONInputError) {
        scanner.skipWhitespace()
        let start = scanner.index
        switch (remaining.first, scanner.peekKind()) {
        case (.key(let wanted)?, .object):
            try scanner.readObject(at: .root) { (scanner: inout JSONScanner, key: String) throws(JSONInputError) in
                if key == wanted {
                    try find(remaining.dropFirst(), in: &scanner, found: &found)
                } else {
                    try scanner.skipValue()
                }
            }
        case (.index(let wanted)?, .array):
            try scanner.readArray(at: .root) { (scanner: inout JSONScanner, position: Int) throws(JSONInputError) in
                if position == wanted {
                    try find(remaining.dropFirst(), in: &scanner, found: &found)
                } else {
                    try scanner.skipValue()
                }
            }
        default:
            // The value itself, or a value that cannot hold the rest of the path.
            found = found ?? start
            try scanner.skipValue()
        }
        // The container did not have the wanted member: point at the container.
        found = found ?? start
    }
}
