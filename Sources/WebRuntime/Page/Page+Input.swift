import JSKit

/// Trusted user input: events the harness dispatches have `isTrusted` true, as a real user's
/// would; page script can only make untrusted ones (`dispatchEvent`, `element.click()`).
extension Page {
    /// Clicks the first element matching `selector` at its centre: pointerdown, mousedown,
    /// focus, pointerup, mouseup, click, then activation (a checkbox toggles and fires input and
    /// change).
    /// - Returns: false when a listener cancelled the click.
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    @discardableResult
    public func click(_ selector: String) throws -> Bool {
        try callWeb("input", "click", [try element(selector)]).toBool
    }

    /// Presses and releases `key` (a KeyboardEvent `key` value: `"a"`, `"Enter"`, `"Escape"`…)
    /// at the focused element, or the body: keydown, keypress, the edit, keyup.
    /// - Returns: false when keydown was cancelled.
    /// - Throws: ``JSError`` when the page is closed.
    @discardableResult
    public func pressKey(_ key: String) throws -> Bool {
        try callWeb("input", "pressKey", [document, key]).toBool
    }

    /// Focuses the first element matching `selector` (as a user tabbing or clicking to it would),
    /// then types `text` one key at a time.
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func type(_ text: String, into selector: String) throws {
        try callWeb("input", "type", [try element(selector), text])
    }

    /// Moves focus to the first element matching `selector`: blur/focusout, focus/focusin.
    /// - Returns: false when the element is not focusable (not rendered, disabled, or not a
    ///   focusable kind of element).
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    @discardableResult
    public func focus(_ selector: String) throws -> Bool {
        try callWeb("input", "focus", [try element(selector)]).toBool
    }

    /// Removes focus from the first element matching `selector`; a text field whose value
    /// changed since it got focus fires `change` first.
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func blur(_ selector: String) throws {
        try callWeb("input", "blur", [try element(selector)])
    }

    /// Chooses `value` in a `<select>` (or sets a control's value as a user edit): input, change.
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func choose(_ value: String, in selector: String) throws {
        try callWeb("input", "select", [try element(selector), value])
    }
}
