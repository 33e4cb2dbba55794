import JSKit

/// The cascade origin of an extension-injected style sheet (WebKit's `UserStyleLevel`).
public enum UserStyleLevel: String, Sendable {
    /// Author level: joins the page's own sheets, ordered before them (WebKit's default for
    /// manifest `css`; equal-specificity page rules win ties).
    case author
    /// User level: the user origin, below author normal rules but above author `!important`
    /// ones when `!important` itself.
    case user
}

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

/// A change a page made to its style sheets through CSSOM or a `<style>`'s text. Such changes
/// produce no MutationObserver records in browsers, so the harness reports them here.
public struct SheetChange: Equatable, Sendable, CustomStringConvertible {
    /// `insertRule`, `deleteRule`, `disabled`, `media`, `style` (a rule's declaration), `replace`,
    /// or `text` (a `<style>` element's text changed).
    public let what: String
    /// Index of the sheet in `document.styleSheets` at the time (-1 when not known).
    public let sheetIndex: Int
    /// Virtual time of the change, in epoch milliseconds.
    public let time: Double

    public var description: String { "\(what) sheet \(sheetIndex)" }
}

extension Page {
    /// Adds an extension's style sheet to the page, as WebKit injects manifest `css` files and
    /// `scripting.insertCSS`: not in `document.styleSheets`, not visible to page script, applied
    /// at `level` in the cascade.
    /// - Throws: ``JSError`` when the page is closed.
    public func injectUserStyleSheet(_ css: String, extensionID: String, level: UserStyleLevel = .author) throws {
        try callWeb("cascade", "injectUserStyleSheet", [document, css, extensionID, level.rawValue])
    }

    /// Removes every style sheet `extensionID` injected.
    /// - Returns: how many were removed.
    /// - Throws: ``JSError`` when the page is closed.
    @discardableResult
    public func removeUserStyleSheets(extensionID: String) throws -> Int {
        Int(try callWeb("cascade", "removeUserStyleSheets", [document, extensionID]).toNumber())
    }

    /// Resizes the viewport (or changes its colour scheme): media queries are re-evaluated,
    /// `MediaQueryList` `change` events fire, intersection observers are re-checked.
    /// - Throws: ``JSError`` when the page is closed.
    public func setViewport(_ viewport: Viewport) throws {
        try callWeb("cascade", "setViewport", [document, Double(viewport.width), Double(viewport.height), viewport.colorScheme])
        try callWeb("geometry", "viewportChanged", [document])
    }

    /// The computed value of `property` (hyphenated, e.g. `pointer-events`) for the first element
    /// matching `selector`: what `getComputedStyle` returns to page script.
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func computedStyle(_ selector: String, _ property: String) throws -> String {
        let element = try element(selector)
        let view = try pageWorld.global.property("getComputedStyle").call([element])
        return try view.invoke("getPropertyValue", [pageWorld.context.string(property)]).toString()
    }

    /// The CSSOM and `<style>` text changes since the last call, oldest first.
    /// - Throws: ``JSError`` when the page is closed.
    public func takeSheetChanges() throws -> [SheetChange] {
        let list = try callWeb("cssom", "takeSheetChanges", [document])
        let count = Int(try list["length"].toNumber())
        return try (0..<count).map { index in
            let item = list[index]
            return SheetChange(what: try item["what"].toString(), sheetIndex: Int(try item["sheet"].toNumber()),
                               time: try item["time"].toNumber())
        }
    }
}
