extension SelectorMatcher {
    /// Form controls `:disabled` and `:enabled` apply to.
    static let formControls: Set<String> = ["button", "input", "select", "textarea", "optgroup", "option", "fieldset"]

    func matches(_ pseudo: PseudoClass, element: Int, scope: Int?) -> Bool {
        let node = tree.elements[element]
        switch pseudo {
        case .keyword(let name): return matchesKeyword(name, element: element, scope: scope)
        case .not(let list): return !matches(list, element: element, scope: scope)
        case .is(let list), .where(let list): return matches(list, element: element, scope: scope)
        case .has(let list):
            // Relative selectors are anchored at this element: try every element after it.
            return tree.queryable.contains { candidate in
                candidate != element && matches(list, element: candidate, scope: element)
            }
        case .nth(let kind, let a, let b, let of):
            let position = nthPosition(kind, element: element, of: of)
            guard let position else { return false }
            return Self.fits(position, a: a, b: b)
        case .lang(let ranges):
            var next: Int? = element
            while let index = next {
                if let lang = tree.elements[index].attribute("lang") {
                    let tag = Self.asciiLowercased(lang)
                    return ranges.contains { range in
                        let wanted = Self.asciiLowercased(range)
                        return wanted == "*" || tag == wanted || tag.hasPrefix(wanted + "-")
                    }
                }
                next = tree.elements[index].parent
            }
            return false
        case .dir, .neverMatches:
            _ = node
            return false
        }
    }

    /// Whether position `n` (1-based) is An+B for some n ≥ 0.
    static func fits(_ position: Int, a: Int, b: Int) -> Bool {
        if a == 0 { return position == b }
        let difference = position - b
        return difference % a == 0 && difference / a >= 0
    }

    /// 1-based position among the siblings that count, or nil when the element is not among them.
    private func nthPosition(_ kind: NthKind, element: Int, of: SelectorList?) -> Int? {
        let name = tree.elements[element].name
        var counted = siblings(of: element)
        switch kind {
        case .ofType, .lastOfType: counted = counted.filter { tree.elements[$0].name == name }
        case .child, .lastChild:
            if let of {
                guard matches(of, element: element, scope: nil) else { return nil }
                counted = counted.filter { matches(of, element: $0, scope: nil) }
            }
        }
        if kind == .lastChild || kind == .lastOfType { counted.reverse() }
        return counted.firstIndex(of: element).map { $0 + 1 }
    }

    private func siblings(of element: Int) -> [Int] {
        guard let parent = tree.elements[element].parent else { return [element] }
        return tree.elements[parent].children
    }

    private func matchesKeyword(_ name: String, element: Int, scope: Int?) -> Bool {
        let node = tree.elements[element]
        switch name {
        case "root", "scope": return node.parent == nil
        case "empty": return node.children.isEmpty && !node.hasText
        case "first-child": return nthPosition(.child, element: element, of: nil) == 1
        case "last-child": return nthPosition(.lastChild, element: element, of: nil) == 1
        case "only-child": return siblings(of: element).count == 1
        case "first-of-type": return nthPosition(.ofType, element: element, of: nil) == 1
        case "last-of-type": return nthPosition(.lastOfType, element: element, of: nil) == 1
        case "only-of-type": return siblings(of: element).filter { tree.elements[$0].name == node.name }.count == 1
        case "link", "any-link", "-webkit-any-link":
            return ["a", "area"].contains(node.name) && node.attribute("href") != nil
        case "checked":
            if node.name == "input" {
                let type = SelectorMatcher.asciiLowercased(node.attribute("type") ?? "")
                return (type == "checkbox" || type == "radio") && node.attribute("checked") != nil
            }
            return node.name == "option" && node.attribute("selected") != nil
        case "disabled": return Self.formControls.contains(node.name) && node.attribute("disabled") != nil
        case "enabled": return Self.formControls.contains(node.name) && node.attribute("disabled") == nil
        case "required": return ["input", "select", "textarea"].contains(node.name) && node.attribute("required") != nil
        case "optional": return ["input", "select", "textarea"].contains(node.name) && node.attribute("required") == nil
        case "defined": return !node.name.contains("-")
        default: return false
        }
    }
}
