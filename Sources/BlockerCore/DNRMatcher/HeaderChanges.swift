/// Applies modifyHeaders rules to a header list, rules from the highest-ranked down, in each
/// browser's way:
/// - Chromium: once a rule has set or removed a header, lower rules leave it alone, and after an
///   append only further appends apply (Chrome's modifyHeaders documentation, "the order of
///   header modifications"); a request append joins values with `, `, a response append adds a
///   header line.
/// - WebKit (ContentExtensionActions.cpp, ModifyHeadersAction::ModifyHeaderInfo::applyToRequest
///   with headerNameToFirstOperationApplied): set and remove apply only to a header no earlier
///   rule touched; append applies unless the first operation was a remove, and joins values
///   with `; `. WebKit applies `modify-headers` to requests only: response header changes are
///   parsed and never applied (applyResultsToRequest).
public enum HeaderChanges {
    /// Whose rules of precedence.
    public enum Style: Sendable { case chromium, webkit }

    /// One change that took effect: `set x-test: 1`, `remove cookie`, `append accept-language: fr`.
    public struct Applied: Sendable, Hashable, CustomStringConvertible {
        /// The rule that made it.
        public let rule: DNRMatchedRule
        /// The change.
        public let change: DNRModifyHeaderInfo

        /// `set x-test: 1`
        public var description: String {
            let name = change.header.lowercased()
            return change.operation == .remove ? "remove \(name)" : "\(change.operation.rawValue) \(name): \(change.value ?? "")"
        }
    }

    /// `headers` (name, value pairs; names compared case-insensitively) after `rules`.
    /// - Parameter request: true for request headers, false for response headers.
    /// - Returns: the new list and each change that took effect, in order.
    public static func apply(_ rules: [DNROutcome.HeaderRule], to headers: [(name: String, value: String)], request: Bool,
                             style: Style) -> (headers: [(name: String, value: String)], applied: [Applied])
    {
        if style == .webkit && !request { return (headers, []) }
        var result = headers
        var first: [String: DNRModifyHeaderInfo.Operation] = [:]
        var applied: [Applied] = []
        for rule in rules {
            for change in request ? rule.requestHeaders : rule.responseHeaders {
                let name = change.header.lowercased()
                let earlier = first[name]
                let allowed: Bool
                switch (style, change.operation) {
                case (_, .set), (_, .remove): allowed = earlier == nil
                case (.chromium, .append): allowed = earlier == nil || earlier == .append
                case (.webkit, .append): allowed = earlier != .remove
                }
                guard allowed else { continue }
                switch change.operation {
                case .set, .remove:
                    result.removeAll { $0.name.lowercased() == name }
                    if change.operation == .set { result.append((change.header, change.value ?? "")) }
                case .append:
                    let value = change.value ?? ""
                    if request, let index = result.firstIndex(where: { $0.name.lowercased() == name }) {
                        result[index].value += (style == .webkit ? "; " : ", ") + value
                    } else {
                        result.append((change.header, value))
                    }
                }
                if earlier == nil { first[name] = change.operation }
                applied.append(Applied(rule: rule.rule, change: change))
            }
        }
        return (result, applied)
    }
}
