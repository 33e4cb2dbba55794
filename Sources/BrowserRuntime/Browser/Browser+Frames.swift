import BlockerCore
import Foundation
import JSKit
import WebRuntime

extension Browser {
    /// The engine's frames layer (JS/navigation/frames.js).
    var framesLayer: JSValue { session.realm.engine["web"]["frames"] }
    var webStorageLayer: JSValue { session.realm.engine["web"]["webStorage"] }

    /// Opens `frame`'s document from `html`: content scripts of every extension that may run
    /// there, webNavigation events at each step, the document's subresources decided and its
    /// iframes loaded before its `load` event (HTML "delay the load event").
    /// - Throws: ``JSError`` when the runtime cannot make the page, ``ManifestError`` when a
    ///   content script file cannot be read.
    /// `extensionPage`: the extension whose page this is (a privileged context of it, no
    /// content scripts).
    @discardableResult
    func openDocument(_ frame: Frame, html: String, scriptsAllowed: Bool = true, extensionPage: ExtensionHost? = nil) throws -> Page {
        let tab = frame.tab
        let (scripts, styleSheets) = scriptsAllowed && extensionPage == nil ? try contentScripts(for: frame) : ([], [])
        loadingFrames.append(frame)
        defer { loadingFrames.removeLast() }
        // Safari removes what scripting.insertCSS injected when the top frame navigates
        // (WebExtensionContext's didStartProvisionalLoad for the main frame).
        if frame.id == 0 { tab.injectedStyleSheets.removeAll() }
        // A tab's top document arrives in slices with tasks between them; frames load whole,
        // inside their parent's load.
        // A tab's top-level documents share one session history.
        let page = try session.open(html: html, url: frame.url, contentScripts: scripts, incremental: frame.id == 0,
                                    historySession: frame.id == 0 ? "tab\(tab.id)" : nil, beforeLoad: { [unowned self] page in
            self.pageTabs[page.id] = tab.id
            self.pageFrames[page.id] = frame
            // A document in a background tab starts hidden (HTML 6.2).
            if !tab.isActive {
                try page.handle.invoke("setVisibility", [page.handle.context.string("hidden"), page.handle.context.boolean(true)])
            }
            frame.page = page
            if frame.id == 0 { tab.page = page }
            if let extensionPage { try self.attachExtensionPage(page, host: extensionPage, frame: frame) } else { try self.exposeExternalMessaging(to: page, frame: frame) }
            // Manifest CSS is injected before any parsing, as WebKit's user stylesheets are:
            // it applies before the page renders and to everything inserted later.
            for sheet in styleSheets {
                try page.injectUserStyleSheet(sheet.css, extensionID: sheet.extensionID)
                self.trace.record(.dom, at: self.frameLocation(frame) + "/content", "user stylesheet \(sheet.file)")
            }
            for sheet in frame.id == 0 ? [] : tab.injectedStyleSheets {
                guard let host = self.extensionHost(sheet.extensionID), self.mayScript(host, url: frame.effectiveURL, tab: tab) else { continue }
                self.injectStyleSheet(sheet.css, name: "\(sheet.css.utf8.count) bytes", level: sheet.level, host: host, into: frame, by: "scripting.insertCSS")
            }
            if let element = frame.element, let parentPage = frame.parent?.page {
                // about: documents inherit the origin of the document that made them.
                let origin = frame.url.hasPrefix("about:") ? URLOrigin.of(frame.effectiveURL).map { page.handle.context.string($0) } : nil
                _ = try self.framesLayer.invoke("attach", [element, page.handle, parentPage.handle, origin ?? page.handle.context.undefined])
            }
            self.fireWebNavigation("onCommitted", frame: frame)
        }, afterParse: { [unowned self] page in
            self.fireWebNavigation("onDOMContentLoaded", frame: frame)
            try self.requestSubresources(of: page, in: frame)
            try self.loadChildFrames(of: page, in: frame)
        })
        // Queued after the page's own load task: the frame has finished loading when it runs.
        loop.schedule(owner: page.id, label: "frame \(frame.id) of tab\(tab.id) loaded") { [weak self, weak frame] in
            guard let self, let frame, let page = frame.page, !page.isClosed else { return }
            self.fireWebNavigation("onCompleted", frame: frame)
            // The iframe element's load event (HTML "iframe load event steps").
            if let element = frame.element, let parentPage = frame.parent?.page, !parentPage.isClosed {
                self.dispatch("load", at: element, in: parentPage)
            }
        }
        return page
    }

    /// The content scripts and stylesheets to inject into `frame`: every permitted extension's entries that
    /// match the frame's URL, all_frames ones only in child frames, and in about:blank/srcdoc
    /// documents only entries with match_about_blank, matched against the parent's URL
    /// (Chromium's ScriptContext::GetEffectiveDocumentURLForInjection; WebKit does the same
    /// with matchParentFrame).
    func contentScripts(for frame: Frame) throws -> (scripts: [ContentScript], styleSheets: [(extensionID: String, file: String, css: String)]) {
        let url = frame.effectiveURL
        let isAbout = frame.url.hasPrefix("about:")
        var scripts: [ContentScript] = []
        var styleSheets: [(extensionID: String, file: String, css: String)] = []
        for host in extensions where mayAccess(host, url: url, tab: frame.tab) {
            // The manifest's entries, then those scripting.registerContentScripts added.
            for entry in host.bundle.manifest.contentScripts + host.registeredScripts.map(\.entry) where entry.applies(to: url) {
                if frame.id != 0, !entry.allFrames { continue }
                if isAbout, !entry.matchAboutBlank { continue }
                for file in entry.js {
                    var script = ContentScript(extensionID: host.id, source: try host.bundle.text(file), url: host.bundle.url(file), runAt: entry.runAt)
                    script.mainWorld = entry.world == "MAIN"
                    scripts.append(script)
                }
                for file in entry.css {
                    styleSheets.append((host.id, file, try host.bundle.styleSheet(file)))
                }
            }
        }
        return (scripts, styleSheets)
    }

    /// `tab1` for a top frame, `tab1/frame3` for an iframe.
    func frameLocation(_ frame: Frame) -> String {
        frame.id == 0 ? "tab\(frame.tab.id)" : "tab\(frame.tab.id)/frame\(frame.id)"
    }

    /// Loads every iframe of a parsed document, in tree order.
    func loadChildFrames(of page: Page, in frame: Frame) throws {
        let list = try framesLayer.invoke("elements", [page.document])
        let count = Int(try list["length"].toNumber())
        for index in 0..<count {
            let entry = list[index]
            try loadFrame(element: entry["element"], url: entry["url"].stringValue ?? "about:blank", srcdoc: entry["srcdoc"].stringValue, parent: frame)
        }
    }

    /// Loads one iframe's document: a srcdoc or about:blank document directly, a URL through
    /// the network layer as a sub_frame request. A blocked frame gets no document and its
    /// element an `error` event, as Safari's content blocker leaves it.
    /// `id` keeps a frame's id when its own document navigates it (webNavigation's frameId names the
    /// frame, not the document).
    func loadFrame(element: JSValue, url: String, srcdoc: String?, parent: Frame, id reused: Int? = nil) throws {
        let tab = parent.tab
        guard let parentPage = parent.page, !parentPage.isClosed, tab.frames[parent.id] === parent else { return }
        if let old = frame(holding: element, in: tab) { closeFrame(old) }
        let id = reused ?? nextFrameID
        if reused == nil { nextFrameID += 1 }
        let frameURL = srcdoc != nil ? "about:srcdoc" : url
        let frame = Frame(id: id, parent: parent, tab: tab, url: frameURL, element: element)
        tab.frames[id] = frame
        trace.record(.navigation, at: frameLocation(frame), "frame \(frameURL) in frame \(parent.id)")
        fireWebNavigation("onBeforeNavigate", frame: frame)
        var html = srcdoc ?? ""
        var extensionPage: ExtensionHost?
        if srcdoc == nil, let host = extensionHost(owning: url) {
            // An extension's page in a frame: its own pages may frame it, web pages only when
            // web_accessible_resources lists it for them (else the frame stays empty).
            if let text = extensionResource(url, for: parent.effectiveURL) {
                html = text
                extensionPage = host
            }
        } else if srcdoc == nil, url != "about:blank" {
            let request = NetworkRequest(url: url, type: .subFrame, tabID: tab.id, documentURL: parent.effectiveURL,
                                         frameChain: parent.chain, frameID: parent.id)
            let carried = carry(request)
            if carried.blocked {
                frame.isBlocked = true
                _ = try? framesLayer.invoke("detach", [element])
                fireWebNavigation("onErrorOccurred", frame: frame, extra: [("error", JSONText.string(Self.blockedFrameError))])
                loop.schedule(owner: parentPage.id, label: "blocked frame \(url)") { [weak self, weak parentPage] in
                    guard let self, let parentPage, !parentPage.isClosed else { return }
                    self.dispatch("error", at: element, in: parentPage)
                }
                return
            }
            if carried.redirected { frame.url = carried.url }
            html = served(carried.url, for: parent.effectiveURL) ?? ""
        }
        try openDocument(frame, html: html, extensionPage: extensionPage)
    }

    /// The error webNavigation.onErrorOccurred reports for a frame a rule blocked (Chromium's
    /// net error for requests an extension blocks, net/base/net_error_list.h).
    static let blockedFrameError = "net::ERR_BLOCKED_BY_CLIENT"

    /// The frame whose document `element` holds.
    func frame(holding element: JSValue, in tab: Tab) -> Frame? {
        tab.frames.values.first { $0.element?.isStrictlyEqual(to: element) == true }
    }

    /// Ends `frame` and its descendants: their pages close (content worlds die, ports
    /// disconnect) and the element no longer holds a document.
    func closeFrame(_ frame: Frame) {
        let tab = frame.tab
        for child in tab.frames.values where child.parent === frame { closeFrame(child) }
        if let element = frame.element { _ = try? framesLayer.invoke("detach", [element]) }
        if let page = frame.page {
            page.close()
            pageTabs[page.id] = nil
            pageFrames[page.id] = nil
            disconnectPorts(of: page)
        }
        frame.page = nil
        tab.frames[frame.id] = nil
    }

    /// Fires a plain `type` event at `element` (an element of `page`).
    func dispatch(_ type: String, at element: JSValue, in page: Page) {
        page.fire(type, at: element)
    }
}
