// layer: messaging/structured-clone
// order: 120
// provides: makeStructuredClone
// requires: DOMException
//
// structuredClone (HTML 2.7.3 "StructuredSerialize"/"StructuredDeserialize", in one pass): a deep
// copy made in the calling world's realm, with shared and cyclic references kept. Primitives,
// wrapper objects, Date, RegExp, ArrayBuffer and its views, Map, Set, Array, Error and plain
// objects (own enumerable properties; any other prototype is not kept) are cloned; functions,
// symbols and platform objects (nodes, events, windows) are a DataCloneError. `transfer` moves
// ArrayBuffers, leaving the originals detached.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const tag = (value) => Object.prototype.toString.call(value);
  const ERRORS = new Set(["Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"]);
  const VIEWS = new Set(["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
    "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "DataView"]);

  function makeStructuredClone(global) {
    const cannotClone = (what) => new ctx.DOMException(what + " could not be cloned.", "DataCloneError");
    function isPlatformObject(value) {
      // A world's wrapper of a node, an event or a window (boot/membrane.js) is one too.
      if (ctx.membrane && ctx.membrane.rawOf(value) !== undefined) return true;
      return value instanceof impl.Node || value instanceof impl.Event || value instanceof ctx.EventTarget ||
        (value && value.window === value);
    }
    function clone(value, memory) {
      const type = typeof value;
      if (type === "symbol") throw cannotClone(String(value));
      if (value === null || (type !== "object" && type !== "function")) return value;
      if (type === "function") throw cannotClone(value.name ? "function " + value.name : "A function");
      // A world's object the engine reads through the membrane is cloned from the object itself.
      const seen = ctx.membrane && ctx.membrane.viewTarget(value);
      if (seen) value = seen;
      if (memory.has(value)) return memory.get(value);
      const kind = tag(value).slice(8, -1);
      let out;
      switch (kind) {
        case "Boolean": out = new global.Boolean(Boolean.prototype.valueOf.call(value)); break;
        case "Number": out = new global.Number(Number.prototype.valueOf.call(value)); break;
        case "String": out = new global.String(String.prototype.valueOf.call(value)); break;
        case "BigInt": out = global.Object(BigInt.prototype.valueOf.call(value)); break;
        case "Date": out = new global.Date(Date.prototype.getTime.call(value)); break;
        case "RegExp": out = new global.RegExp(value.source, value.flags); break;
        case "ArrayBuffer": out = global.Uint8Array.from(new Uint8Array(value)).buffer; break;
        default:
          if (VIEWS.has(kind)) {
            const buffer = clone(value.buffer, memory);
            out = kind === "DataView" ? new global.DataView(buffer, value.byteOffset, value.byteLength)
              : new global[kind](buffer, value.byteOffset, value.length);
          }
      }
      if (out !== undefined) { memory.set(value, out); return out; }
      if (isPlatformObject(value)) throw cannotClone(kind);
      if (kind === "Map") {
        out = new global.Map();
        memory.set(value, out);
        for (const [k, v] of Array.from(Map.prototype.entries.call(value))) out.set(clone(k, memory), clone(v, memory));
        return out;
      }
      if (kind === "Set") {
        out = new global.Set();
        memory.set(value, out);
        for (const v of Array.from(Set.prototype.values.call(value))) out.add(clone(v, memory));
        return out;
      }
      if (kind === "Error") {
        const name = ERRORS.has(value.name) ? value.name : "Error";
        out = new global[name]();
        memory.set(value, out);
        const message = Object.getOwnPropertyDescriptor(value, "message");
        if (message && "value" in message) Object.defineProperty(out, "message", { value: String(message.value), writable: true, configurable: true });
        return out;
      }
      out = Array.isArray(value) ? new global.Array(value.length) : new global.Object();
      memory.set(value, out);
      for (const key of Object.keys(value)) out[key] = clone(value[key], memory);
      return out;
    }
    return function structuredClone(value, options) {
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      const transfer = options && options.transfer !== undefined ? Array.from(options.transfer) : [];
      for (const buffer of transfer) {
        if (tag(buffer) !== "[object ArrayBuffer]") throw cannotClone("A value to transfer");
      }
      if (new Set(transfer).size !== transfer.length) throw new ctx.DOMException("An ArrayBuffer is transferred twice.", "DataCloneError");
      const result = clone(value, new Map());
      // Transferred buffers move: the clone has their bytes (copied above), the originals detach.
      for (const buffer of transfer) ArrayBuffer.prototype.transfer.call(buffer);
      return result;
    };
  }

  // The other layers clone into a realm of their choosing (history states, messages), usually a
  // document's window (its page world; this realm until that world exists): one clone function
  // per realm, made when first asked for.
  const byRealm = new WeakMap();
  ctx.makeStructuredClone = (realm) => {
    const global = realm && realm.Object ? realm : globalThis;
    let clone = byRealm.get(global);
    if (!clone) byRealm.set(global, clone = makeStructuredClone(global));
    return clone;
  };

  return {
    name: "structuredClone",
    // Made when a world first uses it: most pages never do.
    world(global) {
      ctx.lazyGlobal(global, "structuredClone", () => ctx.makeStructuredClone(global), true);
    },
  };
})
