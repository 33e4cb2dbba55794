// layer: scripting/module-syntax
// order: 152
// provides: moduleSyntax
// requires:
//
// JavaScriptCore's C API has no module loader: a module's source cannot be given to the engine
// as a module, and `import()` in a classic script rejects ("Could not import the module").
// This layer turns module source into a classic script the loader (scripting/modules.js) runs,
// with Debian's acorn (node-acorn) as the parser. The rewrite is in place: the text the module
// wrote keeps its lines (and, past the first line, its columns), so the engine's own errors
// point where the source does.
//
// A module becomes
//
//     (function ($s, $m) { with ($s) return function* () { "use strict"; yield $e; <body>
//     ;function $e() { return { x: () => x, … }; }
//     }; })
//
// - `$s` holds the module's imports as getters that read the exporter's binding each time, so
//   an import is a live binding (ECMA-262 16.2.1.6.4 InitializeEnvironment: an import is an
//   indirection, not a copy); it has no setters, so assigning to an import throws a TypeError
//   in the strict body, as ECMA-262 9.1.1.5 makes it (bindings of a module environment created
//   by CreateImportBinding are immutable). The `with` sits outside the strict function: only
//   sloppy code may use it, and lookups from the strict body still pass through it.
// - The body is a generator: its first step only hoists its declarations and hands out `$e`,
//   the module's export getters (a function declaration, so hoisted too). That is the
//   instantiation ECMA-262 16.2.1.6.4 does before any module of a graph runs, so a cycle can
//   call an exported function of a module that has not run yet. The second step runs the body.
// - Top-level `await` becomes `yield` (the loader awaits what it is given and resumes the
//   generator with the result): unlike an async function, a generator starts a module's
//   evaluation synchronously, as ExecuteAsyncModule does, so the order of a graph's module
//   bodies is the spec's.
// - In the body, `import`/`export` declarations are blanked out (an export keeps its
//   declaration), `import.meta` reads `$m.meta` and `import(x)` calls `$m.i(x)`.
//
// Known differences: `arguments` at a module's top level is the generator's (an empty arguments
// object) instead of a ReferenceError; column numbers on a module's first line are off by the
// prologue's length; the syntax is acorn's (ECMAScript 2023: no RegExp `v` flag, no import
// attributes), its SyntaxError messages are acorn's.
(function (ctx) {
  "use strict";
  let acorn = null;
  // Acorn is loaded on first use: most pages have no module and no dynamic import.
  const parser = () => acorn || (acorn = ctx.require("acorn"));
  const moduleOptions = { ecmaVersion: 2023, sourceType: "module", allowHashBang: true };
  const scriptOptions = { ecmaVersion: 2023, sourceType: "script", allowHashBang: true };

  // A prefix for the rewrite's own names that the source does not contain, so no binding of
  // the module can shadow them.
  function freshPrefix(source) {
    let prefix = "$adv_";
    for (let n = 1; source.includes(prefix); n++) prefix = "$adv" + n + "_";
    return prefix;
  }

  const lineBreaks = /\r\n|[\n\r\u2028\u2029]/g;
  // The line breaks in `text`, to keep after replacing it (so later lines stay where they were).
  function breaksIn(text) {
    const found = text.match(lineBreaks);
    return found ? found.join("") : "";
  }
  function blank(text) { return text.replace(/[^\n\r\u2028\u2029]/g, " "); }

  // Edits to a source: non-overlapping replacements of [start, end) ranges, applied in order.
  // An edit's text may be a function, called when the text is put together (a moved range
  // renders its own inner edits then).
  function makeEdits(source) {
    const edits = [];
    // The text of [start, end) with the edits inside it; an insertion at `end` belongs to it
    // (it closes the node that ends there).
    function render(start, end) {
      const sorted = edits.slice().sort((a, b) => a.start - b.start || a.end - b.end);
      let out = "", at = start;
      for (const edit of sorted) {
        if (edit.start < at || edit.end > end) continue;
        out += source.slice(at, edit.start) + (typeof edit.text === "function" ? edit.text() : edit.text);
        at = edit.end;
      }
      return out + source.slice(at, end);
    }
    return {
      replace(start, end, text) { edits.push({ start, end, text }); },
      // Replaces [start, end) keeping its line breaks after the new text.
      replaceKeepingLines(start, end, text) { edits.push({ start, end, text: () => (typeof text === "function" ? text() : text) + breaksIn(source.slice(start, end)) }); },
      blank(start, end) { edits.push({ start, end, text: blank(source.slice(start, end)) }); },
      // Blanks a whole statement, leaving an empty statement (`;`) where it began: the line before
      // it may rely on it for its automatic semicolon (`a = b` then `import …` then `(c)`).
      blankStatement(start, end) { edits.push({ start, end, text: ";" + blank(source.slice(start + 1, end)) }); },
      insert(at, text) { edits.push({ start: at, end: at, text }); },
      render,
    };
  }

  // Calls visit(node, depth) for every node below `root` (depth counts the functions around
  // a node: 0 is the top level). `visit` returns false to skip a node's children.
  function walk(root, visit) {
    const skip = new Set(["type", "start", "end", "loc", "range"]);
    function children(node, depth) {
      for (const key in node) {
        if (skip.has(key)) continue;
        const child = node[key];
        if (Array.isArray(child)) { for (const item of child) if (item && typeof item.type === "string") enter(item, depth); }
        else if (child && typeof child.type === "string") enter(child, depth);
      }
    }
    function enter(node, depth) {
      if (visit(node, depth) === false) return;
      switch (node.type) {
        case "FunctionDeclaration": case "FunctionExpression": case "ArrowFunctionExpression":
        case "StaticBlock":
          children(node, depth + 1);
          return;
        case "MethodDefinition": case "PropertyDefinition":
          // A computed key is evaluated where the class is; the method or initializer is a function.
          if (node.computed) enter(node.key, depth);
          if (node.value) enter(node.value, depth + 1);
          return;
      }
      children(node, depth);
    }
    enter(root, 0);
  }

  // The names a declaration binds (var/let/const patterns, function, class).
  function boundNames(node, out) {
    switch (node.type) {
      case "Identifier": out.push(node.name); break;
      case "VariableDeclaration": for (const d of node.declarations) boundNames(d.id, out); break;
      case "FunctionDeclaration": case "ClassDeclaration": if (node.id) out.push(node.id.name); break;
      case "ObjectPattern": for (const p of node.properties) boundNames(p.type === "RestElement" ? p.argument : p.value, out); break;
      case "ArrayPattern": for (const e of node.elements) if (e) boundNames(e, out); break;
      case "RestElement": boundNames(node.argument, out); break;
      case "AssignmentPattern": boundNames(node.left, out); break;
    }
    return out;
  }
  // An import/export name: an identifier or (ES2022 arbitrary module namespace names) a string.
  const nameOf = (node) => node.type === "Literal" ? String(node.value) : node.name;

  // Where the `(` of a function's parameters is: the token scan starts at the declaration, so a
  // comment between `function` and `(` cannot mislead it.
  function paramsStart(source, declaration) {
    const { Parser, tokTypes } = parser();
    const scan = new Parser(moduleOptions, source, declaration.start);
    scan.nextToken();
    while (scan.type !== tokTypes.parenL && scan.type !== tokTypes.eof) scan.nextToken();
    return scan.start;
  }

  // The end of the `count`-th token from `start` (`export default` is two).
  function keywordsEnd(source, start, count) {
    const scan = new (parser().Parser)(moduleOptions, source, start);
    for (let i = 0; i < count; i++) scan.nextToken();
    return scan.end;
  }

  // The analysis and rewrite of a module's source (ECMA-262 16.2.1.6.1 ParseModule):
  // `requests` are its module specifiers in order of first appearance; `imports` its import
  // entries ({request, importName, localName}, importName "*" for a namespace import);
  // `localExports` (export name → local name), `indirectExports` ({exportName, request,
  // importName}, importName "*" for `export * as ns`), `starExports` (requests);
  // `hasTopLevelAwait`; `anonymousDefault` (the local name of `export default function () {}`,
  // whose name the loader sets to "default"); `code` the classic script above.
  // Throws acorn's SyntaxError (with `loc` {line, column}) when the source is not a module.
  function rewriteModule(source) {
    const ast = parser().parse(source, moduleOptions);
    const P = freshPrefix(source);
    const edits = makeEdits(source);
    const requests = [];
    const request = (literal) => { const specifier = String(literal.value); if (!requests.includes(specifier)) requests.push(specifier); return specifier; };
    const imports = [];
    const localExports = new Map();
    const indirectExports = [];
    const starExports = [];
    let anonymousDefault = null;
    const exportedLocals = [];
    const exportLocal = (exportName, localName) => {
      localExports.set(exportName, localName);
      if (!exportedLocals.includes(localName)) exportedLocals.push(localName);
    };
    // `export { x }` of an imported x is an indirect export (ParseModule step 10); resolved once
    // every import is known.
    const pendingLocalExports = [];

    if (source.startsWith("#!")) {
      const end = source.search(lineBreaks);
      edits.blank(0, end < 0 ? source.length : end);
    }
    for (const node of ast.body) {
      switch (node.type) {
        case "ImportDeclaration": {
          const specifier = request(node.source);
          for (const s of node.specifiers) {
            const importName = s.type === "ImportDefaultSpecifier" ? "default" : s.type === "ImportNamespaceSpecifier" ? "*" : nameOf(s.imported);
            imports.push({ request: specifier, importName, localName: s.local.name });
          }
          edits.blankStatement(node.start, node.end);
          break;
        }
        case "ExportNamedDeclaration": {
          if (node.declaration) {
            for (const name of boundNames(node.declaration, [])) exportLocal(name, name);
            edits.blank(node.start, node.declaration.start);
          } else if (node.source) {
            const specifier = request(node.source);
            for (const s of node.specifiers) indirectExports.push({ exportName: nameOf(s.exported), request: specifier, importName: nameOf(s.local) });
            edits.blankStatement(node.start, node.end);
          } else {
            for (const s of node.specifiers) pendingLocalExports.push({ exportName: nameOf(s.exported), localName: nameOf(s.local) });
            edits.blankStatement(node.start, node.end);
          }
          break;
        }
        case "ExportAllDeclaration": {
          const specifier = request(node.source);
          if (node.exported) indirectExports.push({ exportName: nameOf(node.exported), request: specifier, importName: "*" });
          else starExports.push(specifier);
          edits.blankStatement(node.start, node.end);
          break;
        }
        case "ExportDefaultDeclaration": {
          const declaration = node.declaration;
          const named = (declaration.type === "FunctionDeclaration" || declaration.type === "ClassDeclaration") && declaration.id;
          if (named) {
            exportLocal("default", declaration.id.name);
            edits.blank(node.start, declaration.start);
          } else if (declaration.type === "FunctionDeclaration") {
            // Still a hoisted declaration (callable before the module runs), given a name here
            // and its `name` "default" by the loader (ECMA-262 16.2.3.7, `export default function`).
            anonymousDefault = P + "default";
            exportLocal("default", anonymousDefault);
            edits.blank(node.start, declaration.start);
            edits.insert(paramsStart(source, declaration), " " + anonymousDefault);
          } else {
            // `export default <expression or anonymous class>`: a binding initialised when the
            // statement runs. The property key gives an anonymous function or class the name
            // "default", as NamedEvaluation does (ECMA-262 16.2.3.7).
            // The expression may be parenthesized (acorn's node is then inside the parentheses),
            // so the edits go after the `default` keyword and before the statement's `;`.
            exportLocal("default", P + "default");
            edits.replaceKeepingLines(node.start, keywordsEnd(source, node.start, 2), "const " + P + "default = { default: ");
            if (source[node.end - 1] === ";") edits.insert(node.end - 1, " }.default");
            else edits.insert(node.end, " }.default;");
          }
          break;
        }
      }
    }
    for (const { exportName, localName } of pendingLocalExports) {
      const imported = imports.find((entry) => entry.localName === localName);
      if (imported && imported.importName !== "*") indirectExports.push({ exportName, request: imported.request, importName: imported.importName });
      else exportLocal(exportName, localName);
    }

    let hasTopLevelAwait = false;
    let loops = 0;
    walk(ast, (node, depth) => {
      if (node.type === "ImportExpression") {
        edits.replace(node.start, node.start + "import".length, P + "m.i");
      } else if (node.type === "MetaProperty" && node.meta.name === "import") {
        edits.replace(node.start, node.end, P + "m.meta");
      } else if (depth === 0 && node.type === "AwaitExpression") {
        hasTopLevelAwait = true;
        edits.replace(node.start, node.start + "await".length, "(yield");
        edits.insert(node.end, ")");
      } else if (depth === 0 && node.type === "ForOfStatement" && node.await) {
        hasTopLevelAwait = true;
        rewriteForAwait(node, edits, P, P + "loop" + (++loops));
      }
    });

    const getters = exportedLocals.map((local) => JSON.stringify(local) + ": () => " + local).join(", ");
    const code = "(function (" + P + "s, " + P + "m) { with (" + P + "s) return function* () { \"use strict\"; yield " + P + "e; " +
      edits.render(0, source.length) +
      "\n;function " + P + "e() { return { " + getters + " }; }\n}; })";
    return { code, requests, imports, localExports, indirectExports, starExports, hasTopLevelAwait, anonymousDefault, prefix: P };
  }

  // `for await (LEFT of RIGHT) BODY` at a module's top level, as a loop the generator can
  // suspend in: each step yields the async iterator's `next()` promise to the loader, which
  // resumes with its result (ECMA-262 14.7.5.6 ForIn/OfBodyEvaluation with iteratorKind async;
  // `$m.asyncIterator` is GetIterator(RIGHT, async), with CreateAsyncFromSyncIterator for a sync
  // iterable). Known difference: a `break` or a throw out of the loop does not call the
  // iterator's `return()`.
  function rewriteForAwait(node, edits, P, name) {
    const head = () => {
      const right = edits.render(node.right.start, node.right.end);
      const left = edits.render(node.left.start, node.left.end);
      const assign = node.left.type === "VariableDeclaration" ? left + " = " + name + "r.value;" : "(" + left + " = " + name + "r.value);";
      return "for (let " + name + "i = " + P + "m.asyncIterator(" + right + "), " + name + "r; !(" + name + "r = yield " + name + "i.next()).done; ) { " + assign + " ";
    };
    edits.replaceKeepingLines(node.start, node.body.start, head);
    edits.insert(node.body.end, " }");
  }

  // A classic script's source with each `import(x)` calling `importName(referrer, x)`, or the
  // source itself when it has none (or when acorn cannot parse it: the engine then reports
  // whatever is wrong with it).
  function rewriteClassic(source, importName, referrer) {
    if (!/\bimport\s*\(|\bimport\s*\/[*/]/.test(source)) return source;
    let ast;
    try { ast = parser().parse(source, scriptOptions); } catch (error) { return source; }
    const edits = makeEdits(source);
    let found = false;
    walk(ast, (node) => {
      if (node.type !== "ImportExpression") return;
      found = true;
      edits.replaceKeepingLines(node.start, node.source.start, importName + "(" + JSON.stringify(referrer) + ", ");
    });
    return found ? edits.render(0, source.length) : source;
  }

  ctx.moduleSyntax = { rewriteModule, rewriteClassic };
})
