import JSKit

extension Page {
    /// Adds an extension's style sheet to the page, as WebKit injects manifest `css` files and
    /// `scripting.insertCSS`: not in `document.styleSheets`, not visible to page script, applied
    /// at `level` in the cascade.
    /// - Throws: ``JSError`` when the page is closed.
    public func injectUserStyleSheet(_ css: String, extensionID: String, level: UserStyleLevel = .author) throws {
        try callWeb("cascade", "injectUserStyleSheet", [document, css, extensionID, level.rawValue])
    }

    /// Removes the style sheets `extensionID` injected: every one, or only those with the text
    /// `css` (and at `level`, when given).
    /// - Returns: how many were removed.
    /// - Throws: ``JSError`` when the page is closed.
    @discardableResult
    public func removeUserStyleSheets(extensionID: String, css: String? = nil, level: UserStyleLevel? = nil) throws -> Int {
        Int(try callWeb("cascade", "removeUserStyleSheets", [document, extensionID, css, level?.rawValue]).toNumber())
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
        try computedStyle(of: try element(selector), property)
    }

    /// Fires a plain `type` event (not bubbling, not cancelable, untrusted as a script's) at
    /// `element`, an element of this page: a resource's load or error.
    public func fire(_ type: String, at element: JSValue) {
        _ = try? handle.invoke("fire", [element, handle.context.string(type)])
    }

    /// The computed value of `property` for `element` (an element of this page).
    /// - Throws: ``JSError``.
    public func computedStyle(of element: JSValue, _ property: String) throws -> String {
        // The engine's own function (the page's world sees it through the membrane).
        let view = try handle.property("shared").property("getComputedStyle").call([element])
        return try view.invoke("getPropertyValue", [handle.context.string(property)]).toString()
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
