// layer: storage/web-storage
// order: 180
// provides: storageScopeOf
// requires: DOMException, eventClass, originOf
//
// Web Storage (HTML 12.2): localStorage and sessionStorage. A page's scripts and every content
// script on it share the page's Storage objects, as in Safari (content scripts see the page's
// origin's storage). localStorage is one area per origin for the whole browser session, kept
// across navigations and browser restarts; sessionStorage is one area per tab and origin, kept
// across the tab's navigations and dropped by a restart; a private tab's areas are its own and
// are dropped when the browser restarts. A change fires `storage` at every other open document
// of the same area, in a task of its own.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const host = ctx.host;
  // WebKit gives each origin 5 MB (WebCore StorageQuotaManager's default for local storage),
  // counted here as the UTF-16 length of keys plus values.
  const QUOTA = 5 * 1024 * 1024;
  const areas = new Map();           // area name -> Map(key -> value), in insertion order
  const documents = new Map();       // page id -> { document, windowTarget, pageId, storages }
  const states = ctx.internalSlots("Storage");      // Storage object -> { document, kind }

  // The origin whose areas a document uses is its origin (frames.js: a custom scheme with a host,
  // such as the fidelity recorder's, has one, as in WebKit). An opaque origin (data:, a
  // top-level about:blank) has none.
  const storageOrigin = (document) => ctx.originOf(document);
  // Which tab's sessionStorage a document uses and whether its tab is private: asked of the
  // browser (hooks.storageScope → { session, isPrivate }) when the document first touches
  // storage, not for every page made; a bare session keeps each page's own.
  function scopeOf(document) {
    if (document._advStorageScope === undefined) {
      const scope = ctx.hooks.storageScope ? ctx.hooks.storageScope(document._advPageId) : null;
      Object.defineProperty(document, "_advStorageScope", { value: scope || {}, configurable: true });
    }
    return document._advStorageScope;
  }
  // cookies.js keeps private tabs' cookies apart the same way.
  ctx.storageScopeOf = scopeOf;
  function areaName(document, kind) {
    const origin = storageOrigin(document);
    if (origin === "null") throw new ctx.DOMException("The operation is insecure.", "SecurityError");
    const scope = scopeOf(document);
    if (kind === "local") return (scope.isPrivate ? "private " : "local ") + origin;
    return "session " + (scope.session || "page" + document._advPageId) + " " + origin;
  }
  function areaOf(storage) {
    const state = states.of(storage);
    const name = areaName(state.document, state.kind);
    let area = areas.get(name);
    if (!area) areas.set(name, area = new Map());
    return { area, name, state };
  }
  function size(area) {
    let total = 0;
    for (const [key, value] of area) total += key.length + value.length;
    return total;
  }

  // `storage` at every other open document whose Storage of this kind uses the same area.
  function notify(changer, name, kind, key, oldValue, newValue) {
    for (const entry of documents.values()) {
      if (entry.document === changer) continue;
      let theirs;
      try { theirs = areaName(entry.document, kind); } catch (error) { continue; }
      if (theirs !== name) continue;
      const url = changer.URL;
      host.queueTask(entry.pageId, () => {
        const event = new StorageEvent("storage", { key, oldValue, newValue, url, storageArea: storageFor(entry, kind) });
        entry.windowTarget._dispatchEvent(event, true);
      }, "storage event");
    }
  }

  function Storage() { throw new TypeError("Illegal constructor"); }
  const methods = {
    key(index) {
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      const { area } = areaOf(this);
      const n = Number(index) >>> 0;
      if (n >= area.size) return null;
      let i = 0;
      for (const key of area.keys()) if (i++ === n) return key;
      return null;
    },
    getItem(key) {
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      const value = areaOf(this).area.get(String(key));
      return value === undefined ? null : value;
    },
    setItem(key, value) {
      if (arguments.length < 2) throw new TypeError("Not enough arguments");
      const { area, name, state } = areaOf(this);
      const k = String(key), v = String(value);
      const old = area.has(k) ? area.get(k) : null;
      if (old === v) return;
      if (size(area) - (old === null ? 0 : k.length + old.length) + k.length + v.length > QUOTA) {
        throw new ctx.DOMException("The quota has been exceeded.", "QuotaExceededError");
      }
      area.set(k, v);
      notify(state.document, name, state.kind, k, old, v);
    },
    removeItem(key) {
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      const { area, name, state } = areaOf(this);
      const k = String(key);
      if (!area.has(k)) return;
      const old = area.get(k);
      area.delete(k);
      notify(state.document, name, state.kind, k, old, null);
    },
    clear() {
      const { area, name, state } = areaOf(this);
      if (area.size === 0) return;
      area.clear();
      notify(state.document, name, state.kind, null, null, null);
    },
  };
  ctx.defineMembers(Storage.prototype, Object.assign({}, methods, { length: { get() { return areaOf(this).area.size; } } }), "Storage");

  // Items are also properties of the Storage object (WebIDL legacy platform object with named
  // properties, no [LegacyOverrideBuiltIns]): a name the prototype chain has stays the
  // prototype's on reading, while assigning any string name stores an item.
  const namedItem = (storage, key) => {
    if (typeof key !== "string" || key in Storage.prototype || key in Object.prototype) return undefined;
    const value = areaOf(storage).area.get(key);
    return value;
  };
  function makeStorage(document, kind) {
    const target = Object.create(Storage.prototype);
    const proxy = new Proxy(target, {
      get(t, key, receiver) {
        const value = namedItem(proxy, key);
        return value !== undefined ? value : Reflect.get(t, key, receiver === proxy ? proxy : receiver);
      },
      set(t, key, value) {
        if (typeof key !== "string") return Reflect.set(t, key, value);
        methods.setItem.call(proxy, key, value);
        return true;
      },
      has(t, key) { return namedItem(proxy, key) !== undefined || Reflect.has(t, key); },
      deleteProperty(t, key) {
        if (typeof key === "string" && areaOf(proxy).area.has(key)) methods.removeItem.call(proxy, key);
        return true;
      },
      ownKeys(t) { return Array.from(areaOf(proxy).area.keys()).concat(Reflect.ownKeys(t)); },
      getOwnPropertyDescriptor(t, key) {
        const value = namedItem(proxy, key);
        if (value !== undefined) return { value, writable: true, enumerable: true, configurable: true };
        return Reflect.getOwnPropertyDescriptor(t, key);
      },
      defineProperty(t, key, descriptor) {
        if (typeof key !== "string") return Reflect.defineProperty(t, key, descriptor);
        methods.setItem.call(proxy, key, descriptor.value);
        return true;
      },
    });
    ctx.namedObjects.set(proxy, null);
    states.set(proxy, { document, kind });
    return proxy;
  }
  function storageFor(entry, kind) {
    if (!entry.storages[kind]) entry.storages[kind] = makeStorage(entry.document, kind);
    return entry.storages[kind];
  }

  const StorageEvent = ctx.eventClass("StorageEvent", impl.Event, null, { key: null, oldValue: null, newValue: null, url: "", storageArea: null });
  Object.assign(ctx.domGlobals, { Storage, StorageEvent });

  return {
    name: "webStorage",
    // A warm engine's next session starts with empty storage areas (SessionEngine).
    sessionEnded() { areas.clear(); documents.clear(); },
    page(p) {
      const entry = { document: p.document, windowTarget: p.windowTarget, pageId: p.pageId, storages: {} };
      documents.set(p.pageId, entry);
      for (const kind of ["local", "session"]) {
        Object.defineProperty(p.shared, kind + "Storage", {
          get() {
            // Access on an opaque origin is a SecurityError (HTML 12.2.3).
            areaName(p.document, kind);
            return storageFor(entry, kind);
          },
          enumerable: true, configurable: true,
        });
      }
    },
    pageClosed(pageId) { documents.delete(pageId); },
    // A browser restart keeps localStorage and drops sessionStorage and private areas.
    restart() {
      for (const name of Array.from(areas.keys())) if (!name.startsWith("local ")) areas.delete(name);
    },
  };
})
