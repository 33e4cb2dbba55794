// layer: scripting/modules
// order: 155
// provides: prepareModuleScript, classicScriptSource, scriptType
// requires: moduleSyntax, setCurrentScript
//
// The module loader: module scripts (`<script type=module>`, inline or not, parsed or inserted),
// static and dynamic `import`, `import.meta`, top-level await, for every world (a page's, a
// content script's, an extension's pages and its background). JavaScriptCore's C API runs no
// modules, so each module is rewritten by scripting/module-syntax.js into a classic script whose
// imports, exports and body this file wires together as ECMA-262 16.2.1 does:
//
// - Fetching is HTML 8.1.4's (fetch a module script graph, fetch the descendants, find the first
//   parse error), through the browser's request decision like any script (`hooks.request`, type
//   `script`), or the session's resource loader without a browser. A world keeps one module map
//   (URL → module record, or null for a failed fetch): each module is fetched, and evaluated,
//   once per URL per world.
// - Linking and evaluation are the Cyclic Module Record algorithms of ECMA-262 16.2.1.5 (Link,
//   Evaluate with their Tarjan-style DFS over strongly connected components, asynchronous
//   evaluation for top-level await with its ordering by [[AsyncEvaluationOrder]]), and exports
//   resolve as ResolveExport / GetExportedNames do (16.2.1.6.2-3), star exports and ambiguity
//   included.
// - Namespaces are module namespace exotic objects (10.4.6) made as proxies: null prototype,
//   @@toStringTag "Module", sorted keys, live values, non-extensible, every write refused.
//
// A network fetch completes in a later task, as a response does; a graph already in the map is
// used at once (HTML "fetch a single module script" step 5). Parser-inserted module scripts are
// fetched when parsed and run with the deferred scripts, or as soon as they can with `async`
// (the session's parse loop, WebSession.runScripts, keeps the list of deferred scripts).
(function (ctx) {
  "use strict";
  const { host, hooks, impl } = ctx;
  const URLClass = ctx.urlClasses.URL;
  const syntax = ctx.moduleSyntax;
  const { defineProperty, create, preventExtensions } = Object;
  const ReflectApply = Reflect.apply;
  const hasOwn = Object.prototype.hasOwnProperty;
  const generatorPrototype = Object.getPrototypeOf(function* () {}).prototype;
  // A generator's methods check the generator's internal slots, not its realm: the engine's own
  // work on a world's generators, whatever that world's script did to its Generator prototype.
  const generatorNext = generatorPrototype.next;
  const generatorThrow = generatorPrototype.throw;
  const NAMESPACE = "*";
  const AMBIGUOUS = { ambiguous: true };
  // The name classic scripts call for `import()` (module-syntax.js rewriteClassic): a property of
  // the world's global, made when a script of that world first needs it.
  const DYNAMIC_IMPORT = "__advDynamicImport";

  // MARK: - Worlds

  // The world's global → its loader state: the module map and the world's own intrinsics, taken
  // when the world is made (before any of its scripts runs), for what the loader makes in it:
  // its promises (so `import()` returns an instance of the world's Promise), its errors.
  const worlds = new WeakMap();
  function makeState(global, document) {
    const WorldPromise = global.Promise;
    return {
      global, document,
      Promise: WorldPromise, then: WorldPromise.prototype.then, resolve: WorldPromise.resolve,
      SyntaxError: global.SyntaxError, TypeError: global.TypeError, objectCreate: global.Object.create,
      map: new Map(),
      serviceWorker: false,
    };
  }
  function stateOf(global) {
    const state = worlds.get(global);
    if (!state) throw new TypeError("not a world of this engine");
    return state;
  }
  const pageIdOf = (state) => state.document._advPageId;

  function then(state, promise, onFulfilled, onRejected) {
    return ReflectApply(state.then, promise, [onFulfilled, onRejected]);
  }
  function capability(state) {
    let resolve, reject;
    const promise = new state.Promise((yes, no) => { resolve = yes; reject = no; });
    return { promise, resolve, reject };
  }

  // MARK: - Fetching (HTML 8.1.4.2, 8.1.5)

  // HTML 8.1.5.1 "resolve a module specifier" without import maps: an absolute URL, or a path
  // starting with "/", "./" or "../" against the referrer's base URL; null for a bare name.
  function resolveSpecifier(specifier, base) {
    try { return new URLClass(specifier).href; } catch (error) { /* not absolute */ }
    if (!/^(\/|\.\/|\.\.\/)/.test(specifier)) return null;
    try { return new URLClass(specifier, base).href; } catch (error) { return null; }
  }
  // WebKit's words (ScriptModuleLoader.cpp resolveModuleSpecifier).
  function unresolvable(state, specifier) {
    return new state.TypeError("Module name, '" + specifier + "' does not resolve to a valid URL.");
  }

  // The source of the module at `url`, or null when it cannot be fetched (blocked, not found).
  // A request never carries the fragment (Fetch 2.2.5); the map's key keeps it, so `m.js#a` and
  // `m.js#b` are two modules of one resource.
  function fetchText(state, url) {
    const pageId = pageIdOf(state);
    const hash = url.indexOf("#");
    if (hash >= 0) url = url.slice(0, hash);
    const outcome = hooks.request ? hooks.request(pageId, null, url, "script", "GET") : host.fetch(pageId, url, "GET");
    return outcome && !outcome.blocked && outcome.status === 200 ? outcome.body : null;
  }

  // HTML "fetch a single module script": the map's entry, or a fetch that makes one.
  function fetchSingle(state, url, arriving) {
    if (state.map.has(url)) return state.map.get(url);
    const text = fetchText(state, url);
    const record = text === null ? null : createModule(state, url, url, text, 1);
    if (record && arriving) record.arriving = true;
    state.map.set(url, record);
    return record;
  }

  // HTML "fetch the descendants of a module script", all at once: false when a module of the
  // graph could not be fetched (the graph's result is then null). Modules whose source could not
  // be parsed have no descendants.
  function fetchDescendants(state, root, arriving) {
    const queue = [root];
    const seen = new Set(queue);
    for (let i = 0; i < queue.length; i++) {
      const record = queue[i];
      if (record.parseError) continue;
      for (const url of record.resolved.values()) {
        const child = fetchSingle(state, url, arriving);
        if (child === null) return false;
        if (!seen.has(child)) { seen.add(child); queue.push(child); }
      }
    }
    return true;
  }
  // The modules of the graph under `root`, each once (what fetchDescendants reached).
  function graph(root) {
    const list = [root];
    const seen = new Set(list);
    for (let i = 0; i < list.length; i++) {
      for (const child of children(list[i])) if (!seen.has(child)) { seen.add(child); list.push(child); }
    }
    return list;
  }
  function children(record) {
    const out = [];
    if (record.parseError) return out;
    for (const url of record.resolved.values()) {
      const child = record.state.map.get(url);
      if (child) out.push(child);
    }
    return out;
  }
  // True when a module of the graph is still on its way (fetched in this task; see `whenArrived`).
  const graphArriving = (root) => graph(root).some((record) => record.arriving);
  // Runs `next` once the graph's fetches have completed: in a later task when one of them is
  // still on its way (a response arrives in a task of its own), else at once.
  function whenArrived(state, root, label, next) {
    if (!graphArriving(root)) { next(); return; }
    host.queueTask(pageIdOf(state), () => {
      for (const record of graph(root)) record.arriving = false;
      next();
    }, label);
  }

  // HTML "find the first parse error": depth first, in request order; the record that has it.
  function firstParseError(root) {
    const seen = new Set();
    function visit(record) {
      seen.add(record);
      if (record.parseError) return record;
      for (const child of children(record)) {
        if (seen.has(child)) continue;
        const found = visit(child);
        if (found) return found;
      }
      return null;
    }
    return visit(root);
  }

  // The module script of a fetched graph (HTML "fetch the descendants of and link"): its
  // record, and the error it rethrows instead of running (a parse error anywhere in the graph,
  // or what Link() threw) with its kind: "syntax" for a source that does not parse, "resolve"
  // for a specifier or an import that does not resolve (WebKit's LoadableScript error types,
  // which decide the element's event).
  function linkedScript(root) {
    const broken = firstParseError(root);
    if (broken) return { record: root, errorToRethrow: broken.parseError, errorKind: broken.parseErrorKind };
    try { link(root); } catch (error) { return { record: root, errorToRethrow: error, errorKind: "resolve" }; }
    return { record: root, errorToRethrow: null, errorKind: null };
  }

  // MARK: - Module records

  // A Source Text Module Record (ECMA-262 16.2.1.6) with the loader's fields. `url` is the map's
  // key (null for an inline module), `base` what its specifiers resolve against.
  function createModule(state, url, base, source, line) {
    const scriptURL = url || state.document.URL;
    const record = {
      state, url, base, scriptURL,
      status: "new", parseError: null, parseErrorKind: null, parsed: null, factory: null, resolved: new Map(), arriving: false,
      getters: null, generator: null, namespace: null, meta: null,
      dfsIndex: 0, dfsAncestorIndex: 0, cycleRoot: null, hasError: false, evaluationError: undefined,
      asyncEvaluation: false, asyncOrder: 0, topLevelCapability: null, asyncParents: [], pendingAsyncDependencies: 0,
    };
    try {
      record.parsed = syntax.rewriteModule(source);
      record.factory = hooks.evaluate(state.global, record.parsed.code, scriptURL, line);
    } catch (error) {
      record.parseError = error && error.loc ? syntaxErrorAt(state, error, scriptURL, line) : error;
      record.parseErrorKind = "syntax";
      return record;
    }
    // HTML "create a JavaScript module script" step 9: a specifier that does not resolve is
    // the module's parse error (WebKit's "resolve" error, unlike a syntax error).
    for (const specifier of record.parsed.requests) {
      const resolved = resolveSpecifier(specifier, base);
      if (resolved === null) { record.parseError = unresolvable(state, specifier); record.parseErrorKind = "resolve"; break; }
      record.resolved.set(specifier, resolved);
    }
    record.status = "unlinked";
    return record;
  }

  // Acorn's SyntaxError as the world's, with the place in the script (acorn's message ends with
  // its own "(line:column)").
  function syntaxErrorAt(state, error, url, line) {
    const made = new state.SyntaxError(String(error.message).replace(/ \(\d+:\d+\)$/, ""));
    defineProperty(made, "sourceURL", { value: url, writable: true, configurable: true });
    defineProperty(made, "line", { value: error.loc.line + line - 1, writable: true, configurable: true });
    defineProperty(made, "column", { value: error.loc.column + 1, writable: true, configurable: true });
    defineProperty(made, "stack", { value: "", writable: true, configurable: true });
    return made;
  }

  // GetImportedModule(referrer, specifier): every request of a linked module is in the map.
  function importedModule(record, specifier) {
    return record.state.map.get(record.resolved.get(specifier));
  }

  // MARK: - Exports (ECMA-262 16.2.1.6.2-3)

  function exportedNames(record, exportStarSet) {
    if (exportStarSet.has(record)) return [];
    exportStarSet.add(record);
    const names = [...record.parsed.localExports.keys()];
    for (const entry of record.parsed.indirectExports) names.push(entry.exportName);
    for (const specifier of record.parsed.starExports) {
      for (const name of exportedNames(importedModule(record, specifier), exportStarSet)) {
        if (name !== "default" && !names.includes(name)) names.push(name);
      }
    }
    return names;
  }

  // {module, bindingName} (bindingName NAMESPACE for a namespace), null, or AMBIGUOUS.
  function resolveExport(record, exportName, resolveSet = []) {
    for (const seen of resolveSet) if (seen.module === record && seen.exportName === exportName) return null;
    resolveSet.push({ module: record, exportName });
    const local = record.parsed.localExports.get(exportName);
    if (local !== undefined) return { module: record, bindingName: local };
    for (const entry of record.parsed.indirectExports) {
      if (entry.exportName !== exportName) continue;
      const imported = importedModule(record, entry.request);
      if (entry.importName === NAMESPACE) return { module: imported, bindingName: NAMESPACE };
      return resolveExport(imported, entry.importName, resolveSet);
    }
    if (exportName === "default") return null;
    let starResolution = null;
    for (const specifier of record.parsed.starExports) {
      const resolution = resolveExport(importedModule(record, specifier), exportName, resolveSet);
      if (resolution === AMBIGUOUS) return AMBIGUOUS;
      if (resolution === null) continue;
      if (starResolution === null) starResolution = resolution;
      else if (resolution.module !== starResolution.module || resolution.bindingName !== starResolution.bindingName) return AMBIGUOUS;
    }
    return starResolution;
  }

  function unresolvedImport(state, name, resolution) {
    return new state.SyntaxError(resolution === AMBIGUOUS
      ? "Importing binding name '" + name + "' cannot be resolved due to ambiguous multiple bindings."
      : "Importing binding name '" + name + "' is not found.");
  }

  function readBinding(record, bindingName) {
    return bindingName === NAMESPACE ? namespaceOf(record) : record.getters[bindingName]();
  }

  // GetModuleNamespace (16.2.1.10) and ModuleNamespaceCreate (10.4.6.12): the exported names
  // that resolve unambiguously, sorted by code units, each read live.
  function namespaceOf(record) {
    if (record.namespace) return record.namespace;
    const bindings = new Map();
    for (const name of exportedNames(record, new Set())) {
      const resolution = resolveExport(record, name);
      if (resolution !== null && resolution !== AMBIGUOUS) bindings.set(name, resolution);
    }
    const names = [...bindings.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const target = create(null);
    for (const name of names) defineProperty(target, name, { value: undefined, writable: true, enumerable: true, configurable: false });
    defineProperty(target, Symbol.toStringTag, { value: "Module", writable: false, enumerable: false, configurable: false });
    preventExtensions(target);
    const value = (name) => { const b = bindings.get(name); return readBinding(b.module, b.bindingName); };
    const isExport = (key) => typeof key === "string" && bindings.has(key);
    record.namespace = new Proxy(target, {
      get(t, key) { return isExport(key) ? value(key) : typeof key === "symbol" ? Reflect.get(t, key) : undefined; },
      set() { return false; },
      has(t, key) { return isExport(key) || typeof key === "symbol" && Reflect.has(t, key); },
      deleteProperty(t, key) { return isExport(key) ? false : Reflect.deleteProperty(t, key); },
      getOwnPropertyDescriptor(t, key) {
        if (!isExport(key)) return typeof key === "symbol" ? Reflect.getOwnPropertyDescriptor(t, key) : undefined;
        return { value: value(key), writable: true, enumerable: true, configurable: false };
      },
      // [[DefineOwnProperty]] (10.4.6.6): only a definition that changes nothing succeeds.
      defineProperty(t, key, descriptor) {
        if (typeof key === "symbol") return Reflect.defineProperty(t, key, descriptor);
        if (!isExport(key)) return false;
        if (descriptor.configurable === true || descriptor.enumerable === false || descriptor.writable === false) return false;
        if ("get" in descriptor || "set" in descriptor) return false;
        return !("value" in descriptor) || Object.is(descriptor.value, value(key));
      },
      ownKeys() { return [...names, Symbol.toStringTag]; },
    });
    return record.namespace;
  }

  // MARK: - Link (ECMA-262 16.2.1.5.1)

  function link(record) {
    const stack = [];
    try {
      innerLink(record, stack, 0);
    } catch (error) {
      for (const m of stack) { if (m.status === "linking") m.status = "unlinked"; }
      throw error;
    }
  }
  function innerLink(record, stack, index) {
    if (record.status !== "unlinked") return index;
    record.status = "linking";
    record.dfsIndex = record.dfsAncestorIndex = index++;
    stack.push(record);
    for (const specifier of record.parsed.requests) {
      const required = importedModule(record, specifier);
      index = innerLink(required, stack, index);
      if (required.status === "linking") record.dfsAncestorIndex = Math.min(record.dfsAncestorIndex, required.dfsAncestorIndex);
    }
    initializeEnvironment(record);
    if (record.dfsAncestorIndex === record.dfsIndex) {
      let done;
      do { done = stack.pop(); done.status = "linked"; } while (done !== record);
    }
    return index;
  }

  // InitializeEnvironment (16.2.1.6.4): the indirect exports and imports must resolve; the
  // module's scope gets its imports (live, read-only); the module's declarations are hoisted by
  // the generator's first step, which hands out its export getters.
  function initializeEnvironment(record) {
    const state = record.state;
    for (const entry of record.parsed.indirectExports) {
      const resolution = resolveExport(record, entry.exportName);
      if (resolution === null || resolution === AMBIGUOUS) throw unresolvedImport(state, entry.exportName, resolution);
    }
    const scope = create(null);
    for (const entry of record.parsed.imports) {
      const imported = importedModule(record, entry.request);
      if (entry.importName === NAMESPACE) {
        defineProperty(scope, entry.localName, { value: namespaceOf(imported), enumerable: true });
        continue;
      }
      const resolution = resolveExport(imported, entry.importName);
      if (resolution === null || resolution === AMBIGUOUS) throw unresolvedImport(state, entry.importName, resolution);
      if (resolution.bindingName === NAMESPACE) {
        defineProperty(scope, entry.localName, { value: namespaceOf(resolution.module), enumerable: true });
      } else {
        const { module, bindingName } = resolution;
        defineProperty(scope, entry.localName, { get: () => readBinding(module, bindingName), enumerable: true });
      }
    }
    const makeBody = record.factory(scope, moduleHelper(record));
    record.generator = makeBody();
    record.getters = ReflectApply(generatorNext, record.generator, []).value();
    const anonymous = record.parsed.anonymousDefault;
    if (anonymous) defineProperty(record.getters[anonymous](), "name", { value: "default", configurable: true });
  }

  // What the rewritten module calls: `import()`, `import.meta` (made on first use, HTML 8.1.5.2
  // HostGetImportMetaProperties: a null-prototype object with `url` and `resolve`), and the
  // iterator of a top-level `for await`.
  function moduleHelper(record) {
    const state = record.state;
    return {
      i: (specifier) => dynamicImport(state, record.base, specifier),
      get meta() {
        if (record.meta) return record.meta;
        const meta = ReflectApply(state.objectCreate, undefined, [null]);
        meta.url = record.scriptURL;
        meta.resolve = function resolve(specifier) {
          const text = `${specifier}`;
          const url = resolveSpecifier(text, record.base);
          if (url === null) throw unresolvable(state, text);
          return url;
        };
        return (record.meta = meta);
      },
      asyncIterator(iterable) {
        const method = iterable[Symbol.asyncIterator];
        if (method !== undefined && method !== null) return ReflectApply(method, iterable, []);
        const iterator = iterable[Symbol.iterator]();
        return {
          next(value) {
            const step = iterator.next(value);
            return then(state, ReflectApply(state.resolve, state.Promise, [step.value]), (awaited) => ({ value: awaited, done: step.done }));
          },
        };
      },
    };
  }

  // MARK: - Evaluate (ECMA-262 16.2.1.5.3)

  let asyncEvaluationCount = 0;

  function evaluate(record) {
    const state = record.state;
    let module = record;
    // A module whose evaluation threw before its component finished has no cycle root: it is
    // its own (its error is rethrown below).
    if ((module.status === "evaluating-async" || module.status === "evaluated") && module.cycleRoot) module = module.cycleRoot;
    if (module.topLevelCapability) return module.topLevelCapability.promise;
    const stack = [];
    const made = capability(state);
    module.topLevelCapability = made;
    try {
      innerEvaluate(module, stack, 0);
      if (!module.asyncEvaluation) made.resolve(undefined);
    } catch (error) {
      for (const m of stack) { m.status = "evaluated"; m.hasError = true; m.evaluationError = error; }
      made.reject(error);
    }
    return made.promise;
  }

  function innerEvaluate(record, stack, index) {
    if (record.status === "evaluating-async" || record.status === "evaluated") {
      if (record.hasError) throw record.evaluationError;
      return index;
    }
    if (record.status === "evaluating") return index;
    record.status = "evaluating";
    record.dfsIndex = record.dfsAncestorIndex = index++;
    record.pendingAsyncDependencies = 0;
    stack.push(record);
    for (const specifier of record.parsed.requests) {
      let required = importedModule(record, specifier);
      index = innerEvaluate(required, stack, index);
      if (required.status === "evaluating") {
        record.dfsAncestorIndex = Math.min(record.dfsAncestorIndex, required.dfsAncestorIndex);
      } else {
        required = required.cycleRoot;
        if (required.hasError) throw required.evaluationError;
      }
      if (required.asyncEvaluation) {
        record.pendingAsyncDependencies++;
        required.asyncParents.push(record);
      }
    }
    if (record.pendingAsyncDependencies > 0 || record.parsed.hasTopLevelAwait) {
      record.asyncEvaluation = true;
      record.asyncOrder = ++asyncEvaluationCount;
      if (record.pendingAsyncDependencies === 0) executeAsyncModule(record);
    } else {
      executeModule(record);
    }
    if (record.dfsAncestorIndex === record.dfsIndex) {
      let done;
      do {
        done = stack.pop();
        done.status = done.asyncEvaluation ? "evaluating-async" : "evaluated";
        done.cycleRoot = record;
      } while (done !== record);
    }
    return index;
  }

  // ExecuteModule without a capability: the body's second generator step runs it to the end.
  function executeModule(record) {
    ReflectApply(generatorNext, record.generator, []);
  }

  // ExecuteAsyncModule (16.2.1.5.3.2): the body runs now until its first `await`, each awaited
  // value resumes it a promise job later, as `await` does (ECMA-262 27.7.5.3 Await).
  function executeAsyncModule(record) {
    const state = record.state;
    const step = (method, value) => {
      let result;
      try {
        result = ReflectApply(method, record.generator, [value]);
      } catch (error) {
        asyncModuleExecutionRejected(record, error);
        return;
      }
      if (result.done) { asyncModuleExecutionFulfilled(record); return; }
      then(state, ReflectApply(state.resolve, state.Promise, [result.value]),
        (awaited) => step(generatorNext, awaited), (reason) => step(generatorThrow, reason));
    };
    step(generatorNext, undefined);
  }

  // GatherAvailableAncestors (16.2.1.5.3.3).
  function gatherAvailableAncestors(record, execList) {
    for (const m of record.asyncParents) {
      if (execList.includes(m) || m.cycleRoot.hasError) continue;
      m.pendingAsyncDependencies--;
      if (m.pendingAsyncDependencies === 0) {
        execList.push(m);
        if (!m.parsed.hasTopLevelAwait) gatherAvailableAncestors(m, execList);
      }
    }
  }

  // AsyncModuleExecutionFulfilled (16.2.1.5.3.4).
  function asyncModuleExecutionFulfilled(record) {
    if (record.status === "evaluated") return;
    record.asyncEvaluation = false;
    record.status = "evaluated";
    if (record.topLevelCapability) record.topLevelCapability.resolve(undefined);
    const execList = [];
    gatherAvailableAncestors(record, execList);
    execList.sort((a, b) => a.asyncOrder - b.asyncOrder);
    for (const m of execList) {
      if (m.status === "evaluated") continue;
      if (m.parsed.hasTopLevelAwait) { executeAsyncModule(m); continue; }
      try {
        executeModule(m);
      } catch (error) {
        asyncModuleExecutionRejected(m, error);
        continue;
      }
      m.asyncEvaluation = false;
      m.status = "evaluated";
      if (m.topLevelCapability) m.topLevelCapability.resolve(undefined);
    }
  }

  // AsyncModuleExecutionRejected (16.2.1.5.3.5).
  function asyncModuleExecutionRejected(record, error) {
    if (record.status === "evaluated") return;
    record.hasError = true;
    record.evaluationError = error;
    record.status = "evaluated";
    for (const m of record.asyncParents) asyncModuleExecutionRejected(m, error);
    if (record.topLevelCapability) record.topLevelCapability.reject(error);
  }

  // MARK: - import() (ECMA-262 13.3.10.1, HTML 8.1.5.3 HostLoadImportedModule)

  function dynamicImport(state, base, specifier) {
    const made = capability(state);
    if (state.serviceWorker) {
      // HTML forbids import() in a service worker; WebKit's words (ScriptModuleLoader::importModule).
      made.reject(new state.TypeError("Dynamic-import is not available in Worklets or ServiceWorkers"));
      return made.promise;
    }
    let text;
    try { text = `${specifier}`; } catch (error) { made.reject(error); return made.promise; }
    const url = resolveSpecifier(text, base);
    if (url === null) { made.reject(unresolvable(state, text)); return made.promise; }
    const root = fetchSingle(state, url, true);
    if (root === null || !fetchDescendants(state, root, true)) {
      const failed = () => made.reject(new state.TypeError("Importing a module script failed."));
      if (root !== null && graphArriving(root)) whenArrived(state, root, "module fetch " + url, failed);
      else host.queueTask(pageIdOf(state), failed, "module fetch " + url);
      return made.promise;
    }
    whenArrived(state, root, "module fetch " + url, () => {
      const script = linkedScript(root);
      if (script.errorToRethrow) { made.reject(script.errorToRethrow); return; }
      then(state, evaluate(root), () => made.resolve(namespaceOf(root)), made.reject);
    });
    return made.promise;
  }

  // A classic script's source with its `import()` calls made (scripting/module-syntax.js
  // rewriteClassic), resolving against `referrer` (the script's URL, or its document's base URL
  // for an inline script when null).
  function classicScriptSource(global, source, referrer) {
    const state = stateOf(global);
    const base = referrer === null || referrer === undefined ? state.document.baseURI : referrer;
    const rewritten = syntax.rewriteClassic(source, DYNAMIC_IMPORT, base);
    if (rewritten !== source && !ReflectApply(hasOwn, global, [DYNAMIC_IMPORT])) {
      defineProperty(global, DYNAMIC_IMPORT, { value: (from, specifier) => dynamicImport(state, from, specifier) });
    }
    return rewritten;
  }
  ctx.classicScriptSource = classicScriptSource;

  // MARK: - HTMLScriptElement members domino lacks (HTML 4.12.1)

  // A script the parser made has its "force async" flag cleared; one made by script keeps it,
  // so `document.createElement("script").async` is true until set (and it runs when ready).
  const parserMade = new WeakSet();
  const asyncCleared = new WeakSet();
  const htmlElements = ctx.require("domino/lib/htmlelts");
  const makeElement = htmlElements.createElement;
  htmlElements.createElement = function createElement(doc, localName, prefix) {
    const element = makeElement(doc, localName, prefix);
    if (localName === "script" && doc._advParsing) parserMade.add(element);
    return element;
  };
  ctx.defineMembers(impl.HTMLScriptElement.prototype, {
    async: {
      get() { return this.hasAttribute("async") || !parserMade.has(this) && !asyncCleared.has(this); },
      set(value) {
        asyncCleared.add(this);
        if (value) this.setAttribute("async", ""); else this.removeAttribute("async");
      },
    },
    noModule: {
      get() { return this.hasAttribute("nomodule"); },
      set(value) { if (value) this.setAttribute("nomodule", ""); else this.removeAttribute("nomodule"); },
    },
  });
  // HTMLScriptElement.supports(type): the script types this runtime runs (no import maps).
  Object.defineProperty(impl.HTMLScriptElement, "supports", {
    value: function supports(type) {
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      const text = `${type}`;
      return text === "classic" || text === "module";
    },
    writable: true, enumerable: true, configurable: true,
  });

  // MARK: - Module scripts (HTML 4.12.1.1 prepare the script element, 8.1.4.4 run a module script)

  // HTML 4.12.1.1 "prepare the script element" steps 8-9, as WebKit decides it
  // (ScriptElement::determineScriptType): "classic", "module", or "" for a data block (import
  // maps included: this runtime has none). The type comes from `type`, else from `language`
  // ("text/" + it), else is text/javascript; a classic type is a JavaScript MIME type essence
  // (MIME Sniffing 4.6) matched whole after trimming, so parameters make a data block; "module"
  // is matched untrimmed, as in WebKit (HTML trims it too).
  const javaScriptTypes = new Set(["application/ecmascript", "application/javascript", "application/x-ecmascript",
    "application/x-javascript", "text/ecmascript", "text/javascript", "text/javascript1.0", "text/javascript1.1",
    "text/javascript1.2", "text/javascript1.3", "text/javascript1.4", "text/javascript1.5", "text/jscript",
    "text/livescript", "text/x-ecmascript", "text/x-javascript"]);
  const trimmed = (text) => text.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "");
  function scriptType(element) {
    const type = element.getAttribute("type");
    if (type === null) {
      const language = element.getAttribute("language");
      if (language === null || language === "") return "classic";
      return javaScriptTypes.has(trimmed("text/" + language).toLowerCase()) ? "classic" : "";
    }
    if (type === "") return "classic";
    if (javaScriptTypes.has(trimmed(type).toLowerCase())) return "classic";
    return type.toLowerCase() === "module" ? "module" : "";
  }
  ctx.scriptType = scriptType;

  function fire(element, type) {
    element.dispatchEvent(new impl.Event(type));
  }

  // A module <script> the page world is about to run: parsed (`parser`, at `line` of the
  // document for an inline one) or inserted by script. Its graph is fetched now. An `async`
  // script (and every inserted one: HTML sets "force async" on them) runs in a task of its own
  // once its graph is there; a parsed one without `async` is returned, for the session to run
  // with the deferred scripts once the document is parsed (`executeScript`).
  function prepareModuleScript(element, parser, line, during) {
    const document = element.ownerDocument;
    const handle = document._advHandle;
    const global = handle && handle.worlds.page;
    if (!global) return null;
    const state = stateOf(global);
    const src = element.getAttribute("src");
    const script = { element, document, state, external: src !== null, failed: false, linked: null, during };
    let root = null;
    if (src !== null) {
      const url = src === "" ? null : resolveURL(src, document);
      script.during = during || "module script " + (url || src);
      if (url === null) {
        // An empty or unparsable src: the script never runs and gets `error`, at once in WebKit
        // (ScriptElement::requestModuleScript; HTML queues it, as WebKit does for a classic one).
        fire(element, "error");
        return null;
      }
      root = fetchSingle(state, url, !parser);
    } else {
      root = createModule(state, null, document.baseURI, element.text, line || 1);
      script.during = during || "inline module script of " + document.URL;
    }
    if (root === null || !fetchDescendants(state, root, !parser)) script.failed = true;
    else script.linked = linkedScript(root);
    if (parser && !element.hasAttribute("async")) return script;
    const run = () => executeScript(script);
    if (root !== null && graphArriving(root)) whenArrived(state, root, script.during, run);
    else host.queueTask(pageIdOf(state), run, script.during);
    return null;
  }
  ctx.prepareModuleScript = prepareModuleScript;

  function resolveURL(raw, document) {
    try { return new URLClass(String(raw).trim(), document.baseURI).href; } catch (error) { return null; }
  }

  // HTML "execute the script element" for a module script, with WebKit's events
  // (ScriptElement::executeScriptAndDispatchEvent): `error` when its graph could not be fetched;
  // a syntax error in the graph is reported and gets no event; a specifier or import that does
  // not resolve is reported and gets `load`; otherwise the module runs (document.currentScript
  // is null meanwhile) and the element gets `load`, inline or not (HTML: external ones only).
  // An exception, or a rejection of a top-level await, is reported as uncaught.
  function executeScript(script) {
    const { element, document, state } = script;
    if (!document._advHandle || element.ownerDocument !== document) return;
    if (script.failed) { fire(element, "error"); return; }
    const { record, errorToRethrow, errorKind } = script.linked;
    if (errorToRethrow) {
      host.reportError(pageIdOf(state), errorToRethrow, script.during);
      if (errorKind === "resolve") fire(element, "load");
      return;
    }
    const previous = ctx.setCurrentScript(document, null);
    try {
      reportFailure(state, record, evaluate(record), script.during);
    } finally {
      ctx.setCurrentScript(document, previous);
    }
    fire(element, "load");
  }
  // Reports what a module's evaluation threw: at once when it threw before returning (as WebKit
  // reports a script's exception), when its promise rejects for a top-level await.
  function reportFailure(state, record, promise, during) {
    const root = record.cycleRoot || record;
    if (root.hasError) {
      host.reportError(pageIdOf(state), root.evaluationError, during);
      then(state, promise, undefined, () => {});
      return;
    }
    then(state, promise, undefined, (reason) => host.reportError(pageIdOf(state), reason, during));
  }

  // A module the browser runs as a world's top-level script (an extension's module background):
  // fetched from `url` with its graph, linked and evaluated at once; a failed fetch, a parse or
  // link error or an evaluation error is reported with `during`. `serviceWorker` makes the
  // world one whose `import()` rejects, as in WebKit.
  function runModule(global, url, serviceWorker, during) {
    const state = stateOf(global);
    if (serviceWorker) state.serviceWorker = true;
    const root = fetchSingle(state, url, false);
    if (root === null || !fetchDescendants(state, root, false)) {
      host.reportError(pageIdOf(state), new state.TypeError("Importing a module script failed."), during);
      return;
    }
    const { record, errorToRethrow } = linkedScript(root);
    if (errorToRethrow) { host.reportError(pageIdOf(state), errorToRethrow, during); return; }
    reportFailure(state, record, evaluate(record), during);
  }

  return {
    name: "modules",
    world(global, document) { worlds.set(global, makeState(global, document)); },
    prepare: prepareModuleScript,
    executeScript,
    scriptType,
    classicScriptSource,
    runModule,
    // A world whose `import()` rejects (a service worker, HTML 8.1.5.3).
    markServiceWorker(global) { stateOf(global).serviceWorker = true; },
  };
})
