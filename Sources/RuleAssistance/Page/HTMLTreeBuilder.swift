/// A tolerant HTML tree builder for the project's fixture pages: enough of HTML's tree
/// construction (WHATWG HTML §13.2.6) that selectors match what a browser's DOM would give.
///
/// It does: an implied `html`, `head` and `body`; void elements; raw-text and RCDATA elements
/// (`script`, `style`, `textarea`, `title`, …); implied end tags of `p`, `li`, `dt`/`dd`,
/// `option`, headings, table rows and cells (with the implied `tbody`); nested `a` and `button`
/// closing the open one; a stray `</p>` making an empty `p`; end tags popping to their element
/// (one not open is ignored); `<template>` content kept out of document queries; self-closing
/// tags inside `svg` and `math`; the common character references in attribute values.
///
/// It leaves out: the adoption agency algorithm for misnested formatting elements (`<b><i></b>`),
/// foster parenting of content misplaced in tables, the form element pointer, frameset,
/// `<noscript>` is read as raw text (a browser with scripting on), `<plaintext>`, named character
/// references beyond `&amp; &lt; &gt; &quot; &apos; &nbsp;`, and the case of SVG element names.
struct HTMLTreeBuilder {
    private(set) var tree = HTMLTree()
    private var stack: [Int] = []
    private var head: Int?
    private var body: Int?
    private var templateDepth = 0

    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
        "param", "keygen",
    ]
    static let rawText: Set<String> = ["script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea", "title"]
    static let headContent: Set<String> = ["meta", "link", "title", "style", "script", "base", "noscript", "template"]
    /// Start tags that close an open `p` (HTML's "close a p element" cases).
    static let closesParagraph: Set<String> = [
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hgroup", "hr", "li", "dd", "dt", "listing", "main", "menu", "nav", "ol", "p", "pre", "search", "section",
        "summary", "table", "ul",
    ]
    /// Elements past which implied end tags are not looked for.
    static let scopeBoundary: Set<String> = ["html", "table", "td", "th", "caption", "button", "object", "marquee", "applet", "template"]
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    // MARK: - Tree

    private var current: Int? { stack.last }

    private func name(_ index: Int) -> String { tree.elements[index].name }

    private mutating func insert(_ name: String, _ attributes: [(name: String, value: String)], push: Bool) {
        let parent = current
        let index = tree.elements.count
        let inTemplate = templateDepth > 0 && !(name == "template" && templateDepth == 0)
        tree.elements.append(HTMLTree.Element(name: name, attributes: attributes, parent: parent, inTemplate: inTemplate))
        if let parent, !(tree.elements[parent].name == "template") {
            tree.elements[parent].children.append(index)
        }
        if name == "template" { templateDepth += 1 }
        if push { stack.append(index) }
    }

    private mutating func pop() {
        guard let last = stack.popLast() else { return }
        if name(last) == "template" { templateDepth -= 1 }
    }

    private mutating func popThrough(_ index: Int) {
        while let last = stack.last {
            pop()
            if last == index { return }
        }
    }

    /// The open element named one of `names`, looked for from the current node down to a boundary.
    private func open(_ names: Set<String>, stopAt boundary: Set<String> = scopeBoundary) -> Int? {
        for index in stack.reversed() {
            if names.contains(name(index)) { return index }
            if boundary.contains(name(index)) { return nil }
        }
        return nil
    }

    private mutating func ensureHTML() {
        if tree.elements.isEmpty { insert("html", [], push: true) }
    }

    private mutating func ensureHead() {
        ensureHTML()
        if head == nil {
            insert("head", [], push: true)
            head = stack.last
        }
    }

    private mutating func ensureBody() {
        guard body == nil else { return }
        ensureHead()
        if let head, stack.contains(head) { popThrough(head) }
        insert("body", [], push: true)
        body = stack.last
    }

    private mutating func mergeAttributes(into index: Int, _ attributes: [(name: String, value: String)]) {
        for attribute in attributes where tree.elements[index].attribute(attribute.name) == nil {
            tree.elements[index].attributes.append(attribute)
        }
    }

    // MARK: - Tokens

    mutating func build(_ html: String) {
        var scanner = HTMLScanner(html)
        while let token = scanner.next() {
            switch token {
            case .text(let text): characters(text)
            case .startTag(let tag, let attributes, let selfClosing):
                startTag(tag, attributes, selfClosing: selfClosing)
                if Self.rawText.contains(tag) && !selfClosingHonoured(selfClosing) {
                    let text = scanner.rawText(until: tag)
                    if !text.isEmpty, let current { tree.elements[current].hasText = true }
                    if let current, name(current) == tag { pop() }
                }
            case .endTag(let tag): endTag(tag)
            }
        }
        ensureBody()
    }

    private func selfClosingHonoured(_ selfClosing: Bool) -> Bool {
        selfClosing && open(["svg", "math"], stopAt: []) != nil
    }

    private mutating func characters(_ text: String) {
        let blank = text.unicodeScalars.allSatisfy { CSSTokenizer.isWhitespace($0) }
        if body == nil {
            if blank { return }
            ensureBody()
        }
        if let current { tree.elements[current].hasText = true }
    }

    private mutating func startTag(_ tag: String, _ attributes: [(name: String, value: String)], selfClosing: Bool) {
        switch tag {
        case "html":
            ensureHTML()
            mergeAttributes(into: 0, attributes)
            return
        case "head":
            if head == nil { ensureHead(); if let head { mergeAttributes(into: head, attributes) } }
            return
        case "body":
            if let body { mergeAttributes(into: body, attributes); return }
            ensureBody()
            if let body { mergeAttributes(into: body, attributes) }
            return
        default: break
        }
        if body == nil {
            if Self.headContent.contains(tag) {
                ensureHead()
                if let head, !stack.contains(head) { stack.append(head) }
            } else {
                ensureBody()
            }
        }
        impliedEndTags(before: tag)
        let isVoid = Self.voidElements.contains(tag) || selfClosingHonoured(selfClosing)
        insert(tag, attributes, push: !isVoid)
    }

    private mutating func impliedEndTags(before tag: String) {
        if Self.closesParagraph.contains(tag), let p = open(["p"]) { popThrough(p) }
        switch tag {
        case "li":
            if let li = open(["li"], stopAt: Self.scopeBoundary.union(["ul", "ol", "menu"])) { popThrough(li) }
        case "dt", "dd":
            if let item = open(["dt", "dd"], stopAt: Self.scopeBoundary.union(["dl"])) { popThrough(item) }
        case "option":
            if let current, name(current) == "option" { pop() }
        case "optgroup":
            if let current, name(current) == "option" { pop() }
            if let current, name(current) == "optgroup" { pop() }
        case "h1", "h2", "h3", "h4", "h5", "h6":
            if let current, Self.headings.contains(name(current)) { pop() }
        case "a", "button":
            if let open = open([tag]) { popThrough(open) }
        case "tr":
            closeTableContent(keeping: ["tbody", "thead", "tfoot"])
            if let current, name(current) == "table" { insert("tbody", [], push: true) }
        case "td", "th":
            closeTableContent(keeping: ["tr"])
            if let current, name(current) == "table" { insert("tbody", [], push: true) }
            if let current, ["tbody", "thead", "tfoot"].contains(name(current)) { insert("tr", [], push: true) }
        case "tbody", "thead", "tfoot", "caption", "colgroup":
            closeTableContent(keeping: ["table"])
        default: break
        }
    }

    /// Pops open cells, rows and sections of the innermost table until the current node is one of `keeping` or the table.
    private mutating func closeTableContent(keeping: Set<String>) {
        guard open(["table"], stopAt: ["html", "template"]) != nil else { return }
        while let current, !keeping.contains(name(current)), name(current) != "table" {
            pop()
        }
    }

    private mutating func endTag(_ tag: String) {
        switch tag {
        case "head":
            if let head, stack.contains(head) { popThrough(head) }
            return
        case "body", "html":
            return
        case "p":
            if let p = open(["p"]) { popThrough(p) } else {
                ensureBody()
                insert("p", [], push: false)
            }
            return
        case "br":
            ensureBody()
            insert("br", [], push: false)
            return
        default: break
        }
        let boundary: Set<String> = ["table", "template"].contains(tag) ? ["html"] : Self.scopeBoundary.subtracting([tag])
        if let index = open([tag], stopAt: boundary) { popThrough(index) }
    }
}
