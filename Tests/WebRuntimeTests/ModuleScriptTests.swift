import JSKit
import TestSupport
import Testing
import WebRuntime

/// The module loader (JS/scripting/modules.js over JS/scripting/module-syntax.js) and the way a
/// session schedules scripts, beyond what the `scripts` fidelity part compares with WebKit:
/// error positions, what is reported where, the order of a graph's evaluation with cycles and
/// top-level await, one module map per world.
@Suite struct ModuleScriptTests {
    /// A session whose resource loader serves `files` under https://site.example/.
    static func open(_ html: String, files: [String: String], contentScripts: [ContentScript] = []) throws -> (WebSession, Page) {
        let session = try WebSession()
        session.resourceLoader = { url in files[String(url.dropFirst("https://site.example/".count))] }
        let page = try session.open(html: html, url: "https://site.example/page.html", contentScripts: contentScripts)
        try session.loop.runUntilIdle()
        return (session, page)
    }

    /// Lines stay where the source has them, so an error in a module names its own line.
    @Test func errorsNameTheModulesURLAndLine() throws {
        let (_, page) = try Self.open("<script type=module src=m.js></script><script type=module src=bad.js></script>", files: [
            "m.js": "import { helper } from './helper.js';\nexport const a = 1;\n\nhelper();\n",
            "helper.js": "export function helper() {\n  return null.boom;\n}\n",
            "bad.js": "const fine = 1;\nexport let = 2;\n",
        ])
        #expect(page.errors.count == 2, "\(page.errors)")
        let runtime = try #require(page.errors.first { $0.report.error.name == "TypeError" })
        #expect(runtime.report.error.sourceURL == "https://site.example/helper.js")
        #expect(runtime.report.error.line == 2)
        #expect(runtime.report.during == "module script https://site.example/m.js")
        let syntax = try #require(page.errors.first { $0.report.error.name == "SyntaxError" })
        #expect(syntax.report.error.sourceURL == "https://site.example/bad.js")
        #expect(syntax.report.error.line == 2)
    }

    /// An inline module's lines count from the document, as an inline classic script's do.
    @Test func anInlineModulesErrorsCountLinesInTheDocument() throws {
        let (_, page) = try Self.open("<!DOCTYPE html>\n<p>x</p>\n<script type=module>\nconst x = 1;\nx();\n</script>", files: [:])
        let error = try #require(page.errors.first)
        #expect(error.report.error.sourceURL == "https://site.example/page.html")
        #expect(error.report.error.line == 5)
        #expect(error.report.during == "inline script 1 of https://site.example/page.html")
    }

    /// ECMA-262 16.2.1.5.3: dependencies first, each module once, a cycle's modules in DFS
    /// post-order; an exported function of a module that has not run yet can be called (its
    /// declaration is instantiated with the graph); a `let` read too early is in its TDZ.
    @Test func graphsEvaluateDependenciesFirstAndCyclesAsTheSpecDoes() throws {
        let (_, page) = try Self.open("<script type=module src=main.js></script>", files: [
            "main.js": "import './left.js'; import './right.js'; import { late } from './cycle-a.js'; console.log('main ' + late);",
            "left.js": "import './shared.js'; console.log('left');",
            "right.js": "import './shared.js'; console.log('right');",
            "shared.js": "console.log('shared');",
            "cycle-a.js": "import { early, readLate } from './cycle-b.js'; export let late = 'late'; console.log('a ' + early + ' ' + readLate());",
            "cycle-b.js": "import { late, hoisted } from './cycle-a.js'; export const early = 'early ' + hoisted(); export function readLate() { return late; }"
                + " try { late; } catch (e) { console.log('b sees ' + e.name); }",
        ])
        // cycle-a's hoisted() does not exist: the import of it is a link error, so nothing ran.
        #expect(Support.logs(page).isEmpty)
        #expect(page.errors.first?.report.error.message == "Importing binding name 'hoisted' is not found.")

        let (_, fixed) = try Self.open("<script type=module src=main.js></script>", files: [
            "main.js": "import './left.js'; import './right.js'; import { late } from './cycle-a.js'; console.log('main ' + late);",
            "left.js": "import './shared.js'; console.log('left');",
            "right.js": "import './shared.js'; console.log('right');",
            "shared.js": "console.log('shared');",
            "cycle-a.js": "import { early, readLate } from './cycle-b.js'; export function hoisted() { return 'hoisted'; } export let late = 'late';"
                + " console.log('a ' + early + ' ' + readLate());",
            "cycle-b.js": "import { late, hoisted } from './cycle-a.js'; export const early = 'early ' + hoisted(); export function readLate() { return late; }"
                + " try { late; } catch (e) { console.log('b sees ' + e.name); }",
        ])
        #expect(Support.logs(fixed) == ["shared", "left", "right", "b sees ReferenceError", "a early hoisted late", "main late"])
        #expect(fixed.errors.isEmpty)
    }

    /// Top-level await (ECMA-262 16.2.1.5.3 with [[AsyncEvaluation]]): a module waits for its
    /// awaiting dependency, a `for await` at the top level walks an async iterable, and a
    /// rejected await is reported with the module.
    @Test func topLevelAwaitAndForAwait() throws {
        let (session, page) = try Self.open("<script type=module src=main.js></script><script type=module src=rejects.js></script>", files: [
            "main.js": "import { total } from './sum.js'; console.log('main ' + total);",
            "sum.js": "async function* numbers() { yield 1; await new Promise((r) => setTimeout(r, 50)); yield 2; }"
                + " export let total = 0; for await (const n of numbers()) { total += n; } for await (const m of [Promise.resolve(3), 4]) total += m;"
                + " console.log('sum done at ' + performance.now());",
            "rejects.js": "await null; throw new RangeError('late failure');",
        ])
        try session.loop.runUntilIdle()
        #expect(Support.logs(page) == ["sum done at 50", "main 10"])
        let error = try #require(page.errors.first)
        #expect(error.report.error.description.hasPrefix("RangeError: late failure"))
        #expect(error.report.during == "module script https://site.example/rejects.js")
    }

    /// Each world has its own module map: a content script's `import()` of the page's module
    /// evaluates it again in the content world, whose globals it then sees.
    @Test func eachWorldHasItsOwnModuleMap() throws {
        let script = ContentScript(extensionID: "probe", source: "window.fromContent = import('./shared.js').then((m) => m.where());",
                                   url: "https://site.example/content.js", runAt: .documentEnd)
        let (session, page) = try Self.open("<script>var side = 'page';</script><script type=module>import { where } from './shared.js'; console.log('page ' + where());</script>",
                                             files: ["shared.js": "console.log('evaluated'); export function where() { return typeof side === 'string' ? side : 'content'; }"],
                                             contentScripts: [script])
        let content = try #require(page.world(named: "content:probe"))
        try session.loop.runUntilIdle()
        #expect(try session.settle(content.global["fromContent"]).toString() == "content")
        #expect(Support.logs(page) == ["evaluated", "page page", "evaluated"])
    }

    /// `defer`, `async` and module scripts wait for the parser; `async` ones run in tasks of their
    /// own, also between slices of an incremental load.
    @Test func deferredScriptsRunBetweenInteractiveAndDOMContentLoaded() throws {
        let (_, page) = try Self.open("""
            <script>document.addEventListener('readystatechange', () => console.log('state ' + document.readyState));
            document.addEventListener('DOMContentLoaded', () => console.log('DOMContentLoaded'));</script>
            <script defer src=d.js></script><script type=module>console.log('module ' + document.readyState)</script>
            <script async src=a.js></script><script src=blocking.js></script><script>console.log('parsed')</script>
            """, files: ["d.js": "console.log('defer ' + document.readyState)", "a.js": "console.log('async')",
                         "blocking.js": "console.log('blocking ' + document.readyState)"])
        #expect(Support.logs(page) == ["blocking loading", "parsed", "state interactive", "defer interactive", "module interactive",
                                       "DOMContentLoaded", "async", "state complete"])
    }

    /// `export default` of an anonymous function or class is named "default"; the module's
    /// namespace lists only unambiguous star exports; a hashbang line is allowed.
    @Test func defaultNamesStarExportsAndHashbang() throws {
        let (session, page) = try Self.open("<script>window.load = (s) => import(s);</script>", files: [
            "f.js": "#!/usr/bin/env node\nexport default function () {}\nexport * from './x1.js'; export * from './x2.js';",
            "x1.js": "export const same = 1, one = 1; export default 'x1';",
            "x2.js": "export const same = 2, two = 2;",
        ])
        let result = try session.settle(try page.pageWorld.evaluate("load('./f.js').then((ns) => [ns.default.name, Object.keys(ns).join()].join('|'))", sourceURL: "test:eval"))
        #expect(try result.toString() == "default|default,one,two")
        #expect(page.errors.isEmpty)
    }

    /// The rewrite keeps every line of a module where it was, whatever the module contains.
    @Test func rewrittenModulesKeepTheirLines() throws {
        let (session, page) = try Self.open("<script>window.load = (s) => import(s);</script>", files: [
            "lines.js": "import {\n  a,\n} from './a.js';\nexport {\n  a as b,\n};\nexport default (\n  1\n);\nexport const line = new Error().line;\n",
            "a.js": "export const a = 1;",
        ])
        let line = try session.settle(try page.pageWorld.evaluate("load('./lines.js').then((ns) => ns.line)", sourceURL: "test:eval"))
        #expect(try line.toNumber() == 10)
    }
}
