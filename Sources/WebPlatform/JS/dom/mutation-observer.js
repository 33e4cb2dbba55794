// layer: dom/mutation-observer
// order: 10
// provides: DOMException, onMutation, inMutationBatch, attributeOwner
// requires:
//
// MutationObserver (DOM 4.3) over domino, and the runtime's one mutation feed that the other
// layers (style invalidation, sheets) listen to.
//
// domino reports tree changes of connected nodes through Document.mutate* hooks; attribute and
// character-data changes are caught at the Element/CharacterData entry points instead, because
// domino skips unchanged values (DOM still queues a record for them) and loses old values.
// Known limitation: childList changes inside a subtree that is not connected to a document
// produce no records (domino only reports connected nodes).
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const Element = impl.Element, Node = impl.Node, Document = impl.Document;
  const listeners = [];

  // WebIDL DOMException (`new DOMException(message, name)`), sharing domino's prototype so that
  // exceptions domino throws (constructed from a legacy code) are `instanceof DOMException` too.
  const CODES = { IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12,
    InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15, TypeMismatchError: 17,
    SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21, QuotaExceededError: 22,
    TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25 };
  function DOMException(message, name) {
    if (!new.target) throw new TypeError("Failed to construct 'DOMException': Please use the 'new' operator.");
    const error = Object.create(impl.DOMException.prototype);
    const n = name === undefined ? "Error" : String(name);
    Object.defineProperties(error, {
      message: { value: message === undefined ? "" : String(message), configurable: true, writable: true },
      name: { value: n, configurable: true, writable: true },
      code: { value: CODES[n] || 0, configurable: true, writable: true },
      stack: { value: new Error().stack, configurable: true, writable: true },
    });
    return error;
  }
  DOMException.prototype = impl.DOMException.prototype;
  for (const [name, code] of Object.entries(impl.DOMException)) if (typeof code === "number") DOMException[name] = code;
  if (typeof Error.captureStackTrace !== "function") Error.captureStackTrace = function captureStackTrace() {};
  ctx.DOMException = DOMException;
  ctx.domGlobals.DOMException = DOMException;
  ctx.onMutation = (listener) => { listeners.push(listener); };

  // Every change, synchronously, to every listening layer: kind is "childList", "attributes",
  // "characterData"; the record is in DOM's shape.
  function emit(record) {
    for (const listener of listeners) listener(record);
    if (observed > 0) queueRecord(record);
  }

  // MARK: - Batching: one record per "replace all" and per fragment insertion (DOM 4.2.3)

  // The empty side of a one-node insertion or removal (read only: records are copied when batched).
  const NO_NODES = Object.freeze([]);
  let batchDepth = 0;
  let batch = null;
  function inBatch(body) {
    batchDepth++;
    try { return body(); } finally {
      if (--batchDepth === 0 && batch) { const record = batch; batch = null; emit(record); }
    }
  }
  function childList(target, added, removed, previousSibling, nextSibling) {
    if (batchDepth > 0) {
      if (batch && batch.target === target) {
        batch.addedNodes.push(...added);
        batch.removedNodes.push(...removed);
        batch.nextSibling = nextSibling;
        return;
      }
      if (batch) emit(batch);
      batch = { type: "childList", target, addedNodes: added.slice(), removedNodes: removed.slice(), previousSibling, nextSibling, attributeName: null, oldValue: null };
      return;
    }
    emit({ type: "childList", target, addedNodes: added, removedNodes: removed, previousSibling, nextSibling, attributeName: null, oldValue: null });
  }

  // domino's per-document hook (Document.mutate*) sees only connected nodes; the engine installs
  // `handleDominoMutation` as every page document's handler. Removals arrive before the node is
  // unlinked and insertions after it is linked, so the siblings are the ones DOM reports.
  function handleDominoMutation(m) {
    switch (m.type) {
      // The siblings are only read for observers' records: with none registered (a page's
      // parse, before anyone observes) they are not looked up.
      case 6: // INSERT
        childList(m.target, [m.node], NO_NODES, observed > 0 ? m.node.previousSibling : null, observed > 0 ? m.node.nextSibling : null);
        break;
      case 4: // REMOVE
        childList(m.target, NO_NODES, [m.node], observed > 0 ? m.node.previousSibling : null, observed > 0 ? m.node.nextSibling : null);
        break;
      case 5: { // MOVE: DOM reports a removal from the old place, then an insertion
        const node = m.target, from = node._advMovedFrom;
        node._advMovedFrom = undefined;
        if (from) childList(from.parent, [], [node], from.previousSibling, from.nextSibling);
        childList(node.parentNode, [node], [], node.previousSibling, node.nextSibling);
        break;
      }
      case 1: { // VALUE (text, comment): old value from the last one seen
        const node = m.target;
        const oldValue = node._advData === undefined ? null : node._advData;
        node._advData = node._data;
        emit({ type: "characterData", target: node, addedNodes: [], removedNodes: [], previousSibling: null, nextSibling: null, attributeName: null, oldValue });
        break;
      }
      case 2: case 3: { // ATTR, REMOVE_ATTR for elements the wrappers below do not reach
        if (attributeDepth > 0) break;
        const attr = m.attr;
        emit({ type: "attributes", target: m.target, addedNodes: [], removedNodes: [], previousSibling: null, nextSibling: null,
               attributeName: attr.localName, attributeNamespace: attr.namespaceURI || null, oldValue: null });
        break;
      }
    }
  }

  // domino defines its Node and Element methods non-configurable, so wrappers go on the
  // prototypes one level down (Element, CharacterData, DocumentFragment, HTMLElement, SVGElement),
  // which every node made by the parser or createElement inherits through.
  function shadow(proto, name, make) {
    const original = proto[name];
    if (typeof original !== "function") return;
    Object.defineProperty(proto, name, { configurable: true, writable: true, value: make(original) });
  }
  for (const proto of [impl.Element.prototype, impl.CharacterData.prototype]) {
    shadow(proto, "_insertOrReplace", (original) => function _insertOrReplace(parent, before, isReplace) {
      if (this.rooted && parent.rooted && this.parentNode) {
        this._advMovedFrom = { parent: this.parentNode, previousSibling: this.previousSibling, nextSibling: this.nextSibling };
      }
      // replaceChild is one record with the removed and the added node (DOM 4.2.3 "replace").
      return isReplace ? inBatch(() => original.call(this, parent, before, isReplace)) : original.call(this, parent, before, isReplace);
    });
  }
  // Inserting a fragment is one record with all its children (DOM 4.2.3 "insert").
  shadow(impl.DocumentFragment.prototype, "_insertOrReplace", (original) => function _insertOrReplace(parent, before, isReplace) {
    return inBatch(() => original.call(this, parent, before, isReplace));
  });
  // textContent's "replace all" is one record with the removed and the added nodes.
  shadow(impl.Element.prototype, "removeChildren", (original) => function removeChildren() {
    return inBatch(() => original.call(this));
  });
  // textContent and innerHTML "replace all" (DOM 4.2.3, HTML fragment parsing): one record with
  // the removed and the added nodes. The loader leaves domino's public accessors configurable
  // (WebIDL), so HTMLElement's innerHTML is wrapped where it is; were it not, the wrappers would
  // go on every class below it. Element's textContent is wrapped on HTMLElement and SVGElement.
  function batchSetter(proto, name, from) {
    const descriptor = Object.getOwnPropertyDescriptor(from, name);
    if (!descriptor || !descriptor.set || (proto !== from && Object.prototype.hasOwnProperty.call(proto, name))) return;
    const set = descriptor.set;
    Object.defineProperty(proto, name, { configurable: true, enumerable: descriptor.enumerable, get: descriptor.get,
      set(value) { inBatch(() => set.call(this, value)); } });
  }
  batchSetter(impl.HTMLElement.prototype, "textContent", impl.Element.prototype);
  batchSetter(impl.SVGElement.prototype, "textContent", impl.Element.prototype);
  const innerHTML = Object.getOwnPropertyDescriptor(impl.HTMLElement.prototype, "innerHTML");
  if (innerHTML && innerHTML.configurable) {
    batchSetter(impl.HTMLElement.prototype, "innerHTML", impl.HTMLElement.prototype);
  } else {
    for (const name of Object.keys(impl)) {
      if (/^HTML.+Element$/.test(name) && name !== "HTMLElement") batchSetter(impl[name].prototype, "innerHTML", impl.HTMLElement.prototype);
    }
  }

  // Markup setters (innerHTML, outerHTML, insertAdjacentHTML) all start with the fragment parser
  // and end with inserting its fragment. Opening a batch at the parser and closing it after that
  // insertion makes innerHTML one record on every element, including plain HTMLElements whose
  // setter cannot be wrapped. A microtask closes a batch left open by an exception.
  let parserBatches = 0;
  function closeBatchLevel() {
    if (--batchDepth === 0 && batch) { const record = batch; batch = null; emit(record); }
  }
  function closeParserBatches() {
    while (parserBatches > 0) { parserBatches--; closeBatchLevel(); }
  }
  const implementation = impl.DOMImplementation.prototype;
  const makeFragmentParser = implementation.mozHTMLParser;
  Object.defineProperty(implementation, "mozHTMLParser", { configurable: true, writable: true, value: function mozHTMLParser(address, context) {
    const parser = makeFragmentParser.call(this, address, context);
    if (context) {
      batchDepth++;
      parserBatches++;
      Promise.resolve().then(closeParserBatches);
    }
    return parser;
  } });
  shadow(impl.DocumentFragment.prototype, "_insertOrReplace", (original) => function _insertOrReplace(parent, before, isReplace) {
    try {
      return original.call(this, parent, before, isReplace);
    } finally {
      if (parserBatches > 0) { parserBatches--; closeBatchLevel(); }
    }
  });

  // Character data inserted by the parser is the baseline for the next old value.
  ctx.onMutation((record) => {
    if (record.type !== "childList") return;
    for (const node of record.addedNodes) {
      if (node.nodeType === 3 || node.nodeType === 8) node._advData = node._data;
      else if (node.nodeType === 1 && node.firstChild) {
        for (const text of textNodesIn(node)) text._advData = text._data;
      }
    }
  });
  function textNodesIn(root) {
    // In tree order, without recursion: a subtree a script built can be deeper than the call stack.
    const out = [];
    let node = root.firstChild;
    while (node) {
      if (node.nodeType === 3 || node.nodeType === 8) out.push(node);
      else if (node.firstChild) { node = node.firstChild; continue; }
      while (node !== root && !node.nextSibling) node = node.parentNode;
      if (node === root) break;
      node = node.nextSibling;
    }
    return out;
  }

  // MARK: - Attributes

  let attributeDepth = 0;
  // The element whose attribute method runs now. domino detaches a removed attribute from its
  // element (ownerElement null) before it reports the removal, so the record's target is null;
  // listeners of the mutation feed ask here instead (`ctx.attributeOwner()`).
  let attributeOwner = null;
  ctx.attributeOwner = () => attributeOwner;
  function wrapAttribute(name, nameOf) {
    for (const ctor of [impl.HTMLElement, impl.SVGElement]) wrapAttributeOn(ctor.prototype, name, nameOf);
  }
  function wrapAttributeOn(proto, name, nameOf) {
    const method = proto[name];
    if (typeof method !== "function") return;
    const run = (element, args) => {
      const outer = attributeOwner;
      attributeOwner = element;
      try { return method.apply(element, args); } finally { attributeOwner = outer; }
    };
    Object.defineProperty(proto, name, { configurable: true, writable: true, value: function (...args) {
      if (attributeDepth > 0) return run(this, args);
      const which = nameOf(this, args);
      if (!which) return run(this, args);
      const oldValue = which.ns !== undefined ? this.getAttributeNS(which.ns, which.local) : this.getAttribute(which.qname);
      attributeDepth++;
      let result;
      try { result = run(this, args); } finally { attributeDepth--; }
      const present = which.ns !== undefined ? this.hasAttributeNS(which.ns, which.local) : this.hasAttribute(which.qname);
      // Removing an absent attribute changes nothing and queues nothing (DOM "remove an attribute by name").
      if (oldValue === null && !present) return result;
      emit({ type: "attributes", target: this, addedNodes: [], removedNodes: [], previousSibling: null, nextSibling: null,
             attributeName: which.local, attributeNamespace: which.ns === undefined ? null : which.ns, oldValue });
      return result;
    } });
  }
  const byName = (element, args) => {
    const qname = String(args[0]);
    const local = element.isHTML ? qname.toLowerCase() : qname;
    return { qname: local, local };
  };
  const byNS = (element, args) => {
    const qname = String(args[1]);
    const colon = qname.indexOf(":");
    return { ns: args[0] === undefined || args[0] === "" ? null : args[0], local: colon < 0 ? qname : qname.slice(colon + 1), qname };
  };
  const byLocalNS = (element, args) => ({ ns: args[0] === undefined || args[0] === "" ? null : args[0], local: String(args[1]) });
  const byNode = (element, args) => args[0] && args[0].localName ? { ns: args[0].namespaceURI, local: args[0].localName } : null;
  wrapAttribute("_setAttribute", byName);
  wrapAttribute("_setattr", byName);
  wrapAttribute("setAttribute", byName);
  wrapAttribute("toggleAttribute", byName);
  wrapAttribute("removeAttribute", byName);
  wrapAttribute("setAttributeNS", byNS);
  wrapAttribute("removeAttributeNS", byLocalNS);
  wrapAttribute("setAttributeNode", byNode);
  wrapAttribute("setAttributeNodeNS", byNode);
  wrapAttribute("removeAttributeNode", byNode);

  // MARK: - MutationObserver

  let observed = 0;            // registrations alive anywhere; zero means records are not even built
  let nextObserverOrder = 1;
  const pending = new Set();   // observers with records, notified in creation order
  let notifyQueued = false;

  // A record's addedNodes/removedNodes are NodeLists (`instanceof NodeList`, with item()), made
  // like the ones domino's querySelectorAll returns. (A frozen array copy cost a JSC
  // dictionary conversion per list: a tenth of an observed page's parse.)
  const NodeList = impl.NodeList;
  function NodeListOf(nodes) {
    // Filled here rather than by domino's constructor, whose for-in over the source array is
    // several times slower for the one- or two-node lists most records carry.
    const list = new NodeList();
    for (let i = 0; i < nodes.length; i++) list.push(nodes[i]);
    return list;
  }

  // A record keeps the raw change and builds its NodeLists on first read: the parser's records
  // (thousands on a large page) are mostly delivered to callbacks that never look at them.
  // Its attributes are prototype getters, as in WebKit (MutationRecord.idl), so a record has no
  // own enumerable properties and `new MutationRecord()` is an illegal constructor.
  const RAW = Symbol("record");
  const KEEP_OLD = Symbol("keepOldValue");
  const LISTS = Symbol("nodeLists");
  const INTERNAL = Symbol("internal");
  function MutationRecord(token, record, keepOld) {
    if (token !== INTERNAL) throw new TypeError("Illegal constructor");
    this[RAW] = record;
    this[KEEP_OLD] = keepOld;
    this[LISTS] = null;
  }
  function lists(record) {
    if (!record[LISTS]) record[LISTS] = { added: NodeListOf(record[RAW].addedNodes), removed: NodeListOf(record[RAW].removedNodes) };
    return record[LISTS];
  }
  const recordGetters = {
    type() { return this[RAW].type; },
    target() { return this[RAW].target; },
    addedNodes() { return lists(this).added; },
    removedNodes() { return lists(this).removed; },
    previousSibling() { return this[RAW].previousSibling || null; },
    nextSibling() { return this[RAW].nextSibling || null; },
    attributeName() { return this[RAW].attributeName || null; },
    attributeNamespace() { return this[RAW].attributeNamespace || null; },
    oldValue() { const value = this[RAW].oldValue; return this[KEEP_OLD] && value !== undefined ? value : null; },
  };
  for (const [name, get] of Object.entries(recordGetters)) {
    Object.defineProperty(MutationRecord.prototype, name, { get, enumerable: true, configurable: true });
  }

  // DOM 4.3.2 "queue a mutation record": walk the inclusive ancestors, gather each interested
  // observer once (with the old value if any of its registrations asked for it).
  function queueRecord(record) {
    let interested = null;
    for (let node = record.target; node; node = node.parentNode) {
      const registrations = node._advObservers;
      if (!registrations) continue;
      for (const registration of registrations) {
        const options = registration.options;
        if (node !== record.target && !options.subtree) continue;
        if (record.type === "attributes") {
          if (!options.attributes) continue;
          if (options.attributeFilter && (record.attributeNamespace !== null || !options.attributeFilter.includes(record.attributeName))) continue;
        } else if (record.type === "characterData") {
          if (!options.characterData) continue;
        } else if (!options.childList) continue;
        const wantsOld = record.type === "attributes" ? options.attributeOldValue : record.type === "characterData" ? options.characterDataOldValue : false;
        if (!interested) interested = new Map();
        const prior = interested.get(registration.observer);
        interested.set(registration.observer, !!(prior || wantsOld));
      }
    }
    if (!interested) return;
    for (const [observer, wantsOld] of interested) {
      observer._records.push(new MutationRecord(INTERNAL, record, wantsOld));
      pending.add(observer);
    }
    if (!notifyQueued) {
      notifyQueued = true;
      // HTML "queue a mutation observer microtask": a promise job, so delivery interleaves with
      // promise reactions in queueing order.
      Promise.resolve().then(notify);
    }
  }

  function notify() {
    // A callback that mutates what it observes queues the next delivery from this one, a chain
    // of microtasks the engine's time limit never sees: the host checks the budget each time.
    ctx.host.checkBudget("a MutationObserver delivery");
    notifyQueued = false;
    const observers = Array.from(pending).sort((a, b) => a._order - b._order);
    pending.clear();
    for (const observer of observers) {
      const records = observer._records;
      observer._records = [];
      if (records.length === 0) continue;
      try {
        observer._callback.call(observer, records, observer);
      } catch (error) {
        ctx.reportError(observer._pageId, error);
      }
    }
  }

  function MutationObserver(callback) {
    if (!new.target) throw new TypeError("Constructor requires 'new'");
    if (typeof callback !== "function") throw new TypeError("MutationObserver constructor must be passed a function");
    Object.defineProperties(this, {
      _callback: { value: callback },
      _order: { value: nextObserverOrder++ },
      _records: { value: [], writable: true },
      _targets: { value: [], writable: true },
      _pageId: { value: undefined, writable: true },
    });
  }
  MutationObserver.prototype.observe = function observe(target, options) {
    if (!target || typeof target.nodeType !== "number") throw new TypeError("Argument 1 ('target') to MutationObserver.observe must be an instance of Node");
    options = options || {};
    const o = {
      childList: !!options.childList, subtree: !!options.subtree,
      attributes: options.attributes, characterData: options.characterData,
      attributeOldValue: options.attributeOldValue, characterDataOldValue: options.characterDataOldValue,
      attributeFilter: options.attributeFilter === undefined ? null : Array.from(options.attributeFilter, String),
    };
    // DOM 4.3.1 observe() steps 1-6.
    if ((o.attributeOldValue !== undefined || o.attributeFilter !== null) && o.attributes === undefined) o.attributes = true;
    if (o.characterDataOldValue !== undefined && o.characterData === undefined) o.characterData = true;
    o.attributes = !!o.attributes; o.characterData = !!o.characterData;
    o.attributeOldValue = !!o.attributeOldValue; o.characterDataOldValue = !!o.characterDataOldValue;
    if (!o.childList && !o.attributes && !o.characterData) {
      throw new TypeError("The options object must set at least one of 'attributes', 'characterData', or 'childList' to true.");
    }
    if (o.attributeOldValue && !o.attributes) throw new TypeError("The options object may only set 'attributeOldValue' to true when 'attributes' is true or not present.");
    if (o.attributeFilter !== null && !o.attributes) throw new TypeError("The options object may only set 'attributeFilter' when 'attributes' is true or not present.");
    if (o.characterDataOldValue && !o.characterData) throw new TypeError("The options object may only set 'characterDataOldValue' to true when 'characterData' is true or not present.");
    const doc = target.nodeType === 9 ? target : target.ownerDocument;
    if (doc && this._pageId === undefined) this._pageId = doc._advPageId;
    if (!target._advObservers) Object.defineProperty(target, "_advObservers", { value: [], writable: true });
    const existing = target._advObservers.find((r) => r.observer === this);
    if (existing) { existing.options = o; return; }
    target._advObservers.push({ observer: this, options: o });
    this._targets.push(target);
    observed++;
  };
  MutationObserver.prototype.disconnect = function disconnect() {
    for (const target of this._targets) {
      const before = target._advObservers.length;
      target._advObservers = target._advObservers.filter((r) => r.observer !== this);
      observed -= before - target._advObservers.length;
    }
    this._targets = [];
    this._records = [];
    pending.delete(this);
  };
  MutationObserver.prototype.takeRecords = function takeRecords() {
    const records = this._records;
    this._records = [];
    pending.delete(this);
    return records;
  };
  Object.defineProperty(MutationObserver.prototype, Symbol.toStringTag, { value: "MutationObserver", configurable: true });
  Object.defineProperty(MutationRecord.prototype, Symbol.toStringTag, { value: "MutationRecord", configurable: true });

  ctx.domGlobals.MutationObserver = MutationObserver;
  ctx.domGlobals.WebKitMutationObserver = MutationObserver;
  ctx.domGlobals.MutationRecord = MutationRecord;
  ctx.inMutationBatch = inBatch;

  return {
    name: "mutations",
    // A warm engine's next session starts with no observers (their pages are gone).
    sessionEnded() {
      observed = 0; nextObserverOrder = 1; pending.clear(); notifyQueued = false;
      batchDepth = 0; batch = null; parserBatches = 0; attributeDepth = 0;
    },
    page(p) { p.document._setMutationHandler(handleDominoMutation); },
  };
})
