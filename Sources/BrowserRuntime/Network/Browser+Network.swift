import BlockerCore
import Foundation
import WebRuntime

extension Browser {
    /// Decides `request` by every installed extension's rules: in the Safari profile through the
    /// WebKit Content Blocker translation of the rules (as Safari applies DNR), in the Chromium
    /// profile by DNR semantics directly. A block by any extension blocks. Each decision is a
    /// `network` trace line, and a rule match is logged for getMatchedRules.
    /// - Parameter record: false to decide without tracing or logging a match (a second look at
    ///   a request already decided).
    @discardableResult
    public func decide(_ request: NetworkRequest, record: Bool = true) -> NetworkDecision {
        var decision = NetworkDecision.allowed
        let tab = tab(request.tabID)
        for host in extensions {
            if tab?.isPrivate == true, !allowInPrivate.contains(host.id) { continue }
            if let outcome = decide(request, by: host) {
                if decision.rule == nil || outcome.blocked { decision = outcome }
                if record, let rule = outcome.rule {
                    host.dnr.matches.append(DNRState.MatchRecord(rule: rule, url: request.url, tabID: request.tabID, time: options.session.epoch + loop.now.milliseconds))
                }
            }
        }
        guard record else { return decision }
        let verdict = decision.blocked ? "blocked by \(decision.rule.map { "\($0.rulesetID)#\($0.ruleID)" } ?? "a rule")" : (decision.rule.map { "allowed by \($0.rulesetID)#\($0.ruleID)" } ?? "allowed")
        let location = request.tabID > 0 ? "tab\(request.tabID)" + (request.frameID > 0 ? "/frame\(request.frameID)" : "") : "browser"
        trace.record(.network, at: location, "\(request.method) \(request.url) \(request.type.rawValue) \(verdict)")
        fireWebRequest(request, blocked: decision.blocked)
        return decision
    }

    /// webRequest as Manifest V3 leaves it, observation only (both browsers): for an extension
    /// with the permission and access to the URL, onBeforeRequest, then onErrorOccurred for a
    /// blocked request, or onBeforeSendHeaders, onSendHeaders, onHeadersReceived,
    /// onResponseStarted and onCompleted (every answer here is 200). Headers are not modelled.
    func fireWebRequest(_ request: NetworkRequest, blocked: Bool) {
        let listening = extensions.filter { $0.bundle.manifest.permissions.contains("webRequest") || $0.grantedPermissions.contains("webRequest") }
        guard !listening.isEmpty else { return }
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
        let events: [(String, [(String, String)])] = blocked
            ? [("onBeforeRequest", []), ("onErrorOccurred", [("error", JSONText.string(Self.blockedFrameError)), ("fromCache", "false")])]
            : [("onBeforeRequest", []), ("onBeforeSendHeaders", []), ("onSendHeaders", []),
               ("onHeadersReceived", [("statusCode", "200"), ("statusLine", "\"HTTP/1.1 200 OK\"")]),
               ("onResponseStarted", [("fromCache", "false"), ("statusCode", "200"), ("statusLine", "\"HTTP/1.1 200 OK\"")]),
               ("onCompleted", [("fromCache", "false"), ("statusCode", "200"), ("statusLine", "\"HTTP/1.1 200 OK\"")])]
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

    private func decide(_ request: NetworkRequest, by host: ExtensionHost) -> NetworkDecision? {
        let frames = request.frameChain.isEmpty ? (request.documentURL.map { [$0] } ?? []) : request.frameChain
        guard let dnrRequest = try? DNRRequest(
            url: request.url, type: request.type, method: DNRRequestMethod(rawValue: request.method.lowercased()) ?? .get,
            initiator: request.documentURL.flatMap { URLOrigin.of($0) }, tabId: request.tabID, frames: frames)
        else { return nil }
        switch options.profile {
        case .chromium:
            let result = host.dnr.matcher.decide(dnrRequest)
            guard let rule = result.rule else { return nil }
            return NetworkDecision(blocked: result.isBlocked, rule: rule, extensionID: host.id)
        case .safari:
            guard let (evaluator, origins) = host.dnr.contentBlocker else { return nil }
            let result = evaluator.decide(ContentBlockerRequest(dnrRequest))
            let pairs = Array(zip(result.actions, result.ruleIndices))
            guard let index = pairs.last(where: { $0.0 == ContentBlockerAction.Kind.block })?.1 ?? result.ruleIndices.last,
                  index < origins.count else { return nil }
            return NetworkDecision(blocked: result.isBlocked, rule: origins[index], extensionID: host.id)
        }
    }
}
