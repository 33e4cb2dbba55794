import JSKit
import WebRuntime

/// A style sheet `scripting.insertCSS` put into a tab, kept so that frames the tab's document
/// loads later get it too (Safari adds it to the page's user content controller for all frames
/// when `allFrames` is set) and dropped when the tab's top frame navigates.
struct InjectedStyleSheet {
    let extensionID: String
    let css: String
    let level: UserStyleLevel
}

extension Browser {
    /// `scripting.executeScript`, `insertCSS` and `removeCSS`, with the "scripting" permission.
    /// The details were checked and copied in the caller (browser-api.js, `prepare`); a function
    /// arrives as its source text.
    ///
    /// Safari (WebKit's UIProcess/Extensions/Cocoa/API/WebExtensionContextAPIScriptingCocoa.mm and
    /// WebExtensionDynamicScriptsCocoa.mm): an unknown tab rejects "Invalid call to
    /// scripting.executeScript(). Tab not found."; a tab the extension may not access rejects
    /// "… This extension does not have access to this tab."; scripts run in the extension's
    /// content world (`ISOLATED`, the one its content scripts share) or the page's (`MAIN`), in
    /// the top frame unless `allFrames`, `frameIds` or `documentIds` say otherwise, skipping
    /// frames the extension may not access; a function's result is awaited when it is a promise
    /// (callAsyncJavaScript); each frame answers `{result, frameId, documentId}` (with `error`
    /// when its script threw). insertCSS adds user-content style sheets at the `origin` level
    /// (author by default) to the top frame, or with `allFrames` to every frame and to the frames
    /// loaded later; `frameIds` means the top frame only (WebKit bug 262491). Injected sheets go
    /// when the top frame navigates. removeCSS needs no access (an extension may clean up after
    /// losing it) and removes the sheets of that text.
    ///
    /// Chromium (scripting_api.cc): "No tab with id: N.", "Cannot access contents of the page.
    /// Extension manifest must request permission to access the respective host.", "No frame
    /// with id N in tab M."; `frameIds` are honoured by insertCSS, which reaches no later frame;
    /// removeCSS matches the origin too.
    func handleScripting(_ call: APICall) -> APIResult {
        if call.method.hasSuffix("ContentScripts") { return handleRegisteredScripts(call) }
        let api = "scripting.\(call.method)()"
        let chromium = options.profile == .chromium
        let details = JSONText.fields(call.argument(0))
        let target = JSONText.fields(details["target"])
        guard let tabID = target["tabId"].flatMap({ Int($0) }), let tab = tab(tabID) else {
            return .error(chromium ? "No tab with id: \(target["tabId"] ?? "undefined")." : "Invalid call to \(api). Tab not found.")
        }
        let host = call.context.host
        let noAccess = chromium ? "Cannot access contents of the page. Extension manifest must request permission to access the respective host."
            : "Invalid call to \(api). This extension does not have access to this tab."
        if call.method != "removeCSS", !mayScript(host, url: tab.url, tab: tab) { return .error(noAccess) }
        let allFrames = target["allFrames"] == "true"
        let frameIDs = target["frameIds"].map { JSONText.elements($0).compactMap { Int($0) } }
        let documentIDs = target["documentIds"].map { Set(JSONText.elements($0).map(JSONText.decodeString)) }
        if chromium, let frameIDs, let missing = frameIDs.first(where: { tab.frame($0) == nil }) {
            return .error("No frame with id \(missing) in tab \(tab.id).")
        }
        let files = details["files"].map { JSONText.elements($0).map(JSONText.decodeString) }
        switch call.method {
        case "executeScript":
            var frames: [Frame]
            if allFrames {
                frames = tab.allFrames
            } else if let frameIDs {
                frames = tab.allFrames.filter { frameIDs.contains($0.id) }
            } else if let documentIDs {
                frames = tab.allFrames.filter { $0.page.map { documentIDs.contains(Self.documentID(of: $0)) } ?? false }
            } else {
                frames = tab.frame(0).map { [$0] } ?? []
            }
            frames = frames.filter { $0.page.map { !$0.isClosed } ?? false && mayScript(host, url: $0.effectiveURL, tab: tab) }
            if frames.isEmpty, !allFrames, frameIDs == nil, documentIDs == nil { return .error(noAccess) }
            var sources: [(source: String, url: String)] = []
            if let files {
                for file in files {
                    guard let text = try? host.bundle.text(file) else {
                        return .error(chromium ? "Could not load file: '\(file)'." : "Invalid call to \(api). Failed to load '\(file)'.")
                    }
                    sources.append((text, host.bundle.url(file)))
                }
            } else if let function = details["func"].map(JSONText.decodeString) {
                let arguments = details["args"].map(JSONText.decodeString) ?? "[]"
                sources.append(("(\(function))(...\(arguments))", host.bundle.url("")))
            }
            let isolated = details["world"].map(JSONText.decodeString) != "main"
            return .later { [weak self] finish in
                self?.loop.schedule(owner: tab.page?.id, label: "\(call.name) in tab\(tab.id)") { [weak self] in
                    guard let self else { return }
                    self.execute(sources, in: frames, of: host, isolated: isolated, chromium: chromium, finish: finish)
                }
            }
        case "insertCSS", "removeCSS":
            let level: UserStyleLevel = details["origin"].map(JSONText.decodeString) == "user" ? .user : .author
            var texts: [(css: String, name: String)] = []
            if let css = details["css"].map(JSONText.decodeString) {
                texts = [(css, "\(css.utf8.count) bytes")]
            } else {
                for file in files ?? [] {
                    guard let text = try? host.bundle.text(file) else {
                        return .error(chromium ? "Could not load file: '\(file)'." : "Invalid call to \(api). Failed to load '\(file)'.")
                    }
                    texts.append((text, file))
                }
            }
            var frames: [Frame]
            if allFrames {
                frames = tab.allFrames
            } else if chromium, let frameIDs {
                frames = tab.allFrames.filter { frameIDs.contains($0.id) }
            } else {
                frames = tab.frame(0).map { [$0] } ?? []
            }
            if call.method == "insertCSS" {
                frames = frames.filter { mayScript(host, url: $0.effectiveURL, tab: tab) }
                for (css, name) in texts {
                    for frame in frames { injectStyleSheet(css, name: name, level: level, host: host, into: frame, by: call.name) }
                    if allFrames, !chromium { tab.injectedStyleSheets.append(InjectedStyleSheet(extensionID: host.id, css: css, level: level)) }
                }
            } else {
                for (css, name) in texts {
                    for frame in frames {
                        guard let page = frame.page, !page.isClosed else { continue }
                        let removed = (try? page.removeUserStyleSheets(extensionID: host.id, css: css, level: chromium ? level : nil)) ?? 0
                        if removed > 0 { trace.record(.dom, at: frameLocation(frame) + "/content", "user stylesheet removed (\(name), \(call.name))") }
                    }
                    tab.injectedStyleSheets.removeAll { $0.extensionID == host.id && $0.css == css && (!chromium || $0.level == level) }
                }
            }
            return .undefined
        default:
            return .error("\(call.name) is not available")
        }
    }

    /// Adds one user style sheet to `frame`'s document.
    func injectStyleSheet(_ css: String, name: String, level: UserStyleLevel, host: ExtensionHost, into frame: Frame, by api: String) {
        guard let page = frame.page, !page.isClosed else { return }
        guard (try? page.injectUserStyleSheet(css, extensionID: host.id, level: level)) != nil else { return }
        trace.record(.dom, at: frameLocation(frame) + "/content", "user stylesheet (\(name), \(level.rawValue) level, \(api))")
    }

    /// May `host` run scripts and insert style in a document at `url` of `tab`: site access as
    /// content scripts have it, or the activeTab grant.
    func mayScript(_ host: ExtensionHost, url: String, tab: Tab) -> Bool {
        if mayAccess(host, url: url, tab: tab) { return true }
        return hasActiveTab(host, tab: tab) && URLOrigin.of(url) == URLOrigin.of(tab.url)
    }

    /// A document's identifier as `scripting` and `webNavigation` give it: a UUID, fixed by the
    /// page's number in the session so that traces do not change between runs.
    static func documentID(of page: Page) -> String {
        let hex = String(page.id, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    /// Runs `sources` in each frame, in order, and answers once every frame has its result (a
    /// promise's once it settles).
    private func execute(_ sources: [(source: String, url: String)], in frames: [Frame], of host: ExtensionHost,
                         isolated: Bool, chromium: Bool, finish: @escaping (APIResult) -> Void) {
        final class Results {
            var entries: [String?]
            var pending: Int
            var failure: String?
            var answered = false
            init(_ count: Int) { entries = Array(repeating: nil, count: count); pending = count }
        }
        let results = Results(frames.count)
        func complete() {
            guard results.pending == 0, !results.answered else { return }
            results.answered = true
            if chromium, let failure = results.failure { finish(.error(failure)); return }
            finish(.json(JSONText.array(results.entries.compactMap { $0 })))
        }
        func record(_ index: Int, _ frame: Frame, page: Page, result: String?, error: String?) {
            var pairs = [("documentId", JSONText.string(Self.documentID(of: page))), ("frameId", "\(frame.id)"), ("result", result ?? "null")]
            if let error {
                pairs.append(("error", JSONText.string(chromium ? error : "A JavaScript exception occurred")))
                if results.failure == nil { results.failure = error }
            }
            results.entries[index] = JSONText.object(pairs)
            results.pending -= 1
            complete()
        }
        for (index, frame) in frames.enumerated() {
            guard let page = frame.page, !page.isClosed,
                  let world = isolated ? try? page.contentWorld(for: host.id) : page.pageWorld else {
                results.pending -= 1
                continue
            }
            var value: JSValue?
            var thrown: String?
            for (source, url) in sources {
                do { value = try world.evaluate(source, sourceURL: url) } catch { thrown = Self.exceptionText(error); break }
            }
            if let thrown {
                record(index, frame, page: page, result: nil, error: thrown)
                continue
            }
            guard let value, value.isObject, value["then"].isFunction else {
                record(index, frame, page: page, result: value.flatMap { try? $0.toJSON() }, error: nil)
                continue
            }
            // A promise: its settled value, as callAsyncJavaScript gives it.
            let context = world.context
            let settled = context.function("settled", length: 2) { [weak frame, weak page] call in
                guard let frame, let page else { return nil }
                if call.argument(0).boolValue == true {
                    record(index, frame, page: page, result: try? call.argument(1).toJSON(), error: nil)
                } else {
                    record(index, frame, page: page, result: nil, error: Self.exceptionText(JSError(thrown: call.argument(1))))
                }
                return nil
            }
            do {
                let attach = try context.evaluate("(function (value, settled) { Promise.resolve(value).then((v) => settled(true, v), (e) => settled(false, e)); })",
                                                  sourceURL: "adv-runtime:///scripting.js")
                _ = try attach.call([value, settled])
            } catch {
                record(index, frame, page: page, result: nil, error: Self.exceptionText(error))
            }
        }
        complete()
    }

    /// `TypeError: boom`: what a script threw, without the place.
    static func exceptionText(_ error: Error) -> String {
        guard let error = error as? JSError else { return "\(error)" }
        return "\(error.name): \(error.message)"
    }
}
