// Fidelity fixes over domino's event and document code, applied once per engine realm before
// the engine records its prototype baseline. Each fix cites the behaviour it restores.
(function (impl, EventTarget, reportError, getMembrane) {
  "use strict";
  const proto = EventTarget.prototype;

  // The page a target belongs to, for reporting exceptions thrown by listeners.
  function pageOf(target) {
    const doc = target && (target.nodeType === 9 ? target : (target.ownerDocument || target.document));
    return doc ? doc._advPageId : undefined;
  }

  // DOM 2.10 "inner invoke": an exception thrown by a listener is reported (HTML "report the
  // exception") and the dispatch goes on with the next listener. domino lets it escape instead.
  function call(target, listener, thisArg, event) {
    try {
      if (typeof listener === "function") return listener.call(thisArg, event);
      const handleEvent = listener.handleEvent;
      if (typeof handleEvent !== "function") throw new TypeError("'handleEvent' property of event listener should be callable");
      return handleEvent.call(listener, event);
    } catch (error) {
      reportError(pageOf(target), error);
      return undefined;
    }
  }

  // DOM 2.7 addEventListener: the third argument is a boolean (capture) or an options object
  // { capture, once, passive, signal }; domino reads any truthy object as capture.
  function flatten(options) {
    if (typeof options === "boolean") return { capture: options, once: false, signal: null };
    if (options && typeof options === "object") {
      return { capture: !!options.capture, once: !!options.once, signal: options.signal || null };
    }
    return { capture: false, once: false, signal: null };
  }

  proto.addEventListener = function addEventListener(type, listener, options) {
    if (listener === null || listener === undefined) return;
    const { capture, once, signal } = flatten(options);
    if (signal && signal.aborted) return;
    type = String(type);
    if (!this._listeners) this._listeners = Object.create(null);
    const list = this._listeners[type] || (this._listeners[type] = []);
    for (const existing of list) if (existing.listener === listener && existing.capture === capture) return;
    const target = this;
    const record = { listener, capture, removed: false };
    // domino calls `f` for each listener record, on a copy of the list taken when the dispatch
    // reached this target; the `removed` flag makes a listener removed meanwhile not run (DOM 2.10).
    record.f = function (event) {
      if (record.removed) return;
      if (once) target.removeEventListener(type, listener, capture);
      call(target, listener, this, event);
    };
    list.push(record);
    if (signal && typeof signal.addEventListener === "function") {
      signal.addEventListener("abort", () => target.removeEventListener(type, listener, capture));
    }
  };

  proto.removeEventListener = function removeEventListener(type, listener, options) {
    const { capture } = flatten(options);
    const list = this._listeners && this._listeners[String(type)];
    if (!list) return;
    for (let i = 0; i < list.length; i++) {
      if (list[i].listener === listener && list[i].capture === capture) {
        list[i].removed = true;
        list.splice(i, 1);
        return;
      }
    }
  };

  // HTML 8.1.8.1 event handlers: setting `onX` to a function registers one listener at that
  // moment (so it runs in registration order among addEventListener listeners), later
  // assignments replace the callback in place, and null removes it. A `false` return value
  // cancels the event. domino instead always runs handlers first.
  //
  // Each world has its own handlers (WebKit keeps an event handler attribute per world): a page's
  // `onclick` and a content script's both run, and each world reads only its own. A handler
  // belongs to the world whose function it is (a content attribute's is the page's); null removes
  // the handler of the world that sets it.
  const worldOf = (value) => {
    const membrane = getMembrane();
    if (membrane === null) return "";
    const world = (typeof value === "function" && membrane.worldOfFunction(value)) || membrane.current();
    return world ? world.id : "";
  };
  proto._setEventHandler = function _setEventHandler(type, handler) {
    if (!this._handlerValues) this._handlerValues = Object.create(null);
    const values = this._handlerValues;
    const isCallable = typeof handler === "function" || (handler && typeof handler === "object");
    const slot = type + " " + worldOf(isCallable ? handler : null);
    if (!isCallable) {
      if (values[slot]) {
        this.removeEventListener(type, values[slot].listener, false);
        delete values[slot];
      }
      return;
    }
    if (values[slot]) { values[slot].handler = handler; return; }
    const entry = { handler, listener: null };
    const target = this;
    entry.listener = function (event) {
      const current = entry.handler;
      const result = call(target, current, this, event);
      if (result === false) event.preventDefault();
    };
    values[slot] = entry;
    this.addEventListener(type, entry.listener, false);
  };
  proto._getEventHandler = function _getEventHandler(type) {
    const entry = this._handlerValues && this._handlerValues[type + " " + worldOf(null)];
    return entry ? entry.handler : null;
  };

  // HTML 3.1.5: document.scripts is the live collection of the document's script elements.
  // domino declares it unimplemented (and non-configurable), so each document gets its own.
  return {
    fixDocument(document) {
      Object.defineProperty(document, "scripts", {
        get() { return this.getElementsByTagName("script"); },
        configurable: true, enumerable: true,
      });
    },
  };
})
