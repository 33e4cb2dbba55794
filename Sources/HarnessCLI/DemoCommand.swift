import ADVHarnessSupport
import BrowserRuntime
import CommandLineKit
import Foundation
import JSKit
import RuntimeBench
import ScenarioKit
import WebRuntime

/// `adv-harness demo`: the foundation's main job. Loads a fixture page on the virtual clock with
/// a content script that hides ad slots, runs the page to idle, and prints what both worlds saw.
enum DemoCommand {
    static let spec = CommandSpec(tool: "adv-harness", command: "demo", options: ["--url"], maxPositionals: 1, help: help)

    static let help = """
    usage: adv-harness demo [PAGE.html] [--url URL]

    Loads PAGE.html (default fixtures/pages/demo.html) as URL (default https://news.example/)
    with a content script that hides '.ad-slot' elements, runs the page's timers on the virtual
    clock until idle, and prints the console of each world, errors, and the virtual time.
    """

    static let contentScript = """
    // Demo content script: hides ad slots now and whenever the page adds more.
    const hide = () => {
      let hidden = 0;
      for (const slot of document.querySelectorAll(".ad-slot")) {
        if (slot.style.display !== "none") { slot.style.display = "none"; hidden++; }
      }
      if (hidden) console.log("hid", hidden, "ad slot(s) at", performance.now(), "ms");
    };
    hide();
    console.log("content world sees pageSecret:", typeof pageSecret, "and", document.title);
    const poll = setInterval(hide, 500);
    setTimeout(() => clearInterval(poll), 3000);
    """

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp { output.out(spec.help); return 0 }
        let path = arguments.positionals.first ?? "fixtures/pages/demo.html"
        guard let html = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw UsageError("cannot read page '\(path)'; run from the repository root or pass a path to an HTML file")
        }
        let url = arguments.value("--url") ?? "https://news.example/"

        let session = try WebSession()
        let script = ContentScript(extensionID: "demo", source: contentScript, url: "safari-web-extension://demo/content.js", runAt: .documentEnd)
        let page = try session.open(html: html, url: url, contentScripts: [script])
        try session.loop.runUntilIdle(limit: .seconds(60))

        output.out("page \(url) (from \(path))")
        output.out("console:")
        for message in page.console { output.out("  \(message)") }
        if !page.errors.isEmpty {
            output.out("errors:")
            for error in page.errors { output.out("  \(error.time) \(error.world) \(error.report.error.report)") }
        }
        let visible = try page.pageWorld.evaluate(
            "Array.from(document.querySelectorAll('.ad-slot')).filter(e => e.style.display !== 'none').length",
            sourceURL: "adv-harness:demo")
        output.out("ad slots still visible: \(Int(try visible.toNumber()))")
        output.out("readyState: \(page.readyState) title: \(page.document["title"].stringValue ?? "")")
        output.out("virtual time: \(session.loop.now) (\(session.loop.tasksRun) tasks)")
        return page.errors.isEmpty ? 0 : 1
    }
}
