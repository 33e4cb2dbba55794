import JSKit

/// A JavaScript world on a page: its own realm (globals, builtins, top-level bindings) over the
/// page's shared DOM.
///
/// Safari runs page scripts in the page world and each extension's content scripts in an
/// isolated world. A top-level `let x` in one world is invisible in the others; the nodes are
/// shared, but each world sees them through wrappers, constructors and prototypes of its own
/// (JS/boot/membrane.js), so a page's patches and a content script's expandos stay in their world.
public final class World {
    /// Which kind of world.
    public enum Kind: Equatable, Sendable {
        /// The page's own scripts.
        case page
        /// An extension's content scripts.
        case content(extensionID: String)
    }

    /// `page` or `content:<extension id>`, as traces name it.
    public let name: String
    /// The kind of world.
    public let kind: Kind
    /// The world's realm.
    public let context: JSContext
    package weak var page: Page?

    init(kind: Kind, context: JSContext) {
        self.kind = kind
        self.context = context
        switch kind {
        case .page: name = "page"
        case let .content(extensionID): name = "content:" + extensionID
        }
    }

    /// The world's global object (its `window`).
    public var global: JSValue { context.globalObject }

    /// Evaluates a script in this world.
    /// - Throws: ``JSError`` with the script's URL, line, column and stack.
    @discardableResult
    public func evaluate(_ source: String, sourceURL: String, startingLine: Int = 1) throws -> JSValue {
        noteExtensionCode(sourceURL)
        return try context.evaluate(source, sourceURL: sourceURL, startingLine: startingLine)
    }

    /// Whether an extension's script has run in this page world (a content script of world
    /// MAIN, executeScript's MAIN world).
    private var ranExtensionCode = false

    /// Tells the page's document when an extension's script first runs in its page world: until
    /// then a change made while the page world's code is innermost is the page's own, and the
    /// DOM trace need not read the stack to say so (JS/trace/dom-trace.js).
    func noteExtensionCode(_ sourceURL: String) {
        guard kind == .page, !ranExtensionCode,
              sourceURL.hasPrefix("safari-web-extension:") || sourceURL.hasPrefix("chrome-extension:") else { return }
        ranExtensionCode = true
        try? page?.document.set("_advExtensionCodeInPage", context.boolean(true))
    }

    /// Evaluates a script as the browser runs one: an exception is reported to the page (with its
    /// position and stack) instead of being thrown, and the run goes on.
    /// - Returns: true when the script ran to completion.
    @discardableResult
    public func run(_ source: String, sourceURL: String, startingLine: Int = 1, during: String? = nil) -> Bool {
        do {
            noteExtensionCode(sourceURL)
            try context.evaluate(source, sourceURL: sourceURL, startingLine: startingLine)
            return true
        } catch let error as JSError {
            page?.report(JSErrorReport(error: error, during: during ?? "script \(sourceURL)"), world: name)
            return false
        } catch {
            page?.report(JSErrorReport(error: JSError(message: "\(error)"), during: during ?? sourceURL), world: name)
            return false
        }
    }
}
