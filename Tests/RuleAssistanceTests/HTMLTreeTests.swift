import Foundation
import RuleAssistance
import TestSupport
import Testing

/// The tree builder against the harness's HTML parser (domino) on every fixture page the
/// project has: the same elements, in the same order, under the same parents.
@Suite struct HTMLTreeTests {
    static let pages: [String] = {
        let root = Support.fixtures
        var found: [String] = []
        for folder in ["pages", "sites", "rule-assistance"] {
            let walker = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if url.pathExtension == "html" { found.append(String(url.path.dropFirst(root.path.count + 1))) }
            }
        }
        return found.sorted()
    }()

    static func outline(_ tree: HTMLTree) -> String {
        tree.queryable.map { index in
            let element = tree.elements[index]
            return element.name + "<" + (element.parent.map { tree.elements[$0].name } ?? "")
        }.joined(separator: " ")
    }

    @Test func thereArePages() { #expect(Self.pages.count >= 10) }

    @Test(arguments: HTMLTreeTests.pages)
    func sameElementsAsTheHarnessParser(_ page: String) throws {
        let html = try Support.fixture(page)
        let (_, loaded) = try Support.load("<!doctype html><title>t</title>", url: "https://site.example/")
        let source = String(decoding: try JSONSerialization.data(withJSONObject: [html]), as: UTF8.self)
        let expected = try Support.eval(loaded.pageWorld, """
            (() => { const d = new DOMParser().parseFromString(\(source)[0], 'text/html');
              return Array.from(d.getElementsByTagName('*')).map((e) => e.localName.toLowerCase() + '<' + (e.parentElement ? e.parentElement.localName.toLowerCase() : '')).join(' '); })()
            """) as? String
        #expect(Self.outline(HTMLTree(html: html)) == expected)
    }

    @Test func templateContentAndImpliedElements() {
        let tree = HTMLTree(html: "<p>a<div>b</div><template><i>x</i></template><table><tr><td>1<td>2</table><ul><li>1<li>2</ul>")
        #expect(Self.outline(tree) == "html< head<html body<html p<body div<body template<body table<body tbody<table tr<tbody td<tr td<tr ul<body li<ul li<ul")
    }
}
