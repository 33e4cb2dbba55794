// engine: boot/engine
// provides: impl, require, host, domGlobals, EventTarget, urlClasses, hooks, traceHooks
// provides: addMutationListener, navigatorPage, reportError, defineMembers, internalSlots, lazyGlobal
// requires: makeFetchResponse, fetchHeaderText, setCurrentScript
//
// The engine realm: one per context group. It holds domino (the DOM) and builds, for each page,
// the objects that page-world and content-world globals inherit from. Worlds are separate JSC
// realms whose global objects get the page's shared object as their prototype, so
// `document`, `location` and the DOM constructors resolve through it, while each world's own
// top-level bindings stay its own (Safari's isolated worlds). Known difference from Safari: the
// DOM prototypes are shared between worlds (Safari gives each world its own wrappers).
(function (host, require, installPlatform, layers, makeURL) {
  "use strict";
  const domino = require("domino");
  const impl = domino.impl;
  const HTMLParser = impl.HTMLParser;
  const EventTarget = require("domino/lib/EventTarget");
  const Location = require("domino/lib/Location");
  const platform = installPlatform(impl, EventTarget, (pageId, error) => {
    if (pageId !== undefined) host.reportError(pageId, error);
  });

  // MARK: - Virtual time

  const documentTitle = Object.getOwnPropertyDescriptor(impl.Document.prototype, "title").get;
  const RealDate = Date;
  // Date follows the virtual clock: `new Date()` and `Date.now()` read host.now(), everything
  // else is the engine's own Date. Called without `new`, Date returns a string (ECMA-262 21.4.2.1).
  function VirtualDate(...args) {
    if (new.target === undefined) return new RealDate(host.now()).toString();
    return Reflect.construct(RealDate, args.length ? args : [host.now()], new.target);
  }
  VirtualDate.prototype = RealDate.prototype;
  Object.defineProperty(RealDate.prototype, "constructor", { value: VirtualDate, writable: true, configurable: true });
  VirtualDate.now = function now() { return host.now(); };
  VirtualDate.parse = RealDate.parse;
  VirtualDate.UTC = RealDate.UTC;
  Object.defineProperty(VirtualDate, "name", { value: "Date" });

  const SAFARI_UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15";
  // HTML 8.9.1: `navigator` is a Navigator whose attributes are getters on Navigator.prototype,
  // enumerable and configurable as WebIDL makes them, so page script may shadow or redefine
  // them (fingerprinting and anti-adblock scripts do). Each page gets its own instance
  // (`makeNavigator`, with the page it belongs to for sendBeacon in requests.js); the prototype
  // is restored after a navigation like every DOM prototype.
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
  domGlobals.Date = VirtualDate;
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

  // MARK: - Intrinsics snapshot: nothing a page patches survives its navigation or its scenario

  // Pages reach this realm's objects through the DOM: a node's prototype chain ends at this
  // realm's Object.prototype, `document.constructor.constructor` is this realm's Function (and
  // with it this realm's global), a NodeList's iterator is this realm's array iterator, an error
  // the DOM throws is this realm's. Everything reachable that way is recorded once, when the
  // engine has loaded: a walk of the object graph from this realm's global object, the shared
  // DOM globals and the intrinsics no property leads to (iterator and generator prototypes),
  // through every own property's value, getter and setter and every prototype, without calling
  // anything. `restorePrototypes` compares it all again and puts back any property a page added,
  // changed or deleted, and any prototype it replaced. Only what can change is compared: a
  // property that is neither writable nor configurable (constants, domino's internals, a
  // constructor's `prototype`) can be neither reassigned, redefined nor deleted (ECMA-262
  // 10.1.6.3 ValidateAndApplyPropertyDescriptor); added properties show in the own-key count.
  //
  // Most of what the walk finds are functions: the DOM's and the builtins' methods, accessors and
  // (domino's methods being ordinary functions) the `prototype` object each of those has. The
  // walk freezes them, and a frozen object cannot change (ECMA-262 6.1.7.3, the invariants of
  // the essential internal methods), so each navigation compares the few hundred objects left
  // (constructors, prototypes, namespaces) instead of over seven thousand. Known difference: in
  // Safari a page may add properties to a DOM method or redefine its `name` (a native function
  // is extensible); here the engine's are frozen (writes to them fail as on any frozen object).
  // A constructor keeps its freedom: a function stays unfrozen when it is a global, or when its
  // `prototype` holds more than the `constructor` every ordinary function's has.
  const guarded = [];
  const guardedObjects = new Set();
  function isMethod(fn, isRoot) {
    if (isRoot) return false;
    const prototype = Reflect.getOwnPropertyDescriptor(fn, "prototype");
    if (prototype === undefined) return true;
    const value = prototype.value;
    if (value === null || typeof value !== "object") return false;
    const keys = Reflect.ownKeys(value);
    return keys.length === 1 && keys[0] === "constructor" && value.constructor === fn && Reflect.getPrototypeOf(value) === Object.prototype;
  }
  function guardGraph(roots, rootCount) {
    const queue = roots.slice();
    for (let head = 0; head < queue.length; head++) {
      const [object, name] = queue[head];
      if (object === null || (typeof object !== "object" && typeof object !== "function")) continue;
      if (guardedObjects.has(object)) continue;
      guardedObjects.add(object);
      let frozen = false;
      if (typeof object === "function" && isMethod(object, head < rootCount)) {
        const prototype = object.prototype;
        if (prototype !== undefined) { Object.freeze(prototype); guardedObjects.add(prototype); }
        Object.freeze(object);
        frozen = true;
      }
      const keys = Reflect.ownKeys(object);
      const mutableKeys = [], descriptors = [];
      for (const key of keys) {
        const descriptor = Reflect.getOwnPropertyDescriptor(object, key);
        if (descriptor.configurable || descriptor.writable) { mutableKeys.push(key); descriptors.push(descriptor); }
        const label = name + "." + (typeof key === "symbol" ? "[" + String(key) + "]" : key);
        if ("value" in descriptor) queue.push([descriptor.value, label]);
        else {
          if (descriptor.get) queue.push([descriptor.get, label + " (getter)"]);
          if (descriptor.set) queue.push([descriptor.set, label + " (setter)"]);
        }
      }
      const proto = Reflect.getPrototypeOf(object);
      if (!frozen) guarded.push({ object, name, keys, mutableKeys, descriptors, proto, extensible: Reflect.isExtensible(object) });
      queue.push([proto, name + " (its prototype)"]);
    }
  }
  // Intrinsics that no property leads to: ECMA-262's iterator, generator and async prototypes.
  function hiddenIntrinsics() {
    const protoOf = Reflect.getPrototypeOf;
    const found = [
      [protoOf([][Symbol.iterator]()), "%ArrayIteratorPrototype%"],
      [protoOf(new Map()[Symbol.iterator]()), "%MapIteratorPrototype%"],
      [protoOf(new Set()[Symbol.iterator]()), "%SetIteratorPrototype%"],
      [protoOf(""[Symbol.iterator]()), "%StringIteratorPrototype%"],
      [protoOf(/a/[Symbol.matchAll]("a")), "%RegExpStringIteratorPrototype%"],
      [protoOf(function* () {}), "%GeneratorFunction.prototype%"],
      [protoOf(async function () {}), "%AsyncFunction.prototype%"],
      [protoOf(async function* () {}), "%AsyncGeneratorFunction.prototype%"],
    ];
    if (typeof Iterator === "function" && typeof Iterator.prototype.map === "function") {
      found.push([protoOf([].values().map((x) => x)), "%IteratorHelperPrototype%"]);
      if (typeof Iterator.from === "function") found.push([protoOf(Iterator.from({ next() { return { done: true }; } })), "%WrapForValidIteratorPrototype%"]);
    }
    return found;
  }
  // Roots are named as a page names them: `Element.prototype.remove`, `Array.prototype.push`.
  const roots = [[VirtualDate, "Date"], [Navigator, "Navigator"]];
  for (const container of [domGlobals, globalThis]) {
    for (const key of Object.getOwnPropertyNames(container)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(container, key);
      if ("value" in descriptor) roots.push([descriptor.value, key]);
    }
  }
  guardGraph(roots.concat([[domGlobals, "window"], [globalThis, "globalThis"]], hiddenIntrinsics()), roots.length);

  // The restore runs after pages have had this realm's intrinsics to patch, so it calls only
  // functions captured here, at load, and loops by index (a `for…of` would call the array
  // iterator's `next`, which a page may have replaced; `push` may be gone).
  const { getOwnPropertyDescriptor, ownKeys, getPrototypeOf, setPrototypeOf, isExtensible, deleteProperty, defineProperty } = Reflect;
  const StringOf = String;
  // Snapshot descriptors have no prototype: a page's `Object.prototype.get` must not turn a data
  // descriptor into an accessor when it is put back (ToPropertyDescriptor reads inherited fields).
  for (let e = 0; e < guarded.length; e++) {
    const descriptors = guarded[e].descriptors;
    for (let i = 0; i < descriptors.length; i++) setPrototypeOf(descriptors[i], null);
  }
  function sameDescriptor(a, b) {
    if (a === undefined) return false;
    return a.value === b.value && a.get === b.get && a.set === b.set &&
      a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable;
  }
  function includes(list, item) {
    for (let i = 0; i < list.length; i++) if (list[i] === item) return true;
    return false;
  }

  // Kept out of the comparison loop, which runs over every property on every navigation.
  function putBack(object, key, descriptor) {
    try {
      deleteProperty(object, key);
      return defineProperty(object, key, descriptor);
    } catch (error) {
      return false;
    }
  }
  const reportedStuck = [];
  // Returns how many properties were put back and what could not be: a page may make a shared
  // property non-configurable, or an object non-extensible (Object.freeze on a prototype, as
  // some pages do to keep extensions from hooking an API), and JavaScript has no way back from
  // either. Those are named so the harness can say that later pages see them; everything else
  // is still restored.
  function restoreIntrinsics() {
    let restored = 0;
    const stuck = [];
    const note = (name) => { stuck[stuck.length] = name; };
    for (let e = 0; e < guarded.length; e++) {
      const entry = guarded[e];
      const object = entry.object;
      const current = ownKeys(object);
      const keys = entry.mutableKeys, descriptors = entry.descriptors;
      let missing = 0;
      for (let i = 0; i < keys.length; i++) {
        const now = getOwnPropertyDescriptor(object, keys[i]);
        if (sameDescriptor(now, descriptors[i])) continue;
        if (now === undefined) missing++;
        if (putBack(object, keys[i], descriptors[i])) restored++; else note(entry.name + "." + StringOf(keys[i]));
      }
      // Keys the page added: more than were there, less the ones it deleted.
      if (current.length !== entry.keys.length - missing) {
        for (let i = 0; i < current.length; i++) {
          const key = current[i];
          if (includes(entry.keys, key)) continue;
          if (deleteProperty(object, key)) restored++; else note(entry.name + "." + StringOf(key));
        }
      }
      if (getPrototypeOf(object) !== entry.proto) {
        if (setPrototypeOf(object, entry.proto)) restored++; else note(entry.name + " (its prototype)");
      }
      if (entry.extensible && !isExtensible(object)) note(entry.name + " (no longer extensible)");
    }
    return { restored, stuck };
  }
  function restorePrototypes() {
    const { restored, stuck } = restoreIntrinsics();
    // Each is said once per session; the next navigations find the same ones again.
    const fresh = [];
    for (let i = 0; i < stuck.length; i++) {
      if (includes(reportedStuck, stuck[i])) continue;
      reportedStuck[reportedStuck.length] = stuck[i];
      fresh[fresh.length] = stuck[i];
    }
    return { restored, stuck: fresh };
  }

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

  function makeConsole(pageId, world) {
    const console = Object.create(null);
    for (const level of ["log", "info", "warn", "error", "debug", "trace"]) {
      console[level] = function (...args) { host.console(pageId, world, level, format(args)); };
    }
    console.assert = function (condition, ...args) {
      if (!condition) host.console(pageId, world, "error", "Assertion failed" + (args.length ? ": " + format(args) : ""));
    };
    console.dir = console.log;
    console.table = console.log;
    console.group = console.groupCollapsed = console.groupEnd = console.time = console.timeEnd = console.count = function () {};
    return Object.freeze(console);
  }

  // MARK: - User prompts and windows (HTML 8.8, 7.2.2)

  // alert, confirm and prompt return at once, as if the user dismissed them (confirm: Cancel,
  // prompt: null), and show in the console trace with their message; open is a blocked popup
  // (null), close and print do nothing; reportError reports like an uncaught exception.
  function installWindowFunctions(global, pageId, world) {
    const say = (level, text) => host.console(pageId, world, level, text);
    const functions = {
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
    for (const [name, value] of Object.entries(functions)) {
      Object.defineProperty(global, name, { value, writable: true, enumerable: true, configurable: true });
    }
  }

  // MARK: - Seeded randomness (Math.random per world; Mulberry32 seeded by page and world)

  function seededRandom(seed) {
    let state = seed >>> 0;
    return function random() {
      state = (state + 0x6D2B79F5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // Web Crypto's random parts (every Safari world has `crypto`), from a seeded generator so
  // runs stay byte-identical: getRandomValues fills integer typed arrays, randomUUID gives an
  // RFC 4122 version 4 UUID. (No subtle: nothing in the runtime needs it.)
  function makeCrypto(random) {
    const byte = () => Math.floor(random() * 256);
    return Object.freeze({
      getRandomValues(array) {
        if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array) {
          throw new TypeError("Argument 1 ('array') to Crypto.getRandomValues must be an integer typed array");
        }
        if (array.byteLength > 65536) throw new RangeError("QuotaExceededError: the array is larger than 65536 bytes");
        const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
        for (let i = 0; i < bytes.length; i++) bytes[i] = byte();
        return array;
      },
      randomUUID() {
        const b = Array.from({ length: 16 }, byte);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        const hex = b.map((x) => x.toString(16).padStart(2, "0")).join("");
        return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
      },
    });
  }

  // The top frame of the caller, as "url:line:column", for timer diagnostics.
  function callerLocation() {
    // Only three frames are read: capturing (and printing) the whole stack would cost more than
    // the timer it labels.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 3;
    const stack = new Error().stack || "";
    Error.stackTraceLimit = limit;
    const lines = stack.split("\n");
    // [0] callerLocation, [1] the timer wrapper, [2] the caller
    const frame = lines[2] || lines[lines.length - 1] || "";
    const at = frame.indexOf("@");
    return at >= 0 ? frame.slice(at + 1) : frame;
  }

  // MARK: - Pages

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
    Object.defineProperty(shared, "onload", {
      get() { return windowTarget._getEventHandler ? windowTarget._getEventHandler("load") : null; },
      set(value) { windowTarget._setEventHandler("load", value); },
      configurable: true,
    });

    const setup = { document, shared, windowTarget, pageId, timeOrigin, url, historySession };
    for (const name in web) if (web[name].page) web[name].page(setup);

    let parsed = 0;
    const handle = {
      worlds: Object.create(null),
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
      // The page is gone: layers that keep per-page state let it go.
      close() {
        for (const name in web) if (web[name].pageClosed) web[name].pageClosed(pageId);
      },
    };
    Object.defineProperty(document, "_advHandle", { value: handle });
    return handle;
  }

  function initWorld(global, page, pageId, worldId, isPageWorld, seed) {
    Object.defineProperty(Object.getPrototypeOf(global), Symbol.toStringTag, { value: "Window", configurable: true });
    // Configurable (unlike a real window's) so a service-worker context can remove it.
    Object.defineProperty(global, "window", { value: global, enumerable: true, configurable: true });
    Object.defineProperty(global, "self", { value: global, enumerable: true, writable: true, configurable: true });
    // top and parent are getters (as WebIDL makes them): a child frame's are set up by frames.js
    // after the world is made, through `page.frame`.
    Object.defineProperty(global, "top", { get() { return page.frame ? page.frame.top(worldId, global) : global; }, enumerable: true });
    Object.defineProperty(global, "parent", {
      get() { return page.frame ? page.frame.parent(worldId, global) : global; },
      set(value) { Object.defineProperty(global, "parent", { value, enumerable: true, writable: true, configurable: true }); },
      enumerable: true, configurable: true,
    });
    page.worlds[worldId] = global;
    Object.defineProperty(global, "frames", { value: global, enumerable: true, writable: true, configurable: true });
    global.console = makeConsole(pageId, worldId);
    installWindowFunctions(global, pageId, worldId);
    global.Date = VirtualDate;
    global.Math.random = seededRandom(seed);
    global.crypto = makeCrypto(seededRandom(seed ^ 0x5bd1e995));
    if (isPageWorld) {
      // document.defaultView is the page world's window, as script on the page expects.
      page.document.defaultView = global;
    }
    for (const name in web) if (web[name].world) web[name].world(global, page.document, isPageWorld);
  }

  // The session using this engine has ended and its pages are closed: the layers forget what
  // they kept for it (history, cookies, storage, observers), the browser's hooks go, and the
  // intrinsics are restored. Returns what could not be restored (the engine is then not reused).
  function endSession() {
    const stuck = restoreIntrinsics().stuck;
    for (const name in web) if (web[name].sessionEnded) web[name].sessionEnded();
    const keys = ownKeys(hooks);
    for (let i = 0; i < keys.length; i++) deleteProperty(hooks, keys[i]);
    reportedStuck.length = 0;
    return stuck;
  }

  // `contextNames` is for the layer catalog's tests: what the context holds once every layer has
  // loaded (the engine's members and every layer's provides).
  return { createPage, initWorld, restorePrototypes, endSession, domGlobals, web, hooks, addMutationListener, guardedCount: () => guarded.length,
           contextNames: () => Object.keys(ctx) };
})
