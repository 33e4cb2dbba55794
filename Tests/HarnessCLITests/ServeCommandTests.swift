import CommandLineKit
import Foundation
import HarnessCLI
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `adv-harness serve` (issue 24, point 8): the fixture pages over HTTP on 127.0.0.1, for a person
/// to open in Safari with the packaged extension.
@Suite struct ServeCommandTests {
    /// One HTTP/1.0 request to 127.0.0.1:`port`; the status code and the body.
    static func fetch(_ port: Int, _ request: String) throws -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "cannot connect to 127.0.0.1:\(port)")
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        let text = String(decoding: answer, as: UTF8.self)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    @Test func servesTheFixturePagesOnAFreePortUntilInterrupted() throws {
        let executable = try #require(HelperExecutable.locate("adv-harness"), "the adv-harness executable is built with the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--port", "0"]
        process.currentDirectoryURL = Support.packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The first line names the port: "serving N fixture files on http://127.0.0.1:PORT/ (Ctrl-C stops)".
        var line = Data()
        while !line.contains(10) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let first = String(decoding: line, as: UTF8.self)
        let port = try #require(first.range(of: "127.0.0.1:").flatMap { Int(first[$0.upperBound...].prefix { $0.isNumber }) }, "\(first)")

        let index = try Self.fetch(port, "GET / HTTP/1.0\r\n\r\n")
        #expect(index.status == 200)
        #expect(index.body.contains(#"<a href="/www.youtube.com/watch">"#), "\(index.body)")
        let watch = try Self.fetch(port, "GET /www.youtube.com/watch?v=b1&ads=pre:15:5 HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(watch.status == 200)
        #expect(watch.body == (try String(contentsOf: Support.packageRoot.appendingPathComponent("fixtures/sites/youtube/watch.html"), encoding: .utf8)))
        #expect(try Self.fetch(port, "GET /s/player/base.js HTTP/1.0\r\n\r\n").status == 200)
        // Only the table's paths: no way out of the fixtures, and nothing but GET and HEAD.
        #expect(try Self.fetch(port, "GET /../../etc/passwd HTTP/1.0\r\n\r\n").status == 404)
        #expect(try Self.fetch(port, "GET /sites/../../Package.swift HTTP/1.0\r\n\r\n").status == 404)
        #expect(try Self.fetch(port, "POST / HTTP/1.0\r\n\r\n").status == 405)
        #expect(try Self.fetch(port, "nonsense\r\n\r\n").status == 400)

        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
    }

    @Test func aBadPortIsBadInput() {
        let (output, out, err) = CommandOutput.buffer()
        for bad in ["65536", "-1", "http"] {
            #expect(HarnessCommand.run(["serve", "--port", bad], output: output) == 2)
        }
        #expect(out().isEmpty)
        #expect(err().contains("--port must be a whole number from 0 to 65535, got 'http'"))
    }

    @Test func aTakenPortIsNamed() throws {
        let first = FixtureServer(routes: [])
        let port = try first.start(port: 0)
        defer { first.stop() }
        #expect(throws: FixtureServer.ListenError.self) { try FixtureServer(routes: []).start(port: port) }
    }
}
