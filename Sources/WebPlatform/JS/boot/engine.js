// engine: boot/engine
// provides: impl, require, host, domGlobals, EventTarget, urlClasses, hooks, traceHooks
// provides: addMutationListener, navigatorPage, reportError, defineMembers, internalSlots, lazyGlobal
// provides: namedObjects, forwardedPrototypes, membrane
// requires: makeFetchResponse, fetchHeaderText, setCurrentScript, makeStructuredClone
//
// The engine realm: one per context group. It holds domino (the DOM) and the layers, and builds
// for each page its document and the page's window members (`shared`). Worlds are separate JSC
// realms that no object of this realm reaches: each sees the page through wrappers of its own
// (boot/membrane.js), its global inheriting from an object of its own that holds the window
// members, made when first named (Safari's isolated worlds, WebKit's DOMWrapperWorld).
(function (host, require, installPlatform, layers, makeURL, makeMembrane) {
  "use strict";
  const domino = require("domino");
  const impl = domino.impl;
  const HTMLParser = impl.HTMLParser;
  const EventTarget = require("domino/lib/EventTarget");
  const Location = require("domino/lib/Location");
  // The membrane between the worlds and this realm (boot/membrane.js), made once the layers
  // have loaded.
  let membrane = null;
  const platform = installPlatform(impl, EventTarget, (pageId, error) => {
    if (pageId !== undefined) host.reportError(pageId, error);
  }, () => membrane);

  // The page's title as the browser shows it (domino's own getter; see `title()` below).
  const documentTitle = Object.getOwnPropertyDescriptor(impl.Document.prototype, "title").get;
  const SAFARI_UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15";
  // HTML 8.9.1: `navigator` is a Navigator whose attributes are getters on Navigator.prototype,
  // enumerable and configurable as WebIDL makes them, so page script may shadow or redefine
  // them (fingerprinting and anti-adblock scripts do). Each page gets its own instance
  // (`makeNavigator`, with the page it belongs to for sendBeacon in requests.js); each world
  // sees it through its own Navigator.prototype.
  const navigatorValues = {
    userAgent: SAFARI_UA, appCodeName: "Mozilla", appName: "Netscape", appVersion: SAFARI_UA.slice("Mozilla/".length),
    platform: "MacIntel", product: "Gecko", productSub: "20030107", vendor: "Apple Computer, Inc.", vendorSub: "",
    language: "en-US", languages: Object.freeze(["en-US"]), onLine: true, cookieEnabled: true, maxTouchPoints: 0,
    webdriver: false,
  };
  const navigatorPages = new WeakMap();
  function Navigator() { throw new TypeError("Illegal constructor"); }
  for (const name of Object.keys(navigatorValues)) {
    const value = navigatorValues[name];
    const get = function () {
      if (!navigatorPages.has(this)) throw new TypeError("The Navigator." + name + " getter can only be used on instances of Navigator");
      return value;
    };
    Object.defineProperty(get, "name", { value: "get " + name });
    Object.defineProperty(Navigator.prototype, name, { get, enumerable: true, configurable: true });
  }
  Object.defineProperty(Navigator.prototype, "javaEnabled", { value: function javaEnabled() { return false; }, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(Navigator.prototype, Symbol.toStringTag, { value: "Navigator", configurable: true });
  function makeNavigator(pageId, document) {
    const navigator = Object.create(Navigator.prototype);
    navigatorPages.set(navigator, { pageId, document });
    return navigator;
  }

  // MARK: - Shared DOM globals (one object per realm, every page's chain ends here)

  const domGlobals = Object.create(null);
  for (const name of Object.keys(impl)) {
    if (name === "Window" || name === "HTMLParser" || name === "DOMImplementation") continue;
    const value = impl[name];
    if (typeof value === "function") domGlobals[name] = value;
  }
  domGlobals.EventTarget = EventTarget;
  const urlClasses = makeURL(require("domino/lib/URL"));
  domGlobals.URL = urlClasses.URL;
  domGlobals.URLSearchParams = urlClasses.URLSearchParams;
  domGlobals.Navigator = Navigator;
  Object.setPrototypeOf(domGlobals, Object.prototype);

  // MARK: - The layers' context (JS/<concern>/<layer>.js, in the catalog's order)

  // Each layer adds what domino lacks (MutationObserver, CSSOM, cascade, events, media, geometry,
  // frames, requests …) to domGlobals and the DOM prototypes here, before the snapshot below, so
  // that whatever a page patches on them is undone on navigation; `page(p)` then sets up each new
  // document. Every layer gets this one context: the members below (this file's header names
  // them), and what the layers before it add (each layer's header names what it provides and
  // requires; Sources/WebPlatform/LayerCatalog.swift orders them so).

  // `hooks` is filled in by the browser (Swift) to decide requests and load frames; with no
  // browser (a bare WebSession) the layers fall back to loading everything.
  const hooks = Object.create(null);
  // Where the trace (trace/dom-trace.js) listens to changes the platform layers see (style
  // sheets, media) to trace those made by extension code: no-ops until it sets them, sealed so
  // that a hook no layer calls cannot be set.
  const traceHooks = Object.seal(Object.assign(Object.create(null), {
    sheetChange(document, owner, what, detail) {},
    mediaChange(element, describeChange) {},
  }));
  // Mutation listeners: domino reports tree and attribute changes of a document through a single
  // handler (Document._setMutationHandler). Each document gets one handler that fans out to every
  // listener registered with addMutationListener(listener(record, document)); a layer that calls
  // document._setMutationHandler(handler) itself joins the fan-out instead of replacing it.
  const mutationListeners = [];
  function addMutationListener(listener) { mutationListeners.push(listener); }
  // Marks a document whose set of <script> elements may have changed (see newScripts).
  addMutationListener((record, document) => {
    if (record.type !== 6 && record.type !== 5) return; // INSERT, MOVE
    const node = record.type === 6 ? record.node : record.target;
    if (!node || node.nodeType !== 1 && node.nodeType !== 11) return;
    if (node.localName === "script" || (node.firstChild && node.querySelector("script"))) document._advScriptsDirty = true;
  });
  class InternalSlots extends WeakMap {
    constructor(interfaceName) { super(); this.interfaceName = interfaceName; }
    of(object, operation) {
      const state = this.get(object);
      if (state === undefined) {
        const name = this.interfaceName;
        throw new TypeError("Can only call " + name + (operation ? "." + operation : " methods") + " on instances of " + name);
      }
      return state;
    }
  }
  const ctx = {
    // Objects whose wrappers forward names the prototype chain lacks to the object itself
    // (a string map such as `dataset` or a Storage, a style declaration): boot/membrane.js.
    // Each maps to the table of methods it answers (a null-prototype object), or null when
    // only the object itself can say.
    namedObjects: new WeakMap(),
    // Prototypes whose enumerable accessors (a style declaration's hundreds of properties) stay
    // the engine's: their objects' wrappers forward those names instead of mirroring them.
    forwardedPrototypes: new WeakSet(),
    // The membrane between the worlds and this realm (boot/membrane.js), once the layers have loaded.
    get membrane() { return membrane; },
    impl, require, host, domGlobals, EventTarget, urlClasses, hooks, traceHooks, addMutationListener,
    navigatorPage: (navigator) => navigatorPages.get(navigator),
    reportError(pageId, error) { if (pageId !== undefined) host.reportError(pageId, error); },
    // WebIDL members on an interface's prototype (WebIDL 3.7.6-3.7.7): an operation (a function,
    // or a descriptor with a value) is writable, enumerable and configurable; an attribute (a
    // descriptor with get/set) an enumerable, configurable accessor. `tag` is the interface's
    // Symbol.toStringTag.
    defineMembers(proto, members, tag) {
      for (const [name, member] of Object.entries(members)) {
        const descriptor = typeof member === "function" ? { value: member } : member;
        Object.defineProperty(proto, name, "value" in descriptor
          ? { value: descriptor.value, writable: true, enumerable: true, configurable: true }
          : { get: descriptor.get, set: descriptor.set, enumerable: true, configurable: true });
      }
      if (tag) Object.defineProperty(proto, Symbol.toStringTag, { value: tag, configurable: true });
    },
    // An interface's internal slots (WebIDL 3.9): its objects' state, by object, with the brand
    // check every operation makes: `of(object, operation)` is the state, or WebKit's TypeError
    // when `object` is not one of the interface's (bindings' "Can only call X.f on instances of X").
    internalSlots(interfaceName) { return new InternalSlots(interfaceName); },
    // A global (of a world, or a page's shared window object) made when first read (most pages never
    // use it): until then an accessor, which puts the made value, or an assigned one, in its place.
    lazyGlobal(global, name, make, enumerable) {
      if (membrane !== null && membrane.isWorldGlobal(global)) { membrane.lazyGlobal(global, name, make, enumerable); return; }
      const settle = (value) => Object.defineProperty(global, name, { value, writable: true, enumerable, configurable: true });
      Object.defineProperty(global, name, {
        get() { const value = make(); settle(value); return value; },
        set(value) { settle(value); },
        enumerable, configurable: true,
      });
    },
  };
  const web = Object.create(null);
  for (const layer of layers) {
    const made = layer(ctx);
    if (made && made.name) web[made.name] = made;
  }

  // MARK: - Worlds (boot/membrane.js): every world sees the DOM through wrappers of its own

  const interfaceNames = new WeakMap();  // an interface's prototype → its name, for errors
  for (const name of Object.keys(domGlobals)) {
    const value = domGlobals[name];
    if (typeof value !== "function") continue;
    if (value.prototype && typeof value.prototype === "object" && !interfaceNames.has(value.prototype)) interfaceNames.set(value.prototype, name);
  }
  const windowHandles = new WeakMap();  // a page's window EventTarget → its page handle
  membrane = makeMembrane()({
    structuredClone: ctx.makeStructuredClone(globalThis),
    windowOf: (raw) => windowHandles.get(raw),
    interfaceName: (proto) => interfaceNames.get(proto),
    interfaceObject: (name) => domGlobals[name],
    namedObjects: ctx.namedObjects,
    isForwarded: (proto) => ctx.forwardedPrototypes.has(proto),
    isEvent: (raw) => raw instanceof impl.Event,
    isCustomEvent: (fn) => fn === domGlobals.CustomEvent,
    compile: (source) => host.compileRuntime(source),
    // The HTMLElement constructor finds a custom element's definition by new.target (the world's
    // class, as the engine sees it); every other interface makes its own kind of object.
    newTargetFor: (raw, newTarget) => (raw === domGlobals.HTMLElement ? newTarget : raw),
  });

  // Content-attribute event handlers (onclick="…") are the page's script: compiled in the page
  // world of the element's document, with the element, its form and the document on the scope
  // chain before the window (HTML 8.1.8.1 "getting the current value of the event handler").
  const EventHandlerBuilder = require("domino/lib/defineElement")._advEventHandlerBuilder;
  const buildInEngine = EventHandlerBuilder.prototype.build;
  EventHandlerBuilder.prototype.build = function build() {
    const handle = this.document && this.document._advHandle;
    const global = handle && handle.worlds.page;
    const w = global && membrane.worldOf(global);
    if (!w) return buildInEngine.call(this);
    const scope = "with (arguments[0]) with (arguments[1]) with (arguments[2]) return function (event) {\n" + this.body + "\n};";
    let handler;
    try {
      const make = apply(w.intrinsics.Function, undefined, [scope]);
      const form = this.form && this.form.nodeType ? membrane.out(this.form, w) : w.factories.object(null);
      handler = apply(make, undefined, [membrane.out(this.document, w), form, membrane.out(this.element, w)]);
    } catch (error) {
      const thrown = membrane.out(error, w);
      handler = function () { throw thrown; };
      return handler;
    }
    return membrane.into(handler, w);
  };

  // The fan-out itself, installed on each new document (createPage).
  const setDominoMutationHandler = impl.Document.prototype._setMutationHandler;
  function installMutationFanOut(document) {
    const own = [];
    // Counts the document's changes, so the host can tell that nothing changed (Page.title).
    let changes = 0;
    Object.defineProperty(document, "_advMutations", { value: 0, writable: true });
    setDominoMutationHandler.call(document, function fanOut(record) {
      document._advMutations = ++changes;
      for (const handler of own) handler(record);
      for (const listener of mutationListeners) {
        try { listener(record, document); } catch (error) { host.reportError(document._advPageId, error); }
      }
    });
    Object.defineProperty(document, "_setMutationHandler", {
      value(handler) { if (typeof handler === "function") own.push(handler); },
      configurable: true,
    });
  }

  // No page reaches this realm: every world sees it through the membrane (boot/membrane.js), so
  // nothing a page patches, freezes or deletes in its world changes the engine's DOM, the layers
  // or another world, and nothing needs restoring after a navigation or between sessions.
  const { getOwnPropertyDescriptor, ownKeys, getPrototypeOf, setPrototypeOf, deleteProperty, defineProperty, apply } = Reflect;

  // MARK: - Console capture

  function describe(value, depth) {
    switch (typeof value) {
      case "string": return depth === 0 ? value : JSON.stringify(value);
      case "number": return Object.is(value, -0) ? "-0" : String(value);
      case "bigint": return value + "n";
      case "undefined": return "undefined";
      case "symbol": return value.toString();
      case "function": return "[function " + (value.name || "anonymous") + "]";
      case "boolean": return String(value);
    }
    if (value === null) return "null";
    if (value instanceof Error || (value && typeof value.stack === "string" && typeof value.message === "string")) {
      return (value.name || "Error") + ": " + value.message;
    }
    if (value && value.nodeType === 1) {
      let text = "<" + value.localName;
      if (value.id) text += " id=\"" + value.id + "\"";
      const cls = value.getAttribute && value.getAttribute("class");
      if (cls) text += " class=\"" + cls + "\"";
      return text + ">";
    }
    if (value && value.nodeType === 9) return "#document";
    if (value && value.nodeType === 3) return "#text " + JSON.stringify(value.data);
    if (depth >= 3) return Array.isArray(value) ? "[…]" : "{…}";
    if (Array.isArray(value)) return "[" + value.map((v) => describe(v, depth + 1)).join(", ") + "]";
    try {
      const keys = Object.keys(value);
      return "{" + keys.map((k) => k + ": " + describe(value[k], depth + 1)).join(", ") + "}";
    } catch (e) {
      return "[object]";
    }
  }

  function format(args) {
    if (args.length === 0) return "";
    let first = args[0], rest = 1, text;
    if (typeof first === "string" && first.includes("%")) {
      text = first.replace(/%[sdifoOc%]/g, (spec) => {
        if (spec === "%%") return "%";
        if (rest >= args.length) return spec;
        const arg = args[rest++];
        switch (spec) {
          case "%s": return typeof arg === "string" ? arg : describe(arg, 1);
          case "%d": case "%i": return String(parseInt(arg, 10));
          case "%f": return String(parseFloat(arg));
          case "%c": return "";
          default: return describe(arg, 1);
        }
      });
    } else {
      text = describe(first, 0);
    }
    for (; rest < args.length; rest++) text += " " + describe(args[rest], 0);
    return text;
  }

  // MARK: - User prompts and windows (HTML 8.8, 7.2.2)

  // alert, confirm and prompt return at once, as if the user dismissed them (confirm: Cancel,
  // prompt: null), and show in the console trace with their message; open is a blocked popup
  // (null), close and print do nothing; reportError reports like an uncaught exception.
  function makeWindowFunctions(pageId, world) {
    const say = (level, text) => host.console(pageId, world, level, text);
    return {
      alert(message) { say("alert", message === undefined ? "" : String(message)); },
      confirm(message) { say("confirm", message === undefined ? "" : String(message)); return false; },
      prompt(message, value) { say("prompt", message === undefined ? "" : String(message)); return null; },
      print() { say("print", ""); },
      open(url) { say("open", (url === undefined ? "" : String(url)) + " (blocked: the harness opens no windows)"); return null; },
      close() {},
      reportError(error) {
        if (arguments.length === 0) throw new TypeError("Not enough arguments");
        host.reportError(pageId, error, "reportError");
      },
    };
  }

  // The top frame of the caller, as "url:line:column", for timer diagnostics.
  function callerLocation() {
    // Only three frames are read: capturing (and printing) the whole stack would cost more than
    // the timer it labels.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 12;
    const stack = new Error().stack || "";
    Error.stackTraceLimit = limit;
    const lines = stack.split("\n");
    // The innermost frame that is not the runtime's (the timer function, the membrane, the
    // world's forwarding function and the builtins they call).
    let place = "";
    for (let i = 1; i < lines.length; i++) {
      const at = lines[i].indexOf("@");
      place = at >= 0 ? lines[i].slice(at + 1) : lines[i];
      if (!place.startsWith("adv-runtime:") && place !== "[native code]") return place;
    }
    return place;
  }

  // MARK: - Pages

  const WINDOW_HANDLER_EVENTS = ["load", "message", "messageerror", "resize", "scroll", "focus", "blur", "beforeunload", "unload",
    "pagehide", "pageshow", "storage", "online", "offline", "languagechange", "unhandledrejection", "rejectionhandled", "beforeprint",
    "afterprint", "click", "keydown", "keyup", "input", "change", "submit"];

  function createPage(pageId, url, timeOrigin, historySession) {
    const parser = new HTMLParser(url, undefined, { scripting_enabled: true });
    const document = parser.document();
    document._scripting_enabled = true;
    Object.defineProperty(document, "_advPageId", { value: pageId });
    installMutationFanOut(document);
    platform.fixDocument(document);
    const windowTarget = new EventTarget();
    const location = new Location(windowTarget, url);
    const shared = Object.create(domGlobals);
    document.defaultView = windowTarget;
    windowTarget.document = document;
    Object.defineProperty(windowTarget, "_advPageId", { value: pageId });
    windowTarget.location = location;

    function toTimeout(value) {
      // WebIDL `long` conversion: NaN and ±Infinity give 0, fractions truncate, then wrap to int32.
      const n = Number(value) | 0;
      return n < 0 ? 0 : n;
    }
    function timerHandler(handler) {
      if (typeof handler === "function") return handler;
      // A string handler is compiled like `new Function(code)`, in the engine realm: it sees the
      // shared page globals but not the calling world's own top-level bindings.
      const code = String(handler);
      return function () { (0, eval)(code); };
    }
    Object.assign(shared, {
      document, location, navigator: makeNavigator(pageId, document),
      setTimeout(handler, timeout, ...args) {
        return host.setTimer(pageId, timerHandler(handler), toTimeout(timeout), false, args, callerLocation());
      },
      setInterval(handler, timeout, ...args) {
        return host.setTimer(pageId, timerHandler(handler), toTimeout(timeout), true, args, callerLocation());
      },
      clearTimeout(id) { host.clearTimer(pageId, Number(id) | 0); },
      clearInterval(id) { host.clearTimer(pageId, Number(id) | 0); },
      requestAnimationFrame(callback) {
        if (typeof callback !== "function") throw new TypeError("Argument 1 ('callback') to Window.requestAnimationFrame must be a function");
        return host.requestFrame(pageId, callback, callerLocation());
      },
      cancelAnimationFrame(id) { host.cancelFrame(pageId, Number(id) | 0); },
      queueMicrotask(callback) {
        if (typeof callback !== "function") throw new TypeError("Argument 1 ('callback') to queueMicrotask must be a function");
        Promise.resolve().then(() => {
          host.checkBudget("a queueMicrotask callback");
          try { callback(); } catch (error) { host.reportError(pageId, error); }
        });
      },
      // fetch(): decided by the browser's rules like any request; a blocked fetch rejects with
      // Safari's "Load failed" TypeError; an answer arrives in a later task, as over a network.
      fetch(input, init) {
        let url;
        try { url = new urlClasses.URL(typeof input === "string" ? input : String(input && input.url || input), document.URL).href; }
        catch (error) { return Promise.reject(error); }
        const method = String((init && init.method) || (input && input.method) || "GET").toUpperCase();
        // An abort signal (Fetch 5.6 step 11): an aborted one rejects at once with its reason; one
        // that aborts before the answer rejects then; after it, the body fails to read.
        const signal = (init && init.signal) || (input && typeof input === "object" && input.signal) || null;
        if (signal && signal.aborted) return Promise.reject(signal.reason);
        return new Promise((resolve, reject) => {
          let settled = false;
          if (signal) signal.addEventListener("abort", () => { if (!settled) { settled = true; reject(signal.reason); } });
          let headerText = "";
          try { headerText = ctx.fetchHeaderText(input, init); } catch (error) { settled = true; reject(error); return; }
          const outcome = host.fetch(pageId, url, method, headerText);
          host.queueTask(pageId, () => {
            if (settled) return;
            settled = true;
            if (outcome.blocked) { reject(new TypeError("Load failed")); return; }
            resolve(ctx.makeFetchResponse(outcome.url || url, outcome.status, outcome.body, signal, outcome.headers, outcome.redirected));
          });
        });
      },
      addEventListener(type, listener, options) { windowTarget.addEventListener(type, listener, options); },
      removeEventListener(type, listener, options) { windowTarget.removeEventListener(type, listener, options); },
      dispatchEvent(event) { return windowTarget.dispatchEvent(event); },
      // innerWidth, innerHeight, outerWidth, scrollX/Y and pageX/YOffset are geometry.js's
      // (accessors over the page's viewport and scroll position).
      outerHeight: 900, devicePixelRatio: 2,
    });
    // The window's event handler attributes (HTML 8.1.8.2, WindowEventHandlers and the plain
    // events of GlobalEventHandlers): each world keeps its own (boot/platform.js); `onerror`
    // takes five arguments in HTML and is left out until uncaught errors reach it.
    for (const type of WINDOW_HANDLER_EVENTS) {
      Object.defineProperty(shared, "on" + type, {
        get() { return windowTarget._getEventHandler(type); },
        set(value) { windowTarget._setEventHandler(type, value); },
        enumerable: true, configurable: true,
      });
    }

    const setup = { document, shared, windowTarget, pageId, timeOrigin, url, historySession };
    for (const name in web) if (web[name].page) web[name].page(setup);

    let parsed = 0;
    // The page world is made when first needed (Page.pageWorld): until then `worlds.page` asks
    // the host to make it, and initWorld puts the world's global in its place.
    const worlds = Object.create(null);
    defineProperty(worlds, "page", {
      get() {
        host.makePageWorld(pageId);
        const made = getOwnPropertyDescriptor(worlds, "page");
        return made !== undefined && "value" in made ? made.value : undefined;
      },
      enumerable: true, configurable: true,
    });
    const handle = {
      worlds,
      // Resource loads the parsed document asks for (HTML "fetch" points), for the network
      // layer to decide: [{element, url, type}] with DNR resource types.
      subresources() {
        const out = [];
        const add = (element, raw, type, base) => {
          if (!raw) return;
          try { out.push({ element, url: new urlClasses.URL(String(raw).trim(), base || document.URL).href, type }); } catch (e) { /* unparsable: no request */ }
        };
        const all = (selector) => Array.prototype.slice.call(document.querySelectorAll(selector));
        for (const img of all("img")) {
          add(img, img.getAttribute("src"), "image");
          for (const candidate of (img.getAttribute("srcset") || "").split(",")) add(img, candidate.trim().split(/\s+/)[0], "image");
        }
        for (const link of all("link[href]")) {
          if (/(^|\s)stylesheet(\s|$)/i.test(link.getAttribute("rel") || "")) add(link, link.getAttribute("href"), "stylesheet");
        }
        for (const frame of all("iframe[src], frame[src]")) add(frame, frame.getAttribute("src"), "sub_frame");
        for (const media of all("video[src], audio[src], video > source[src], audio > source[src]")) add(media, media.getAttribute("src"), "media");
        for (const video of all("video[poster]")) add(video, video.getAttribute("poster"), "image");
        for (const object of all("object[data]")) add(object, object.getAttribute("data"), "object");
        for (const embed of all("embed[src]")) add(embed, embed.getAttribute("src"), "object");
        const urls = /url\(\s*(['"]?)([^'")]+)\1\s*\)/g;
        for (const style of all("style")) {
          for (const match of (style.textContent || "").matchAll(urls)) add(style, match[2], "image");
        }
        for (const element of all("[style]")) {
          for (const match of (element.getAttribute("style") || "").matchAll(urls)) add(element, match[2], "image");
        }
        // Linked sheets' url()s resolve against the sheet's own URL (CSS Values 4 §4.5).
        for (const link of all("link[href]")) {
          const sheet = link.sheet;
          if (!sheet || !sheet.href || !/(^|\s)stylesheet(\s|$)/i.test(link.getAttribute("rel") || "")) continue;
          const text = Array.prototype.map.call(sheet.cssRules || [], (rule) => rule.cssText).join("\n");
          for (const match of text.matchAll(urls)) add(link, match[2], "image", sheet.href);
        }
        // From here on, elements inserted or changed make their own requests (requests.js).
        document._advRequestsLive = 2;
        return out;
      },
      document, shared, windowTarget,
      // Feeds the next chunk to the parser and returns the <script> elements completed by it.
      write(chunk) {
        document._advParsing = true;
        try { parser.parse(chunk, false, undefined); } finally { document._advParsing = false; }
        return this.newScripts();
      },
      end() {
        // domino's stopParsing dispatches its own untrusted `load` at defaultView; the runtime
        // fires load itself at the right moment, so hide the view while the parser finishes.
        const view = document.defaultView;
        document.defaultView = null;
        document._advParsing = true;
        try { parser.parse("", true, undefined); } finally { document.defaultView = view; document._advParsing = false; }
        // Scripts inserted from now on run when inserted (requests.js); other elements wait for
        // the subresource scan.
        document._advRequestsLive = 1;
        return this.newScripts();
      },
      newScripts() {
        // Counting the document's scripts walks the whole tree; skip it unless a script
        // element may have arrived since the last count (a parser slice costs a tree walk
        // otherwise, which made slice-by-slice loading quadratic).
        if (!document._advScriptsDirty) return [];
        document._advScriptsDirty = false;
        const all = document.getElementsByTagName("script");
        const fresh = [];
        for (; parsed < all.length; parsed++) fresh.push(all[parsed]);
        return fresh;
      },
      // The title the browser shows for the page (tabs.Tab.title): domino's own getter, which
      // a page redefining `Document.prototype.title` does not reach, as it cannot reach the
      // title Safari shows.
      title() {
        return documentTitle.call(document);
      },
      // The <script> element about to run (or null when it is done): document.currentScript.
      setCurrentScript(element) {
        return ctx.setCurrentScript(document, element);
      },
      // HTML 6.2 "update the visibility state": the new state, then `visibilitychange` (bubbling)
      // at the document; `quietly` for the state a document starts in.
      setVisibility(state, quietly) {
        if ((document._advVisibility || "visible") === state) return;
        Object.defineProperty(document, "_advVisibility", { value: state, writable: true, configurable: true });
        if (!quietly) document._dispatchEvent(new impl.Event("visibilitychange", { bubbles: true }), true);
      },
      setReadyState(state) {
        document.readyState = state;
        document._dispatchEvent(new impl.Event("readystatechange"), true);
      },
      fireDOMContentLoaded() {
        // The event path ends at the window (events.js dispatch), as in browsers.
        document._dispatchEvent(new impl.Event("DOMContentLoaded", { bubbles: true }), true);
      },
      fireLoad() {
        windowTarget._dispatchEvent(new impl.Event("load"), true);
      },
      // A resource's load or error at one of the document's elements.
      fire(element, type) {
        element.dispatchEvent(new impl.Event(type));
      },
      // The page is gone: layers that keep per-page state let it go.
      close() {
        for (const name in web) if (web[name].pageClosed) web[name].pageClosed(pageId);
      },
    };
    Object.defineProperty(document, "_advHandle", { value: handle });
    windowHandles.set(windowTarget, handle);
    return handle;
  }

  // Makes a fresh realm's global a window of `page` in world `worldId`: boot/world.js (`makeWorld`,
  // evaluated in that realm) makes the world's own globals and its half of the membrane; the
  // page's window members (document, location, timers, the DOM's interfaces) are inherited from
  // an object of the world's own, behind the global's prototype, each made when first read.
  function initWorld(global, page, pageId, worldId, isPageWorld, seed, makeWorld, compile, namedProperties) {
    const windowFunctions = makeWindowFunctions(pageId, worldId);
    const w = membrane.attach(global, makeWorld, worldId, page, seed, {
      now: () => host.now(),
      console(level, args) {
        if (level === "assert") host.console(pageId, worldId, "error", "Assertion failed" + (args.length ? ": " + format(args) : ""));
        else host.console(pageId, worldId, level, format(args));
      },
      windowFunction(name, args) { return apply(windowFunctions[name], undefined, args); },
      top: () => (page.frame ? page.frame.top(worldId, global) : global),
      parent: () => (page.frame ? page.frame.parent(worldId, global) : global),
    }, compile);
    const globalPrototype = getPrototypeOf(global);
    defineProperty(globalPrototype, Symbol.toStringTag, { value: "Window", configurable: true });
    const members = membrane.installWindow(w, membrane.windowBase(w, EventTarget.prototype), namedProperties);
    setPrototypeOf(globalPrototype, members);
    defineProperty(page.worlds, worldId, { value: global, writable: true, enumerable: true, configurable: true });
    for (const name in web) if (web[name].world) web[name].world(global, page.document, isPageWorld);
  }

  // The session using this engine has ended and its pages are closed: the layers forget what
  // they kept for it (history, cookies, storage, observers) and the browser's hooks go.
  function endSession() {
    for (const name in web) if (web[name].sessionEnded) web[name].sessionEnded();
    const keys = ownKeys(hooks);
    for (let i = 0; i < keys.length; i++) deleteProperty(hooks, keys[i]);
  }

  // `contextNames` is for the layer catalog's tests: what the context holds once every layer has
  // loaded (the engine's members and every layer's provides).
  return { createPage, initWorld, endSession, domGlobals, web, hooks, addMutationListener, contextNames: () => Object.keys(ctx) };
})
