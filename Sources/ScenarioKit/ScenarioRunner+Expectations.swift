import BlockerCore
import BrowserRuntime
import Foundation
import JSKit
import WebRuntime

extension ScenarioRunner {
    /// Checks one expectation; a miss is recorded (with what was found) and the run goes on.
    func check(_ expectation: Scenario.Expectation, _ step: Scenario.Step) {
        let outcome: String?
        do {
            outcome = try evaluate(expectation, step)
        } catch let failure as StepFailure {
            outcome = failure.message
        } catch {
            outcome = "\(step.path): \(error)"
        }
        let summary = describe(expectation)
        if let outcome {
            failures.append(outcome)
            browser.trace.record(.harness, at: "scenario", "expect \(summary): FAILED")
        } else {
            browser.trace.record(.harness, at: "scenario", "expect \(summary): ok")
        }
    }

    /// nil when met; otherwise the failure message.
    private func evaluate(_ expectation: Scenario.Expectation, _ step: Scenario.Step) throws -> String? {
        switch expectation {
        case let .value(tab, worldName, expression, expected):
            let world = try self.world(worldName, tab: tab, step)
            let value = try run(world, "(\(expression))", step)
            // An expectation holds at one instant: a promise has no value yet. Said plainly, not
            // compared as the "{}" its JSON would be.
            if value.isObject, value["then"].isFunction {
                return "\(step.path): \(expression) in \(worldName) gives a promise, which has no value at this instant; "
                    + "settle it in a script step (store the result) and expect the stored value in a later step"
            }
            let actual = try canonical(value)
            return Self.sameJSON(actual, expected) ? nil : "\(step.path): \(expression) in \(worldName) is \(actual), expected \(expected)"
        case let .visible(tab, selector, wanted):
            let world = try self.world("page", tab: tab, step)
            let visible = try run(world, "(\(Self.visibilityProbe))(\(JSONText.string(selector)))", step).toBool
            return visible == wanted ? nil : "\(step.path): \(selector) is \(visible ? "visible" : "not visible"), expected \(wanted ? "visible" : "hidden")"
        case let .trace(text, channel, from, to, present):
            let channels = channel.map { Set([TraceChannel($0)]) }
            let found = browser.trace.select(channels: channels, from: from, to: to).contains { $0.line.contains(text) }
            guard found != present else { return nil }
            let window = (from != nil || to != nil) ? " between \(from ?? .zero) and \(to.map(\.description) ?? "now")" : ""
            return "\(step.path): the trace \(present ? "has no" : "has a") line\(channel.map { " on channel \($0)" } ?? "") containing \(JSONText.string(text))\(window)"
        case let .storage(area, expected):
            guard let host else { return "\(step.path): no extension is installed" }
            let actual = area == "local" ? host.localStorageJSON : host.sessionStorageJSON
            return Self.sameJSON(actual, expected) ? nil : "\(step.path): storage.\(area) is \(actual), expected \(expected)"
        case let .dynamicRules(expected):
            guard let host else { return "\(step.path): no extension is installed" }
            let actual = host.dynamicRulesJSON
            return Self.sameJSON(actual, expected) ? nil : "\(step.path): dynamic rules are \(actual), expected \(expected)"
        case let .testMessage(message, argument):
            let sent = browser.testRecords.filter { $0.kind == .message && $0.message == message }
            if let argument {
                if sent.contains(where: { Self.sameJSON($0.actual ?? "null", argument) }) { return nil }
                return "\(step.path): the extension sent no test message \(JSONText.string(message)) with \(argument)" +
                    (sent.isEmpty ? "" : " (it sent it with " + sent.map { $0.actual ?? "null" }.joined(separator: ", ") + ")")
            }
            return sent.isEmpty ? "\(step.path): the extension sent no test message \(JSONText.string(message))" : nil
        case let .nativeMessages(application, equals, lacks):
            let sent = nativeTranscript[application] ?? []
            var misses: [String] = []
            for text in lacks {
                if let index = sent.firstIndex(where: { $0.contains(text) }) { misses.append("message \(index + 1) contains \(JSONText.string(text)): \(sent[index])") }
            }
            if let equals, !Self.sameJSON("[" + sent.joined(separator: ",") + "]", equals) {
                misses.append("the messages are [\(sent.joined(separator: ","))], expected \(equals)")
            }
            return misses.isEmpty ? nil : "\(step.path): native messages to \(application): " + misses.joined(separator: "; ")
        case let .toolbar(name, icon, badge, title):
            guard let host else { return "\(step.path): no extension is installed" }
            let state = host.toolbar(for: try tab(name, step))
            var misses: [String] = []
            if let icon, state.icon != icon { misses.append("icon is \(state.icon ?? "none"), expected \(icon)") }
            if let badge, state.badge != badge { misses.append("badge is \(JSONText.string(state.badge)), expected \(JSONText.string(badge))") }
            if let title, state.title != title { misses.append("title is \(JSONText.string(state.title)), expected \(JSONText.string(title))") }
            return misses.isEmpty ? nil : "\(step.path): toolbar of tab \(name): " + misses.joined(separator: "; ")
        }
    }

    private func canonical(_ value: JSKit.JSValue) throws -> String {
        if value.isUndefined { return "undefined" }
        let text = try browser.apiModule.property("canonical").call([value]).stringValue
        return text ?? "undefined"
    }

    /// Equal as JSON values (key order and number spelling do not matter).
    static func sameJSON(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        let decoder = JSONDecoder()
        guard let left = try? decoder.decode(BlockerCore.JSONValue.self, from: Data(a.utf8)),
              let right = try? decoder.decode(BlockerCore.JSONValue.self, from: Data(b.utf8)) else { return false }
        return left == right
    }

    /// Rendered and visible as a user would see it: present, not `hidden`, no `display: none` on
    /// it or an ancestor, not `visibility: hidden`, not fully transparent (computed style).
    static let visibilityProbe = """
        function (selector) {
          const element = document.querySelector(selector);
          if (!element) return false;
          const style = (node) => (typeof getComputedStyle === "function" ? getComputedStyle(node) : node.style) || {};
          for (let node = element; node && node.nodeType === 1; node = node.parentNode) {
            if (node.hidden) return false;
            const computed = style(node);
            if (computed.display === "none") return false;
            if (node === element && (computed.visibility === "hidden" || computed.opacity === "0")) return false;
          }
          return true;
        }
        """

    private func describe(_ expectation: Scenario.Expectation) -> String {
        switch expectation {
        case let .value(_, world, expression, expected): return "\(expression) in \(world) == \(expected)"
        case let .visible(tab, selector, visible): return "\(selector) \(visible ? "visible" : "hidden") in tab \(tab)"
        case let .trace(text, channel, _, _, present): return "\(present ? "trace has" : "trace lacks") \(JSONText.string(text))" + (channel.map { " on \($0)" } ?? "")
        case let .storage(area, expected): return "storage.\(area) == \(expected)"
        case let .dynamicRules(expected): return "dynamic rules == \(expected)"
        case let .testMessage(message, argument): return "test message \(JSONText.string(message))" + (argument.map { " with \($0)" } ?? "")
        case let .nativeMessages(application, equals, lacks):
            return "native messages to \(application)" + (equals.map { " == \(Browser.abbreviate($0))" } ?? "") + (lacks.isEmpty ? "" : " lack " + lacks.map(JSONText.string).joined(separator: ", "))
        case let .toolbar(tab, icon, badge, title):
            return "toolbar of tab \(tab)" + (icon.map { " icon=\($0)" } ?? "") + (badge.map { " badge=\(JSONText.string($0))" } ?? "") + (title.map { " title=\(JSONText.string($0))" } ?? "")
        }
    }
}
