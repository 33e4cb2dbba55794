// layer: messaging/channel-messaging
// order: 140
// provides: MessageEvent
// requires: DOMException, eventClass, makeStructuredClone
//
// Channel messaging (HTML 9.4): MessageChannel and MessagePort, and the MessageEvent interface
// that window.postMessage (frames.js) also uses. A message is a structured clone made when it is
// posted (a DataCloneError is thrown there) and read in the receiving page's world; each arrives
// in a task of its own, in order, once the receiving port is started (start(), or setting
// onmessage). A closed port drops what it would send or receive. Ports cannot be transferred
// (a transfer list may hold ArrayBuffers only): posting a port is a DataCloneError.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const store = ctx.makeStructuredClone(globalThis);
  const states = ctx.internalSlots("MessagePort");   // port -> { pageId, document, other, queue, enabled, closed }

  const MessageEvent = ctx.eventClass("MessageEvent", impl.Event, null, { data: null, origin: "", lastEventId: "", source: null, ports: [] });
  ctx.MessageEvent = MessageEvent;



  function MessagePort() { throw new TypeError("Illegal constructor"); }
  MessagePort.prototype = Object.create(ctx.EventTarget.prototype, { constructor: { value: MessagePort, writable: true, configurable: true } });
  const methods = {
    postMessage(message, transferOrOptions) {
      const state = states.of(this);
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      const transfer = Array.isArray(transferOrOptions) ? transferOrOptions
        : transferOrOptions && transferOrOptions.transfer !== undefined ? Array.from(transferOrOptions.transfer) : [];
      for (const item of transfer) {
        if (states.has(item)) throw new ctx.DOMException("A MessagePort could not be transferred: ports are not transferable in the harness.", "DataCloneError");
        if (item === this) throw new ctx.DOMException("A port cannot transfer itself.", "DataCloneError");
      }
      const data = store(message, { transfer });
      const target = state.other && states.get(state.other);
      if (!target || target.closed) return;
      target.queue.push(data);
      if (target.enabled) deliverNext(target);
    },
    start() {
      const state = states.of(this);
      if (state.enabled) return;
      state.enabled = true;
      for (let i = 0; i < state.queue.length; i++) deliverNext(state);
    },
    close() {
      const state = states.of(this);
      state.closed = true;
      const other = state.other && states.get(state.other);
      if (other) other.other = null;
      state.other = null;
    },
  };
  const handler = (type) => ({
    get() { states.of(this); return this._getEventHandler ? this._getEventHandler(type) : null; },
    // Setting onmessage starts the port (HTML 9.4.4).
    set(value) { states.of(this); this._setEventHandler(type, value); if (type === "message") methods.start.call(this); },
  });
  ctx.defineMembers(MessagePort.prototype, Object.assign({}, methods, { onmessage: handler("message"), onmessageerror: handler("messageerror") }), "MessagePort");

  // Each queued message is its own task on the receiving port's page.
  function deliverNext(state) {
    ctx.host.queueTask(state.pageId, () => {
      if (state.closed || state.queue.length === 0) return;
      const data = ctx.makeStructuredClone(state.document.defaultView)(state.queue.shift());
      state.port._dispatchEvent(new MessageEvent("message", { data, ports: [] }), true);
    }, "MessagePort message");
  }

  function makePort(pageId, document) {
    const port = Object.create(MessagePort.prototype);
    ctx.EventTarget.call(port);
    states.set(port, { port, pageId, document, other: null, queue: [], enabled: false, closed: false });
    return port;
  }

  // A page's MessageChannel, made on first use: its ports' messages are tasks of that page.
  function channelClass(pageId, document) {
    function MessageChannel() {
      if (!new.target) throw new TypeError("Failed to construct 'MessageChannel': Please use the 'new' operator.");
      const port1 = makePort(pageId, document), port2 = makePort(pageId, document);
      states.get(port1).other = port2;
      states.get(port2).other = port1;
      channels.set(this, [port1, port2]);
    }
    MessageChannel.prototype = Object.create(channelPrototype, { constructor: { value: MessageChannel, writable: true, configurable: true } });
    return MessageChannel;
  }
  // port1 and port2 are the interface's attributes, on its prototype.
  const channels = new WeakMap();   // channel -> [port1, port2]
  const portOf = (channel, index) => {
    const ports = channels.get(channel);
    if (!ports) throw new TypeError("Can only read MessageChannel attributes of MessageChannel objects");
    return ports[index];
  };
  const channelPrototype = Object.create(Object.prototype, {
    port1: { get() { return portOf(this, 0); }, enumerable: true, configurable: true },
    port2: { get() { return portOf(this, 1); }, enumerable: true, configurable: true },
    [Symbol.toStringTag]: { value: "MessageChannel", configurable: true },
  });
  Object.assign(ctx.domGlobals, { MessagePort, MessageEvent });

  return {
    name: "channelMessaging",
    page(p) { ctx.lazyGlobal(p.shared, "MessageChannel", () => channelClass(p.pageId, p.document), false); },
  };
})
