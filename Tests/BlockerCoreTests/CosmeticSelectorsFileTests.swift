import Foundation
import Testing

/// The built-in cosmetic filters are written twice in WebExtension/: content/cosmetic.css is the
/// user stylesheet Safari injects at document_start, and shared/cosmetic-selectors.js is the list
/// content/activity.js counts matches with for the toolbar. The script's comment promises that a
/// test keeps them equal: this is that test. Both files are read as text, as they ship.
@Suite struct CosmeticSelectorsFileTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The string literals of `var ADVCosmeticSelectors = [ … ];`, read as a JSON array (the
    /// script writes them as double-quoted literals, one a line, with a trailing comma).
    static func scriptSelectors(_ source: String) throws -> [String] {
        let start = try #require(source.range(of: "var ADVCosmeticSelectors = ["))
        let end = try #require(source[start.upperBound...].range(of: "];"))
        var body = source[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        if body.hasSuffix(",") { body.removeLast() }
        return try JSONDecoder().decode([String].self, from: Data(("[" + body + "]").utf8))
    }

    /// The stylesheet's one rule: its selectors (comments removed, the list before `{` split at
    /// top-level commas) and its declarations.
    static func stylesheet(_ css: String) throws -> (selectors: [String], declarations: String) {
        var text = css
        while let open = text.range(of: "/*") {
            let close = try #require(text[open.upperBound...].range(of: "*/"), "content/cosmetic.css has an unclosed comment")
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        let open = try #require(text.firstIndex(of: "{"))
        let close = try #require(text.lastIndex(of: "}"))
        #expect(text.filter { $0 == "{" }.count == 1, "content/cosmetic.css holds more than one rule")
        let rest = text[text.index(after: close)...]
        #expect(rest.allSatisfy { $0.isWhitespace }, "content/cosmetic.css has text after its rule")
        let declarations = text[text.index(after: open)..<close].trimmingCharacters(in: .whitespacesAndNewlines)
        return (splitSelectorList(text[..<open]), declarations)
    }

    /// A selector list split at its commas, except those inside quotes, brackets or parentheses
    /// (`[title="a,b"]`, `:is(.a, .b)`).
    static func splitSelectorList(_ list: Substring) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        var escaped = false
        for character in list {
            if let open = quote {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == open { quote = nil }
                current.append(character)
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "," where depth == 0:
                parts.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        parts.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
        return parts
    }

    /// Whitespace runs read as one space, so line breaks and indentation do not count.
    static func normalized(_ selector: String) -> String {
        selector.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func stylesheetAndScriptListTheSameSelectors() throws {
        let script = try Self.scriptSelectors(try Self.text("WebExtension/shared/cosmetic-selectors.js")).map(Self.normalized)
        let sheet = try Self.stylesheet(try Self.text("WebExtension/content/cosmetic.css"))
        let css = sheet.selectors.map(Self.normalized)
        #expect(!script.isEmpty, "no selectors were read from shared/cosmetic-selectors.js")
        #expect(!css.contains(""), "content/cosmetic.css has an empty selector (a stray comma)")
        #expect(css == script, "only in content/cosmetic.css: \(Set(css).subtracting(script).sorted()); only in shared/cosmetic-selectors.js: \(Set(script).subtracting(css).sorted())")
        #expect(Set(script).count == script.count, "shared/cosmetic-selectors.js lists a selector twice")
        #expect(sheet.declarations == "display: none !important;")
    }

    @Test(arguments: [
        ("a, b", ["a", "b"]),
        ("[title=\"x,y\"], .c", ["[title=\"x,y\"]", ".c"]),
        (":is(.a, .b) > p,\n  q", [":is(.a, .b) > p", "q"]),
        ("[data-x='it\\'s,ok']", ["[data-x='it\\'s,ok']"]),
    ])
    func selectorListsSplitOnlyAtTopLevelCommas(list: String, expected: [String]) {
        #expect(Self.splitSelectorList(Substring(list)) == expected)
    }
}
