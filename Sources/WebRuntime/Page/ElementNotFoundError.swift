/// An element the harness named by selector is not on the page.
public struct ElementNotFoundError: Error, CustomStringConvertible {
    /// The CSS selector that matched nothing.
    public let selector: String
    /// The page's URL.
    public let url: String
    /// `no element matches '#ad' on https://…; check the selector against the fixture`.
    public var description: String { "no element matches '\(selector)' on \(url); check the selector against the fixture" }
}
