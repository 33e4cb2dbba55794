import Foundation
/// A trace channel: what kind of effect an event records. Traces can be filtered by channel.
public struct TraceChannel: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { rawValue = name }

    /// Toolbar icon, badge and title changes (the toolbar state).
    public static let toolbar = TraceChannel("toolbar")
    /// Media element state changes and who made them.
    public static let media = TraceChannel("media")
    /// DOM, stylesheet and inline-style changes made by extension worlds; dispatched clicks.
    public static let dom = TraceChannel("dom")
    /// browser.storage calls and changes.
    public static let storage = TraceChannel("storage")
    /// browser.declarativeNetRequest calls and rule changes.
    public static let dnr = TraceChannel("dnr")
    /// Requests and the blocking decision for each.
    public static let network = TraceChannel("network")
    /// Other browser.* calls (runtime, tabs, webNavigation, action getters...).
    public static let api = TraceChannel("api")
    /// Navigation, tab and frame lifecycle.
    public static let navigation = TraceChannel("navigation")
    /// console.* output of every world.
    public static let console = TraceChannel("console")
    /// Uncaught script errors with file:line:column.
    public static let error = TraceChannel("error")
    /// Harness steps and expectations.
    public static let harness = TraceChannel("harness")

    public var description: String { rawValue }
    public static func < (lhs: TraceChannel, rhs: TraceChannel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One observable effect, one line of a trace.
///
/// Example line: `    1500ms tab1/top/content:adv console log: hid 1 ad slot(s)`
public struct TraceEvent: Equatable, Sendable {
    /// When it happened on the virtual clock.
    public let time: VirtualTime
    /// Where: `tab1/top/page`, `tab1/frame2/content:<ext>`, `background`, `popup`, `browser`.
    public let location: String
    /// What kind of effect.
    public let channel: TraceChannel
    /// What happened, with any JSON argument written with sorted keys.
    public let text: String

    /// Makes an event.
    public init(time: VirtualTime, location: String, channel: TraceChannel, text: String) {
        self.time = time
        self.location = location
        self.channel = channel
        self.text = text
    }

    /// The event as one trace line: time right-aligned to 10 characters, then where, channel, what.
    /// A line break inside the text (a multi-line error message, a console message) is written
    /// as `\n` (a carriage return as `\r`), so that every event stays one line of the trace.
    public var line: String {
        let stamp = time.description
        let padded = stamp.count < 10 ? String(repeating: " ", count: 10 - stamp.count) + stamp : stamp
        var shown = text
        if shown.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            shown = shown.replacingOccurrences(of: "\r\n", with: "\\r\\n").replacingOccurrences(of: "\n", with: "\\n")
                .replacingOccurrences(of: "\r", with: "\\r")
        }
        return "\(padded) \(location) \(channel) \(shown)"
    }
}
