import Foundation

/// Finds and runs the package's helper executables from inside the test process.
package enum HelperExecutable {
    /// The built `name` executable, looked for next to the test bundle first.
    ///
    /// Order: `$ADV_<NAME>` override, the test binary's directory (SwiftPM puts
    /// products and the test bundle in one directory), then the package's `.build`
    /// debug and release directories.
    package static func locate(_ name: String) -> URL? {
        let environmentKey = "ADV_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment[environmentKey] {
            candidates.append(URL(fileURLWithPath: override))
        }
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        let build = Support.packageRoot.appendingPathComponent(".build")
        directories += ["debug", "release"].map { build.appendingPathComponent($0) }
        candidates += directories.map { $0.appendingPathComponent(name) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts `executable` with `arguments`, capturing standard error.
    package static func start(_ executable: URL, _ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        return (process, errors)
    }

    /// Runs `executable` to completion; returns its status, standard output and standard error.
    package static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Both pipes are drained while the child runs, so neither can fill up and stall it.
        nonisolated(unsafe) var errors = Data()
        let done = DispatchSemaphore(value: 0)
        Thread { errors = err.fileHandleForReading.readDataToEndOfFile(); done.signal() }.start()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }
}
