import Foundation

/// Where upgradeScheme and redirect actions send a request (request_action.cc,
/// ruleset_matcher_base.cc CreateRedirectActionFromMatchingRule / GetTransformedURL).
public enum DNRRedirectTarget {
    /// http → https, ftp → https (Chromium's upgrade target).
    static func upgraded(_ url: DNRURL) -> String {
        let text = url.string
        guard let colon = text.firstIndex(of: ":") else { return text }
        return "https" + text[colon...]
    }

    static func resolve(_ rule: CompiledRule, request: DNRRequest, extensionBaseURL: String) -> String? {
        guard let redirect = rule.rule.action.redirect else { return nil }
        if let url = redirect.url { return url }
        if let path = redirect.extensionPath { return extensionBaseURL + path }
        if let transform = redirect.transform { return apply(transform, to: request.url.string) }
        if let substitution = redirect.regexSubstitution, let regex = rule.regex?.regex {
            let text = request.url.string
            let range = NSRange(text.startIndex..., in: text)
            guard let match = regex.firstMatch(in: text, range: range) else { return nil }
            // RE2 `\1` groups become ICU `$1`; a literal `$` is escaped first.
            let template = substitution.replacingOccurrences(of: "$", with: "\\$")
                .replacingOccurrences(of: #"\\([0-9])"#, with: "\\$$1", options: .regularExpression)
            let replaced = regex.replacementString(for: match, in: text, offset: 0, template: template)
            guard let swiftRange = Range(match.range, in: text) else { return nil }
            return text.replacingCharacters(in: swiftRange, with: replaced)
        }
        return nil
    }

    /// Where WebKit's `redirect` action sends a request (ContentExtensionActions.cpp,
    /// RedirectAction::parse and applyToRequest): the first of extension-path, regex-substitution,
    /// transform and url the action carries. A regex substitution is the whole new URL, with
    /// `\0`…`\9` replaced by the regexFilter's match and groups (Chromium replaces only the
    /// matched part of the URL); an invalid result leaves the URL as it was.
    public static func webKit(_ rule: DNRRule, url: String, extensionBaseURL: String) -> String? {
        guard let redirect = rule.action.redirect else { return nil }
        if let path = redirect.extensionPath { return extensionBaseURL + path }
        if let substitution = redirect.regexSubstitution {
            guard let pattern = rule.condition.regexFilter, let regex = try? NSRegularExpression(pattern: pattern),
                  let match = regex.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)) else { return url }
            var result = substitution
            for group in 0..<min(10, match.numberOfRanges) {
                let range = match.range(at: group)
                let text = range.location == NSNotFound ? "" : (Range(range, in: url).map { String(url[$0]) } ?? "")
                result = result.replacingOccurrences(of: "\\\(group)", with: text)
            }
            return DNRURL(result) == nil ? url : result
        }
        if let transform = redirect.transform { return apply(transform, to: url) }
        return redirect.url
    }

    private static func apply(_ transform: DNRRedirect.URLTransform, to url: String) -> String? {
        guard var components = URLComponents(string: url) else { return nil }
        if let scheme = transform.scheme { components.scheme = scheme }
        if let host = transform.host { components.host = host }
        if let port = transform.port { components.port = port.isEmpty ? nil : Int(port) }
        if let path = transform.path { components.path = path.isEmpty ? "/" : path }
        if let query = transform.query { components.percentEncodedQuery = query.isEmpty ? nil : String(query.dropFirst()) }
        if let queryTransform = transform.queryTransform {
            var items = components.queryItems ?? []
            if let remove = queryTransform.removeParams { items.removeAll { remove.contains($0.name) } }
            for change in queryTransform.addOrReplaceParams ?? [] {
                if let index = items.firstIndex(where: { $0.name == change.key }) {
                    items[index].value = change.value
                } else if change.replaceOnly != true {
                    items.append(URLQueryItem(name: change.key, value: change.value))
                }
            }
            components.queryItems = items.isEmpty ? nil : items
        }
        if let fragment = transform.fragment { components.fragment = fragment.isEmpty ? nil : String(fragment.dropFirst()) }
        if let username = transform.username { components.user = username }
        if let password = transform.password { components.password = password }
        return components.string
    }
}
