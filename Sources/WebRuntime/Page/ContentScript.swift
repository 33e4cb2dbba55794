/// A script to inject into pages, as a manifest's `content_scripts` entry describes one file.
public struct ContentScript: Sendable {
    /// When the script runs, per the WebExtension `run_at` key.
    public enum RunAt: String, Sendable, CaseIterable {
        /// Before any page script, with an empty document.
        case documentStart = "document_start"
        /// Once the document is parsed: after `DOMContentLoaded` has been dispatched, as WebKit
        /// does (Source/WebCore/loader/FrameLoader.cpp, `FrameLoader::finishedParsing` injects
        /// DocumentEnd user scripts; `Document::finishedParsing` dispatches DOMContentLoaded first).
        case documentEnd = "document_end"
        /// After the window's `load` event.
        case documentIdle = "document_idle"
    }

    /// The extension the script belongs to; its world is `content:<extensionID>`.
    public var extensionID: String
    /// The source text.
    public var source: String
    /// The URL stacks and errors report (e.g. `safari-web-extension://<uuid>/content/main.js`).
    public var url: String
    /// When it runs.
    public var runAt: RunAt
    /// Runs in the page's own world (`world: "MAIN"`) instead of the extension's content world.
    public var mainWorld = false

    /// Makes a content script.
    public init(extensionID: String, source: String, url: String, runAt: RunAt = .documentIdle) {
        self.extensionID = extensionID
        self.source = source
        self.url = url
        self.runAt = runAt
    }
}
