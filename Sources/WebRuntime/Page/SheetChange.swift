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

    /// `insertRule sheet 0`.
    public var description: String { "\(what) sheet \(sheetIndex)" }
}
