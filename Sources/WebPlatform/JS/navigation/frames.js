// layer: navigation/frames
// order: 150
// provides: originOf
// requires: MessageEvent, makeStructuredClone
//
// Frames: an <iframe>'s document is a page of its own (its own parse, worlds and origin), linked
// to the element that holds it. The browser layer (Swift) loads it and calls attach(); this layer
// gives the element contentWindow/contentDocument, the child window top/parent/frameElement, and
// enforces the same-origin policy between them (HTML 7.2.1 "cross-origin objects"): a
// cross-origin frame's document is unreachable (contentDocument is null) and its window only
// answers the cross-origin safe properties (postMessage, closed, top, parent, window, self,
// frames, length); anything else throws a SecurityError.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const URLClass = ctx.urlClasses.URL;

  // The origin of a document: set by the browser for about:blank and srcdoc documents (which
  // inherit their parent's), computed from the URL otherwise. Any scheme with a host has a tuple
  // origin, as in WebKit (WebCore SecurityOrigin: only data:, file: and hostless URLs are
  // opaque here), so a safari-web-extension:// page and the fidelity recorder's pages have one.
  function originOf(document) {
    if (document._advOrigin) return document._advOrigin;
    try {
      const url = new URLClass(document.URL);
      if (url.protocol === "http:" || url.protocol === "https:") return url.origin;
      return url.host && url.protocol !== "file:" ? url.protocol + "//" + url.host : "null";
    } catch (error) {
      return "null";
    }
  }
  ctx.originOf = originOf;
  function sameOrigin(a, b) {
    const origin = originOf(a);
    return origin !== "null" && origin === originOf(b);
  }

  // WebKit's text (WebCore/page/LocalDOMWindow.cpp, crossDomainAccessErrorMessage).
  function securityError(accessor, target) {
    const error = new Error("Blocked a frame with origin \"" + originOf(accessor) + "\" from accessing a frame with origin \"" +
      originOf(target) + "\". Protocols, domains, and ports must match.");
    error.name = "SecurityError";
    error.code = 18;
    return error;
  }

  // The window of `handle` (a page handle from createPage) as seen from `accessor` (a document)
  // in world `worldId`: the world's own global when same-origin, a cross-origin proxy otherwise.
  function windowOf(handle, accessor, worldId) {
    if (sameOrigin(accessor, handle.document)) return handle.worlds[worldId] || handle.worlds.page;
    return crossOriginWindow(handle, accessor);
  }

  function crossOriginWindow(handle, accessor) {
    const key = originOf(accessor);
    const cache = handle.crossOriginProxies || (handle.crossOriginProxies = Object.create(null));
    if (cache[key]) return cache[key];
    let proxy;
    const safe = {
      postMessage(message, targetOrigin) { post(handle, accessor, message, targetOrigin); },
      get closed() { return !!handle.closed; },
      get window() { return proxy; },
      get self() { return proxy; },
      get frames() { return proxy; },
      get length() { return childCount(handle.document); },
      get top() { return handle.frame ? handle.frame.topHandle() === handle ? proxy : windowOf(handle.frame.topHandle(), accessor, "page") : proxy; },
      get parent() { return handle.frame ? windowOf(handle.frame.parentHandle, accessor, "page") : proxy; },
    };
    const deny = () => { throw securityError(accessor, handle.document); };
    proxy = new Proxy(Object.create(null), {
      get(target, property) {
        if (typeof property === "string" && Object.prototype.hasOwnProperty.call(safe, property)) return safe[property];
        if (property === Symbol.toStringTag) return "Window";
        if (property === "then") return undefined;
        return deny();
      },
      set: deny, defineProperty: deny, deleteProperty: deny,
      has(target, property) { return Object.prototype.hasOwnProperty.call(safe, property); },
      ownKeys() { return []; },
      getPrototypeOf() { return null; },
      setPrototypeOf() { return false; },
      getOwnPropertyDescriptor: deny,
    });
    cache[key] = proxy;
    // Worlds see it through a proxy of their own that forwards to this one (boot/membrane.js).
    ctx.membrane.markOpaque(proxy);
    return proxy;
  }

  // window.length: every connected iframe has a browsing context, loaded or not.
  function childCount(document) {
    return document.querySelectorAll("iframe").length;
  }

  // window.postMessage (HTML 9.3.3): the message is delivered as a `message` event in a later
  // task, only if targetOrigin is "*", "/" (the sender's own origin) or the target's origin.
  const storeClone = ctx.makeStructuredClone(globalThis);
  function post(handle, senderDocument, message, targetOrigin) {
    const target = String(targetOrigin === undefined ? "/" : targetOrigin);
    const targetActual = originOf(handle.document);
    const senderOrigin = originOf(senderDocument);
    if (target !== "*") {
      const wanted = target === "/" ? senderOrigin : target.replace(/\/$/, "");
      if (wanted !== targetActual) return;
    }
    // A structured clone made now (a DataCloneError reaches the sender), read in the target page's
    // world when the message arrives.
    const serialized = storeClone(message);
    const pageId = handle.document._advPageId;
    ctx.host.queueTask(pageId, () => {
      if (handle.closed) return;
      const data = ctx.makeStructuredClone(handle.document.defaultView)(serialized);
      const sourceHandle = senderDocument._advHandle;
      const source = sourceHandle ? windowOf(sourceHandle, handle.document, "page") : null;
      handle.windowTarget._dispatchEvent(new ctx.MessageEvent("message", { data, origin: senderOrigin, source, ports: [], lastEventId: "" }), true);
    });
  }

  // MARK: - HTMLIFrameElement

  // domino gives every iframe an empty Window of its own, through accessors it defines as
  // non-configurable; an iframe the browser has taken charge of (loaded, blocked or removed)
  // gets own accessors instead that answer the page the browser attached, or null.
  function takeCharge(element) {
    if (Object.prototype.hasOwnProperty.call(element, "_advFrame")) return;
    Object.defineProperty(element, "_advFrame", { value: null, configurable: true, writable: true });
    Object.defineProperty(element, "contentDocument", {
      get() {
        const handle = this._advFrame;
        if (!handle || handle.closed) return null;
        return sameOrigin(this.ownerDocument, handle.document) ? handle.document : null;
      },
      configurable: true,
    });
    Object.defineProperty(element, "contentWindow", {
      get() {
        const handle = this._advFrame;
        if (!handle || handle.closed) return null;
        return windowOf(handle, this.ownerDocument, "page");
      },
      configurable: true,
    });
  }

  // Links `child` (a page handle) as the document of `element` in `parent`'s document.
  function attach(element, child, parent, origin) {
    if (origin) Object.defineProperty(child.document, "_advOrigin", { value: origin, configurable: true });
    takeCharge(element);
    element._advFrame = child;
    const topHandle = () => { let h = child; while (h.frame) h = h.frame.parentHandle; return h; };
    child.frame = {
      element,
      parentHandle: parent,
      topHandle,
      parent(worldId) { return windowOf(parent, child.document, worldId); },
      top(worldId) { return windowOf(topHandle(), child.document, worldId); },
    };
  }

  // Unlinks the document of `element` (the frame was removed, navigated or blocked).
  function detach(element) {
    takeCharge(element);
    const handle = element._advFrame;
    if (handle) handle.closed = true;
    element._advFrame = null;
  }

  // What an iframe should load: srcdoc first (HTML 4.8.5 "process the iframe attributes"), then
  // src, else about:blank.
  function target(element) {
    const srcdoc = element.getAttribute("srcdoc");
    const src = (element.getAttribute("src") || "").trim();
    let url = "about:blank";
    if (srcdoc === null && src !== "") {
      try { url = new URLClass(src, element.ownerDocument.URL).href; } catch (error) { url = "about:blank"; }
    }
    return { element, url, srcdoc };
  }

  // The iframes of a document in tree order, with what each should load.
  function elements(document) {
    return Array.prototype.map.call(document.querySelectorAll("iframe"), target);
  }

  return {
    name: "frames",
    page(p) {
      Object.defineProperty(p.shared, "frameElement", {
        get() {
          const handle = p.document._advHandle;
          const frame = handle && handle.frame;
          if (!frame) return null;
          return sameOrigin(p.document, frame.element.ownerDocument) ? frame.element : null;
        },
        enumerable: true, configurable: true,
      });
      Object.defineProperty(p.shared, "length", { get() { return childCount(p.document); }, enumerable: true, configurable: true });
      p.shared.postMessage = function postMessage(message, targetOrigin) {
        const handle = p.document._advHandle;
        if (handle) post(handle, p.document, message, targetOrigin);
      };
    },
    attach, detach, elements, target, originOf,
  };
})
