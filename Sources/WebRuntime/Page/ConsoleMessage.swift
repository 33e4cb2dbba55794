/// One `console.*` call captured from a world (nothing is printed).
public struct ConsoleMessage: Equatable, Sendable, CustomStringConvertible {
    /// Virtual time of the call.
    public let time: VirtualTime
    /// The world that logged it (`page`, `content:<id>`).
    public let world: String
    /// `log`, `info`, `warn`, `error`, `debug` or `trace`.
    public let level: String
    /// The arguments, formatted as a browser console would (`%s`/`%d`/`%o` substitutions applied).
    public let text: String

    /// `12ms page log: hello`.
    public var description: String { "\(time) \(world) \(level): \(text)" }
}
