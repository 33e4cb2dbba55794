// CommonJS loader for Debian's pure-JS packages (node-domino, node-cssom) inside JavaScriptCore.
// Evaluated once per engine realm. `host.compile(path)` (Swift) reads a file and returns it
// compiled as `function (exports, require, module, __filename, __dirname)`, with its own path as
// the source URL so stacks point into the package files.
(function (host, packages) {
  "use strict";
  // domino's WindowTimers module captures these names while it loads; pages get their own
  // (virtual-clock) timers from engine.js, so the engine realm's must never be reached.
  for (const name of ["setTimeout", "clearTimeout", "setInterval", "clearInterval"]) {
    globalThis[name] = function () { throw new Error(name + " is not available in the engine realm"); };
  }
  const cache = Object.create(null);
  // Lines appended to a module's own text at load time (the Debian files stay untouched).
  // domino's selector module compiles a selector string (a regex tokenizer building closures) on
  // every matches/querySelector/closest call; the appended lines rebind its `compile` to one that
  // keeps each string's compiled test (a pure function of the string, or a SyntaxError, which is
  // not kept), so a script that matches the same selectors against many nodes (an ad blocker's
  // filters on every inserted node) compiles each once. The cascade reuses the same compiler.
  const exposures = {
    "domino/lib/select.js": "\n;(function () { var compileOnce = compile, compiled = new Map();" +
      " compile = function (sel) { var test = compiled.get(sel); if (test === undefined) {" +
      " test = compileOnce(sel); if (compiled.size >= 2000) compiled.clear(); compiled.set(sel, test); } return test; }; })();" +
      "\nmodule.exports._advCompile = compile;",
    // The builder of content-attribute event handlers (onclick="…"): boot/engine.js compiles
    // them in the page's world instead of the engine realm.
    "domino/lib/defineElement.js": "\nmodule.exports._advEventHandlerBuilder = EventHandlerBuilder;",
    // domino names its DOMExceptions by their legacy code constants (NOT_FOUND_ERR); WebIDL and
    // WebKit name them NotFoundError (WebIDL 2.8.1's table): the names are rewritten once.
    "domino/lib/DOMException.js": "\n;names = names.map(function (n) { return n && n.toLowerCase().replace(/(^|_)([a-z])/g, function (m, s, c) { return c.toUpperCase(); })" +
      ".replace(/Err$/, 'Error').replace(/^Url/, 'URL'); });",
  };
  // Modules loaded on first use instead of with the module that requires them. domino's CSS
  // value parser (cssparser.js, 230 KB, 30% of domino) serves only `element.style`
  // (CSSStyleDeclaration.js reads `parserlib.css` when a style attribute is first parsed); the
  // cascade parses inline styles itself, so most pages never need it, and each session saved
  // compiling and running it (about 3 ms).
  const deferred = ["domino/lib/cssparser.js"];

  // WebIDL gives an interface's operations writable, enumerable, configurable properties and its
  // attributes enumerable, configurable accessors (WebIDL 3.7.6, 3.7.7), so page script may wrap
  // or redefine them, as pages fighting an ad blocker do: Safari lets
  // `Object.defineProperty(Document.prototype, "title", ...)` through. domino defines most of
  // its prototypes with every attribute false, so while a module's top-level code runs, the
  // descriptors it passes to Object.create/defineProperty/defineProperties get WebIDL's
  // attributes, and its constants WebIDL's. Other values and names starting with "_" (domino's
  // internals) keep what domino gave them.
  const original = { create: Object.create, defineProperty: Object.defineProperty, defineProperties: Object.defineProperties };
  function idl(key, descriptor) {
    if (typeof key !== "string" || key[0] === "_" || descriptor === null || typeof descriptor !== "object") return descriptor;
    const enumerable = key !== "constructor";
    if ("get" in descriptor || "set" in descriptor) return { get: descriptor.get, set: descriptor.set, enumerable, configurable: true };
    if (typeof descriptor.value === "function") return { value: descriptor.value, writable: true, enumerable, configurable: true };
    // Constants (WebIDL 3.7.5) are read-only and enumerable.
    if (typeof descriptor.value === "number" && /^[A-Z][A-Z0-9_]*$/.test(key)) return { value: descriptor.value, writable: false, enumerable: true, configurable: false };
    return descriptor;
  }
  function idlMap(map) {
    if (map === undefined || map === null) return map;
    const out = original.create(null);
    for (const key of Reflect.ownKeys(map)) {
      // Object.defineProperties reads only a map's enumerable own properties (ECMA-262 20.1.2.3.1).
      if (Object.prototype.propertyIsEnumerable.call(map, key)) out[key] = idl(key, map[key]);
    }
    return out;
  }
  const webIDL = {
    create(proto, map) { return map === undefined ? original.create(proto) : original.create(proto, idlMap(map)); },
    defineProperty(object, key, descriptor) { return original.defineProperty(object, key, idl(key, descriptor)); },
    defineProperties(object, map) { return original.defineProperties(object, idlMap(map)); },
  };
  let loading = 0;

  function dirname(path) {
    const slash = path.lastIndexOf("/");
    return slash <= 0 ? "/" : path.slice(0, slash);
  }

  function normalize(path) {
    const out = [];
    for (const part of path.split("/")) {
      if (part === "" || part === ".") continue;
      if (part === "..") out.pop(); else out.push(part);
    }
    return "/" + out.join("/");
  }

  function resolve(request, fromDir) {
    if (request.startsWith("./") || request.startsWith("../") || request.startsWith("/")) {
      const base = normalize(request.startsWith("/") ? request : fromDir + "/" + request);
      return base.endsWith(".js") || base.endsWith(".json") ? base : base + ".js";
    }
    const slash = request.indexOf("/");
    const name = slash < 0 ? request : request.slice(0, slash);
    if (name in packages) {
      const pkg = packages[name];
      return slash < 0 ? pkg.main : resolve("./" + request.slice(slash + 1), pkg.root);
    }
    throw new Error("cannot find module '" + request + "' (only relative requires and " +
                    Object.keys(packages).join(", ") + " are available)");
  }

  // Which of `names` (package-relative paths such as "domino/lib/select.js") `path` is, if any.
  function named(names, path) {
    return names.find((name) => path.endsWith("/" + name));
  }

  function load(path) {
    const cached = cache[path];
    if (cached) return cached.exports;
    if (named(deferred, path)) return onFirstUse(path);
    return evaluate(path);
  }

  // Functions that adapt a deferred module's exports when it loads (see `require.wrap`).
  const wrappers = Object.create(null);

  // A stand-in for a deferred module's exports that loads it when a property is first read.
  function onFirstUse(path) {
    let exports;
    const real = () => exports || (exports = evaluate(path));
    return new Proxy(Object.create(null), {
      get: (_, key) => real()[key],
      has: (_, key) => key in real(),
    });
  }

  function evaluate(path) {
    const cached = cache[path];
    if (cached) return cached.exports;
    const module = { exports: {}, id: path, filename: path, loaded: false };
    cache[path] = module;
    const exposed = named(Object.keys(exposures), path);
    const factory = host.compile(path, exposed ? exposures[exposed] : "");
    const dir = dirname(path);
    if (loading++ === 0) Object.assign(Object, webIDL);
    try {
      factory.call(module.exports, module.exports, (request) => load(resolve(request, dir)), module, path, dir);
    } finally {
      if (--loading === 0) Object.assign(Object, original);
    }
    module.loaded = true;
    // A wrapped module's requirers, later ones included, all get what its wrapper made.
    const wrapped = named(Object.keys(wrappers), path);
    if (wrapped) module.exports = wrappers[wrapped](module.exports);
    return module.exports;
  }

  function require(request) { return load(resolve(request, "/")); }
  // Lets a runtime layer adapt a deferred module (one of `deferred`) before anything uses it:
  // `wrapper(exports)` returns what the modules that require it get.
  require.wrap = (suffix, wrapper) => {
    if (!deferred.includes(suffix)) throw new Error("only a deferred module can be wrapped: " + suffix);
    wrappers[suffix] = wrapper;
  };
  return require;
})
