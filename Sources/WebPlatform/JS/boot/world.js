// world: boot/world
//
// Evaluated in every world's own realm (a page world, a content world) before any of its
// scripts run. It returns the world's half of the membrane (boot/membrane.js): the factories
// that make this realm's functions for the DOM's operations, attributes and constructors, and
// the world's own globals (console, Date on the virtual clock, a seeded Math.random, crypto,
// the user prompts). Everything made here is the world's: `document.createElement.constructor`
// is this realm's Function, an error the DOM throws is this realm's TypeError, and nothing of
// the engine realm (where domino lives) or of another world is reachable from it, as WebKit's
// DOMWrapperWorld gives each world its own wrappers.
//
// The functions made here call only what this file captured when it ran (Node's primordials
// pattern): a page that later replaces `Function.prototype.apply`, `Reflect.defineProperty` or
// `Array.prototype.push` in its own realm changes nothing here.
(function () {
  "use strict";
  const realm = globalThis;
  const { defineProperty, getPrototypeOf, construct, getOwnPropertyDescriptor } = Reflect;
  const create = Object.create;
  const { imul } = Math, floor = Math.floor;
  const getterOf = (object, key) => getOwnPropertyDescriptor(object, key).get;
  const setterOf = (object, key) => getOwnPropertyDescriptor(object, key).set;
  const freeze = Object.freeze;
  const RealDate = Date;
  const intrinsics = freeze({
    Object, Function, Array, Promise, Date: RealDate, Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError,
    ArrayBuffer, Uint8Array, Map, Set, RegExp, Symbol,
    typedArrays: freeze({ Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
      Float32Array, Float64Array, BigInt64Array, BigUint64Array }),
    ObjectPrototype: Object.prototype, ArrayPrototype: Array.prototype, FunctionPrototype: Function.prototype,
    ErrorPrototype: Error.prototype,
    IteratorPrototype: getPrototypeOf(getPrototypeOf([][Symbol.iterator]())),
    AsyncIteratorPrototype: getPrototypeOf(getPrototypeOf(async function* () {}).prototype),
  });

  // Functions the runtime makes read as the platform's own (`function createElement() {
  // [native code] }`): pages test DOM methods that way to tell whether something hooked them.
  const realToString = Function.prototype.toString;
  const natives = new WeakMap();
  const apply = Reflect.apply;
  // The engine's generated members (boot/membrane.js literalOf, windowPlan) are known by their
  // one statement.
  const GENERATED = /^(?:get |set )?(?:"[^"]*"|\[S\[\d+\]\])\([^)]*\) \{ (?:if \(arguments\.length === \d\) )?(?:return )?M\.(?:invoke\d?|get|getSame|set|lazyGet|lazySet|windowGet|windowSet)\(/;
  const regExpTest = RegExp.prototype.test;
  function toString() {
    const name = natives.get(this);
    if (name !== undefined) return "function " + name + "() {\n    [native code]\n}";
    const text = apply(realToString, this, []);
    if (typeof this === "function" && apply(regExpTest, GENERATED, [text])) {
      return "function " + this.name + "() {\n    [native code]\n}";
    }
    return text;
  }
  natives.set(toString, "toString");
  defineProperty(Function.prototype, "toString", { __proto__: null, value: toString, writable: true, configurable: true });
  const native = (fn, name) => { natives.set(fn, name); return fn; };

  return function makeWorld(M, seed, compile) {
    // MARK: - The membrane's factories: each function made here forwards to the engine with a
    // key (the engine's record of what it stands for) and this call's `this` and arguments.

    // Computed names give each function its name as WebIDL's ("get nodeType", "appendChild")
    // without redefining it; only a length other than the literal's is set.
    function sized(fn, length) {
      if (length !== 0) defineProperty(fn, "length", { __proto__: null, value: length, configurable: true });
      return native(fn, fn.name);
    }
    function name(fn, value, length) {
      defineProperty(fn, "name", { __proto__: null, value, configurable: true });
      return sized(fn, length);
    }
    const compiled = new Map();
    const factories = {
      // A WebIDL operation: not a constructor.
      method(key, label, length) {
        return sized({ [label]() { return M.invoke(key, this, arguments); } }[label], length);
      },
      getter(key, label) {
        const fn = getterOf({ get [label]() { return M.get(key, this); } }, label);
        return native(fn, fn.name);
      },
      sameGetter(key, label) {
        const fn = getterOf({ get [label]() { return M.getSame(key, this); } }, label);
        return native(fn, fn.name);
      },
      setter(key, label) {
        const fn = setterOf({ set [label](value) { M.set(key, this, value); } }, label);
        return native(fn, fn.name);
      },
      // An interface object: `new` makes an instance (new.target decides its prototype, so
      // `class X extends HTMLElement` works); a call without `new` is the engine's to refuse.
      constructor(key, label, length) {
        const C = { [label]: function () { return new.target === undefined ? M.call(key, this, arguments) : M.construct(key, arguments, new.target); } }[label];
        return sized(C, length);
      },
      // An accessor the engine settles into a data property the first time it is read (a global
      // most pages never name).
      lazy(target, key, enumerable, make) {
        const settle = (value) => defineProperty(target, key, { __proto__: null, value, writable: true, enumerable, configurable: true });
        const pair = getOwnPropertyDescriptor({
          get [key]() { const value = make(); settle(value); return value; },
          set [key](value) { settle(value); },
        }, key);
        defineProperty(target, key, { __proto__: null, get: pair.get, set: pair.set, enumerable, configurable: true });
      },
      // An object made by code the engine generated (a prototype's members, the window's:
      // boot/membrane.js literalOf, windowPlan), compiled in this realm once per source. `id`
      // names the source for the engine's lifetime: the host keeps the parsed script by it and
      // reads the text only the first time.
      fromSource(id, body, bridge, proto, records, symbols) {
        let make = compiled.get(id);
        if (make === undefined) compiled.set(id, make = compile(id, "(function (M, proto, K, S) {\n" + body + "\n})"));
        return make(bridge, proto, records, symbols);
      },
      array() { return []; },
      object(proto) { return proto === undefined ? {} : create(proto); },
      error(kind, message) { return construct(intrinsics[kind] || intrinsics.Error, [message]); },
      promise(executor) { return new intrinsics.Promise(executor); },
    };

    // MARK: - The world's own globals

    // Date follows the virtual clock: `new Date()` and `Date.now()` read the host's time,
    // everything else is the realm's own Date. Called without `new`, Date returns a string
    // (ECMA-262 21.4.2.1).
    function VirtualDate(...args) {
      if (new.target === undefined) return new RealDate(M.now()).toString();
      return construct(RealDate, args.length ? args : [M.now()], new.target);
    }
    VirtualDate.prototype = RealDate.prototype;
    defineProperty(RealDate.prototype, "constructor", { __proto__: null, value: VirtualDate, writable: true, configurable: true });
    defineProperty(VirtualDate, "now", { __proto__: null, value: { now() { return M.now(); } }.now, writable: true, configurable: true });
    defineProperty(VirtualDate, "parse", { __proto__: null, value: RealDate.parse, writable: true, configurable: true });
    defineProperty(VirtualDate, "UTC", { __proto__: null, value: RealDate.UTC, writable: true, configurable: true });
    name(VirtualDate, "Date", 7);
    defineProperty(realm, "Date", { __proto__: null, value: VirtualDate, writable: true, configurable: true });

    // Seeded randomness: Mulberry32, seeded by page and world, so runs are byte-identical.
    function seeded(start) {
      let state = start >>> 0;
      return function random() {
        state = (state + 0x6D2B79F5) >>> 0;
        let t = state;
        t = imul(t ^ (t >>> 15), t | 1);
        t ^= t + imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    }
    defineProperty(Math, "random", { __proto__: null, value: name({ random: seeded(seed) }.random, "random", 0), writable: true, configurable: true });

    // Web Crypto's random parts (every Safari world has `crypto`), from a seeded generator: getRandomValues
    // fills integer typed arrays, randomUUID gives an RFC 4122 version 4 UUID. (No subtle.)
    const cryptoRandom = seeded(seed ^ 0x5bd1e995);
    const byte = () => floor(cryptoRandom() * 256);
    const crypto = freeze({
      getRandomValues(array) {
        if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array || array instanceof DataView) {
          throw new TypeError("Argument 1 ('array') to Crypto.getRandomValues must be an integer typed array");
        }
        if (array.byteLength > 65536) throw new RangeError("QuotaExceededError: the array is larger than 65536 bytes");
        const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
        for (let i = 0; i < bytes.length; i++) bytes[i] = byte();
        return array;
      },
      randomUUID() {
        const b = [];
        for (let i = 0; i < 16; i++) b[i] = byte();
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        let hex = "";
        for (let i = 0; i < 16; i++) hex += (b[i] < 16 ? "0" : "") + b[i].toString(16);
        return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
      },
    });
    defineProperty(realm, "crypto", { __proto__: null, value: crypto, writable: true, enumerable: true, configurable: true });

    // The console: each call's arguments go to the engine, which formats them as the trace shows them.
    const console = {};
    for (const level of ["log", "info", "warn", "error", "debug", "trace"]) {
      console[level] = name({ f(...args) { M.console(level, args); } }.f, level, 0);
    }
    console.assert = name({ f(condition, ...args) { if (!condition) M.console("assert", args); } }.f, "assert", 0);
    console.dir = console.log;
    console.table = console.log;
    const nothing = name({ f() {} }.f, "", 0);
    console.group = console.groupCollapsed = console.groupEnd = console.time = console.timeEnd = console.count = nothing;
    defineProperty(realm, "console", { __proto__: null, value: freeze(console), writable: true, configurable: true });

    // User prompts and windows (HTML 8.8, 7.2.2): the engine answers (alert, confirm and prompt as if
    // dismissed, open blocked) and traces them.
    for (const [key, length] of [["alert", 0], ["confirm", 0], ["prompt", 0], ["print", 0], ["open", 0], ["close", 0], ["reportError", 1]]) {
      defineProperty(realm, key, { __proto__: null, value: name({ f() { return M.windowFunction(key, arguments); } }.f, key, length), writable: true, enumerable: true, configurable: true });
    }

    // `window`, `self`, `frames` are the global; `top` and `parent` are the engine's to answer
    // (a child frame's are its parent's and top's windows in this same world).
    defineProperty(realm, "window", { __proto__: null, value: realm, enumerable: true, configurable: true });
    defineProperty(realm, "self", { __proto__: null, value: realm, enumerable: true, writable: true, configurable: true });
    defineProperty(realm, "frames", { __proto__: null, value: realm, enumerable: true, writable: true, configurable: true });
    defineProperty(realm, "top", { __proto__: null, get: name(getterOf({ get top() { return M.top(); } }, "top"), "get top", 0), enumerable: true });
    defineProperty(realm, "parent", {
      __proto__: null,
      get: name(getterOf({ get parent() { return M.parent(); } }, "parent"), "get parent", 0),
      set: name(setterOf({ set parent(value) { defineProperty(realm, "parent", { __proto__: null, value, enumerable: true, writable: true, configurable: true }); } }, "parent"), "set parent", 1),
      enumerable: true, configurable: true,
    });

    // Window (HTML 7.2.2): the interface of the global, whose prototype is the global's own.
    const Window = native({ Window: function () { throw new TypeError("Illegal constructor"); } }.Window, "Window");
    defineProperty(Window, "prototype", { __proto__: null, value: getPrototypeOf(realm), writable: false, enumerable: false, configurable: false });
    defineProperty(getPrototypeOf(realm), "constructor", { __proto__: null, value: Window, writable: true, enumerable: false, configurable: true });
    defineProperty(realm, "Window", { __proto__: null, value: Window, writable: true, enumerable: false, configurable: true });

    // A window cannot be made non-extensible (WebKit's JSDOMWindow refuses): freeze, seal and
    // preventExtensions throw for it, Reflect.preventExtensions answers false.
    for (const [holder, key, refusal] of [[Object, "freeze", "throw"], [Object, "seal", "throw"], [Object, "preventExtensions", "throw"], [Reflect, "preventExtensions", "false"]]) {
      const original = holder[key];
      const guarded = { [key](target) {
        if (target === realm) {
          if (refusal === "false") return false;
          throw new TypeError("Cannot prevent extensions on this object");
        }
        return apply(original, holder, arguments);
      } }[key];
      defineProperty(guarded, "length", { __proto__: null, value: original.length, configurable: true });
      defineProperty(holder, key, { __proto__: null, value: native(guarded, key), writable: true, configurable: true });
    }

    return { factories, intrinsics, global: realm };
  };
})
