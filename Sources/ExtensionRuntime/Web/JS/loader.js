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
  // Module-private functions the runtime's layers reuse, exported by a line appended to the
  // module's own text at load time (the Debian files stay untouched): domino's selector
  // compiler, so the cascade can keep compiled selectors instead of recompiling per match.
  const exposures = { "domino/lib/select.js": "\nmodule.exports._advCompile = compile;" };

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

  function load(path) {
    const cached = cache[path];
    if (cached) return cached.exports;
    const module = { exports: {}, id: path, filename: path, loaded: false };
    cache[path] = module;
    const exposed = Object.keys(exposures).find((suffix) => path.endsWith("/" + suffix));
    const factory = host.compile(path, exposed ? exposures[exposed] : "");
    const dir = dirname(path);
    factory.call(module.exports, module.exports, (request) => load(resolve(request, dir)), module, path, dir);
    module.loaded = true;
    return module.exports;
  }

  return function require(request) { return load(resolve(request, "/")); };
})
