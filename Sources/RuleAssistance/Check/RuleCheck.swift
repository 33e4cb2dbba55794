/// A fixture page to check rules against: its element tree and the name messages use.
public struct RulePage: Sendable {
    public let name: String
    public let tree: HTMLTree
    /// When set, only rules of this hostname are matched on the page (a page of another host
    /// would never get them); nil: the page stands in for every hostname's pages.
    public let hostname: String?

    /// A page named `name` (a file name, a URL) built from `html`.
    public init(name: String, html: String, hostname: String? = nil) {
        self.name = name
        self.tree = HTMLTree(html: html)
        self.hostname = hostname
    }
}

/// "Check existing filters": deterministic diagnostics of up to ``maxRules`` personal filters.
///
/// Findings, per rule: invalid syntax (``SelectorSyntax``), a duplicate of an earlier rule of the
/// same hostname (``SelectorText/normalized(_:)``), likely generated names (``GeneratedNames``),
/// positional selectors (``PositionalSelectors``), and with a page: no matches there, and the
/// page-local overlap of its matched elements with another rule of the same hostname (the same
/// elements, a superset or a subset). Findings come in the order of the rules, then of
/// ``Finding/Kind``, then of the other rule.
public enum RuleCheck {
    /// The most rules one check takes (the spec's "up to 80 rules"); more is an error rather
    /// than a silent cut, since duplicates and overlaps with the rules left out would be missed.
    public static let maxRules = 80

    /// The findings for `rules`, with the page-based ones when `page` is given.
    /// - Throws: ``RuleCheckError/tooManyRules(count:)`` for more than ``maxRules`` rules.
    public static func check(_ rules: [CheckedRule], page: RulePage? = nil) throws(RuleCheckError) -> [Finding] {
        guard rules.count <= maxRules else { throw .tooManyRules(count: rules.count) }
        let parsed = rules.map { rule -> Result<SelectorList, SelectorSyntax.Problem> in
            Result { () throws(SelectorSyntax.Problem) in try SelectorSyntax.parse(rule.selector) }
        }
        var findings: [[Finding]] = Array(repeating: [], count: rules.count)
        var firstOfText: [String: Int] = [:]
        var duplicateOf: [Int: Int] = [:]
        for (index, rule) in rules.enumerated() {
            let key = rule.hostname + "\n" + SelectorText.normalized(rule.selector)
            if let first = firstOfText[key] { duplicateOf[index] = first } else { firstOfText[key] = index }
        }
        let matcher = page.map { SelectorMatcher(tree: $0.tree) }
        var matched: [Int: [Int]] = [:]
        for (index, rule) in rules.enumerated() {
            let name = Self.name(rule)
            switch parsed[index] {
            case .failure(let problem):
                findings[index].append(Finding(kind: .invalidSyntax, rule: rule, other: nil, relation: nil, detail: nil, message:
                    "\(name): '\(rule.selector)' is not a valid selector: \(problem). ADV never applies it; correct or remove it."))
            case .success: break
            }
            if let first = duplicateOf[index] {
                let other = rules[first]
                findings[index].append(Finding(kind: .duplicate, rule: rule, other: other, relation: nil, detail: nil, message:
                    "\(name): '\(rule.selector)' is the same selector as rule \(other.id) ('\(other.selector)') on the same hostname; one of them can be removed."))
            }
            guard case .success(let list) = parsed[index] else { continue }
            if let (token, why) = generatedToken(list) {
                findings[index].append(Finding(kind: .likelyGenerated, rule: rule, other: nil, relation: nil, detail: token, message:
                    "\(name): '\(rule.selector)' relies on '\(token)', which looks generated (\(why)); such names often change with the site's next build or visit. Prefer a stable class, attribute or ancestor."))
            }
            if let (code, why) = PositionalSelectors.reason(list) {
                findings[index].append(Finding(kind: .positional, rule: rule, other: nil, relation: nil, detail: code, message:
                    "\(name): '\(rule.selector)' selects by position: \(why). It can hide other content when the page's layout changes."))
            }
            if let page, let matcher, page.hostname == nil || page.hostname == rule.hostname {
                let elements = matcher.matches(list)
                matched[index] = elements
                if elements.isEmpty {
                    findings[index].append(Finding(kind: .noMatches, rule: rule, other: nil, relation: nil, detail: nil, message:
                        "\(name): '\(rule.selector)' matches nothing on \(page.name). \(Finding.pageCaveat)"))
                }
            }
        }
        if let page { overlaps(rules, matched: matched, duplicateOf: duplicateOf, page: page, into: &findings) }
        // Stable: within a kind, findings keep the order of the other rule.
        let rank = { (finding: Finding) in Finding.Kind.allCases.firstIndex(of: finding.kind) ?? 0 }
        return findings.flatMap { list in
            list.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        }
    }

    /// `rule r1 on example.com`
    static func name(_ rule: CheckedRule) -> String { "rule \(rule.id) on \(rule.hostname)" }

    private static func overlaps(_ rules: [CheckedRule], matched: [Int: [Int]], duplicateOf: [Int: Int], page: RulePage, into findings: inout [[Finding]]) {
        for later in rules.indices {
            guard let laterSet = matched[later].map(Set.init), !laterSet.isEmpty else { continue }
            for earlier in 0..<later where rules[earlier].hostname == rules[later].hostname && duplicateOf[later] != earlier {
                guard let earlierSet = matched[earlier].map(Set.init), !earlierSet.isEmpty else { continue }
                let relation: Overlap
                if laterSet == earlierSet { relation = .sameElements }
                else if laterSet.isSuperset(of: earlierSet) { relation = .contains }
                else if laterSet.isSubset(of: earlierSet) { relation = .containedIn }
                else { continue }
                let rule = rules[later], other = rules[earlier]
                let what: String
                switch relation {
                case .sameElements: what = "matches the same \(count(laterSet.count)) as rule \(other.id) ('\(other.selector)')"
                case .contains: what = "matches everything rule \(other.id) ('\(other.selector)') matches (\(count(earlierSet.count))) and \(laterSet.count - earlierSet.count) more"
                case .containedIn: what = "matches only elements rule \(other.id) ('\(other.selector)') also matches (\(laterSet.count) of its \(earlierSet.count))"
                }
                findings[later].append(Finding(kind: .overlap, rule: rule, other: other, relation: relation, detail: nil, message:
                    "\(name(rule)): on \(page.name), '\(rule.selector)' \(what). \(Finding.pageCaveat)"))
            }
        }
    }

    private static func count(_ n: Int) -> String { n == 1 ? "1 element" : "\(n) elements" }

    /// The first id or class name, in selector order, that looks generated.
    private static func generatedToken(_ list: SelectorList) -> (String, String)? {
        for selector in list.selectors {
            for compound in selector.compounds {
                for simple in compound.simples {
                    switch simple {
                    case .id(let name), .className(let name):
                        if let why = GeneratedNames.reason(name) { return (name, why) }
                    case .pseudoClass(.not(let inner)), .pseudoClass(.is(let inner)), .pseudoClass(.where(let inner)), .pseudoClass(.has(let inner)):
                        if let found = generatedToken(inner) { return found }
                    case .pseudoClass(.nth(_, _, _, let of?)):
                        if let found = generatedToken(of) { return found }
                    default: break
                    }
                }
            }
        }
        return nil
    }
}
