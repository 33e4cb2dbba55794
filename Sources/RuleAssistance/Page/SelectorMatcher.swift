/// Evaluates parsed selectors on an ``HTMLTree`` as `querySelectorAll` would on a page nobody
/// interacts with.
///
/// Pseudo-classes of state the tree cannot know match nothing: user action (`:hover`, `:focus`,
/// `:active`, …), `:target`, `:visited`, media and fullscreen states, `:open`, `:modal`,
/// `:popover-open`, form validity (`:valid`, `:invalid`, `:user-*`, `:in-range`, …), `:autofill`,
/// `:default`, `:indeterminate`, `:placeholder-shown`, `:read-only`, `:read-write`, `:host`, `:state()`, and `:dir()` (which
/// would need the bidirectional algorithm). Attribute values compare case-sensitively unless the
/// `i` flag is given (HTML's list of attributes whose values compare case-insensitively is not
/// applied). As in `querySelectorAll`, a selector ending in a pseudo-element (`p::before`) matches
/// no element.
public struct SelectorMatcher: Sendable {
    public let tree: HTMLTree

    /// A matcher over `tree`.
    public init(tree: HTMLTree) { self.tree = tree }

    /// Indices of the elements `list` matches, in document order.
    public func matches(_ list: SelectorList) -> [Int] {
        tree.queryable.filter { matches(list, element: $0, scope: nil) }
    }

    // MARK: - Lists and complex selectors

    func matches(_ list: SelectorList, element: Int, scope: Int?) -> Bool {
        list.selectors.contains { matches($0, element: element, scope: scope) }
    }

    private func matches(_ selector: ComplexSelector, element: Int, scope: Int?) -> Bool {
        matches(selector, upTo: selector.compounds.count - 1, element: element, scope: scope)
    }

    /// Whether `compounds[0...last]` match with `compounds[last]` on `element`; for a relative
    /// selector the leftmost compound must also stand in its leading relation to `scope`.
    private func matches(_ selector: ComplexSelector, upTo last: Int, element: Int, scope: Int?) -> Bool {
        guard matches(selector.compounds[last], element: element, scope: scope) else { return false }
        if last == 0 {
            guard let leading = selector.leading, let scope else { return true }
            return related(element, to: scope, by: leading)
        }
        let combinator = selector.combinators[last - 1]
        for candidate in candidates(from: element, by: combinator) where matches(selector, upTo: last - 1, element: candidate, scope: scope) {
            return true
        }
        return false
    }

    /// The elements that can stand on the left of `combinator` when `element` is on its right.
    private func candidates(from element: Int, by combinator: Combinator) -> [Int] {
        switch combinator {
        case .descendant: return ancestors(of: element)
        case .child: return tree.elements[element].parent.map { [$0] } ?? []
        case .nextSibling: return previousSibling(of: element).map { [$0] } ?? []
        case .subsequentSibling: return previousSiblings(of: element)
        }
    }

    /// Whether `element` stands in `combinator`'s relation to `scope` (`:has(> img)`: `element` is a child of `scope`).
    private func related(_ element: Int, to scope: Int, by combinator: Combinator) -> Bool {
        candidates(from: element, by: combinator).contains(scope)
    }

    private func ancestors(of element: Int) -> [Int] {
        var result: [Int] = []
        var next = tree.elements[element].parent
        while let parent = next {
            result.append(parent)
            next = tree.elements[parent].parent
        }
        return result
    }

    private func siblings(of element: Int) -> [Int] {
        guard let parent = tree.elements[element].parent else { return [element] }
        return tree.elements[parent].children
    }

    private func previousSiblings(of element: Int) -> [Int] {
        let all = siblings(of: element)
        guard let position = all.firstIndex(of: element) else { return [] }
        return Array(all[..<position].reversed())
    }

    private func previousSibling(of element: Int) -> Int? { previousSiblings(of: element).first }

    // MARK: - Compound and simple selectors

    private func matches(_ compound: CompoundSelector, element: Int, scope: Int?) -> Bool {
        // querySelectorAll never returns an element for a pseudo-element (`p::before`).
        if compound.pseudoElement != nil { return false }
        let node = tree.elements[element]
        if let name = compound.typeName, name != "*", name != "", node.name != name { return false }
        return compound.simples.allSatisfy { matches($0, element: element, scope: scope) }
    }

    private func matches(_ simple: SimpleSelector, element: Int, scope: Int?) -> Bool {
        let node = tree.elements[element]
        switch simple {
        case .id(let id): return node.attribute("id") == id
        case .className(let name): return node.classes.contains(name)
        case .attribute(let attribute): return matches(attribute, node)
        case .pseudoClass(let pseudo): return matches(pseudo, element: element, scope: scope)
        }
    }

    private func matches(_ selector: AttributeSelector, _ node: HTMLTree.Element) -> Bool {
        guard var value = node.attribute(selector.name) else { return false }
        var wanted = selector.value
        if selector.caseInsensitive {
            value = Self.asciiLowercased(value)
            wanted = Self.asciiLowercased(wanted)
        }
        switch selector.op {
        case .exists: return true
        case .equals: return value == wanted
        case .includes:
            return !wanted.isEmpty && !wanted.contains(where: { " \t\n\r\u{0C}".contains($0) })
                && value.split(whereSeparator: { " \t\n\r\u{0C}".contains($0) }).contains { $0 == wanted }
        case .dashMatch: return value == wanted || value.hasPrefix(wanted + "-")
        case .prefix: return !wanted.isEmpty && value.hasPrefix(wanted)
        case .suffix: return !wanted.isEmpty && value.hasSuffix(wanted)
        case .substring: return !wanted.isEmpty && value.contains(wanted)
        }
    }

    static func asciiLowercased(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32) ?? $0 : $0 }))
    }
}
