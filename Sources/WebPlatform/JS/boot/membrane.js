// membrane: boot/membrane
//
// Isolated worlds as WebKit has them (WebCore's DOMWrapperWorld): the page world and each
// content world share the engine realm's nodes (domino's objects) but see them through wrappers
// of their own, made of their own realm's functions and prototypes. A world never holds an
// object of the engine realm or of another world:
//
// - out(value, w), engine → world: a node (or any object of the DOM's interfaces) becomes w's
//   wrapper of it, made once per world (`el === el` holds) with a prototype chain that mirrors
//   the engine object's (w's HTMLDivElement.prototype → w's HTMLElement.prototype → …, ending
//   at w's Object.prototype), whose operations and attributes are w's functions that unwrap
//   their arguments, call the engine's, and wrap the result; an engine function becomes w's
//   function doing the same; an error becomes w's error of the same name; a promise w's promise;
//   an array or a plain object (a dictionary, a structured clone) w's copy.
// - into(value, w), world → engine: a wrapper is its node again; a function of w becomes an
//   engine proxy that calls it with w's wrappers (event listeners, callbacks); any other object of
//   w (a dictionary, a CustomEvent's detail, postMessage data) an engine proxy that reads it with
//   its values unwrapped.
// - A world's object that comes back to another world (a detail dispatched by the page and read
//   by a content script) is structured-cloned into the reader's world, as WebKit does for
//   cross-world CustomEvent.detail; a function of one world never reaches another (null).
//
// So a page that replaces `Element.prototype.remove` or `document.createElement` changes its own
// wrappers only; domino, the harness's layers and the content worlds call the engine's functions,
// which no world can reach. Expandos live on each world's wrapper.
(function () {
  "use strict";
  // The engine realm's intrinsics, captured before anything else runs. No world can reach this
  // realm, so these stay as they are; they are captured anyway so that the layers' own patches
  // (events.js replaces Date.now) cannot change the membrane.
  const { apply, construct, getPrototypeOf, defineProperty, getOwnPropertyDescriptor, ownKeys, has, get, set, deleteProperty, isExtensible } = Reflect;
  const isArray = Array.isArray;
  const freeze = Object.freeze, isFrozen = Object.isFrozen, create = Object.create;
  const ObjectPrototype = Object.prototype, ArrayPrototype = Array.prototype, FunctionPrototype = Function.prototype;
  const EnginePromise = Promise, promiseThen = Promise.prototype.then;
  const ArrayIteratorPrototype = getPrototypeOf([][Symbol.iterator]());
  const IteratorPrototype = getPrototypeOf(ArrayIteratorPrototype);
  const AsyncIteratorPrototype = getPrototypeOf(getPrototypeOf(async function* () {}).prototype);
  const errorKinds = new Map([[Error.prototype, "Error"], [TypeError.prototype, "TypeError"], [RangeError.prototype, "RangeError"],
    [SyntaxError.prototype, "SyntaxError"], [ReferenceError.prototype, "ReferenceError"], [EvalError.prototype, "EvalError"], [URIError.prototype, "URIError"]]);
  const EngineDate = Date, dateValue = Date.prototype.getTime;
  const EngineArrayBuffer = ArrayBuffer, bufferSlice = ArrayBuffer.prototype.slice;
  const typedArrayPrototype = getPrototypeOf(Uint8Array.prototype);
  const typedArrayTag = getOwnPropertyDescriptor(typedArrayPrototype, Symbol.toStringTag).get;
  const typedArrayBuffer = getOwnPropertyDescriptor(typedArrayPrototype, "buffer").get;
  const typedArrayOffset = getOwnPropertyDescriptor(typedArrayPrototype, "byteOffset").get;
  const typedArrayByteLength = getOwnPropertyDescriptor(typedArrayPrototype, "byteLength").get;
  const typedArrayLength = getOwnPropertyDescriptor(typedArrayPrototype, "length").get;
  const INDEX = /^(?:0|[1-9][0-9]*)$/;
  // Attributes WebIDL marks [SameObject] wherever the DOM and CSSOM declare them (an element's
  // style, classList, dataset, childNodes, children and attributes; a sheet's or rule's cssRules
  // and media; a document's implementation and styleSheets), each with a slot: a wrapper's answer, when an
  // object, is kept in its world and given again without asking the engine (the engine gives the
  // same object every time: a string, such as a <style>'s media, is never kept).
  const SAME_OBJECT = new Map([["style", 0], ["classList", 1], ["dataset", 2], ["childNodes", 3], ["children", 4],
    ["attributes", 5], ["cssRules", 6], ["media", 7], ["implementation", 8], ["styleSheets", 9]]);
  const isView = ArrayBuffer.isView;
  const EngineMap = Map, EngineSet = Set, EngineRegExp = RegExp;
  const mapEntries = Map.prototype.entries, setValues = Set.prototype.values;

  return function makeMembrane(options) {
    const structuredClone = options.structuredClone;  // (value) → an engine-realm clone, or throws
    const windowOf = options.windowOf;                // raw window → { handle } | undefined
    const namedObjects = options.namedObjects;        // a string map → its method table, or null

    const rawOf = new WeakMap();     // a wrapper (of any world) → its engine object
    // A platform wrapper → { raw, proto, table }: its engine object, that object's prototype (which
    // never changes), for brand checks without asking the object (a style declaration is a proxy,
    // slow to ask), and its string map's method table (namedObjects; undefined for an object that
    // is not a string map). One lookup answers all three on every call through the wrapper.
    const platformOf = new WeakMap();
    const thunks = new WeakMap();    // an engine proxy of a world's function → { fn, world }
    const views = new WeakMap();     // an engine proxy of a world's object → { object, world }
    const globals = new WeakMap();   // a world's global → its world
    const realms = new WeakMap();    // a world's Object.prototype → its world
    const platformPrototypes = new WeakSet();  // the engine prototypes of objects wrap() made wrappers for
    const opaque = new WeakSet();    // engine objects that are seen through a forwarding proxy
    const exotic = new Map();        // an engine prototype → "indexed" | "named" | "" (its objects' wrappers)
    const memberPlans = new WeakMap(), staticPlans = new WeakMap();  // planOf
    const functionKeys = new WeakMap(); // an engine function → its key
    const windowPlans = new WeakMap();  // a page handle → its window members' names (windowPlan)
    const windowPlanSources = new Map(); // a list of window members → its plan (windowPlan)
    // The world whose code is innermost while the engine runs: the one whose DOM call is
    // running, or whose function the engine called. null when no world's code is on the stack
    // but code Swift evaluated directly (a script run at top level) until it calls the DOM.
    let current = null;
    let constructingCustomEvent = false; // while `new CustomEvent(type, init)` reads its init

    // The world of an object that is neither the engine's nor a wrapper: found by the realm its
    // prototype chain ends in. null for the engine realm.
    function realmOf(object) {
      let last = object;
      for (let p = getPrototypeOf(object); p !== null; p = getPrototypeOf(p)) last = p;
      if (last === ObjectPrototype || last === object) return null;
      return realms.get(last) || null;
    }

    // MARK: - Values WebKit keeps per world

    // A CustomEvent's detail as WebKit keeps it (JSCustomEventCustom.cpp): the world that gave it
    // reads its own object; another world reads a structured clone of it, made once; a detail
    // that cannot be cloned reads as null there, and from then on everywhere.
    class Detail {
      constructor(object, world) { this.object = object; this.world = world; this.clones = null; this.lost = false; }
      seenIn(w) {
        if (this.lost) return null;
        if (w === this.world) return this.object;
        const known = this.clones !== null ? this.clones.get(w) : undefined;
        if (known !== undefined) return known;
        let copy;
        try { copy = structuredClone(this.object); } catch (error) { this.lost = true; return null; }
        const made = out(copy, w);
        if (this.clones === null) this.clones = new Map();
        this.clones.set(w, made);
        return made;
      }
    }
    // A serialized value read as WebKit reads history.state: deserialized into the world that
    // asks and kept for it until another world asks (one cached object, as History keeps).
    class Serialized {
      constructor(value) { this.value = value; this.world = null; this.made = null; }
      seenIn(w) {
        if (this.world !== w) { this.world = w; this.made = copyAgain(this.value, w); }
        return this.made;
      }
    }
    // A fresh copy in w (not the one out() keeps for the value).
    function copyAgain(value, w) {
      if (typeof value !== "object" || value === null) return value;
      let copy;
      try { copy = structuredClone(value); } catch (error) { return null; }
      return out(copy, w);
    }

    // MARK: - engine → world

    function out(value, w) {
      const type = typeof value;
      if (type !== "object" && type !== "function") return value;
      if (value === null) return null;
      const made = w.wrappers.get(value);
      if (made !== undefined) return made;
      return wrap(value, w, type);
    }

    function wrap(value, w, type) {
      // Most objects that cross are the DOM's, of a prototype already seen here: none of the
      // kinds looked for below (a world's own object or function, a proxy the membrane made, a
      // kept detail) has an engine prototype of the DOM's, so only what can share one (a string
      // map, a window, a forwarded object) is ruled out before the wrapper is made.
      if (type === "object" && !opaque.has(value)) {
        const proto = getPrototypeOf(value);
        if (platformPrototypes.has(proto) && !namedObjects.has(value) && windowOf(value) === undefined) {
          return wrapPlatformObject(value, proto, w, undefined);
        }
      }
      if (value instanceof Detail || value instanceof Serialized) return value.seenIn(w);
      const thunk = thunks.get(value);
      if (thunk !== undefined) return thunk.world === w ? thunk.fn : null;
      const view = views.get(value);
      if (view !== undefined) return view.world === w ? view.object : cloneAcross(view.object, w);
      const world = globals.get(value);
      if (world !== undefined) return world === w ? value : windowIn(world.handle, w);
      const owner = realmOf(value);
      if (owner !== null) return owner === w ? value : type === "function" ? null : cloneAcross(value, w);
      const window = windowOf(value);
      if (window !== undefined) return windowIn(window, w);
      if (type === "function") return mirrorFunction(value, w);
      if (opaque.has(value)) return forwarding(value, w);
      const proto = getPrototypeOf(value);
      if (namedObjects.has(value)) return wrapPlatformObject(value, proto, w, "named");
      // domino's NodeList is an Array subclass: a platform object, not a sequence.
      if (isArray(value) && proto === ArrayPrototype) return copyArray(value, w);
      if (proto === ObjectPrototype || proto === null) return copyObject(value, w);
      if (proto === EnginePromise.prototype) return adoptPromise(value, w);
      const kind = errorKinds.get(proto);
      if (kind !== undefined) return copyError(value, kind, w);
      if (proto === EngineDate.prototype) return remember(value, construct(w.intrinsics.Date, [apply(dateValue, value, [])]), w);
      if (proto === EngineArrayBuffer.prototype) return copyBuffer(value, w);
      if (proto === EngineMap.prototype) {
        const copy = new w.intrinsics.Map();
        w.wrappers.set(value, copy);
        for (const [k, v] of apply(mapEntries, value, [])) copy.set(out(k, w), out(v, w));
        return copy;
      }
      if (proto === EngineSet.prototype) {
        const copy = new w.intrinsics.Set();
        w.wrappers.set(value, copy);
        for (const v of apply(setValues, value, [])) copy.add(out(v, w));
        return copy;
      }
      if (proto === EngineRegExp.prototype) return remember(value, new w.intrinsics.RegExp(value.source, value.flags), w);
      if (hasInChain(proto, typedArrayPrototype)) return copyTypedArray(value, w);
      if (type === "object") platformPrototypes.add(proto);
      return wrapPlatformObject(value, proto, w, undefined);
    }

    function hasInChain(proto, wanted) {
      for (let p = proto; p !== null; p = getPrototypeOf(p)) if (p === wanted) return true;
      return false;
    }

    function remember(value, made, w) {
      w.wrappers.set(value, made);
      return made;
    }

    // The same page's window in world w (frames reach each other's windows in one world).
    function windowIn(handle, w) {
      const global = handle.worlds[w.id];
      return global === undefined ? null : global;
    }

    // A world's object read by another world: a structured clone of it (WebKit deserializes a
    // cross-world CustomEvent.detail, MessageEvent.data or history state in the reader's world);
    // null when it cannot be cloned.
    function cloneAcross(object, w) {
      let copy;
      try { copy = structuredClone(object); } catch (error) { return null; }
      return out(copy, w);
    }

    function copyArray(array, w) {
      // A sequence (WebIDL 3.2.27): a new array of the world's each time it crosses. An array an
      // attribute keeps (cssRules, a record's addedNodes) is seen live instead (liveArray).
      const copy = w.factories.array();
      copy.length = array.length;
      for (let i = 0; i < array.length; i++) if (i in array) copy[i] = out(array[i], w);
      if (isFrozen(array)) freeze(copy);
      return copy;
    }

    function copyObject(object, w) {
      const copy = w.factories.object();
      w.wrappers.set(object, copy);
      const keys = ownKeys(object);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const d = getOwnPropertyDescriptor(object, key);
        if ("value" in d) {
          defineProperty(copy, key, { value: out(d.value, w), writable: d.writable, enumerable: d.enumerable, configurable: d.configurable });
        } else {
          defineProperty(copy, key, { get: out(d.get, w), set: out(d.set, w), enumerable: d.enumerable, configurable: d.configurable });
        }
      }
      if (!isExtensible(object)) freeze(copy);
      return copy;
    }

    function copyError(error, kind, w) {
      const copy = w.factories.error(kind, error.message);
      w.wrappers.set(error, copy);
      // The position and stack the engine gave it (where the DOM threw), as the harness reports them.
      const keys = ownKeys(error);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (key === "message") continue;
        const d = getOwnPropertyDescriptor(error, key);
        if ("value" in d) defineProperty(copy, key, { value: out(d.value, w), writable: true, enumerable: d.enumerable, configurable: true });
      }
      return copy;
    }

    function copyBuffer(buffer, w) {
      const copy = new w.intrinsics.ArrayBuffer(buffer.byteLength);
      new w.intrinsics.Uint8Array(copy).set(new Uint8Array(buffer));
      return remember(buffer, copy, w);
    }

    function copyTypedArray(array, w) {
      // The bytes the view sees (from its offset, as long as it is), in the world's own kind.
      const Kind = w.intrinsics.typedArrays[apply(typedArrayTag, array, [])];
      const start = apply(typedArrayOffset, array, []);
      const buffer = apply(bufferSlice, apply(typedArrayBuffer, array, []), [start, start + apply(typedArrayByteLength, array, [])]);
      const copy = new Kind(copyBuffer(buffer, w), 0, apply(typedArrayLength, array, []));
      return remember(array, copy, w);
    }

    // An engine promise seen in w: w's promise settled with what the engine's settles with.
    function adoptPromise(promise, w) {
      let resolveIt, rejectIt;
      const made = w.factories.promise((resolve, reject) => { resolveIt = resolve; rejectIt = reject; });
      w.wrappers.set(promise, made);
      apply(promiseThen, promise, [(value) => resolveIt(out(value, w)), (reason) => rejectIt(out(reason, w))]);
      return made;
    }

    // An engine object that answers through traps of its own (a cross-origin window): w sees a
    // proxy that forwards every read and write, translating values both ways.
    function forwarding(object, w) {
      const guard = (body) => { try { return body(); } catch (error) { throw out(error, w); } };
      const proxy = new Proxy(w.factories.object(null), {
        get(target, key) { return guard(() => out(get(object, key), w)); },
        set(target, key, value) { return guard(() => set(object, key, into(value, w))); },
        has(target, key) { return guard(() => has(object, key)); },
        deleteProperty(target, key) { return guard(() => deleteProperty(object, key)); },
        defineProperty(target, key) { return guard(() => { throw new TypeError("Cannot define " + String(key)); }); },
        ownKeys() { return guard(() => ownKeys(object)); },
        getOwnPropertyDescriptor(target, key) { return guard(() => { const d = getOwnPropertyDescriptor(object, key); if (d) d.configurable = true; return d; }); },
        getPrototypeOf() { return null; },
        setPrototypeOf() { return false; },
      });
      rawOf.set(proxy, object);
      return remember(object, proxy, w);
    }

    // MARK: - Functions and prototypes

    function labelOf(object) {
      const named = options.interfaceName(object);
      if (named !== undefined) return named;
      const tag = getOwnPropertyDescriptor(object, Symbol.toStringTag);
      if (tag && typeof tag.value === "string") return tag.value;
      const c = getOwnPropertyDescriptor(object, "constructor");
      return c && typeof c.value === "function" && typeof c.value.name === "string" ? c.value.name : "Object";
    }

    // A function of the engine seen in w. An interface object (a function whose `prototype` is
    // more than an ordinary function's) is a constructor; anything else a plain function whose
    // `this` is unwrapped.
    function mirrorFunction(fn, w) {
      // Anything with a `prototype` of its own can be `new`ed in the engine, so in the world too
      // (an interface object, `Image`); methods and arrow functions cannot.
      const prototype = getOwnPropertyDescriptor(fn, "prototype");
      const isInterface = prototype !== undefined && prototype.value !== null && typeof prototype.value === "object";
      const label = typeof fn.name === "string" ? fn.name : "";
      const length = typeof fn.length === "number" ? fn.length : 0;
      let key = functionKeys.get(fn);
      if (key === undefined) functionKeys.set(fn, key = new Key(fn, undefined, undefined, null, label, label, undefined, undefined, null, -1));
      if (!isInterface) {
        const made = w.factories.method(key, label, length);
        return remember(fn, made, w);
      }
      const made = w.factories.constructor(key, label, length);
      w.wrappers.set(fn, made);
      key.prototype = prototype.value;
      defineProperty(made, "prototype", { value: mirrorPrototype(prototype.value, w), writable: false, enumerable: false, configurable: false });
      // The interface it inherits from, as the window names it (a layer may have put its own
      // class in domino's place: HTMLDivElement's parent is the window's HTMLElement).
      // (domino links its interfaces' prototypes but not always their constructors: the parent is
      // found through the prototype chain.)
      let parent = getPrototypeOf(fn);
      const parentPrototype = getPrototypeOf(prototype.value);
      const parentName = parentPrototype !== null ? options.interfaceName(parentPrototype) : undefined;
      if (parentName !== undefined) parent = options.interfaceObject(parentName);
      if (parent !== FunctionPrototype && parent !== null) Reflect.setPrototypeOf(made, out(parent, w));
      mirrorMembers(fn, made, w, null, label, true);
      return made;
    }

    // w's counterpart of the engine prototype `proto`: the engine's own intrinsics map to w's,
    // a DOM prototype to w's mirror of it (made once per world).
    function mirrorPrototype(proto, w) {
      if (proto === null) return null;
      if (proto === ObjectPrototype) return w.intrinsics.ObjectPrototype;
      if (proto === ArrayPrototype) return w.intrinsics.ArrayPrototype;
      if (proto === FunctionPrototype) return w.intrinsics.FunctionPrototype;
      if (proto === IteratorPrototype) return w.intrinsics.IteratorPrototype;
      if (proto === AsyncIteratorPrototype) return w.intrinsics.AsyncIteratorPrototype;
      if (proto === Error.prototype) return w.intrinsics.ErrorPrototype;
      const known = w.protos.get(proto);
      if (known !== undefined) return known;
      const parent = mirrorPrototype(getPrototypeOf(proto), w);
      // The members WebIDL gives the usual attributes (operations writable, enumerable and
      // configurable; attributes enumerable and configurable) come in one object literal the
      // engine generated for this prototype (compiled in the world once per prototype); the
      // others are defined one by one after it.
      const plan = planOf(proto, proto, labelOf(proto), false);
      const literal = literalOf(plan);
      const mirror = w.factories.fromSource(literal.id, literal.body, w.M, parent, literal.records, literal.symbols);
      w.protos.set(proto, mirror);
      rawOf.set(mirror, proto);
      mirrorMembers(proto, mirror, w, proto, labelOf(proto), false, literal.rest);
      // Object.prototype.toString names the interface (WebIDL 3.7.3's class string).
      const named = options.interfaceName(proto);
      if (named !== undefined && getOwnPropertyDescriptor(mirror, Symbol.toStringTag) === undefined) {
        defineProperty(mirror, Symbol.toStringTag, { value: named, writable: false, enumerable: false, configurable: true });
      }
      return mirror;
    }

    // Copies `source`'s own members onto `target` as w's: operations and attributes forward to the
    // engine's (brand-checked against `brand` when it is a prototype); other values are out()'s.
    // domino's internals (names starting with `_`) stay out of every world.
    // What mirroring `source` takes, worked out once per engine (every world mirrors the same
    // prototypes): its members' keys and kinds, without domino's internals (names starting with
    // `_`) and, for a forwarded prototype, without its enumerable accessors.
    function planOf(source, brand, label, isStatic) {
      const plans = isStatic ? staticPlans : memberPlans;
      let plan = plans.get(source);
      if (plan !== undefined) return plan;
      plan = [];
      const forwarded = !isStatic && options.isForwarded(source);
      const keys = ownKeys(source);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (typeof key === "string" && key.charCodeAt(0) === 95 /* _ */) continue;
        if (isStatic && (key === "prototype" || key === "length" || key === "name" || key === "caller" || key === "arguments")) continue;
        const d = getOwnPropertyDescriptor(source, key);
        if (forwarded && d.enumerable && !("value" in d)) continue;
        const name = typeof key === "symbol" ? "[" + key.description + "]" : key;
        const entry = { key, name, d, kind: "value", record: null };
        if ("value" in d) {
          const value = d.value;
          if (key === "constructor") entry.kind = "value";
          else if (typeof value === "function" && !isStatic && !isConstructor(value)) {
            entry.kind = "method";
            entry.record = new Key(value, undefined, undefined, brand, label, name, key, undefined, null, -1);
          } else if (!isStatic && d.writable && typeof key === "string") {
            // A default a prototype holds for its objects' own data (node-cssom's
            // `parentStyleSheet = null`): read from the object, as an attribute.
            entry.kind = "default";
            entry.record = new Key(null, undefined, undefined, null, label, key, undefined, key, null, -1);
          }
        } else {
          entry.kind = "accessor";
          const same = isStatic ? undefined : SAME_OBJECT.get(key);
          entry.record = new Key(null, d.get, d.set, isStatic ? null : brand, label, key, undefined, undefined, isStatic ? source : null, same === undefined ? -1 : same);
        }
        plan[plan.length] = entry;
      }
      plans.set(source, plan);
      return plan;
    }

    // Copies `source`'s members onto `target` as w's: operations and attributes forward to the
    // engine's (brand-checked against `brand` when it is a prototype); other values are out()'s.
    function mirrorMembers(source, target, w, brand, label, isStatic, only) {
      const plan = only !== undefined ? only : planOf(source, brand, label, isStatic);
      const factories = w.factories;
      for (let i = 0; i < plan.length; i++) {
        const entry = plan[i];
        const d = entry.d;
        let made;
        switch (entry.kind) {
          case "method": {
            const record = entry.record;
            const fn = factories.method(record, entry.name, record.target.length);
            made = { value: fn, writable: d.writable, enumerable: d.enumerable, configurable: d.configurable };
            break;
          }
          case "default":
            made = { get: factories.getter(entry.record, entry.name), set: undefined, enumerable: d.enumerable, configurable: true };
            break;
          case "accessor":
            made = {
              get: d.get ? factories.getter(entry.record, entry.name) : undefined,
              set: d.set ? factories.setter(entry.record, entry.name) : undefined,
              enumerable: d.enumerable, configurable: d.configurable,
            };
            break;
          default: {
            const now = getOwnPropertyDescriptor(source, entry.key);
            let value = now === undefined ? d.value : now.value;
            // A prototype's constructor is the interface the window names for it (a layer may
            // have put its own class in domino's place: `e.constructor === Event` must hold).
            if (entry.key === "constructor" && !isStatic) {
              const named = options.interfaceName(source);
              if (named !== undefined) value = options.interfaceObject(named);
            }
            made = { value: out(value, w), writable: d.writable, enumerable: d.enumerable, configurable: d.configurable };
          }
        }
        try { defineProperty(target, entry.key, made); } catch (error) { /* a key the target already holds as its own (a function's) */ }
      }
    }

    // The object literal that makes a prototype's usual members (see mirrorPrototype), worked
    // out once per plan: its source, the key records and symbols it names by index, and the
    // entries left for mirrorMembers.
    const literals = new WeakMap();
    // Each generated source's number, which the host keeps its parsed script by (world.js fromSource).
    let nextSourceId = 0;
    function literalOf(plan) {
      let literal = literals.get(plan);
      if (literal !== undefined) return literal;
      const records = [], symbols = [], rest = [];
      let body = "\"use strict\"; return {\n__proto__: proto,\n";
      const nameOf = (key) => {
        if (typeof key === "string") return JSON.stringify(key);
        symbols[symbols.length] = key;
        return "[S[" + (symbols.length - 1) + "]]";
      };
      for (let i = 0; i < plan.length; i++) {
        const entry = plan[i], d = entry.d;
        const usual = entry.kind === "method" ? d.writable && d.enumerable && d.configurable
          : (entry.kind === "accessor" || entry.kind === "default") && d.enumerable && d.configurable;
        if (!usual) { rest[rest.length] = entry; continue; }
        const index = records.length;
        records[index] = entry.record;
        const name = nameOf(entry.key);
        if (entry.kind === "method") {
          const params = [];
          const declared = entry.record.target.length;
          for (let p = 0; p < declared; p++) params[p] = "a" + p;
          const list = params.join(", ");
          const k = "K[" + index + "]";
          // A call with as many arguments as declared (up to two) passes them as they are.
          const fast = declared <= 2 ? "if (arguments.length === " + declared + ") return M.invoke" + declared + "(" + k + ", this" + (declared ? ", " + list : "") + "); " : "";
          body += name + "(" + list + ") { " + fast + "return M.invoke(" + k + ", this, arguments); },\n";
        } else {
          if (entry.kind === "accessor" && entry.record.same >= 0) body += "get " + name + "() { return M.getSame(K[" + index + "], this); },\n";
          else if (entry.kind === "default" || d.get) body += "get " + name + "() { return M.get(K[" + index + "], this); },\n";
          if (entry.kind === "accessor" && d.set) body += "set " + name + "(value) { M.set(K[" + index + "], this, value); },\n";
        }
      }
      body += "};";
      literal = { id: nextSourceId++, body, records, symbols, rest };
      literals.set(plan, literal);
      return literal;
    }

    function isConstructor(fn) {
      const prototype = getOwnPropertyDescriptor(fn, "prototype");
      return prototype !== undefined && prototype.value !== null && typeof prototype.value === "object" &&
        (ownKeys(prototype.value).length > 1 || getPrototypeOf(prototype.value) !== ObjectPrototype);
    }

    // An object of the DOM's interfaces (or any other engine object with a prototype of its
    // own) seen in w: w's wrapper, with w's mirror of its prototype. Collections answer their
    // indices (and, for a string map such as `dataset` or `localStorage`, their names) through a
    // proxy; the public data properties domino keeps on its objects (nodeType, parentNode,
    // Event's type …) become getters on the mirror of the prototype they were found under.
    function wrapPlatformObject(raw, proto, w, named, ownPrototype) {
      const mirror = mirrorPrototype(proto, w);
      let kind = named;
      if (kind === undefined) {
        kind = exotic.get(proto);
        if (kind === undefined) { kind = exoticKind(raw, proto); exotic.set(proto, kind); }
      }
      // The own data of domino's objects is the same for every object of a kind (a node's
      // nodeType, parentNode …); an event may carry more than others of its interface (the
      // layers give some their `detail`, `data` or `code`), so each is looked at.
      // A page that froze the prototype before its first object came (to keep extensions from
      // hooking it) gets the data on each of its wrappers instead.
      let onWrapper = false;
      if (kind !== "named" && mirror !== null) {
        if (!isExtensible(mirror)) onWrapper = true;
        else if (options.isEvent(raw)) mirrorOwnData(raw, mirror, w, mirror);
        else if (!w.scanned.has(proto)) { w.scanned.add(proto); mirrorOwnData(raw, mirror, w, mirror); }
      }
      // An indexed collection is iterable as WebIDL makes one (its @@iterator is
      // %Array.prototype.values%), where domino's has none.
      if (kind === "indexed" && mirror !== null && !w.iterable.has(mirror)) {
        w.iterable.add(mirror);
        if (mirror[Symbol.iterator] === undefined && isExtensible(mirror)) {
          defineProperty(mirror, Symbol.iterator, { value: w.intrinsics.ArrayPrototype.values, writable: true, enumerable: false, configurable: true });
        }
      }
      const prototype = ownPrototype === undefined ? mirror : ownPrototype;
      let wrapper;
      if (kind === "") wrapper = create(prototype);
      else wrapper = collection(raw, create(prototype), kind, w);
      if (onWrapper) mirrorOwnData(raw, mirror, w, wrapper);
      rawOf.set(wrapper, raw);
      platformOf.set(wrapper, { raw, proto, table: kind === "named" ? namedObjects.get(raw) : undefined });
      w.wrappers.set(raw, wrapper);
      return wrapper;
    }

    function exoticKind(raw, proto) {
      if (isArray(raw)) return "indexed";
      let item = false;
      for (let p = proto; p !== null && p !== ObjectPrototype; p = getPrototypeOf(p)) {
        if (getOwnPropertyDescriptor(p, "item")) { item = true; break; }
      }
      return item && has(raw, "length") ? "indexed" : "";
    }

    // An array an attribute of the engine keeps (a sheet's cssRules, a record's addedNodes, a
    // FrozenArray such as navigator.languages): seen as the same live, read-only array of the
    // world's on every read.
    function liveArray(array, w) {
      const known = w.wrappers.get(array);
      if (known !== undefined) return known;
      const proxy = collection(array, w.factories.array(), "array", w);
      rawOf.set(proxy, array);
      w.wrappers.set(array, proxy);
      return proxy;
    }
    function attribute(value, w) {
      return isArray(value) && getPrototypeOf(value) === ArrayPrototype ? liveArray(value, w) : out(value, w);
    }

    function mirrorOwnData(raw, mirror, w, target) {
      const keys = ownKeys(raw);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (typeof key !== "string" || key.charCodeAt(0) === 95 || INDEX.test(key)) continue;
        if (mirrors(mirror, key)) continue;
        const same = SAME_OBJECT.get(key);
        const keyRecord = new Key(null, undefined, undefined, null, labelOf(getPrototypeOf(raw)), key, undefined, key, null, same === undefined ? -1 : same);
        const d = getOwnPropertyDescriptor(raw, key);
        defineProperty(target, key, {
          get: same === undefined ? w.factories.getter(keyRecord, key) : w.factories.sameGetter(keyRecord, key),
          // domino's own data is read-only to script (a DOM attribute without a setter), except
          // the accessors a layer put on the object itself.
          set: d.set ? w.factories.setter(keyRecord, key) : undefined,
          enumerable: true, configurable: true,
        });
      }
    }

    // Whether one of the world's mirrors of the DOM's prototypes (not the realm's own
    // Object.prototype or Error.prototype) has `key`.
    function mirrors(mirror, key) {
      for (let p = mirror; p !== null && rawOf.has(p); p = getPrototypeOf(p)) if (getOwnPropertyDescriptor(p, key)) return true;
      return false;
    }

    // A collection's wrapper: a proxy over a world object (with the mirror of its prototype),
    // answering indices from the engine's object (and, for a string map, the names its prototype
    // chain lacks). One handler per world and kind serves all of them.
    const collectionRaw = new WeakMap();  // a collection wrapper's proxy target → the engine object
    function isIndex(key) {
      return indexFrom(key) >= 0;
    }
    // The array index a property key names (a canonical numeric string below 2^32 - 1), or -1:
    // read as a number, the engine's element read takes its fast path.
    function indexFrom(key) {
      if (typeof key !== "string") return -1;
      const length = key.length;
      if (length === 0 || length > 10) return -1;
      let c = key.charCodeAt(0);
      if (c === 48) return length === 1 ? 0 : -1;
      if (c < 49 || c > 57) return -1;
      let value = c - 48;
      for (let i = 1; i < length; i++) {
        c = key.charCodeAt(i);
        if (c < 48 || c > 57) return -1;
        value = value * 10 + (c - 48);
      }
      return value < 4294967295 ? value : -1;
    }
    function collection(raw, target, kind, w) {
      collectionRaw.set(target, raw);
      let handler = w.handlers[kind];
      if (handler === undefined) handler = w.handlers[kind] = collectionHandler(kind, w);
      return new Proxy(target, handler);
    }
    function collectionHandler(kind, w) {
      const isList = kind === "array";
      const isNamed = kind === "named";
      const named = (t, key) => isNamed && typeof key === "string" && !has(t, key);
      return {
        get(t, key, receiver) {
          const index = indexFrom(key);
          if (index >= 0) return out(collectionRaw.get(t)[index], w);
          if (isList && key === "length") return collectionRaw.get(t).length;
          const found = get(t, key, receiver);
          if (found !== undefined || !isNamed || typeof key !== "string" || has(t, key)) return found;
          const v = collectionRaw.get(t)[key];
          return v === undefined ? undefined : out(v, w);
        },
        set(t, key, value, receiver) {
          const raw = collectionRaw.get(t);
          if (named(t, key)) {
            // A string map's write is a DOM call of w's (a style or data attribute changes).
            const previous = current;
            current = w;
            try { raw[key] = into(value, w); } finally { current = previous; }
            return true;
          }
          if (isIndex(key) || (isList && key === "length")) return false;
          return set(t, key, value, receiver);
        },
        has(t, key) {
          const raw = collectionRaw.get(t);
          if (isIndex(key)) return Number(key) < raw.length || (isNamed && key in raw);
          if (isNamed && typeof key === "string" && key.charCodeAt(0) !== 95 && has(raw, key)) return true;
          return has(t, key);
        },
        deleteProperty(t, key) {
          const raw = collectionRaw.get(t);
          if (named(t, key)) {
            const previous = current;
            current = w;
            try { return deleteProperty(raw, key); } finally { current = previous; }
          }
          if (isIndex(key)) return !(Number(key) < raw.length);
          return deleteProperty(t, key);
        },
        ownKeys(t) {
          const raw = collectionRaw.get(t);
          const keys = [];
          if (isNamed) {
            const names = ownKeys(raw);
            for (let i = 0; i < names.length; i++) if (typeof names[i] === "string" && names[i].charCodeAt(0) !== 95) keys[keys.length] = names[i];
          } else {
            for (let i = 0; i < raw.length; i++) keys[keys.length] = String(i);
          }
          const own = ownKeys(t);
          for (let i = 0; i < own.length; i++) keys[keys.length] = own[i];
          return keys;
        },
        getOwnPropertyDescriptor(t, key) {
          const raw = collectionRaw.get(t);
          if (isIndex(key) && Number(key) < raw.length) return { value: out(raw[key], w), writable: isNamed, enumerable: true, configurable: true };
          if (isList && key === "length") return { value: raw.length, writable: true, enumerable: false, configurable: false };
          if (named(t, key) && key.charCodeAt(0) !== 95 && has(raw, key)) {
            return { value: out(raw[key], w), writable: true, enumerable: true, configurable: true };
          }
          return getOwnPropertyDescriptor(t, key);
        },
      };
    }

    // MARK: - world → engine

    function into(value, w) {
      const type = typeof value;
      if (type !== "object" && type !== "function") return value;
      if (value === null) return null;
      const raw = rawOf.get(value);
      if (raw !== undefined) return raw;
      const world = globals.get(value);
      if (world !== undefined) return world.windowTarget;
      if (type === "function") return thunkOf(value, w);
      // Bytes cross as they are (a typed array or buffer has no methods the engine calls on it).
      if (isView(value) || value instanceof w.intrinsics.ArrayBuffer) return value;
      // An array is a sequence (WebIDL 3.2.27): the engine gets a copy made now, as WebIDL's
      // conversion makes one (threshold lists, attribute filters, Blob parts, transfer lists).
      if (isArray(value)) {
        const list = [];
        const length = value.length;
        list.length = length;
        for (let i = 0; i < length; i++) if (i in value) list[i] = into(value[i], w);
        return list;
      }
      return viewOf(value, w);
    }

    // A world's function as the engine calls it: with w's wrappers for `this` and arguments
    // (event listeners, observers' callbacks, timers, a custom element's constructor).
    function thunkOf(fn, w) {
      let thunk = w.thunks.get(fn);
      if (thunk !== undefined) return thunk;
      const shadow = function () {};
      thunk = new Proxy(shadow, {
        // While it runs, w's code is the innermost (see current).
        apply(target, thisArg, args) {
          const list = [];
          for (let i = 0; i < args.length; i++) list[i] = out(args[i], w);
          const previous = current;
          current = w;
          try { return into(apply(fn, out(thisArg, w), list), w); } finally { current = previous; }
        },
        construct(target, args, newTarget) {
          const list = [];
          for (let i = 0; i < args.length; i++) list[i] = out(args[i], w);
          const previous = current;
          current = w;
          try { return into(construct(fn, list, newTarget === thunk ? fn : out(newTarget, w)), w); } finally { current = previous; }
        },
        // The engine calls a listener with `listener.call(…)`: that must be the engine's own
        // Function.prototype.call, not whatever the world's is now (a page may have replaced it).
        get(target, key) {
          if (key === "call" || key === "apply" || key === "bind") return FunctionPrototype[key];
          return into(get(fn, key), w);
        },
        has(target, key) { return has(fn, key); },
      });
      w.thunks.set(fn, thunk);
      thunks.set(thunk, { fn, world: w });
      return thunk;
    }

    // A world's object as the engine reads it: its values unwrapped as they are read (a
    // dictionary's members, a detail's contents).
    function viewOf(object, w) {
      let view = w.views.get(object);
      if (view !== undefined) return view;
      const shadow = isArray(object) ? [] : {};
      view = new Proxy(shadow, {
        get(target, key) {
          const value = get(object, key);
          // A CustomEvent's detail keeps its world (see Detail).
          if (key === "detail" && constructingCustomEvent && value !== null && (typeof value === "object" || typeof value === "function")) return new Detail(value, w);
          return into(value, w);
        },
        set(target, key, value) { return set(object, key, out(value, w)); },
        has(target, key) { return has(object, key); },
        deleteProperty(target, key) { return deleteProperty(object, key); },
        ownKeys() { return ownKeys(object); },
        getOwnPropertyDescriptor(target, key) {
          const d = getOwnPropertyDescriptor(object, key);
          if (d === undefined) return undefined;
          if (key === "length" && isArray(object)) return { value: d.value, writable: true, enumerable: false, configurable: false };
          return "value" in d ? { value: into(d.value, w), writable: d.writable, enumerable: d.enumerable, configurable: true }
            : { get: into(d.get, w), set: into(d.set, w), enumerable: d.enumerable, configurable: true };
        },
        getPrototypeOf() { return null; },
      });
      w.views.set(object, view);
      views.set(view, { object, world: w });
      return view;
    }

    // MARK: - The calls w's functions make (boot/world.js)

    // A key (the record a world's function forwards with) is the engine's, shared by every world:
    // what the function stands for (`target`, or `getter`/`setter`, or `own` data), the brand its
    // `this` must carry, and its names for errors. The world comes from the bridge the function
    // was made with. No closure is made per call.

    // Every key has the same fields, made in the same order, whatever it stands for: the bridge
    // reads them on every call, and keys of one shape keep those reads on the engine's fast path
    // (keys of a dozen shapes, fields added as calls first found them, made every read a lookup).
    // target: the engine function called (an operation, a function); getter/setter: an
    // attribute's accessors; brand: the prototype `this` must carry (null: none); label and name:
    // for errors; key: a string map's own method name; own: the name of an object's own data
    // property; owner: the object a static attribute is read on (null otherwise); same: the
    // [SameObject] slot (-1: none); seen/accepted: the prototypes found to carry the brand;
    // read/write: the functions that read and write the property by name.
    function Key(target, getter, setter, brand, label, name, key, own, owner, same) {
      this.target = target;
      this.getter = getter;
      this.setter = setter;
      this.brand = brand;
      this.label = label;
      this.name = name;
      this.key = key;
      this.own = own;
      this.owner = owner;
      this.same = same;
      this.seen = undefined;
      this.accepted = undefined;
      this.read = undefined;
      this.write = undefined;
    }

    function typeError(w, message) { return w.factories.error("TypeError", message); }

    function brandError(w, key, what) {
      return typeError(w, what === "call" ? "Can only call " + key.label + "." + key.name + " on instances of " + key.label
        : "The " + key.label + "." + key.name + " " + what + " can only be used on instances of " + key.label);
    }

    // `this` as the engine object the call is for: a wrapper of the key's interface. It leaves
    // the object's string-map table (see methodIn) in thisTable, for the caller to read at once.
    let thisTable;
    function unwrapThis(key, thisArg, w, what) {
      const brand = key.brand;
      const record = platformOf.get(thisArg);
      let raw, proto;
      if (record !== undefined) {
        raw = record.raw;
        thisTable = record.table;
        if (brand === null) return raw;
        proto = record.proto;
        // The prototypes already found to carry the brand (most keys see one or a few).
        if (proto === key.seen) return raw;
      } else {
        raw = rawOf.get(thisArg);
        if (brand === null) {
          if (raw === undefined) { thisTable = undefined; return into(thisArg, w); }
          thisTable = namedObjects.get(raw);
          return raw;
        }
        if (raw === undefined) throw brandError(w, key, what);
        thisTable = namedObjects.get(raw);
        proto = getPrototypeOf(raw);
        if (proto === key.seen) return raw;
      }
      const accepted = key.accepted;
      if (accepted !== undefined && accepted.has(proto)) { key.seen = proto; return raw; }
      for (let p = proto; p !== null; p = getPrototypeOf(p)) {
        if (p === brand) {
          if (accepted === undefined) key.accepted = new Set([proto]); else accepted.add(proto);
          key.seen = proto;
          return raw;
        }
      }
      throw brandError(w, key, what);
    }

    // The arguments as the engine takes them: the call's own list when every one is a primitive
    // (most calls: selectors, names, numbers), else a list of unwrapped values.
    function intoList(args, w) {
      const length = args.length;
      let i = 0;
      for (; i < length; i++) {
        const value = args[i];
        if (value !== null && (typeof value === "object" || typeof value === "function")) break;
      }
      if (i === length) return args;
      const list = new Array(length);
      for (let j = 0; j < length; j++) list[j] = j < i ? args[j] : into(args[j], w);
      return list;
    }

    // A primitive as it is, anything else unwrapped.
    function intoValue(value, w) {
      return value !== null && (typeof value === "object" || typeof value === "function") ? into(value, w) : value;
    }

    // The method a call on `self` runs: a string map answers its own methods (from its table
    // `table` when it has one, else through its own lookup); the prototype's otherwise.
    function methodIn(key, self, table) {
      if (key.key !== undefined && table !== undefined) {
        const found = table === null ? self[key.key] : table[key.key];
        if (typeof found === "function") return found;
      }
      return key.target;
    }

    // The object's own property (an own accessor a layer gave one object answers for it, a
    // prototype's otherwise), read by a function of its own per name: one shared `o[name]` would
    // see every name and every kind of object, and JavaScriptCore's caches give up on that.
    const readers = new Map(), writers = new Map();
    function readerOf(key) {
      let read = key.read;
      if (read !== undefined) return read;
      const name = key.name;
      read = readers.get(name);
      if (read === undefined) readers.set(name, read = typeof name === "string" ? options.compile("(function (o) { return o[" + JSON.stringify(name) + "]; })") : (o) => o[name]);
      return key.read = read;
    }
    function writerOf(key) {
      let write = key.write;
      if (write !== undefined) return write;
      const name = key.name;
      write = writers.get(name);
      if (write === undefined) writers.set(name, write = typeof name === "string" ? options.compile("(function (o, v) { o[" + JSON.stringify(name) + "] = v; })") : (o, v) => { o[name] = v; });
      return key.write = write;
    }

    function makeBridge(w) {
      function invokeFixed(key, thisArg, count, a0, a1) {
        const previous = current;
        current = w;
        try {
          const self = unwrapThis(key, thisArg, w, "call");
          const method = methodIn(key, self, thisTable);
          // A direct call, without an argument list to allocate: the engine's functions keep
          // Function.prototype.call (no world can reach them to change it).
          if (count === 0) return out(method.call(self), w);
          if (count === 1) return out(method.call(self, intoValue(a0, w)), w);
          return out(method.call(self, intoValue(a0, w), intoValue(a1, w)), w);
        } catch (error) {
          throw out(error, w);
        } finally {
          current = previous;
        }
      }
      const bridge = {
        // A [SameObject] attribute (SAME_OBJECT): the object this wrapper was given before.
        getSame(key, thisArg) {
          let slots = w.same.get(thisArg);
          if (slots !== undefined) {
            const known = slots[key.same];
            if (known !== undefined) return known;
          }
          const value = bridge.get(key, thisArg);
          if (value !== null && (typeof value === "object" || typeof value === "function")) {
            if (slots === undefined) w.same.set(thisArg, slots = []);
            slots[key.same] = value;
          }
          return value;
        },
        invoke(key, thisArg, args) {
          const previous = current;
          current = w;
          try {
            const self = unwrapThis(key, thisArg, w, "call");
            const method = methodIn(key, self, thisTable);
            return out(apply(method, self, intoList(args, w)), w);
          } catch (error) {
            throw out(error, w);
          } finally {
            current = previous;
          }
        },
        // The calls with as many arguments as the method declares (most), without an
        // `arguments` object.
        invoke0(key, thisArg) { return invokeFixed(key, thisArg, 0, undefined, undefined); },
        invoke1(key, thisArg, a0) { return invokeFixed(key, thisArg, 1, a0, undefined); },
        invoke2(key, thisArg, a0, a1) { return invokeFixed(key, thisArg, 2, a0, a1); },
        call(key, thisArg, args) {
          const previous = current;
          current = w;
          try {
            return out(apply(key.target, thisArg === undefined ? undefined : into(thisArg, w), intoList(args, w)), w);
          } catch (error) {
            throw out(error, w);
          } finally {
            current = previous;
          }
        },
        construct(key, args, newTarget) {
          const previous = current;
          current = w;
          try {
            const list = intoList(args, w);
            if (w.wrappers.get(key.target) === newTarget) {
              if (!options.isCustomEvent(key.target)) return out(construct(key.target, list), w);
              constructingCustomEvent = true;
              let made;
              try { made = construct(key.target, list); } finally { constructingCustomEvent = false; }
              // CustomEventInit's detail defaults to null, an undefined one too (WebIDL `any = null`).
              if (made.detail === undefined) made.detail = null;
              return out(made, w);
            }
            const made = construct(key.target, list, options.newTargetFor(key.target, into(newTarget, w)));
            if (typeof made !== "object" || made === null || rawOf.has(made)) return out(made, w);
            // A subclass (`class X extends Event`, a custom element): its instance is the
            // wrapper, with new.target's prototype (an element being upgraded keeps its wrapper).
            const prototype = newTarget.prototype;
            const known = w.wrappers.get(made);
            if (known !== undefined) { Reflect.setPrototypeOf(known, prototype); return known; }
            return wrapPlatformObject(made, getPrototypeOf(made), w, undefined, prototype);
          } catch (error) {
            throw out(error, w);
          } finally {
            current = previous;
          }
        },
        get(key, thisArg) {
          let self;
          if (key.own !== undefined) {
            self = rawOf.get(thisArg);
            if (self === undefined) throw brandError(w, key, "getter");
          } else if (key.owner === null) {
            self = unwrapThis(key, thisArg, w, "getter");
          }
          const previous = current;
          current = w;
          try {
            // Looked up on the object itself: an own accessor a layer gave one object (an
            // iframe's contentDocument once the browser has loaded it) answers for it.
            const value = key.owner !== null ? apply(key.getter, key.owner, []) : readerOf(key)(self);
            if (typeof value !== "object" || value === null) return typeof value === "function" ? out(value, w) : value;
            return attribute(value, w);
          } catch (error) {
            throw out(error, w);
          } finally {
            current = previous;
          }
        },
        set(key, thisArg, value) {
          let self;
          if (key.own !== undefined) {
            self = rawOf.get(thisArg);
            if (self === undefined) throw brandError(w, key, "setter");
          } else if (key.owner === null) {
            self = unwrapThis(key, thisArg, w, "setter");
          }
          const previous = current;
          current = w;
          try {
            if (key.owner !== null) apply(key.setter, key.owner, [into(value, w)]);
            else writerOf(key)(self, into(value, w));
          } catch (error) {
            throw out(error, w);
          } finally {
            current = previous;
          }
        },
        enter(body, args) {
          const previous = current;
          current = w;
          try {
            return out(body(args === undefined ? undefined : intoList(args, w)), w);
          } catch (error) {
            throw out(error, w);
          } finally {
            current = previous;
          }
        },
      };
      return bridge;
    }

    // MARK: - Worlds

    // Makes world `id`'s side of the membrane for a fresh realm: `make` is boot/world.js's
    // factory evaluated there, `window` the engine's window object for the page (the raw
    // EventTarget domino dispatches window events at) and `shared` the object that holds the
    // page's window members (document, location, timers, the DOM's interfaces).
    function attach(global, make, id, handle, seed, hooks, compile) {
      const w = {
        id, global, handle, windowTarget: handle.windowTarget,
        wrappers: new WeakMap(), same: new WeakMap(), protos: new Map(), scanned: new Set(), iterable: new Set(), thunks: new WeakMap(), views: new WeakMap(), handlers: {},
        factories: null, intrinsics: null, M: null, windowEntries: null, windowMembers: null,
      };
      const bridge = makeBridge(w);
      const M = freeze({
        getSame: bridge.getSame, invoke: bridge.invoke, invoke0: bridge.invoke0, invoke1: bridge.invoke1, invoke2: bridge.invoke2, call: bridge.call, construct: bridge.construct, get: bridge.get, set: bridge.set,
        now: hooks.now,
        console(level, args) { hooks.console(level, intoList(args, w)); },
        windowFunction(name, args) { return bridge.enter((list) => hooks.windowFunction(name, list), args); },
        windowGet(key) { return bridge.enter(() => get(handle.shared, key)); },
        lazyGet(index) { return settleWindowMember(w, index, undefined, false); },
        lazySet(index, value) { settleWindowMember(w, index, value, true); },
        windowSet(key, value) { bridge.enter(() => { set(handle.shared, key, into(value, w)); }); },
        top() { return out(hooks.top(w), w); },
        parent() { return out(hooks.parent(w), w); },
      });
      w.M = M;
      const made = make()(M, seed, compile);
      w.factories = made.factories;
      w.intrinsics = made.intrinsics;
      realms.set(w.intrinsics.ObjectPrototype, w);
      globals.set(global, w);
      rawOf.set(global, handle.windowTarget);
      w.wrappers.set(handle.windowTarget, global);
      return w;
    }

    // The world's window members: every member of the page's shared window object (and the DOM
    // interfaces behind it) as a property of `target` (the object the world's global inherits
    // from), each made when first read. (JavaScriptCore allows no proxy in a global object's
    // prototype chain, so each name is an accessor until then.)
    // The names are the same on every page (the DOM's interfaces, then the page's own window
    // members), so the plan and the source of the function that makes the object are shared:
    // a world compiles it once per source (JavaScriptCore's code cache knows it from the last
    // world) and makes every accessor in one object literal, where defining each took most of a
    // navigation's cost.
    function windowPlan(handle) {
      let plan = windowPlans.get(handle);
      if (plan !== undefined) return plan;
      const entries = [];
      const seen = new Set();
      for (let source = handle.shared; source !== null && source !== ObjectPrototype; source = getPrototypeOf(source)) {
        const keys = ownKeys(source);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i];
          if (typeof key !== "string" || seen.has(key) || key.charCodeAt(0) === 95) continue;
          seen.add(key);
          const d = getOwnPropertyDescriptor(source, key);
          const accessor = !("value" in d);
          // An interface object or namespace (a capitalised data member: HTMLElement, CSS,
          // NodeFilter) is not enumerable (WebIDL 3.7.1 and 3.13.1), whatever domino made it.
          const code = key.charCodeAt(0);
          const named = !accessor && code >= 65 && code <= 90;
          entries[entries.length] = { key, accessor, settable: d.set !== undefined, enumerable: named ? false : d.enumerable };
        }
      }
      let signature = "";
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        signature += (e.accessor ? (e.settable ? "A" : "a") : "v") + (e.enumerable ? "e" : "h") + e.key + "\n";
      }
      plan = windowPlanSources.get(signature);
      if (plan === undefined) {
        // The hidden values (the DOM's interface objects, most of the list) are answered by the
        // world's WindowProperties object (installWindow); the rest are accessors here.
        let body = "\"use strict\"; return {\n__proto__: proto,\n";
        const hidden = [], hiddenEntries = new Map();
        for (let i = 0; i < entries.length; i++) {
          const e = entries[i], name = JSON.stringify(e.key);
          if (e.accessor) {
            body += "get " + name + "() { return M.windowGet(" + name + "); },\n";
            if (e.settable) body += "set " + name + "(value) { M.windowSet(" + name + ", value); },\n";
          } else if (!e.enumerable) {
            hidden[hidden.length] = e.key;
            hiddenEntries.set(e.key, e);
          } else {
            body += "get " + name + "() { return M.lazyGet(" + i + "); },\nset " + name + "(value) { M.lazySet(" + i + ", value); },\n";
          }
        }
        body += "};";
        plan = { id: nextSourceId++, entries, body, hidden, hiddenEntries };
        windowPlanSources.set(signature, plan);
      }
      windowPlans.set(handle, plan);
      return plan;
    }
    // The window is an EventTarget: the object behind the global inherits from the world's
    // EventTarget.prototype (window instanceof EventTarget, a script's patch to it reaches window).
    function windowBase(w, eventTargetPrototype) {
      return mirrorPrototype(eventTargetPrototype, w);
    }
    // The object the world's global inherits from (its window members), made from the plan.
    // Behind it, in front of `proto` (the world's EventTarget.prototype, as WebIDL puts the
    // window's named properties object), sits the world's WindowProperties object, made by the
    // host (`namedProperties`): it answers for the hidden members until each is first read, and
    // that read defines the member here, where later reads find it. A world makes only the
    // interfaces its scripts name, as WebKit reifies a static table's entries on first lookup;
    // making all of them (an accessor pair each) was most of what a world cost.
    function installWindow(w, proto, namedProperties) {
      const plan = windowPlan(w.handle);
      let behind = proto;
      if (plan.hidden.length !== 0) {
        behind = namedProperties(plan.id, plan.hidden, (key) => settleHidden(w, plan.hiddenEntries.get(key)));
        Reflect.setPrototypeOf(behind, proto);
      }
      const members = w.factories.fromSource(plan.id, plan.body, w.M, behind);
      w.windowEntries = plan.entries;
      w.windowMembers = members;
      for (let i = 0; i < plan.entries.length; i++) {
        const entry = plan.entries[i];
        if (!entry.enumerable && entry.accessor) {
          const d = getOwnPropertyDescriptor(members, entry.key);
          d.enumerable = false;
          defineProperty(members, entry.key, d);
        }
      }
      return members;
    }
    // A hidden window member read for the first time (see installWindow).
    function settleHidden(w, entry) {
      const made = out(get(w.handle.shared, entry.key), w);
      defineProperty(w.windowMembers, entry.key, { value: made, writable: true, enumerable: false, configurable: true });
      return made;
    }
    // A window member read for the first time: made (as the world sees it) and kept as a data
    // property in its place; one assigned first simply takes the assigned value.
    function settleWindowMember(w, index, value, assigned) {
      const entry = w.windowEntries[index];
      const made = assigned ? value : out(get(w.handle.shared, entry.key), w);
      defineProperty(w.windowMembers, entry.key, { value: made, writable: true, enumerable: entry.enumerable, configurable: true });
      return made;
    }

    // A lazy global of a world (structuredClone, TextEncoder …): made by the engine when first
    // read, seen as w's.
    function lazyGlobal(global, key, make, enumerable) {
      const w = globals.get(global);
      w.factories.lazy(global, key, enumerable, () => out(make(), w));
    }

    return {
      attach, installWindow, windowBase, lazyGlobal, out, into,
      isWorldGlobal: (value) => globals.has(value),
      worldOf: (global) => globals.get(global),
      current: () => current,
      // The world a function the engine holds came from (an event handler), or null.
      worldOfFunction(fn) { const thunk = thunks.get(fn); return thunk === undefined ? null : thunk.world; },
      markOpaque(object) { opaque.add(object); },
      // history.state's value as each world reads it (see Serialized).
      serialized: (value) => new Serialized(value),
      // The world's object an engine view reads (undefined for anything else).
      viewTarget(value) { const view = views.get(value); return view === undefined ? undefined : view.object; },
      rawOf: (value) => rawOf.get(value),
    };
  };
})
