import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.0 file server for the fixture pages, on the loopback interface only: a person
/// opens the pages the scenarios use in a real Safari with the packaged extension and compares
/// what it does with the harness (`adv-harness serve`).
///
/// It answers GET and HEAD for a fixed table of paths (built once, before it listens); a request
/// never reaches the file system by its own path, so nothing outside the table can be read.
/// One connection at a time, closed after each answer.
public final class FixtureServer: @unchecked Sendable {
    /// A path the server answers, and the file behind it.
    public struct Route: Sendable, Equatable {
        public let path: String
        public let file: URL
        public init(path: String, file: URL) {
            self.path = path
            self.file = file
        }
    }

    /// The server could not listen.
    public struct ListenError: Error, CustomStringConvertible {
        public let port: Int
        public let reason: String
        public var description: String { "cannot listen on 127.0.0.1:\(port): \(reason)" }
    }

    public let routes: [String: URL]
    private let index: String
    private var listener: Int32 = -1
    private let lock = NSLock()
    private var thread: Thread?

    /// A server for `routes`; `/` answers with an index of them (unless a route takes it).
    public init(routes: [Route]) {
        var table: [String: URL] = [:]
        for route in routes { table[route.path] = route.file }
        self.routes = table
        let links = table.keys.sorted().map { "<li><a href=\"\($0)\">\(Self.escape($0))</a></li>" }.joined(separator: "\n")
        index = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>ADV fixture pages</title></head>"
            + "<body><h1>ADV fixture pages</h1><ul>\n\(links)\n</ul></body></html>\n"
    }

    /// Listens on 127.0.0.1:`port` (0: a free port the system picks) and serves on a thread of
    /// its own. Returns the port.
    /// - Throws: ``ListenError`` when the port is taken or not allowed.
    @discardableResult
    public func start(port: Int) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ListenError(port: port, reason: String(cString: strerror(errno))) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian  // 127.0.0.1, never another interface
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ListenError(port: port, reason: reason)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        lock.withLock { listener = fd }
        let thread = Thread { [self] in serve(fd) }
        thread.start()
        lock.withLock { self.thread = thread }
        return Int(UInt16(bigEndian: actual.sin_port))
    }

    /// Stops listening; a connection being answered is finished first.
    public func stop() {
        let fd = lock.withLock { () -> Int32 in
            let fd = listener
            listener = -1
            return fd
        }
        guard fd >= 0 else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private func serve(_ fd: Int32) {
        while true {
            let connection = accept(fd, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return  // stopped
            }
            answer(connection)
            close(connection)
        }
    }

    /// Reads the request head (at most 16 KB, 5 s) and writes the answer.
    private func answer(_ connection: Int32) {
        // A client that sends nothing must not hold the only connection slot for ever.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16_384 {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { break }
            head += buffer[0..<count]
            if Self.containsBlankLine(head) { break }
        }
        let text = String(decoding: head, as: UTF8.self)
        let requestLine = text.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/") else { return send(connection, 400, "text/plain", Data("bad request\n".utf8), body: true) }
        let method = String(parts[0])
        guard method == "GET" || method == "HEAD" else { return send(connection, 405, "text/plain", Data("only GET and HEAD\n".utf8), body: true) }
        // The path without its query: the scenarios' page maps ignore it too (watch?v=…).
        let path = String(parts[1].prefix { $0 != "?" && $0 != "#" })
        if let file = routes[path], let data = try? Data(contentsOf: file) {
            return send(connection, 200, Self.contentType(of: file), data, body: method == "GET")
        }
        if path == "/" { return send(connection, 200, "text/html; charset=utf-8", Data(index.utf8), body: method == "GET") }
        send(connection, 404, "text/plain", Data("no fixture at \(path)\n".utf8), body: method == "GET")
    }

    private func send(_ connection: Int32, _ status: Int, _ type: String, _ data: Data, body: Bool) {
        let reason = [200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"][status] ?? "Error"
        var bytes = Data("HTTP/1.0 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(data.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n".utf8)
        if body { bytes += data }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(connection, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// True once `bytes` hold the CRLF CRLF that ends a request head.
    static func containsBlankLine(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return true
        }
        return false
    }

    static func contentType(of file: URL) -> String {
        switch file.pathExtension.lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        default: return "text/plain; charset=utf-8"
        }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
