/// The cascade origin of an extension-injected style sheet (WebKit's `UserStyleLevel`).
public enum UserStyleLevel: String, Sendable {
    /// Author level: joins the page's own sheets, ordered before them (WebKit's default for
    /// manifest `css`; equal-specificity page rules win ties).
    case author
    /// User level: the user origin, below author normal rules but above author `!important`
    /// ones when `!important` itself.
    case user
}
