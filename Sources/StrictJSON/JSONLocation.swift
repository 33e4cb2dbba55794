/// A position in a document: its byte offset and the line and column a reader would look at.
public struct JSONLocation: Hashable, Sendable, CustomStringConvertible {
    /// 0-based byte offset.
    public var offset: Int
    /// 1-based line; a line ends at LF, CR LF or a lone CR.
    public var line: Int
    /// 1-based column, counted in characters of the line (not bytes), as editors show it.
    public var column: Int

    /// Creates a location from its parts.
    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The line and column of byte `offset` (clamped to the document) in `bytes`.
    ///
    /// Costs a pass over the bytes before `offset`, so readers compute it only for errors.
    public init(offset: Int, in bytes: [UInt8]) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < end {
            let byte = bytes[index]
            if byte == ASCII.newline || (byte == ASCII.carriageReturn && (index + 1 == bytes.count || bytes[index + 1] != ASCII.newline)) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        // Characters, not bytes: "é" is one column. Invalid UTF-8 before the offset
        // counts one column per replaced sequence.
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        self.init(offset: end, line: line, column: column)
    }

    /// `line 4, column 17`
    public var description: String { "line \(line), column \(column)" }

    /// `:line:column` (or `:line`, or nothing) after a file name, as compilers print positions.
    public static func suffix(line: Int?, column: Int?) -> String {
        guard let line else { return "" }
        return ":\(line)" + (column.map { ":\($0)" } ?? "")
    }
}
