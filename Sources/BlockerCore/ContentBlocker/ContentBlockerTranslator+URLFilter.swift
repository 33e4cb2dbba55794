extension ContentBlockerTranslator {
    /// `_regexURLFilterForChromeURLFilter`: `||` → `^[^:]+://+([^:/]+\.)?`, `|` → `^`/`$`,
    /// `*` → `.*`, `^` → `[^a-zA-Z0-9_.%-]`, other regex characters escaped.
    public static func regex(forURLFilter filter: String) -> String? {
        if filter.isEmpty { return nil }
        var body = Substring(filter)
        let domainAnchor = body.hasPrefix("||")
        if domainAnchor { body = body.dropFirst(2) }
        let startAnchor = !domainAnchor && body.hasPrefix("|")
        if startAnchor { body = body.dropFirst() }
        let endAnchor = body.hasSuffix("|")
        if endAnchor { body = body.dropLast() }
        var regex = escape(String(body), characters: "?+[(){}$|\\.")
        regex = regex.replacingOccurrences(of: "*", with: ".*")
        regex = regex.replacingOccurrences(of: "^", with: "[^a-zA-Z0-9_.%-]")
        if domainAnchor { regex = "^[^:]+://+([^:/]+\\.)?" + regex }
        if startAnchor { regex = "^" + regex }
        if endAnchor { regex += "$" }
        return regex
    }

    static func frameURLRegex(_ domain: String) -> String {
        "^[^:]+://+([^:/]+\\.)?" + escape(domain, characters: "*?+[(){}^$|\\.") + "/.*"
    }

    static func escape(_ text: String, characters: String) -> String {
        var output = ""
        for character in text {
            if characters.contains(character) { output.append("\\") }
            output.append(character)
        }
        return output
    }
}
