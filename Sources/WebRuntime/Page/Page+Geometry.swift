import JSKit

/// Layout the harness declares: boxes, scrolling, and the visibility judgement built on them
/// (see JS/layout/geometry.js for where a box comes from when none is declared).
extension Page {
    /// Declares the border box of the first element matching `selector`, in document
    /// coordinates: getBoundingClientRect, offset*, elementFromPoint and IntersectionObserver
    /// follow from it.
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func setBox(_ selector: String, _ rect: Rect) throws {
        try callWeb("geometry", "setBox", [try element(selector), rect.x, rect.y, rect.width, rect.height])
    }

    /// Scrolls the document to (`x`, `y`); a `scroll` event follows as a task.
    /// - Throws: ``JSError`` when the page is closed.
    public func scroll(toX x: Double, y: Double) throws {
        try callWeb("geometry", "scrollTo", [document, x, y])
    }

    /// The border box of the first element matching `selector` in viewport coordinates, or nil
    /// when it has none (display:none on it or an ancestor).
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func rect(of selector: String) throws -> Rect? {
        let r = try callWeb("geometry", "rect", [try element(selector)])
        guard r.isObject else { return nil }
        return Rect(x: try r["x"].toNumber(), y: try r["y"].toNumber(), width: try r["width"].toNumber(), height: try r["height"].toNumber())
    }

    /// Whether a user would see the first element matching `selector`.
    /// - Parameters:
    ///   - inViewport: require the box to intersect the viewport.
    ///   - uncovered: require no other element to cover the box's centre.
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func visibility(of selector: String, inViewport: Bool = true, uncovered: Bool = true) throws -> Visibility {
        let v = try callWeb("geometry", "visibility", [try element(selector), inViewport, uncovered])
        return Visibility(isVisible: v["visible"].toBool, reason: try v["reason"].toString())
    }
}
