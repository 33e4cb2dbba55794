/// What one JavaScript layer (or the engine that runs them) says about itself in the header of its
/// file: the names it adds to the layers' shared context and the names it needs there first.
///
/// The header is the file's first comment lines:
///
///     // layer: css/cssom
///     // order: 30
///     // provides: style, parseSheet, collectSheets, activeSheets, judgeProperty
///     // requires: DOMException, onMutation, splitTopLevel, closingBracket, declarations, selectors
///
/// `provides` and `requires` are comma-separated context member names and may be empty or
/// continue on another line of the same key. `order` places the layer among those that do not
/// depend on each other (lower first). The engine's header (`// engine: boot/engine`) has no
/// order: its provides are the context's own members, its requires what it calls on the layers.
package struct LayerDeclaration: Sendable, Equatable {
    /// The file's path under `JS/` without `.js`, e.g. `css/cssom`.
    package var name: String
    /// Where the layer loads among layers that do not depend on each other, lower first.
    package var order: Int
    /// The context members the layer sets.
    package var provides: [String]
    /// The context members the layer reads that other layers set.
    package var requires: [String]

    /// A declaration made in code (the catalog's tests) rather than read from a file.
    package init(name: String, order: Int = 0, provides: [String] = [], requires: [String] = []) {
        self.name = name
        self.order = order
        self.provides = provides
        self.requires = requires
    }

    /// The file's path under `JS/`, e.g. `css/cssom.js`.
    package var path: String { name + ".js" }
}

extension LayerDeclaration {
    /// What a file's header says it is.
    package enum Kind: Sendable, Equatable {
        case layer
        case engine
    }

    /// The header of the file at `path` (under `JS/`, e.g. `css/cssom.js`) whose text is `text`:
    /// nil when the file has none (a boot script or a data resource).
    /// - Throws: ``LayerCatalogError/unreadableHeader(path:problem:)`` naming the file and what
    ///   is wrong with its header.
    package static func parse(_ text: String, path: String) throws -> (kind: Kind, declaration: LayerDeclaration)? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        guard let first = lines.next() else { return nil }
        let kind: Kind
        let name: String
        if let value = first.value(after: "// layer:") {
            kind = .layer
            name = value
        } else if let value = first.value(after: "// engine:") {
            kind = .engine
            name = value
        } else {
            return nil
        }
        func problem(_ text: String) -> LayerCatalogError { .unreadableHeader(path: path, problem: text) }
        guard name + ".js" == path else {
            throw problem("it names itself '\(name)', but its file makes it '\(path.dropLast(3))'")
        }

        var fields: [String: [String]] = [:]
        var orders: [String] = []
        // The header ends at the first line that is not one of its fields (`//`, prose, code).
        while let line = lines.next() {
            if let value = line.value(after: "// order:") {
                orders.append(value)
            } else if let value = line.value(after: "// provides:") {
                fields["provides", default: []].append(value)
            } else if let value = line.value(after: "// requires:") {
                fields["requires", default: []].append(value)
            } else {
                break
            }
        }

        var declaration = LayerDeclaration(name: name)
        for key in ["provides", "requires"] {
            guard let values = fields[key] else { throw problem("it has no '\(key):' line") }
            var names: [String] = []
            for value in values where !value.isEmpty {
                for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let member = item.trimmingSpaces()
                    guard member.isContextMemberName else {
                        throw problem("'\(member)' in its '\(key):' is not a context member name")
                    }
                    guard !names.contains(member) else { throw problem("it lists '\(member)' twice in '\(key):'") }
                    names.append(member)
                }
            }
            if key == "provides" { declaration.provides = names } else { declaration.requires = names }
        }
        if let both = declaration.requires.first(where: declaration.provides.contains) {
            throw problem("it both provides and requires '\(both)'")
        }
        switch (kind, orders.count) {
        case (.engine, 0):
            break
        case (.engine, _):
            throw problem("the engine has no 'order:' (it runs the layers)")
        case (.layer, 1):
            guard let order = Int(orders[0]) else { throw problem("its order '\(orders[0])' is not a whole number") }
            declaration.order = order
        case (.layer, 0):
            throw problem("it has no 'order:' line")
        case (.layer, _):
            throw problem("it has more than one 'order:' line")
        }
        return (kind, declaration)
    }
}

private extension Substring {
    /// The trimmed rest of the line after `prefix`, or nil when the line does not start with it.
    func value(after prefix: String) -> String? {
        guard hasPrefix(prefix) else { return nil }
        return dropFirst(prefix.count).trimmingSpaces()
    }

    /// The text without leading and trailing spaces (and a carriage return).
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

private extension String {
    /// A JavaScript identifier as the layers name context members (ASCII letters, digits, _ and $).
    var isContextMemberName: Bool {
        func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) || s == "_" || s == "$" }
        guard let first = unicodeScalars.first, isLetter(first) else { return false }
        return unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
    }
}
