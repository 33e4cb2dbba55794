import CommandLineKit
import Foundation
import HarnessCLI
import ScenarioKit
import TestSupport
import Testing
import WebRuntime

@Suite struct SetupTests {
    @Test func missingPackageNamesThePackageAndTheInstallCommand() throws {
        let empty = Support.scratchRoot.appendingPathComponent("adv-no-packages-\(getpid())").path
        let error = #expect(throws: MissingPackageError.self) { try JSPackages.domino(searchRoot: empty) }
        #expect(error?.debianPackage == "node-domino")
        #expect(error?.description.contains("apt-get install -y node-domino") == true)
        #expect(error?.description.contains(empty + "/domino/lib/index.js") == true)
        let cssom = #expect(throws: MissingPackageError.self) { try JSPackages.cssom(searchRoot: empty) }
        #expect(cssom?.debianPackage == "node-cssom")
        let acorn = #expect(throws: MissingPackageError.self) { try JSPackages.acorn(searchRoot: empty) }
        #expect(acorn?.debianPackage == "node-acorn")
    }

    @Test func installedPackagesAreFound() throws {
        let domino = try JSPackages.domino()
        #expect(FileManager.default.fileExists(atPath: domino.main))
        #expect(try JSPackages.cssom().debianPackage == "node-cssom")
        #expect(try JSPackages.acorn().debianPackage == "node-acorn")
    }
}

@Suite struct HarnessCommandTests {
    func run(_ arguments: [String]) -> (Int32, String, String) {
        let (output, out, err) = CommandOutput.buffer()
        let code = HarnessCommand.run(arguments, output: output)
        return (code, out(), err())
    }

    @Test func demoPrintsWhatTheWorldsSawAndTheVirtualTime() throws {
        let page = Support.fixtures.appendingPathComponent("pages/demo.html").path
        let (code, out, err) = run(["demo", page])
        #expect(code == 0, "\(err)")
        #expect(out.contains("0ms page log: head script sees readyState=loading and body=null"))
        #expect(out.contains("1500ms content:demo log: hid 1 ad slot(s) at 1500 ms"))
        #expect(out.contains("content world sees pageSecret: undefined"))
        #expect(out.contains("ad slots still visible: 0"))
        #expect(out.contains("virtual time: 3000ms"))
    }

    @Test(arguments: [
        (["demo", "--bogus"], "unknown option '--bogus' for 'adv-harness demo' (see 'adv-harness demo --help')"),
        (["run", "--jbos", "2"], "unknown option '--jbos' for 'adv-harness run'; did you mean '--jobs'?"),
        (["run", "--jobs"], "option '--jobs' needs a value"),
        (["trace", "--from=1", "--from=2", "x"], "option '--from' given twice"),
        (["list", "--json"], "unknown option '--json' for 'adv-harness list'"),
        (["demo", "/nonexistent/page.html"], "cannot read page '/nonexistent/page.html'"),
        (["dmeo"], "unknown command 'dmeo'; did you mean 'demo'?"),
        (["bench", "--iterations", "zero"], "--iterations must be a positive whole number, got 'zero'"),
        (["bench", "--iterations"], "option '--iterations' needs a value"),
        (["bench", "extra"], "'bench' takes no arguments, got 'extra'"),
    ])
    func badInputExitsTwoWithOneClearError(arguments: [String], message: String) {
        let (code, out, err) = run(arguments)
        #expect(code == 2)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("adv-harness: ") && err.contains(message), "\(err)")
        #expect(err.split(separator: "\n").count == 1)
    }

    @Test func helpIsAvailableForEachCommand() {
        for command in ["demo", "bench"] {
            let (code, out, _) = run([command, "--help"])
            #expect(code == 0)
            #expect(out.hasPrefix("usage: adv-harness \(command)"))
        }
        #expect(run([]).0 == 2)
        #expect(run(["help"]).1.contains("commands:"))
    }
}
