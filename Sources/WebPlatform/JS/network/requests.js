// layer: network/requests
// order: 160
// provides:
// requires: runningScript, scriptType, prepareModuleScript, classicScriptSource, parseHeaderText
//
// Requests pages make after parsing: elements inserted or changed by script (an img whose src is
// set, an appended script or iframe), XMLHttpRequest, navigator.sendBeacon and WebSocket. Each
// goes to the browser layer (hooks.request) with its DNR resource type, which decides it like any
// other request (WebKit's own types: raw/fetch for XHR, ping for beacons, websocket; the
// Content Blocker translation maps the DNR types onto them).
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const hooks = ctx.hooks;
  const host = ctx.host;
  const EventTarget = ctx.EventTarget;
  const URLClass = ctx.urlClasses.URL;
  const MUTATE = { ATTR: 2, REMOVE: 4, INSERT: 6 };

  function resolve(raw, document) {
    try { return new URLClass(String(raw).trim(), document.URL).href; } catch (error) { return null; }
  }

  // The shape WebIDL gives an EventTarget interface: its constants on both the constructor and
  // the prototype, and an `on<type>` event handler attribute per event type.
  function defineInterface(Interface, constants, eventTypes) {
    const proto = Interface.prototype;
    for (const [name, value] of Object.entries(constants)) {
      Object.defineProperty(Interface, name, { value, enumerable: true });
      Object.defineProperty(proto, name, { value, enumerable: true });
    }
    for (const type of eventTypes) {
      Object.defineProperty(proto, "on" + type, {
        get() { return this._getEventHandler(type); },
        set(handler) { this._setEventHandler(type, handler); },
        enumerable: true, configurable: true,
      });
    }
    return proto;
  }

  // What an element loads, attribute by attribute, with DNR types (the same table as the
  // parsed-document scan in engine.js `subresources`).
  const cssURL = /url\(\s*(['"]?)([^'")]+)\1\s*\)/g;
  function requestsOf(element, attribute) {
    const out = [];
    const name = element.localName;
    const add = (attr, type, value) => {
      if (attribute !== undefined && attribute !== attr) return;
      const raw = value !== undefined ? value : element.getAttribute(attr);
      if (raw) out.push({ raw, type });
    };
    if (name === "img") {
      add("src", "image");
      for (const candidate of (element.getAttribute("srcset") || "").split(",")) {
        const url = candidate.trim().split(/\s+/)[0];
        if (url) add("srcset", "image", url);
      }
    } else if (name === "link") {
      if (/(^|\s)stylesheet(\s|$)/i.test(element.getAttribute("rel") || "")) add("href", "stylesheet");
    } else if (name === "video" || name === "audio") {
      add("src", "media");
      if (name === "video") add("poster", "image");
    } else if (name === "source") {
      const parent = element.parentNode;
      if (parent && (parent.localName === "video" || parent.localName === "audio")) add("src", "media");
    } else if (name === "object") {
      add("data", "object");
    } else if (name === "embed") {
      add("src", "object");
    }
    if (attribute === undefined || attribute === "style") {
      for (const match of (element.getAttribute("style") || "").matchAll(cssURL)) out.push({ raw: match[2], type: "image" });
    }
    return out;
  }

  function issue(element, requests) {
    const document = element.ownerDocument;
    for (const request of requests) {
      const url = resolve(request.raw, document);
      if (url && hooks.request) hooks.request(document._advPageId, element, url, request.type, "GET");
    }
  }

  // A script made by the fragment parser (innerHTML, outerHTML, insertAdjacentHTML) or in an inert
  // document (DOMParser, <template>) never runs, wherever it is inserted later: HTML marks it
  // "already started" (13.4 "parsing HTML fragments", 8.5.1 DOMParser). Those documents are the
  // ones that are not a page's.
  const htmlElements = ctx.require("domino/lib/htmlelts");
  const makeHTMLElement = htmlElements.createElement;
  htmlElements.createElement = function createElement(doc, localName, prefix) {
    const element = makeHTMLElement(doc, localName, prefix);
    if (localName === "script" && doc._advPageId === undefined) Object.defineProperty(element, "_advStarted", { value: true });
    return element;
  };

  // HTML 4.12.1 "prepare the script element": a script runs once, when it is first connected
  // with a src or text; a src script loads and runs in a later task, an inline one at once, a
  // module script when its graph is there (scripting/modules.js). A classic script with
  // `nomodule` never runs.
  function insertedScript(element) {
    if (element._advStarted) return;
    const document = element.ownerDocument;
    const type = ctx.scriptType(element);
    if (type === "") return;
    const src = element.getAttribute("src");
    if (src === null && !element.text) return;
    Object.defineProperty(element, "_advStarted", { value: true });
    const handle = document._advHandle;
    // A page whose Content Security Policy refuses inline scripts (Page.inlineScriptRefusal).
    if (src === null && handle && typeof handle.inlineScriptRefusal === "string" && (type === "module" || !element.hasAttribute("nomodule"))) {
      const console = handle.worlds.page && handle.worlds.page.console;
      if (console) console.error(handle.inlineScriptRefusal);
      return;
    }
    if (type === "module") { ctx.prepareModuleScript(element, false); return; }
    if (element.hasAttribute("nomodule")) return;
    if (src !== null) {
      const url = resolve(src, document);
      if (url && hooks.request) hooks.request(document._advPageId, element, url, "script", "GET");
      return;
    }
    const pageWorld = handle && handle.worlds.page;
    if (!pageWorld) return;
    // An indirect eval through the page world's own `eval` runs in that world's realm.
    try {
      const source = ctx.classicScriptSource(pageWorld, element.text, null);
      ctx.runningScript(document, element, () => pageWorld.eval(source));
    } catch (error) { host.reportError(document._advPageId, error); }
  }

  function inserted(node) {
    if (node.nodeType !== 1) return;
    const live = node.ownerDocument._advRequestsLive || 0;
    insertedElement(node, live);
    // The parser inserts elements empty; only a subtree inserted whole needs searching.
    if (node.firstChild === null) return;
    const inner = node.querySelectorAll("*");
    for (let i = 0; i < inner.length; i++) insertedElement(inner[i], live);
  }
  function insertedElement(element, live) {
    if (element.localName === "script") { insertedScript(element); return; }
    if (live < 2) return;
    if (element.localName === "iframe") { if (hooks.frame) hooks.frame(element.ownerDocument._advPageId, element); return; }
    issue(element, requestsOf(element));
  }

  const frameAttributes = new Set(["src", "srcdoc"]);
  ctx.addMutationListener((record, document) => {
    const live = document._advRequestsLive || 0;
    if (live === 0) return;
    if (record.type === MUTATE.INSERT) {
      inserted(record.node);
    } else if (record.type === MUTATE.ATTR && live === 2) {
      const element = record.target;
      const attribute = record.attr && record.attr.localName;
      if (element.localName === "iframe") {
        if (frameAttributes.has(attribute) && hooks.frame) hooks.frame(document._advPageId, element);
      } else if (element.localName === "script") {
        if (attribute === "src") insertedScript(element);
      } else {
        issue(element, requestsOf(element, attribute));
      }
    } else if (record.type === MUTATE.REMOVE && record.node.nodeType === 1 && hooks.frameRemoved) {
      const node = record.node;
      const frames = [node].concat(Array.prototype.slice.call(node.querySelectorAll("iframe")));
      for (const element of frames) if (element._advFrame) hooks.frameRemoved(document._advPageId, element);
    }
  });

  // An image loads as soon as its src is set, connected or not (HTML 4.8.4.3.5 "update the image
  // data"): `new Image().src = url` is how many tracking pixels fire. Connected images are seen
  // by the mutation listener; domino's attribute change hook covers detached ones, checked after
  // the current script (an image inserted meanwhile was requested on insertion).
  const attributes = ctx.require("domino/lib/attributes");
  for (const attribute of ["src", "srcset"]) {
    attributes.registerChangeHandler(impl.HTMLImageElement, attribute, function (element) {
      const document = element.ownerDocument;
      if (element.rooted || !document || document._advRequestsLive !== 2) return;
      Promise.resolve().then(() => { if (!element.rooted) issue(element, requestsOf(element, attribute)); });
    });
  }

  // MARK: - XMLHttpRequest (XHR standard), over the same network decision as fetch

  function event(type, init) {
    const made = new impl.Event(type, init);
    return made;
  }

  function makeXMLHttpRequest(pageId, document) {
    const UNSENT = 0, OPENED = 1, HEADERS_RECEIVED = 2, LOADING = 3, DONE = 4;
    function XMLHttpRequest() {
      if (!new.target) throw new TypeError("Function is not a constructor (evaluating 'XMLHttpRequest()')");
      EventTarget.call(this);
      Object.defineProperty(this, "_state", { value: { readyState: UNSENT, status: 0, text: "", url: "", method: "GET", sent: false, aborted: false, responseType: "",
        requestHeaders: [], responseHeaders: [], responseURL: "" } });
    }
    XMLHttpRequest.prototype = Object.create(EventTarget.prototype, { constructor: { value: XMLHttpRequest, writable: true, configurable: true } });
    const proto = defineInterface(XMLHttpRequest, { UNSENT, OPENED, HEADERS_RECEIVED, LOADING, DONE },
      ["readystatechange", "loadstart", "progress", "load", "error", "abort", "timeout", "loadend"]);
    Object.defineProperties(proto, {
      readyState: { get() { return this._state.readyState; }, enumerable: true, configurable: true },
      status: { get() { return this._state.status; }, enumerable: true, configurable: true },
      statusText: { get() { const s = this._state.status; return s === 200 ? "OK" : s === 404 ? "Not Found" : ""; }, enumerable: true, configurable: true },
      responseURL: { get() { return this._state.readyState === DONE && this._state.status ? this._state.responseURL : ""; }, enumerable: true, configurable: true },
      responseText: { get() { return this._state.readyState >= LOADING ? this._state.text : ""; }, enumerable: true, configurable: true },
      responseType: {
        get() { return this._state.responseType; },
        set(value) { this._state.responseType = String(value); },
        enumerable: true, configurable: true,
      },
      response: {
        get() {
          const state = this._state;
          if (state.responseType === "json") {
            if (state.readyState !== DONE || !state.status) return null;
            try { return JSON.parse(state.text); } catch (error) { return null; }
          }
          return state.readyState >= LOADING ? state.text : "";
        },
        enumerable: true, configurable: true,
      },
      withCredentials: { value: false, writable: true, enumerable: true, configurable: true },
      timeout: { value: 0, writable: true, enumerable: true, configurable: true },
    });
    const setState = (xhr, readyState) => {
      xhr._state.readyState = readyState;
      xhr._dispatchEvent(event("readystatechange"), true);
    };
    proto.open = function open(method, url, async) {
      const resolved = resolve(url, document);
      if (resolved === null) {
        const error = new Error("Invalid URL");
        error.name = "SyntaxError";
        throw error;
      }
      Object.assign(this._state, { method: String(method).toUpperCase(), url: resolved, sync: async === false, sent: false, aborted: false, status: 0, text: "",
        requestHeaders: [], responseHeaders: [], responseURL: resolved });
      setState(this, OPENED);
    };
    proto.setRequestHeader = function setRequestHeader(name, value) {
      if (this._state.readyState !== OPENED || this._state.sent) {
        const error = new Error("InvalidStateError: The object is in an invalid state.");
        error.name = "InvalidStateError";
        throw error;
      }
      // XHR 3.5.2: a second value for a name is combined with ", ".
      const key = String(name).toLowerCase(), text = String(value).trim();
      const list = this._state.requestHeaders;
      const found = list.find((pair) => pair[0] === key);
      if (found) found[1] += ", " + text; else list.push([key, text]);
    };
    // The response's headers (after any header rules), once they have arrived (XHR 3.6.5/3.6.6).
    proto.getResponseHeader = function getResponseHeader(name) {
      const state = this._state;
      if (state.readyState < HEADERS_RECEIVED) return null;
      const key = String(name).toLowerCase();
      const values = state.responseHeaders.filter((pair) => pair[0].toLowerCase() === key && key !== "set-cookie").map((pair) => pair[1]);
      return values.length ? values.join(", ") : null;
    };
    proto.getAllResponseHeaders = function getAllResponseHeaders() {
      const state = this._state;
      if (state.readyState < HEADERS_RECEIVED) return "";
      const names = Array.from(new Set(state.responseHeaders.map((pair) => pair[0].toLowerCase()))).filter((n) => n !== "set-cookie").sort();
      return names.map((n) => n + ": " + state.responseHeaders.filter((pair) => pair[0].toLowerCase() === n).map((pair) => pair[1]).join(", ") + "\r\n").join("");
    };
    proto.overrideMimeType = function overrideMimeType() {};
    proto.abort = function abort() {
      const state = this._state;
      if (state.sent && state.readyState !== DONE) {
        state.aborted = true;
        state.readyState = DONE;
        this._dispatchEvent(event("readystatechange"), true);
        this._dispatchEvent(event("abort"), true);
        this._dispatchEvent(event("loadend"), true);
      }
      state.readyState = UNSENT;
    };
    proto.send = function send() {
      const state = this._state;
      if (state.readyState !== OPENED || state.sent) {
        const error = new Error("InvalidStateError: The object is in an invalid state.");
        error.name = "InvalidStateError";
        throw error;
      }
      state.sent = true;
      const headerText = state.requestHeaders.map((pair) => pair[0] + ": " + pair[1]).join("\n");
      const outcome = hooks.request ? hooks.request(pageId, null, state.url, "xmlhttprequest", state.method, headerText)
        : host.fetch(pageId, state.url, state.method, headerText);
      const finish = () => {
        if (state.aborted) return;
        if (outcome.blocked) {
          // A network error (XHR 3.6.10 "request error steps"): readyState DONE, status 0.
          state.status = 0;
          state.text = "";
          setState(this, DONE);
          this._dispatchEvent(event("error"), true);
        } else {
          state.status = outcome.status;
          state.text = outcome.body;
          state.responseHeaders = ctx.parseHeaderText(outcome.headers);
          state.responseURL = outcome.url || state.url;
          setState(this, HEADERS_RECEIVED);
          setState(this, LOADING);
          setState(this, DONE);
          this._dispatchEvent(event("load"), true);
        }
        this._dispatchEvent(event("loadend"), true);
      };
      if (state.sync) {
        finish();
        if (outcome.blocked) {
          const error = new Error("A network error occurred.");
          error.name = "NetworkError";
          throw error;
        }
        return;
      }
      this._dispatchEvent(event("loadstart"), true);
      host.queueTask(pageId, finish);
    };
    return XMLHttpRequest;
  }

  // MARK: - WebSocket (HTML 10.3): decided as a websocket request; no server answers, so an
  // allowed socket opens and stays silent, a blocked one fails with error then close (1006).

  function makeWebSocket(pageId, document) {
    const CONNECTING = 0, OPEN = 1, CLOSING = 2, CLOSED = 3;
    function WebSocket(url, protocols) {
      if (!new.target) throw new TypeError("Function is not a constructor (evaluating 'WebSocket()')");
      EventTarget.call(this);
      let resolved = resolve(url, document);
      if (resolved !== null) resolved = resolved.replace(/^http(s?):/, "ws$1:");
      if (resolved === null || !/^wss?:/.test(resolved) || resolved.includes("#")) {
        const error = new Error("The string did not match the expected pattern.");
        error.name = "SyntaxError";
        throw error;
      }
      const state = { readyState: CONNECTING, url: resolved, protocol: "" };
      Object.defineProperty(this, "_state", { value: state });
      const outcome = hooks.request ? hooks.request(pageId, null, resolved, "websocket", "GET") : { blocked: false };
      host.queueTask(pageId, () => {
        if (state.readyState !== CONNECTING) return;
        if (outcome.blocked) {
          state.readyState = CLOSED;
          this._dispatchEvent(event("error"), true);
          this._dispatchEvent(closeEvent(1006, "", false), true);
        } else {
          state.readyState = OPEN;
          this._dispatchEvent(event("open"), true);
        }
      });
    }
    function closeEvent(code, reason, wasClean) {
      const made = event("close");
      Object.defineProperties(made, { code: { value: code }, reason: { value: reason }, wasClean: { value: wasClean } });
      return made;
    }
    WebSocket.prototype = Object.create(EventTarget.prototype, { constructor: { value: WebSocket, writable: true, configurable: true } });
    const proto = defineInterface(WebSocket, { CONNECTING, OPEN, CLOSING, CLOSED }, ["open", "message", "error", "close"]);
    Object.defineProperties(proto, {
      readyState: { get() { return this._state.readyState; }, enumerable: true, configurable: true },
      url: { get() { return this._state.url; }, enumerable: true, configurable: true },
      protocol: { get() { return this._state.protocol; }, enumerable: true, configurable: true },
      extensions: { get() { return ""; }, enumerable: true, configurable: true },
      bufferedAmount: { get() { return 0; }, enumerable: true, configurable: true },
      binaryType: { value: "blob", writable: true, enumerable: true, configurable: true },
    });
    proto.send = function send() {
      if (this._state.readyState === CONNECTING) {
        const error = new Error("InvalidStateError: The object is in an invalid state.");
        error.name = "InvalidStateError";
        throw error;
      }
    };
    proto.close = function close(code, reason) {
      const state = this._state;
      if (state.readyState === CLOSING || state.readyState === CLOSED) return;
      state.readyState = CLOSING;
      host.queueTask(pageId, () => {
        state.readyState = CLOSED;
        this._dispatchEvent(closeEvent(code === undefined ? 1000 : Number(code), reason === undefined ? "" : String(reason), true), true);
      });
    };
    return WebSocket;
  }

  // navigator.sendBeacon (Beacon 3.1), an operation of Navigator: queued as a `ping` request of
  // the navigator's page; true once queued, whatever the rules then decide (a blocked beacon
  // fails silently).
  Object.defineProperty(ctx.domGlobals.Navigator.prototype, "sendBeacon", {
    value: function sendBeacon(url) {
      const owner = ctx.navigatorPage(this);
      if (!owner) throw new TypeError("Can only call Navigator.sendBeacon on instances of Navigator");
      if (arguments.length < 1) throw new TypeError("Not enough arguments");
      const resolved = resolve(url, owner.document);
      if (resolved === null) throw new TypeError("This URL is invalid");
      if (hooks.request) hooks.request(owner.pageId, null, resolved, "ping", "POST");
      return true;
    },
    writable: true, enumerable: true, configurable: true,
  });

  return {
    name: "requests",
    // Each page's own classes (their requests belong to its document), made when a script first
    // reaches for them: most pages never do. Interface objects are not enumerable (WebIDL 3.7).
    page(p) {
      ctx.lazyGlobal(p.shared, "XMLHttpRequest", () => makeXMLHttpRequest(p.pageId, p.document), false);
      ctx.lazyGlobal(p.shared, "WebSocket", () => makeWebSocket(p.pageId, p.document), false);
      // HTML 4.8.3 `new Image(width, height)`: an img element of this document (domino has none).
      ctx.lazyGlobal(p.shared, "Image", () => function Image(width, height) {
        if (!new.target) throw new TypeError("Function is not a constructor (evaluating 'Image()')");
        const img = p.document.createElement("img");
        if (width !== undefined) img.setAttribute("width", String(width >>> 0));
        if (height !== undefined) img.setAttribute("height", String(height >>> 0));
        return img;
      }, false);
    },
    requestsOf,
  };
})
