// The `browser` namespace an extension context sees, built from the API surface table that
// Swift passes in (namespace -> method -> [min, max] arguments). Every method validates its
// argument count the way webextension-polyfill does ("Expected at least 1 argument for
// sendMessage(), got 0") and forwards to Swift, which answers with a promise made in the
// caller's realm. Namespaces absent from the table are absent here, as in a browser that lacks them.
(function (host) {
  "use strict";

  function plural(n) { return n === 1 ? "argument" : "arguments"; }

  function makeEvent(qualifiedName) {
    const listeners = [];
    const check = (listener) => {
      if (typeof listener !== "function") throw new TypeError(qualifiedName + ".addListener: listener must be a function");
    };
    return {
      listeners,
      api: Object.freeze({
        addListener(listener) { check(listener); if (!listeners.includes(listener)) listeners.push(listener); },
        removeListener(listener) { const i = listeners.indexOf(listener); if (i >= 0) listeners.splice(i, 1); },
        hasListener(listener) { return listeners.includes(listener); },
        hasListeners() { return listeners.length > 0; },
      }),
    };
  }

  function ensure(root, path) {
    let node = root;
    for (const part of path) node = node[part] || (node[part] = {});
    return node;
  }

  // `canonical` is the context's own JSON serializer (JS/canonical.js, made in its realm).
  function makeBrowser(contextId, surface, eventNames, properties, reportError, canonical) {
    const browser = {};
    for (const namespace of Object.keys(surface)) {
      const target = ensure(browser, namespace.split("."));
      const methods = surface[namespace];
      for (const method of Object.keys(methods)) {
        const [min, max] = methods[method];
        target[method] = function (...args) {
          if (args.length < min) return Promise.reject(new TypeError("Expected at least " + min + " " + plural(min) + " for " + method + "(), got " + args.length));
          if (args.length > max) return Promise.reject(new TypeError("Expected at most " + max + " " + plural(max) + " for " + method + "(), got " + args.length));
          return host.apiCall(contextId, namespace, method, args);
        };
      }
    }
    for (const key of Object.keys(properties)) {
      const parts = key.split(".");
      ensure(browser, parts.slice(0, -1))[parts[parts.length - 1]] = properties[key];
    }
    const events = Object.create(null);
    for (const name of eventNames) {
      const parts = name.split(".");
      const event = makeEvent(name);
      ensure(browser, parts.slice(0, -1))[parts[parts.length - 1]] = event.api;
      events[name] = event;
    }

    // Calls every listener of `name` with `args`; an exception in one is reported and the others
    // still run. Returns how many listeners ran.
    function dispatch(name, args) {
      const event = events[name];
      if (!event) return 0;
      const listeners = event.listeners.slice();
      for (const listener of listeners) {
        try { listener(...args); } catch (error) { reportError(contextId, error); }
      }
      return listeners.length;
    }

    // runtime.onMessage / tabs message delivery (Chromium's messaging semantics, documented at
    // developer.chrome.com/docs/extensions/develop/concepts/messaging): the first listener that
    // calls sendResponse, or returns a promise, answers; returning `true` keeps the channel open
    // for a later sendResponse. `respond(responded, value)` is called once.
    // `payload` is [message, sender]; `token` names this delivery to the browser, which is
    // answered through host.answerMessage.
    function dispatchMessage(name, payload, token) {
      const message = payload[0], sender = payload[1];
      const respond = (kind, value) => host.answerMessage(token, kind, value);
      const event = events[name];
      const listeners = event ? event.listeners.slice() : [];
      let answered = false;
      let pending = 0;
      const answer = (value) => { if (!answered) { answered = true; respond("answer", value); } };
      for (const listener of listeners) {
        let result;
        try { result = listener(message, sender, answer); } catch (error) { reportError(contextId, error); continue; }
        if (result === true) pending++;
        else if (result && typeof result.then === "function") {
          pending++;
          result.then(answer, (error) => {
            if (answered) return;
            answered = true;
            respond("error", error && error.message !== undefined ? String(error.message) : String(error));
          });
        }
      }
      // Nobody answered synchronously and nobody will: this receiver stays silent.
      if (!answered && pending === 0) respond("none");
      return listeners.length;
    }

    // The events that have listeners now (what a suspended background is woken for).
    function listening() {
      return Object.keys(events).filter((name) => events[name].listeners.length > 0);
    }

    // MARK: Ports (runtime.connect / tabs.connect / runtime.onConnect), Chromium's messaging
    // semantics (developer.chrome.com/docs/extensions/develop/concepts/messaging#connect):
    // messages are JSON-serialized; disconnect() fires onDisconnect on the other end only;
    // posting on a disconnected port throws.
    const ports = Object.create(null);
    function makePort(portId, name, sender) {
      const onMessage = makeEvent("Port.onMessage");
      const onDisconnect = makeEvent("Port.onDisconnect");
      const port = {
        name,
        onMessage: onMessage.api,
        onDisconnect: onDisconnect.api,
        postMessage(message) {
          if (!ports[portId]) throw new Error("Attempting to use a disconnected port object");
          const json = canonical(message);
          // The trace shows the canonical text; the other end gets the message as written.
          host.portPost(contextId, portId, json === undefined ? "null" : json, message === undefined ? null : message);
        },
        disconnect() {
          if (!ports[portId]) return;
          delete ports[portId];
          host.portDisconnect(contextId, portId);
        },
      };
      if (sender !== undefined) port.sender = sender;
      ports[portId] = { port, onMessage, onDisconnect };
      return port;
    }
    function connect(target, name, frameId) {
      const portId = host.portOpen(contextId, target, name === undefined ? "" : String(name), frameId === undefined ? -1 : frameId);
      return makePort(portId, name === undefined ? "" : String(name));
    }
    if (browser.runtime && surface.runtime && surface.runtime.sendMessage) {
      browser.runtime.connect = function connectRuntime(first, second) {
        const info = typeof first === "string" ? second : first;
        return connect(-1, info && info.name, -1);
      };
    }
    if (browser.tabs && surface.tabs && surface.tabs.sendMessage) {
      browser.tabs.connect = function connectTab(tabId, info) {
        if (typeof tabId !== "number") throw new TypeError("Error in invocation of tabs.connect(integer tabId, optional object connectInfo): No matching signature.");
        return connect(tabId, info && info.name, info && info.frameId);
      };
    }
    // Swift -> a new port end for runtime.onConnect; returns how many listeners ran.
    function acceptPort(portId, name, sender) {
      const port = makePort(portId, name, sender);
      return dispatch("runtime.onConnect", [port]);
    }
    // Swift -> an event on a port end: "message" (JSON text) or "disconnect" (error or null).
    function portEvent(portId, kind, payload) {
      const entry = ports[portId];
      if (!entry) return;
      if (kind === "message") {
        const message = JSON.parse(payload);
        for (const listener of entry.onMessage.listeners.slice()) {
          try { listener(message, entry.port); } catch (error) { reportError(contextId, error); }
        }
        return;
      }
      delete ports[portId];
      // runtime.lastError is set while onDisconnect runs when the connection failed.
      const runtime = browser.runtime;
      if (payload !== null && runtime) runtime.lastError = { message: payload };
      try {
        for (const listener of entry.onDisconnect.listeners.slice()) {
          try { listener(entry.port); } catch (error) { reportError(contextId, error); }
        }
      } finally {
        if (payload !== null && runtime) delete runtime.lastError;
      }
    }

    return { browser, dispatch, dispatchMessage, listening, acceptPort, portEvent };
  }

  return { makeBrowser };
})
