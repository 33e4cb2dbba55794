// layer: navigation/history
// order: 200
// provides:
// requires: DOMException, eventClass, makeStructuredClone, originOf
//
// Session history (HTML 7.4): `history` (pushState, replaceState, back, forward, go, length, state,
// scrollRestoration), fragment navigations through `location`, `popstate` and `hashchange`; and
// the navigations `location` asks for (href, assign, replace, reload), handed to the browser.
//
// A tab's top-level documents share one session history (the browser names it when it makes the
// page; a bare session, a frame's document or a popup has a history of its own). Entries keep their
// state as a structured clone made in this realm; `history.state` is a clone of it made in the
// page world, the same object until the entry or its state changes (WebKit's History::state
// caches it the same way). A traversal to an entry of another document asks the browser to load
// that entry's URL; the new document takes the entry over, its state included, as a browser
// without a back-forward cache does.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const host = ctx.host;
  const URLClass = ctx.urlClasses.URL;
  const Location = ctx.require("domino/lib/Location");
  const URLUtils = ctx.require("domino/lib/URLUtils");
  const storeClone = ctx.makeStructuredClone(globalThis);
  // WebKit History::updateAndCheckStateObjectQuota: at most 100 pushState/replaceState calls in
  // 10 seconds per top-level history (counted here on the virtual clock).
  const STATE_CALLS_LIMIT = 100;
  const STATE_CALLS_SPAN_MS = 10000;

  const sessions = new Map();        // session key -> { entries: [{ url, state, pageId }], index, pending, span }
  const pages = new Map();           // page id -> record
  const byHistory = ctx.internalSlots("History");   // History object -> record
  const byWindow = new WeakMap();    // window event target (Location's _window) -> record

  const securityError = (message) => new ctx.DOMException(message, "SecurityError");
  const withoutFragment = (url) => { const hash = url.indexOf("#"); return hash < 0 ? url : url.slice(0, hash); };
  const fragmentOf = (url) => { const hash = url.indexOf("#"); return hash < 0 ? null : url.slice(hash + 1); };
  function current(record) { return record.session.entries[record.session.index]; }

  // A new entry after the current one: the entries ahead go, and past WebKit's capacity of 100
  // (BackForwardList's DefaultCapacity) the oldest goes too.
  const CAPACITY = 100;
  function pushEntry(session, entry) {
    session.entries.splice(session.index + 1);
    session.entries.push(entry);
    if (session.entries.length > CAPACITY) session.entries.shift(); else session.index++;
  }

  // The document's URL, its location and the browser's idea of them move together.
  function setURL(record, url, kind) {
    Object.defineProperty(record.document, "_address", { value: url, writable: true, configurable: true });
    record.location._href = url;
    host.urlChanged(record.pageId, url, kind);
  }

  // The page world's copy of the current entry's state.
  function stateOf(record) {
    const entry = current(record);
    if (!entry || entry.pageId !== record.pageId || entry.state === null) return null;
    if (record.stateFor !== entry.state) {
      record.stateFor = entry.state;
      // Each world deserializes it when it asks, as WebKit's History does (boot/membrane.js).
      record.stateValue = ctx.membrane.serialized(ctx.makeStructuredClone(globalThis)(entry.state.value));
    }
    return record.stateValue;
  }

  // HTML 7.4.4 "shared history push/replace state steps", with WebKit's checks and messages
  // (WebCore/page/History.cpp stateObjectAdded).
  function addState(history, args, replace) {
    const record = byHistory.of(history);
    if (args.length < 2) throw new TypeError("Not enough arguments");
    if (!record.alive) throw securityError("Attempt to use History API from a document that isn't fully active");
    const name = replace ? "history.replaceState()" : "history.pushState()";
    const documentURL = record.document.URL;
    const blocked = (target, why) => securityError("Blocked attempt to use " + name + " to change session history URL from " + documentURL + " to " + target + ". " + why);
    let url = documentURL;
    const given = args[2] === undefined || args[2] === null ? "" : String(args[2]);
    if (given !== "") {
      let parsed;
      try { parsed = new URLClass(given, record.document.baseURI); } catch (error) { throw blocked(given, "URL is invalid"); }
      const now = new URLClass(documentURL);
      if (parsed.protocol !== now.protocol || parsed.host !== now.host || parsed.username !== now.username || parsed.password !== now.password) {
        throw blocked(parsed.href, "Protocols, domains, ports, usernames, and passwords must match.");
      }
      if (parsed.protocol === "file:" && parsed.pathname !== now.pathname) throw blocked(parsed.href, "Only differences in query and fragment are allowed for file: URLs.");
      // An opaque origin (data:, about:blank) may change only the query and fragment.
      if (ctx.originOf(record.document) === "null" && parsed.pathname !== now.pathname) throw blocked(parsed.href, "Paths and fragments must match for a sandboxed document.");
      url = parsed.href;
    }
    const session = record.session;
    const now = host.now();
    if (now - session.span.start > STATE_CALLS_SPAN_MS) session.span = { start: now, calls: 0 };
    if (session.span.calls >= STATE_CALLS_LIMIT) {
      throw securityError("Attempt to use " + name.slice(0, -2) + "() more than " + STATE_CALLS_LIMIT + " times per " + STATE_CALLS_SPAN_MS / 1000 + " seconds");
    }
    // Serializing may throw (a DataCloneError) before anything changes.
    const state = { value: storeClone(args[0]) };
    session.span.calls++;
    const entry = { url, state, pageId: record.pageId };
    if (replace) session.entries[session.index] = entry;
    else pushEntry(session, entry);
    setURL(record, url, replace ? "replaceState" : "pushState");
  }

  // A fragment navigation (HTML 7.4.2.3.3 "navigate to a fragment"): a new entry (or the current
  // one replaced) for the same document, then, as WebKit's FrameLoader::loadInSameDocument does,
  // `popstate` at once and `hashchange` in a task of its own.
  function navigateToFragment(record, url, replace) {
    const session = record.session;
    const old = record.document.URL;
    const entry = { url, state: null, pageId: record.pageId };
    if (replace) session.entries[session.index] = entry;
    else pushEntry(session, entry);
    setURL(record, url, "fragment");
    popState(record, old, url);
  }

  // `popstate` with the entry's state, then `hashchange` queued when only the fragment differs.
  function popState(record, oldURL, newURL) {
    record.windowTarget._dispatchEvent(new PopStateEvent("popstate", { state: stateOf(record) }), true);
    if (withoutFragment(oldURL) !== withoutFragment(newURL) || fragmentOf(oldURL) === fragmentOf(newURL)) return;
    host.queueTask(record.pageId, () => {
      if (!record.alive) return;
      record.windowTarget._dispatchEvent(new HashChangeEvent("hashchange", { oldURL, newURL }), true);
    }, "hashchange");
  }

  // history.go(delta) and the browser's back and forward: the traversal runs as a task. As in
  // WebKit's NavigationScheduler, a traversal asked for while another waits replaces it.
  function traverse(record, delta) {
    const session = record.session;
    const token = session.traversal = {};
    host.queueTask(record.pageId, () => {
      if (session.traversal !== token) return;
      session.traversal = null;
      if (!record.alive) return;
      const target = session.index + delta;
      if (target < 0 || target >= session.entries.length || delta === 0) return;
      const entry = session.entries[target];
      const shown = current(record);
      if (entry.pageId === record.pageId && shown.pageId === record.pageId) {
        // Same document (HTML 7.4.6.2 "update document for history step application").
        const old = record.document.URL;
        session.index = target;
        setURL(record, entry.url, "traversal");
        popState(record, old, entry.url);
        return;
      }
      session.pending = { kind: "traverse", index: target, url: entry.url };
      if (!host.navigate(record.pageId, entry.url, "traverse")) session.pending = null;
    }, "history traversal");
  }

  // Location's navigations (HTML 7.2.4 "Location-object navigate").
  function navigate(location, value, replace) {
    const record = recordOfLocation(location);
    if (!record) return;
    let url;
    try { url = new URLClass(String(value), record.document.baseURI).href; } catch (error) {
      throw new ctx.DOMException("Invalid URL", "SyntaxError");
    }
    if (!record.alive || /^javascript:/i.test(url)) return;
    const documentURL = record.document.URL;
    if (fragmentOf(url) !== null && withoutFragment(url) === withoutFragment(documentURL)) {
      // Navigating to the URL the document has is a replacement (HTML 7.4.2.2 step 13).
      navigateToFragment(record, url, replace || url === documentURL);
      return;
    }
    request(record, url, replace || url === documentURL ? "replace" : "push");
  }
  function request(record, url, kind) {
    record.session.pending = { kind, url };
    if (!host.navigate(record.pageId, url, kind)) record.session.pending = null;
  }

  function History() { throw new TypeError("Illegal constructor"); }
  const methods = {
    // Two declared parameters: WebIDL counts the optional url out of `length`.
    pushState(data, unused) { addState(this, arguments, false); },
    replaceState(data, unused) { addState(this, arguments, true); },
    go(delta) {
      const record = byHistory.of(this);
      const steps = Number(delta) | 0;
      if (steps === 0) { if (record.alive) request(record, record.document.URL, "reload"); return; }
      traverse(record, steps);
    },
    back() { traverse(byHistory.of(this), -1); },
    forward() { traverse(byHistory.of(this), 1); },
  };
  Object.defineProperty(methods.go, "length", { value: 0 });
  const accessors = {
    length: { get() { const record = byHistory.of(this); return record.alive ? record.session.entries.length : 0; } },
    state: {
      get() {
        const record = byHistory.of(this);
        if (!record.alive) throw securityError("Attempt to use History API from a document that isn't fully active");
        return stateOf(record);
      },
    },
    // An enumerated attribute: other values are ignored (WebIDL 3.2.18).
    scrollRestoration: {
      get() { return byHistory.of(this).scrollRestoration; },
      set(value) { const record = byHistory.of(this); const text = String(value); if (text === "auto" || text === "manual") record.scrollRestoration = text; },
    },
  };
  ctx.defineMembers(History.prototype, Object.assign({}, methods, accessors), "History");

  // Location (its interface object is dom.js's): its navigations go through the session history
  // instead of domino's, which only rewrote its own string and left the document where it was.
  const recordOfLocation = (location) => byWindow.get(location._window);
  ctx.defineMembers(Location.prototype, {
    href: { get: Object.getOwnPropertyDescriptor(Location.prototype, "href").get, set(value) { navigate(this, value, false); } },
    assign(url) { if (arguments.length === 0) throw new TypeError("Not enough arguments"); navigate(this, url, false); },
    replace(url) { if (arguments.length === 0) throw new TypeError("Not enough arguments"); navigate(this, url, true); },
    reload() { const record = recordOfLocation(this); if (record && record.alive) request(record, record.document.URL, "reload"); },
    // location.origin is the document's origin (a custom scheme with a host has one in WebKit).
    origin: {
      get() {
        const record = recordOfLocation(this);
        return record ? ctx.originOf(record.document) : Object.getOwnPropertyDescriptor(URLUtils.prototype, "origin").get.call(this);
      },
    },
    // The hash setter does nothing when the fragment would not change (HTML 7.2.4, hash setter).
    hash: {
      get: Object.getOwnPropertyDescriptor(URLUtils.prototype, "hash").get,
      set(value) {
        const record = recordOfLocation(this);
        if (!record) return;
        const url = withoutFragment(record.document.URL) + "#" + String(value).replace(/^#/, "");
        if (fragmentOf(url) === (fragmentOf(record.document.URL) || "")) return;
        navigate(this, url, false);
      },
    },
  });

  const PopStateEvent = ctx.eventClass("PopStateEvent", impl.Event, null, { state: null, hasUAVisualTransition: false });
  const HashChangeEvent = ctx.eventClass("HashChangeEvent", impl.Event, null, { oldURL: "", newURL: "" });
  Object.assign(ctx.domGlobals, { History, PopStateEvent, HashChangeEvent });

  // The entry a new document gets: the one a traversal went to (state kept), the current one on
  // a reload (state kept) or a replacement, else a new one after the current (forward dropped).
  // A document of another URL than the one asked for is a navigation of its own.
  function enter(session, url, pageId) {
    const pending = session.pending && session.pending.url === url ? session.pending : null;
    session.pending = null;
    const shown = session.entries[session.index];
    if (pending && pending.kind === "traverse" && session.entries[pending.index]) {
      session.index = pending.index;
      session.entries[session.index] = { url, state: session.entries[session.index].state, pageId };
    } else if (shown && pending && pending.kind === "reload") {
      session.entries[session.index] = { url, state: shown.state, pageId };
    } else if (shown && ((pending && pending.kind === "replace") || shown.url === url)) {
      session.entries[session.index] = { url, state: null, pageId };
    } else {
      pushEntry(session, { url, state: null, pageId });
    }
  }

  return {
    name: "history",
    // A warm engine's next session starts with no session histories (SessionEngine).
    sessionEnded() { sessions.clear(); pages.clear(); },
    page(p) {
      const key = p.historySession || "page " + p.pageId;
      let session = sessions.get(key);
      if (!session) sessions.set(key, session = { entries: [], index: -1, pending: null, span: { start: -Infinity, calls: 0 } });
      enter(session, p.url, p.pageId);
      const record = {
        pageId: p.pageId, document: p.document, windowTarget: p.windowTarget, location: p.shared.location, session, history: null,
        alive: true, scrollRestoration: "auto", stateFor: undefined, stateValue: null,
      };
      byWindow.set(p.windowTarget, record);
      pages.set(p.pageId, record);
      // A page's History object is made when a script first reads it. (The accessors are the
      // page's own: a global name read without `window.` reaches a getter on the prototype chain
      // with no receiver to tell the page by.)
      const windowTarget = p.windowTarget;
      Object.defineProperties(p.shared, {
        history: {
          get() {
            if (!record.history) { record.history = Object.create(History.prototype); byHistory.set(record.history, record); }
            return record.history;
          },
          enumerable: true, configurable: true,
        },
        onpopstate: { get() { return windowTarget._getEventHandler("popstate"); }, set(value) { windowTarget._setEventHandler("popstate", value); }, enumerable: true, configurable: true },
        onhashchange: { get() { return windowTarget._getEventHandler("hashchange"); }, set(value) { windowTarget._setEventHandler("hashchange", value); }, enumerable: true, configurable: true },
      });
    },
    pageClosed(pageId) {
      const record = pages.get(pageId);
      if (!record) return;
      record.alive = false;
      pages.delete(pageId);
      // A page's own history goes with it; a tab's stays for the tab's next document.
      sessions.delete("page " + pageId);
    },
    // The tab whose history `key` is has closed.
    forget(key) { sessions.delete(key); },
    // The browser's back and forward buttons (a scenario step): the same traversal as history.go.
    traverse(pageId, delta) {
      const record = pages.get(pageId);
      if (record) traverse(record, delta);
    },
    // The browser reloads the page (keeps the entry and its state).
    willReload(pageId) {
      const record = pages.get(pageId);
      if (record) record.session.pending = { kind: "reload", url: record.document.URL };
    },
    // The navigation `pageId` asked for will not happen.
    cancel(pageId) {
      const record = pages.get(pageId);
      if (record) record.session.pending = null;
    },
    // [length, index] of the session history `pageId` is in.
    entries(pageId) {
      const record = pages.get(pageId);
      return record ? [record.session.entries.length, record.session.index] : [0, -1];
    },
  };
})
