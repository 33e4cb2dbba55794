/// Whether a user would see an element, and if not, why.
public struct Visibility: Equatable, Sendable {
    /// True when the element is rendered, visible, opaque, non-empty, in the viewport and not
    /// covered at its centre.
    public let isVisible: Bool
    /// Why not (for example `display:none on <div#ad>`, `covered by <div#overlay>`); empty when
    /// visible.
    public let reason: String
}
