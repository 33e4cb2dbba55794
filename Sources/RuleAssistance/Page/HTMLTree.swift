/// The elements of a fixture page, in document order, as ``HTMLTreeBuilder`` builds them.
public struct HTMLTree: Sendable {
    /// One element.
    public struct Element: Sendable {
        /// The tag name in lowercase.
        public let name: String
        /// Attributes in source order, names lowercase, values with character references decoded;
        /// a repeated attribute keeps its first value (as HTML does).
        public internal(set) var attributes: [(name: String, value: String)]
        /// Index of the parent element (nil for the root `html`).
        public let parent: Int?
        /// Indices of the child elements, in order.
        public internal(set) var children: [Int] = []
        /// Whether a text node is among its children (whitespace counts, as for `:empty` in WebKit).
        public internal(set) var hasText = false
        /// Inside a `<template>`: part of its content fragment, which no document query reaches.
        public let inTemplate: Bool

        /// The value of attribute `name` (lowercase), if present.
        public func attribute(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }

        /// The `class` attribute split at ASCII whitespace.
        public var classes: [String] {
            (attribute("class") ?? "").split(whereSeparator: { " \t\n\r\u{0C}".contains($0) }).map(String.init)
        }
    }

    /// Every element, in document order (the order of their start tags).
    public internal(set) var elements: [Element] = []

    /// The indices of the elements a document query can reach (not those inside a template).
    public var queryable: [Int] { elements.indices.filter { !elements[$0].inTemplate } }

    /// Builds the tree of `html`.
    public init(html: String) {
        var builder = HTMLTreeBuilder()
        builder.build(html)
        self = builder.tree
    }

    init() {}
}
