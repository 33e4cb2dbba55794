// Canonical JSON of a value: object keys sorted at every level. What crosses between contexts
// and what traces print. Values JSON cannot carry (functions, undefined in objects) are dropped
// as JSON.stringify drops them, which is what storage and messaging do with them too.
//
// Evaluated once in each extension context's own realm: the value is copied with each object's
// keys sorted (toJSON applied on the way, as SerializeJSONProperty does), then serialized by the
// engine's own JSON.stringify, all on objects of that realm. A JSON.stringify replacer doing the
// sorting makes the engine call back for every value, and JavaScriptCore serializes objects of
// another realm several times slower: both cost milliseconds on large storage writes.
(function () {
  "use strict";
  const toStringTag = Object.prototype.toString;
  const stringify = JSON.stringify;
  const keysOf = Object.keys;
  const define = Object.defineProperty;
  const isArray = Array.isArray;

  function sortedCopy(key, value, stack) {
    if (value !== null && typeof value === "object" && typeof value.toJSON === "function") value = value.toJSON(key);
    if (value === null || typeof value !== "object") return value;
    const tag = toStringTag.call(value);
    if (tag === "[object Number]" || tag === "[object String]" || tag === "[object Boolean]") return value;
    if (stack.includes(value)) throw new TypeError("JSON.stringify cannot serialize cyclic structures.");
    stack.push(value);
    let out;
    if (isArray(value)) {
      out = new Array(value.length);
      for (let i = 0; i < value.length; i++) out[i] = sortedCopy(String(i), value[i], stack);
    } else {
      out = {};
      const keys = keysOf(value);
      // Already in order (common for small objects): no sort.
      let sorted = true;
      for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) { sorted = false; break; }
      if (!sorted) keys.sort();
      for (const k of keys) {
        const item = sortedCopy(k, value[k], stack);
        if (k === "__proto__") define(out, k, { value: item, enumerable: true, writable: true, configurable: true });
        else out[k] = item;
      }
    }
    stack.pop();
    return out;
  }

  // A large plain object is written member by member: building a sorted copy of it would make
  // the engine grow a dictionary-mode object one key at a time.
  return function canonical(value) {
    if (value !== null && typeof value === "object" && !isArray(value) && typeof value.toJSON !== "function" &&
        toStringTag.call(value) === "[object Object]") {
      const keys = keysOf(value);
      if (keys.length > 64) {
        // The order a sorted copy would have: array-index keys first, ascending (the engine
        // keeps them so), then the others sorted.
        keys.sort();
        const indices = keys.filter((k) => /^(0|[1-9][0-9]{0,8})$/.test(k));
        if (indices.length) {
          indices.sort((a, b) => a - b);
          const others = keys.filter((k) => !/^(0|[1-9][0-9]{0,8})$/.test(k));
          keys.length = 0;
          keys.push(...indices, ...others);
        }
        const stack = [value];
        const parts = [];
        for (const k of keys) {
          const item = stringify(sortedCopy(k, value[k], stack));
          if (item !== undefined) parts.push(stringify(k) + ":" + item);
        }
        return "{" + parts.join(",") + "}";
      }
    }
    return stringify(sortedCopy("", value, []));
  };
})
