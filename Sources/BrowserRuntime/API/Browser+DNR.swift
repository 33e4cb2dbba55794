import BlockerCore
import Foundation
import WebRuntime

extension Browser {
    /// Chromium's getMatchedRules quota (constants.cc): 20 calls per 10 minutes outside a user
    /// gesture. The Safari profile has no quota unless a scenario imposes one.
    static let chromiumFeedbackQuota = (calls: 20, intervalMs: 600_000.0)

    func handleDNR(_ call: APICall) -> APIResult {
        let host = call.context.host
        let dnr = host.dnr
        let details = call.argument(0) ?? "{}"
        let fields = JSONText.fields(details)
        switch call.method {
        case "getEnabledRulesets":
            return .json(JSONText.array(dnr.staticRulesets.map(\.id).filter { dnr.enabled.contains($0) }.map(JSONText.string)))
        case "updateEnabledRulesets":
            let enable = JSONText.elements(fields["enableRulesetIds"] ?? "[]").map(JSONText.decodeString)
            let disable = JSONText.elements(fields["disableRulesetIds"] ?? "[]").map(JSONText.decodeString)
            for id in enable + disable where !dnr.staticRulesets.contains(where: { $0.id == id }) {
                return .error("Invalid ruleset id: \(id).")
            }
            var next = dnr.enabled.subtracting(disable).union(enable)
            if next.count > DNRLimits.maxEnabledStaticRulesets {
                return .error(options.profile == .safari ? "Only 50 rulesets can be enabled at once." : "The number of enabled static rulesets exceeds the limit.")
            }
            swap(&dnr.enabled, &next)
            dnr.invalidate()
            trace.record(.dnr, at: "browser", "enabled rulesets: \(dnr.enabled.sorted().joined(separator: ", "))")
            return .undefined
        case "updateDynamicRules", "updateSessionRules":
            let isSession = call.method == "updateSessionRules"
            let current = isSession ? dnr.sessionRules : dnr.dynamicRules
            let remove = Set(JSONText.elements(fields["removeRuleIds"] ?? "[]").compactMap { Int($0) })
            let added: [DNRRule]
            do {
                // Unknown keys: Chrome's argument checks refuse them (argument_spec.cc, "Unexpected
                // property"); WebKit's rule parser ignores them.
                added = try DNRRuleset.decodeRules(from: Data((fields["addRules"] ?? "[]").utf8), file: "addRules",
                                                   unknownKeys: options.profile == .chromium ? .reject : .ignore)
            } catch let error as InputError {
                return .error("Invalid rule: \(error.position.map { $0 + ": " } ?? "")\(error.message)")
            } catch {
                return .error("\(error)")
            }
            // Atomic: the whole resulting set is validated; on any error nothing changes.
            // Unknown removeRuleIds are ignored (Chromium's UpdateDynamicRules).
            let next = current.filter { !remove.contains($0.id) } + added
            let source: DNRRuleset.Source = isSession ? .session : .dynamic
            if let error = DNRRuleValidator.validate(ruleset: next, source: source).first {
                return .error(error.message)
            }
            let other = isSession ? dnr.dynamicRules.count : dnr.sessionRules.count
            if options.profile == .safari, next.count + other > DNRLimits.maxDynamicRules {
                // WebKit's _WKWebExtensionDeclarativeNetRequestSQLiteStore message.
                return .error("Failed to add \(isSession ? "session" : "dynamic") rules. Maximum number of dynamic and session rules exceeded.")
            }
            if isSession { dnr.sessionRules = next } else { dnr.dynamicRules = next }
            dnr.invalidate()
            trace.record(.dnr, at: "browser", "\(isSession ? "session" : "dynamic") rules now \(next.count): ids \(Self.idSummary(next.map(\.id)))")
            return .undefined
        case "getDynamicRules", "getSessionRules":
            var rules = call.method == "getSessionRules" ? dnr.sessionRules : dnr.dynamicRules
            if let ids = fields["ruleIds"] {
                let wanted = Set(JSONText.elements(ids).compactMap { Int($0) })
                rules = rules.filter { wanted.contains($0.id) }
            }
            return .json(Self.rulesJSON(rules))
        case "isRegexSupported":
            guard let regex = fields["regex"].map(JSONText.decodeString) else { return .error("Invalid regex") }
            let answer = DNRRegexSupport.check(regex)
            var out: [(String, String)] = [("isSupported", answer.isSupported ? "true" : "false")]
            if let reason = answer.reason { out.append(("reason", JSONText.string(reason))) }
            return .json(JSONText.object(out))
        case "getMatchedRules":
            return matchedRules(call, fields: fields)
        case "setExtensionActionOptions":
            return setExtensionActionOptions(call, fields: fields)
        case "getAvailableStaticRuleCount":
            // Chromium: the guaranteed minimum less the enabled static rules (the global pool
            // beyond it is not modelled).
            let used = dnr.rulesets.filter { if case .staticRuleset = $0.source { return true } else { return false } }.reduce(0) { $0 + $1.rules.count }
            return .json("\(max(0, DNRLimits.guaranteedMinimumStaticRules - used))")
        case "getDisabledRuleIds", "updateStaticRules":
            guard let raw = fields["rulesetId"], JSONText.kind(raw) == .string else { return .error("Invalid ruleset id: undefined.") }
            let id = JSONText.decodeString(raw)
            guard let ruleset = dnr.staticRulesets.first(where: { $0.id == id }) else { return .error("Invalid ruleset id: \(id).") }
            if call.method == "getDisabledRuleIds" {
                return .json(JSONText.array((dnr.disabledStaticRules[id] ?? []).sorted().map(String.init)))
            }
            let disable = JSONText.elements(fields["disableRuleIds"] ?? "[]").compactMap { Int($0) }
            let enable = JSONText.elements(fields["enableRuleIds"] ?? "[]").compactMap { Int($0) }
            // Chromium's UpdateStaticRules: ids not in the ruleset are ignored; enable wins over
            // disable for an id in both; the disabled total is capped.
            let known = Set(ruleset.rules.map(\.id))
            var next = (dnr.disabledStaticRules[id] ?? []).union(disable.filter(known.contains)).subtracting(enable)
            let others = dnr.disabledStaticRules.filter { $0.key != id }.reduce(0) { $0 + $1.value.count }
            if next.count + others > DNRLimits.maxDisabledStaticRules {
                return .error("The number of disabled static rules exceeds the limit.")
            }
            if next.isEmpty { dnr.disabledStaticRules[id] = nil } else { swap(&dnr.disabledStaticRules[id, default: []], &next) }
            dnr.invalidate()
            trace.record(.dnr, at: "browser", "static ruleset \(id): disabled rules \(Self.idSummary((dnr.disabledStaticRules[id] ?? []).sorted()))")
            return .undefined
        case "testMatchOutcome":
            return testMatchOutcome(call, fields: fields)
        default:
            return .error("declarativeNetRequest.\(call.method) is not available")
        }
    }

    /// setExtensionActionOptions: the action count as badge text, and a tab's count changed by
    /// hand. WebKit (WebExtensionAPIDeclarativeNetRequestCocoa.mm) applies only `tabUpdate` when
    /// both are given; Chrome applies both.
    private func setExtensionActionOptions(_ call: APICall, fields: [String: String]) -> APIResult {
        let host = call.context.host
        let safari = options.profile == .safari
        var update: (tab: Int, increment: Int)?
        if let raw = fields["tabUpdate"] {
            let tabUpdate = JSONText.fields(raw)
            guard let idText = tabUpdate["tabId"], let id = Int(idText), let increment = tabUpdate["increment"].flatMap({ Double($0) }) else {
                return .error(safari ? "Invalid call to declarativeNetRequest.setExtensionActionOptions(). The 'tabUpdate' value is invalid, because it is missing required keys: 'increment', 'tabId'."
                              : "Error at parameter 'options': Error at property 'tabUpdate': Missing required property 'tabId'.")
            }
            guard tab(id) != nil else {
                return .error(safari ? "Invalid call to declarativeNetRequest.setExtensionActionOptions(). The 'tabId' value is invalid, because '\(idText)' is not a valid tab identifier."
                              : "No tab with id: \(id).")
            }
            update = (id, Int(increment))
        }
        if let update {
            incrementActionCount(host, tab: update.tab, by: update.increment, reason: "\(call.name) from \(call.context.location)")
            if safari { return .undefined }
        }
        if let flag = fields["displayActionCountAsBadgeText"], flag == "true" || flag == "false" {
            let before = Dictionary(tabs.map { ($0.id, host.action.effective(tab: $0.id)) }, uniquingKeysWith: { $1 })
            host.action.showsActionCount = flag == "true"
            for tab in tabs { if let previous = before[tab.id] { traceToolbarChange(host, tab: tab.id, before: previous, reason: "\(call.name) from \(call.context.location)") } }
        }
        return .undefined
    }

    /// Changes a tab's action count (never below zero), tracing what the toolbar then shows.
    func incrementActionCount(_ host: ExtensionHost, tab: Int, by increment: Int, reason: String) {
        let before = host.action.effective(tab: tab)
        host.action.actionCounts[tab] = max(0, (host.action.actionCounts[tab] ?? 0) + increment)
        traceToolbarChange(host, tab: tab, before: before, reason: reason)
    }

    /// testMatchOutcome (Chrome 103+, unpacked extensions): the rules that would act on a
    /// request described by url, type, method, initiator and tabId, without logging anything.
    private func testMatchOutcome(_ call: APICall, fields: [String: String]) -> APIResult {
        let host = call.context.host
        guard let url = fields["url"].map(JSONText.decodeString), let typeName = fields["type"].map(JSONText.decodeString) else {
            return .error("Error at parameter 'request': Missing required property 'url'.")
        }
        guard let type = DNRResourceType(rawValue: typeName) else {
            return .error("Error at parameter 'request': Error at property 'type': Value must be one of \(DNRResourceType.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let method = fields["method"].map(JSONText.decodeString).flatMap { DNRRequestMethod(rawValue: $0) } ?? .get
        let initiator = fields["initiator"].map(JSONText.decodeString)
        let tabID = fields["tabId"].flatMap { Int($0) } ?? -1
        guard let request = try? DNRRequest(url: url, type: type, method: method, initiator: initiator, tabId: tabID,
                                            frames: initiator.map { [$0] } ?? []) else {
            return .error(DNRURL(url) == nil ? "Invalid URL." : "Invalid initiator URL.")
        }
        let outcome = host.dnr.matcher.outcome(request)
        let entries = outcome.matched.map { JSONText.object([("ruleId", "\($0.ruleID)"), ("rulesetId", JSONText.string($0.rulesetID))]) }
        return .json(JSONText.object([("matchedRules", JSONText.array(entries))]))
    }

    private func matchedRules(_ call: APICall, fields: [String: String]) -> APIResult {
        let host = call.context.host
        let dnr = host.dnr
        let manifest = host.bundle.manifest
        let tabID = fields["tabId"].flatMap { Int($0) }
        // Permission (Chromium declarative_net_request_api.cc; WebKit
        // WebExtensionContextAPIDeclarativeNetRequestCocoa.mm): the feedback permission, or
        // activeTab granted for the given tab.
        let activeTab = manifest.has("activeTab") && tabID != nil && tabID.flatMap { tab($0) }.map { activeTabGrants.contains($0.id) } == true
        if options.profile == .safari {
            // WebKit checks the permissions, not the grant, and wants a tabId with activeTab alone.
            guard manifest.has("declarativeNetRequestFeedback") || manifest.has("activeTab") else {
                return .error("Invalid call to declarativeNetRequest.getMatchedRules(). Either the 'declarativeNetRequestFeedback' or 'activeTab' permission is required.")
            }
            if !manifest.has("declarativeNetRequestFeedback"), tabID == nil {
                return .error("Invalid call to declarativeNetRequest.getMatchedRules(). The 'filter' value is invalid, because it is missing required keys: 'tabId'.")
            }
        } else if !(manifest.has("declarativeNetRequestFeedback") || activeTab) {
            return .error("The extension must have the declarativeNetRequestFeedback permission or have activeTab granted for the specified tab ID in order to call this function.")
        }
        let now = options.session.epoch + loop.now.milliseconds
        let quota = options.profile == .chromium ? Self.chromiumFeedbackQuota : feedbackQuota
        // A trusted gesture exempts the call: input being handled now, or the transient
        // activation of a popup the user opened.
        let gesture = inUserGesture || call.context.activationExpiry.map { loop.now < $0 } == true
        if let quota, !gesture {
            dnr.feedbackCalls.removeAll { now - $0 >= quota.intervalMs }
            guard dnr.feedbackCalls.count < quota.calls else {
                return .error("This request exceeds the MAX_GETMATCHEDRULES_CALLS_PER_INTERVAL quota.")
            }
            dnr.feedbackCalls.append(now)
        }
        let minTime = fields["minTimeStamp"].flatMap { Double($0) }
        let records = dnr.matches.filter { record in
            if let tabID, record.tabID != tabID { return false }
            guard let minTime else { return true }
            // Chromium includes matches at minTimeStamp; Safari excludes them.
            return options.profile == .chromium ? record.time >= minTime : record.time > minTime
        }
        let entries = records.map { record -> String in
            var fields: [(String, String)] = [("tabId", "\(record.tabID)"), ("timeStamp", Self.number(record.time))]
            if options.profile == .chromium {
                fields.append(("rule", JSONText.object([("ruleId", "\(record.rule.ruleID)"), ("rulesetId", JSONText.string(record.rule.rulesetID))])))
            } else {
                fields.append(("request", JSONText.object([("url", JSONText.string(record.url))])))
            }
            return JSONText.object(fields)
        }
        return .json(JSONText.object([("rulesMatchedInfo", JSONText.array(entries))]))
    }

    static func rulesJSON(_ rules: [DNRRule]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(rules) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func idSummary(_ ids: [Int]) -> String {
        guard ids.count > 12 else { return ids.map(String.init).joined(separator: ",") }
        return ids.prefix(6).map(String.init).joined(separator: ",") + ",… (\(ids.count) ids)"
    }
}
