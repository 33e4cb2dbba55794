/// The viewport media queries, `innerWidth`/`innerHeight` and geometry are evaluated against.
public struct Viewport: Equatable, Sendable {
    /// Width in CSS px.
    public var width: Int
    /// Height in CSS px.
    public var height: Int
    /// `prefers-color-scheme`: `light` or `dark`.
    public var colorScheme: String

    /// A viewport; the default is a 1280×800 light-mode window.
    public init(width: Int = 1280, height: Int = 800, colorScheme: String = "light") {
        self.width = width
        self.height = height
        self.colorScheme = colorScheme
    }
}
