import BlockerCore
import Foundation
import WebRuntime

extension Browser {
    /// Decides `request` by every installed extension's rules: in the Safari profile through the
    /// WebKit Content Blocker translation of the rules (as Safari applies DNR), in the Chromium
    /// profile by DNR semantics directly. A block by any extension blocks; otherwise the most
    /// recently installed extension's redirect wins and header rules apply newest extension first
    /// (Chrome's documented order; Safari evaluates one rule list per extension the same way).
    /// Each decision is a `network` trace line; every rule that acted is logged for
    /// getMatchedRules, counted for the action badge and reported to onRuleMatchedDebug.
    /// - Parameter record: false to decide without tracing or logging a match (a second look at
    ///   a request already decided).
    @discardableResult
    public func decide(_ request: NetworkRequest, record: Bool = true) -> NetworkDecision {
        let style: HeaderChanges.Style = options.profile == .safari ? .webkit : .chromium
        var decision = NetworkDecision.allowed
        decision.headerStyle = style
        var headerRules: [DNROutcome.HeaderRule] = []
        let tab = tab(request.tabID)
        var acted: [(ExtensionHost, DNROutcome)] = []
        for host in extensions.reversed() {
            if tab?.isPrivate == true, !allowInPrivate.contains(host.id) { continue }
            guard let outcome = decide(request, by: host) else { continue }
            acted.append((host, outcome))
            if outcome.isBlocked {
                if !decision.blocked { decision = NetworkDecision(blocked: true, rule: outcome.rule, extensionID: host.id, redirectURL: nil,
                                                                  requestHeaders: [], responseRules: [], headerStyle: style) }
            } else if !decision.blocked {
                if decision.redirectURL == nil, let target = outcome.redirectURL {
                    decision.redirectURL = target
                    decision.rule = outcome.rule
                    decision.extensionID = host.id
                } else if decision.rule == nil, let rule = outcome.rule {
                    decision.rule = rule
                    decision.extensionID = host.id
                }
                headerRules += outcome.headerRules
            }
        }
        var applied: [HeaderChanges.Applied] = []
        var responseApplied: [HeaderChanges.Applied] = []
        if !decision.blocked, !headerRules.isEmpty {
            // The browser's headers are only built when a rule may change them.
            let base = requestHeaders(for: request)
            (decision.requestHeaders, applied) = HeaderChanges.apply(headerRules, to: base, request: true, style: style)
            decision.responseRules = headerRules
            responseApplied = HeaderChanges.apply(headerRules, to: [], request: false, style: style).applied
        }
        guard record else { return decision }
        var verdict: String
        let named = { (rule: DNRMatchedRule?) in rule.map { "\($0.rulesetID)#\($0.ruleID)" } ?? "a rule" }
        if decision.blocked {
            verdict = "blocked by \(named(decision.rule))"
        } else if let target = decision.redirectURL {
            verdict = (decision.rule?.action == .upgradeScheme ? "upgraded to " : "redirected to ") + target + " by " + named(decision.rule)
        } else {
            verdict = decision.rule.map { "allowed by \($0.rulesetID)#\($0.ruleID)" } ?? "allowed"
        }
        if !applied.isEmpty { verdict += "; request headers: " + applied.map(\.description).joined(separator: ", ") }
        if !responseApplied.isEmpty { verdict += "; response headers: " + responseApplied.map(\.description).joined(separator: ", ") }
        let location = request.tabID > 0 ? "tab\(request.tabID)" + (request.frameID > 0 ? "/frame\(request.frameID)" : "") : "browser"
        trace.record(.network, at: location, "\(request.method) \(request.url) \(request.type.rawValue) \(verdict)")
        // After the decision's own line: the matches it makes (badge changes, debug events).
        for (host, outcome) in acted.reversed() {
            // What acted: the decider unless another extension's block won; header rules with a change that took effect.
            var rules: [DNRMatchedRule] = []
            if let rule = outcome.rule, !decision.blocked || outcome.isBlocked { rules.append(rule) }
            if !decision.blocked {
                let effective = Set((applied + responseApplied).map(\.rule))
                rules += outcome.headerRules.map(\.rule).filter(effective.contains)
            }
            for rule in rules { recordMatch(rule, of: host, request: request) }
        }
        fireWebRequest(request, decision: decision)
        return decision
    }

    /// The headers a request goes out with before any rule: the browser's `Accept` for its type,
    /// `User-Agent`, `Referer` (strict-origin-when-cross-origin, the default policy: the origin
    /// alone across origins), then the page's own.
    func requestHeaders(for request: NetworkRequest) -> [(name: String, value: String)] {
        let accept: String = switch request.type {
        case .mainFrame, .subFrame: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
        case .stylesheet: "text/css,*/*;q=0.1"
        case .image: "image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
        default: "*/*"
        }
        var headers: [(name: String, value: String)] = [("Accept", accept), ("User-Agent", Self.userAgent)]
        if let document = request.documentURL, document.hasPrefix("http") {
            let sameOrigin = URLOrigin.of(document) == URLOrigin.of(request.url)
            let referrer = sameOrigin ? String(document.split(separator: "#", maxSplits: 1)[0]) : (URLOrigin.of(document).map { $0 + "/" } ?? document)
            headers.append(("Referer", referrer))
        }
        for header in request.headers where !headers.contains(where: { $0.name.lowercased() == header.name.lowercased() }) {
            headers.append(header)
        }
        return headers
    }

    /// The user agent pages see (navigator.userAgent, engine.js).
    static let userAgent = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15"

    /// Logs one rule that acted: getMatchedRules' record, the action count, onRuleMatchedDebug.
    private func recordMatch(_ rule: DNRMatchedRule, of host: ExtensionHost, request: NetworkRequest) {
        let now = options.session.epoch + loop.now.milliseconds
        host.dnr.matches.append(DNRState.MatchRecord(rule: rule, url: request.url, tabID: request.tabID, time: now))
        // The action count counts what changed a request: not allow rules (Chromium's
        // ActionTracker::OnRuleMatched; WebKit counts blocked, upgraded, redirected and
        // header-modified loads).
        if rule.action != .allow, rule.action != .allowAllRequests, request.tabID > 0 {
            incrementActionCount(host, tab: request.tabID, by: 1, reason: "rule \(rule.rulesetID)#\(rule.ruleID) matched")
        }
        guard host.bundle.manifest.has("declarativeNetRequestFeedback") else { return }
        let tab = tab(request.tabID)
        var details: [(String, String)] = [
            ("frameId", "\(request.frameID)"), ("method", JSONText.string(request.method)),
            ("parentFrameId", "\(request.type == .mainFrame ? -1 : (tab?.frame(request.frameID)?.parent?.id ?? -1))"),
            ("requestId", JSONText.string("\(nextRequestID + 1)")), ("tabId", "\(request.tabID)"),
            ("type", JSONText.string(request.type.rawValue)), ("url", JSONText.string(request.url)),
        ]
        if let initiator = request.documentURL.flatMap(URLOrigin.of) { details.append(("initiator", JSONText.string(initiator))) }
        let info = JSONText.object([
            ("request", JSONText.object(details.sorted { $0.0 < $1.0 })),
            ("rule", JSONText.object([("ruleId", "\(rule.ruleID)"), ("rulesetId", JSONText.string(rule.rulesetID))])),
        ])
        wakeIfNeeded(host, for: "declarativeNetRequest.onRuleMatchedDebug")
        for context in liveContexts(of: host) where context.kind.isPrivileged {
            context.dispatch("declarativeNetRequest.onRuleMatchedDebug", json: [info])
        }
    }

    /// webRequest as Manifest V3 leaves it, observation only (both browsers): for an extension
    /// with the permission and access to the URL, onBeforeRequest, then onErrorOccurred for a
    /// blocked request, onBeforeRedirect for one a rule redirects or upgrades (an internal 307,
    /// as Chromium reports DNR redirects; the new URL is a request of its own), or
    /// onBeforeSendHeaders, onSendHeaders, onHeadersReceived, onResponseStarted and onCompleted
    /// (every answer here is 200). Headers are in the details of a listener that asked for them
    /// (browser-api.js makeFilteredEvent): the request's as the browser builds them in
    /// onBeforeSendHeaders and as the header rules left them in onSendHeaders; the response's as
    /// served in onHeadersReceived and after the header rules in onResponseStarted and
    /// onCompleted (Chromium applies DNR's header changes after those listeners of each stage).
    func fireWebRequest(_ request: NetworkRequest, decision: NetworkDecision) {
        let blocked = decision.blocked
        let redirectedTo = decision.blocked ? nil : decision.redirectURL
        let listening = extensions.filter { $0.bundle.manifest.permissions.contains("webRequest") || $0.grantedPermissions.contains("webRequest") }
        guard !listening.isEmpty else { return }
        func headerList(_ headers: [(name: String, value: String)]) -> String {
            JSONText.array(headers.map { JSONText.object([("name", JSONText.string($0.name)), ("value", JSONText.string($0.value))]) })
        }
        var sent = "[]", willSend = "[]", served = "[]", delivered = "[]"
        if !blocked, redirectedTo == nil {
            let base = requestHeaders(for: request)
            willSend = headerList(base)
            sent = headerList(decision.requestHeaders.isEmpty ? base : decision.requestHeaders)
            let answer = responseHeaders(request.url)
            served = headerList(answer)
            delivered = headerList(decision.responseHeaders(answer))
        }
        let tab = tab(request.tabID)
        nextRequestID += 1
        let requestID = nextRequestID
        let parentFrame = tab?.frame(request.frameID)?.parent?.id ?? -1
        var base: [(String, String)] = [
            ("frameId", "\(request.frameID)"), ("method", JSONText.string(request.method)), ("parentFrameId", "\(request.type == .mainFrame ? -1 : parentFrame)"),
            ("requestId", JSONText.string("\(requestID)")), ("tabId", "\(request.tabID)"),
            ("timeStamp", JSONText.number(options.session.epoch + loop.now.milliseconds)), ("type", JSONText.string(request.type.rawValue)),
            ("url", JSONText.string(request.url)),
        ]
        if let initiator = request.documentURL.flatMap(URLOrigin.of) { base.append(("initiator", JSONText.string(initiator))) }
        let redirect: [(String, String)] = [("fromCache", "false"), ("redirectUrl", JSONText.string(redirectedTo ?? "")), ("statusCode", "307"),
                                            ("statusLine", "\"HTTP/1.1 307 Internal Redirect\"")]
        let events: [(String, [(String, String)])] = blocked
            ? [("onBeforeRequest", []), ("onErrorOccurred", [("error", JSONText.string(Self.blockedFrameError)), ("fromCache", "false")])]
            : redirectedTo != nil ? [("onBeforeRequest", []), ("onBeforeRedirect", redirect)]
            : [("onBeforeRequest", []), ("onBeforeSendHeaders", [("requestHeaders", willSend)]), ("onSendHeaders", [("requestHeaders", sent)]),
               ("onHeadersReceived", [("responseHeaders", served), ("statusCode", "200"), ("statusLine", "\"HTTP/1.1 200 OK\"")]),
               ("onResponseStarted", [("fromCache", "false"), ("responseHeaders", delivered), ("statusCode", "200"), ("statusLine", "\"HTTP/1.1 200 OK\"")]),
               ("onCompleted", [("fromCache", "false"), ("responseHeaders", delivered), ("statusCode", "200"), ("statusLine", "\"HTTP/1.1 200 OK\"")])]
        for host in listening where mayAccess(host, url: request.url, tab: tab) {
            for (event, extra) in events {
                let details = JSONText.object((base + extra).sorted { $0.0 < $1.0 })
                wakeIfNeeded(host, for: "webRequest.\(event)")
                for context in liveContexts(of: host) where context.kind.isPrivileged {
                    context.dispatch("webRequest.\(event)", json: [details])
                }
            }
        }
    }

    /// One extension's rules on `request`. Redirects and header changes need access to the URL
    /// (Chromium: host permissions for redirect and modifyHeaders; WebKit: "active" content rule
    /// list actions, allowsActiveContentRuleListActionsForURL).
    private func decide(_ request: NetworkRequest, by host: ExtensionHost) -> DNROutcome? {
        let frames = request.frameChain.isEmpty ? (request.documentURL.map { [$0] } ?? []) : request.frameChain
        guard let dnrRequest = try? DNRRequest(
            url: request.url, type: request.type, method: DNRRequestMethod(rawValue: request.method.lowercased()) ?? .get,
            initiator: request.documentURL.flatMap { URLOrigin.of($0) }, tabId: request.tabID, frames: frames)
        else { return nil }
        let mayChange = mayAccess(host, url: request.url, tab: tab(request.tabID))
        var outcome: DNROutcome
        switch options.profile {
        case .chromium:
            outcome = host.dnr.matcher.outcome(dnrRequest)
            if !mayChange {
                if case .redirect = outcome.effect { outcome = DNROutcome.none }
                outcome.headerRules = []
            }
        case .safari:
            guard let engine = host.dnr.contentBlocker else { return nil }
            let decision = engine.evaluator.decide(ContentBlockerRequest(dnrRequest))
            outcome = decision.outcome(engine.translation, url: dnrRequest.url, extensionBaseURL: host.dnr.extensionBaseURL, mayChange: mayChange)
        }
        return outcome.effect == .none && outcome.headerRules.isEmpty ? nil : outcome
    }
}
