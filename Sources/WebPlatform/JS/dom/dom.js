// layer: dom/dom
// order: 20
// provides: setCurrentScript, runningScript
// requires: DOMException, onMutation, inMutationBatch
//
// DOM Standard members domino lacks or gets wrong, which content scripts use every day:
// ParentNode append/prepend/replaceChildren (DOM 4.2.6), ParentNode's firstElementChild,
// lastElementChild and childElementCount on documents and fragments (domino has them on elements
// only; a <template>'s content is a fragment), Node.isConnected, HTMLElement.dataset
// (HTML 3.2.6.6).
(function (ctx) {
  "use strict";
  const impl = ctx.impl;

  function toNode(doc, nodes) {
    // DOM 4.2.6 "convert nodes into a node": strings become Text; several nodes a fragment.
    const list = nodes.map((n) => (n && typeof n === "object" && typeof n.nodeType === "number" ? n : doc.createTextNode(String(n))));
    if (list.length === 1) return list[0];
    const fragment = doc.createDocumentFragment();
    for (const node of list) fragment.appendChild(node);
    return fragment;
  }
  const ownerOf = (node) => (node.nodeType === 9 ? node : node.ownerDocument);
  const parentNode = {
    append(...nodes) { if (nodes.length) this.appendChild(toNode(ownerOf(this), nodes)); },
    prepend(...nodes) { if (nodes.length) this.insertBefore(toNode(ownerOf(this), nodes), this.firstChild); },
    replaceChildren(...nodes) {
      const node = nodes.length ? toNode(ownerOf(this), nodes) : null;
      ctx.inMutationBatch(() => {
        while (this.firstChild) this.removeChild(this.firstChild);
        if (node) this.appendChild(node);
      });
    },
  };
  for (const proto of [impl.Element.prototype, impl.Document.prototype, impl.DocumentFragment.prototype]) {
    for (const [name, value] of Object.entries(parentNode)) {
      if (!Object.prototype.hasOwnProperty.call(proto, name)) Object.defineProperty(proto, name, { configurable: true, writable: true, value });
    }
  }
  // DOM 4.2.6 ParentNode's element accessors, which WebKit gives Document and DocumentFragment
  // too (Source/WebCore/dom/ParentNode.idl, implemented by ContainerNode).
  const elementAccessors = {
    firstElementChild() {
      for (let kid = this.firstChild; kid !== null; kid = kid.nextSibling) if (kid.nodeType === 1) return kid;
      return null;
    },
    lastElementChild() {
      for (let kid = this.lastChild; kid !== null; kid = kid.previousSibling) if (kid.nodeType === 1) return kid;
      return null;
    },
    childElementCount() {
      let count = 0;
      for (let kid = this.firstChild; kid !== null; kid = kid.nextSibling) if (kid.nodeType === 1) count++;
      return count;
    },
  };
  for (const proto of [impl.Document.prototype, impl.DocumentFragment.prototype]) {
    for (const [name, get] of Object.entries(elementAccessors)) {
      if (!(name in proto)) Object.defineProperty(proto, name, { configurable: true, enumerable: true, get });
    }
  }
  // DOM 4.4 getRootNode (no shadow trees here, so `composed` changes nothing).
  if (!("getRootNode" in impl.Node.prototype)) {
    ctx.defineMembers(impl.Node.prototype, { getRootNode: function getRootNode(options) {
      let node = this;
      while (node.parentNode) node = node.parentNode;
      return node;
    } });
  }
  if (!("isConnected" in impl.Node.prototype)) {
    Object.defineProperty(impl.Node.prototype, "isConnected", { configurable: true, get() { return !!this.rooted; } });
  }

  // HTML 3.2.6.6 dataset: data-foo-bar <-> fooBar.
  const toAttribute = (name) => "data-" + name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
  const toProperty = (attribute) => attribute.slice(5).replace(/-([a-z])/g, (m, c) => c.toUpperCase());
  Object.defineProperty(impl.HTMLElement.prototype, "dataset", { configurable: true, get() {
    const element = this;
    if (element._advDataset) return element._advDataset;
    const map = new Proxy(Object.create(null), {
      get(target, name) { if (typeof name !== "string") return undefined; const v = element.getAttribute(toAttribute(name)); return v === null ? undefined : v; },
      set(target, name, value) { element.setAttribute(toAttribute(String(name)), String(value)); return true; },
      has(target, name) { return typeof name === "string" && element.hasAttribute(toAttribute(name)); },
      deleteProperty(target, name) { element.removeAttribute(toAttribute(String(name))); return true; },
      ownKeys() { return element.getAttributeNames().filter((a) => a.startsWith("data-")).map(toProperty); },
      getOwnPropertyDescriptor(target, name) {
        const v = element.getAttribute(toAttribute(String(name)));
        return v === null ? undefined : { value: v, writable: true, enumerable: true, configurable: true };
      },
    });
    Object.defineProperty(element, "_advDataset", { value: map });
    ctx.namedObjects.set(map, null);
    return map;
  } });

  // DOM 3.1-3.2 AbortController and AbortSignal (addEventListener's `signal` option needs them).
  function AbortSignal() { throw new TypeError("Illegal constructor"); }
  AbortSignal.prototype = Object.create(ctx.EventTarget.prototype, {
    constructor: { value: AbortSignal, writable: true, configurable: true },
    aborted: { get() { return !!this._advAborted; }, configurable: true },
    reason: { get() { return this._advReason; }, configurable: true },
    throwIfAborted: { value: function throwIfAborted() { if (this._advAborted) throw this._advReason; }, configurable: true, writable: true },
    onabort: {
      get() { return this._getEventHandler("abort"); },
      set(handler) { this._setEventHandler("abort", handler); },
      configurable: true,
    },
  });
  function makeSignal() {
    const signal = Object.create(AbortSignal.prototype);
    Object.defineProperties(signal, { _advAborted: { value: false, writable: true }, _advReason: { value: undefined, writable: true } });
    return signal;
  }
  function signalAbort(signal, reason) {
    if (signal._advAborted) return;
    signal._advAborted = true;
    // WebKit's default reason (recorded in the abort fidelity case).
    signal._advReason = reason === undefined ? new ctx.DOMException("The operation was aborted.", "AbortError") : reason;
    signal._dispatchEvent(new impl.Event("abort"), true);
  }
  AbortSignal.abort = function abort(reason) { const signal = makeSignal(); signalAbort(signal, reason); return signal; };
  // DOM 3.2 "create a dependent abort signal": aborted with the first source's reason.
  AbortSignal.any = function any(signals) {
    if (arguments.length === 0) throw new TypeError("Not enough arguments");
    const sources = Array.from(signals, (signal) => {
      if (!(signal instanceof AbortSignal)) throw new TypeError("Argument 1 ('signals') to AbortSignal.any must be a sequence of AbortSignal");
      return signal;
    });
    const result = makeSignal();
    const aborted = sources.find((signal) => signal._advAborted);
    if (aborted) { signalAbort(result, aborted._advReason); return result; }
    for (const source of sources) source.addEventListener("abort", () => signalAbort(result, source._advReason));
    return result;
  };
  // AbortSignal.timeout needs the page's clock: each page has its own AbortSignal (same
  // prototype and the same other statics), made when a script first reads it.
  function pageAbortSignal(pageId) {
    function AbortSignalOfPage() { throw new TypeError("Illegal constructor"); }
    Object.defineProperty(AbortSignalOfPage, "name", { value: "AbortSignal" });
    AbortSignalOfPage.prototype = AbortSignal.prototype;
    AbortSignalOfPage.abort = AbortSignal.abort;
    AbortSignalOfPage.any = AbortSignal.any;
    AbortSignalOfPage.timeout = function timeout(milliseconds) {
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      const ms = Number(milliseconds);
      // WebIDL [EnforceRange] unsigned long long.
      if (!Number.isFinite(ms) || ms < 0) throw new TypeError("Value " + milliseconds + " is outside the range [0, 9007199254740991]");
      const signal = makeSignal();
      ctx.host.setTimer(pageId, () => signalAbort(signal, new ctx.DOMException("The operation timed out.", "TimeoutError")), Math.trunc(ms), false, [], "AbortSignal.timeout");
      return signal;
    };
    return AbortSignalOfPage;
  }
  function AbortController() {
    if (!new.target) throw new TypeError("Failed to construct 'AbortController': Please use the 'new' operator.");
    Object.defineProperty(this, "signal", { value: makeSignal(), enumerable: true });
  }
  AbortController.prototype.abort = function abort(reason) { signalAbort(this.signal, reason); };
  Object.assign(ctx.domGlobals, { AbortController, AbortSignal });

  // Interface objects over domino's own objects, which scripts cannot construct: the traversal
  // interfaces (DOM 6; made by createTreeWalker/createNodeIterator) and Location (HTML 7.2.4;
  // history.js gives it its navigations); and NodeFilter, a callback interface object holding
  // the constants.
  for (const [name, path] of [["TreeWalker", "domino/lib/TreeWalker"], ["NodeIterator", "domino/lib/NodeIterator"], ["Location", "domino/lib/Location"]]) {
    const prototype = ctx.require(path).prototype;
    const Interface = function () { throw new TypeError("Illegal constructor"); };
    Object.defineProperty(Interface, "name", { value: name });
    Interface.prototype = prototype;
    Object.defineProperty(prototype, "constructor", { value: Interface, writable: true, configurable: true });
    Object.defineProperty(prototype, Symbol.toStringTag, { value: name, configurable: true });
    ctx.domGlobals[name] = Interface;
  }
  const NodeFilter = function NodeFilter() { throw new TypeError("Illegal constructor"); };
  for (const [key, value] of Object.entries(ctx.require("domino/lib/NodeFilter"))) {
    if (typeof value === "number") Object.defineProperty(NodeFilter, key, { value, enumerable: true });
  }
  ctx.domGlobals.NodeFilter = NodeFilter;

  // WebIDL 3.7.5: an interface's constants (Node.ELEMENT_NODE, Event.AT_TARGET, ...) are on its
  // interface object and its prototype, read-only, enumerable, not configurable. domino assigns
  // them to some constructors only, as ordinary writable properties.
  for (const name of Object.keys(impl)) {
    const ctor = impl[name];
    if (typeof ctor !== "function" || !ctor.prototype) continue;
    for (const key of Object.keys(ctor)) {
      if (!/^[A-Z][A-Z0-9_]*$/.test(key) || typeof ctor[key] !== "number") continue;
      const constant = { value: ctor[key], writable: false, enumerable: true, configurable: false };
      Object.defineProperty(ctor, key, constant);
      if (!Object.prototype.hasOwnProperty.call(ctor.prototype, key)) Object.defineProperty(ctor.prototype, key, constant);
    }
  }

  // querySelector, querySelectorAll, matches and closest come from dom/selectors.js (one engine
  // for scripts and sheets); querySelectorAll's static NodeList is domino's NodeList, which is
  // iterable and has forEach as every NodeList (WebIDL iterable<Node>).
  const NodeList = ctx.require("domino/lib/NodeList");
  // WebIDL 3.7.3 class string: `[object NodeList]` (domino's NodeList is an Array subclass, whose
  // builtin tag would read `Array`; Array.isArray stays true, a known difference).
  if (!Object.prototype.hasOwnProperty.call(NodeList.prototype, Symbol.toStringTag)) {
    Object.defineProperty(NodeList.prototype, Symbol.toStringTag, { value: "NodeList", configurable: true });
  }
  const documentQuery = impl.Document.prototype.querySelector;

  // Node.baseURI (DOM 4.4), which domino leaves unimplemented: the node document's base URL,
  // that is the first <base href> resolved against the document's address, or the address
  // itself (HTML 2.4.1 "document base URL").
  const DominoURL = ctx.require("domino/lib/URL");
  function documentBaseURL(doc) {
    const address = doc.URL;
    const base = baseElement(doc);
    if (!base) return address;
    try { return new DominoURL(address).resolve(base.getAttribute("href")); } catch (e) { return address; }
  }
  // The first <base href> searches the whole document, and every URL a page reads (a.href,
  // img.src) and every style computation needs it, so a page document keeps it
  // (`_advBase`: undefined where untracked, null when unknown, else the element or false) and
  // forgets it when a mutation inserts or removes a <base> (or a subtree holding one) or
  // changes a <base>'s attributes. A kept element no longer in the document is looked up again.
  function baseElement(doc) {
    const known = doc._advBase;
    if (known === undefined) return documentQuery.call(doc, "base[href]") || null;
    if (known === false) return null;
    if (known !== null && known.rooted && known.ownerDocument === doc && known.hasAttribute("href")) return known;
    const found = documentQuery.call(doc, "base[href]") || null;
    doc._advBase = found || false;
    return found;
  }
  const holdsBase = (node) => node.nodeType === 1 && (node.localName === "base" || (node.firstChild !== null && node.querySelector("base") !== null));
  ctx.onMutation((record) => {
    const target = record.target;
    const doc = target && (target.nodeType === 9 ? target : target.ownerDocument);
    // Untracked (undefined) or not looked up since the last change (null): nothing to forget.
    if (!doc || doc._advBase === undefined || doc._advBase === null) return;
    if (record.type === "attributes" ? target.localName === "base" :
        record.type === "childList" && (record.addedNodes.some(holdsBase) || record.removedNodes.some(holdsBase))) doc._advBase = null;
  });
  // domino resolves reflected URLs (a.href, img.src) against its own document base URL, found
  // the same way: it shares the kept element (domino's quirk for about:blank kept).
  const dominoBaseURL = Object.getOwnPropertyDescriptor(impl.Document.prototype, "_documentBaseURL");
  function trackBase(doc) {
    Object.defineProperty(doc, "_advBase", { value: null, writable: true });
    if (!dominoBaseURL) return;
    Object.defineProperty(doc, "_documentBaseURL", { configurable: true, get() {
      const url = this._address === "about:blank" ? "/" : this._address;
      const base = baseElement(this);
      return base ? new DominoURL(url).resolve(base.getAttribute("href")) : url;
    } });
  }
  // btoa/atob (HTML 8.3, Infra "forgiving-base64"): strings of code units 0-255 to and from base64;
  // anything else is an InvalidCharacterError.
  const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const BASE64_INDEX = new Map(Array.from(BASE64, (c, i) => [c, i]));
  const invalidCharacter = () => new ctx.DOMException("Invalid character", "InvalidCharacterError");
  function btoa(data) {
    if (arguments.length === 0) throw new TypeError("Not enough arguments");
    const text = String(data);
    let out = "";
    for (let i = 0; i < text.length; i += 3) {
      const a = text.charCodeAt(i), b = text.charCodeAt(i + 1), c = text.charCodeAt(i + 2);
      if (a > 0xff || b > 0xff || c > 0xff) throw invalidCharacter();
      const bits = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += BASE64[bits >> 18] + BASE64[(bits >> 12) & 63] +
        (i + 1 < text.length ? BASE64[(bits >> 6) & 63] : "=") + (i + 2 < text.length ? BASE64[bits & 63] : "=");
    }
    return out;
  }
  function atob(data) {
    if (arguments.length === 0) throw new TypeError("Not enough arguments");
    let text = String(data).replace(/[\t\n\f\r ]/g, "");
    if (text.length % 4 === 0) text = text.replace(/==?$/, "");
    if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) throw invalidCharacter();
    let out = "", buffer = 0, bits = 0;
    for (const c of text) {
      buffer = (buffer << 6) | BASE64_INDEX.get(c);
      bits += 6;
      if (bits >= 8) { bits -= 8; out += String.fromCharCode((buffer >> bits) & 0xff); }
    }
    return out;
  }
  ctx.domGlobals.btoa = btoa;
  ctx.domGlobals.atob = atob;

  // document.currentScript (HTML 3.1.3): the <script> element whose code is running, null
  // elsewhere (callbacks, event handlers, content scripts); set around each run by the runtime.
  Object.defineProperty(impl.Document.prototype, "currentScript", {
    get() { return this._advCurrentScript || null; }, enumerable: true, configurable: true,
  });
  // Makes `element` (or null) the running script; returns the one it replaces.
  ctx.setCurrentScript = (document, element) => {
    const previous = document._advCurrentScript || null;
    Object.defineProperty(document, "_advCurrentScript", { value: element, writable: true, configurable: true });
    return previous;
  };
  ctx.runningScript = (document, element, run) => {
    const previous = ctx.setCurrentScript(document, element);
    try { return run(); } finally { ctx.setCurrentScript(document, previous); }
  };

  // Page Visibility (HTML 6.2): a document is "visible" while its tab is the active one and
  // "hidden" otherwise; the browser layer sets it (page handle `setVisibility`) and the
  // `visibilitychange` event comes with each change.
  Object.defineProperty(impl.Document.prototype, "visibilityState", {
    get() { return this._advVisibility === "hidden" ? "hidden" : "visible"; }, enumerable: true, configurable: true,
  });
  Object.defineProperty(impl.Document.prototype, "hidden", {
    get() { return this._advVisibility === "hidden"; }, enumerable: true, configurable: true,
  });

  // HTMLBaseElement.href (HTML 4.2.3), which domino does not reflect: the href attribute parsed
  // against the document's fallback base URL (its address), or that address when the attribute
  // is absent or does not parse; setting it sets the attribute.
  if (impl.HTMLBaseElement) {
    Object.defineProperty(impl.HTMLBaseElement.prototype, "href", {
      get() {
        const address = this.ownerDocument.URL;
        const href = this.getAttribute("href");
        if (href === null) return address;
        try { return new DominoURL(address).resolve(href); } catch (e) { return href; }
      },
      set(value) { this.setAttribute("href", String(value)); },
      enumerable: true, configurable: true,
    });
  }
  const baseURI = { get() { return documentBaseURL(this.nodeType === 9 ? this : this.ownerDocument); }, configurable: true, enumerable: true };
  for (const proto of [impl.Document.prototype, impl.Element.prototype, impl.CharacterData.prototype, impl.DocumentFragment.prototype, impl.DocumentType.prototype]) {
    if (proto) Object.defineProperty(proto, "baseURI", baseURI);
  }

  return {
    name: "dom",
    page(p) {
      trackBase(p.document);
      ctx.lazyGlobal(p.shared, "AbortSignal", () => pageAbortSignal(p.pageId), false);
    },
  };
})
