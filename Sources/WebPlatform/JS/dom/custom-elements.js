// layer: dom/custom-elements
// order: 70
// provides:
// requires: DOMException, onMutation
//
// Custom elements (HTML 4.13): `customElements` (define, get, getName, whenDefined, upgrade),
// `class extends HTMLElement` constructors, upgrades of elements already in the document, and the
// lifecycle callbacks (connectedCallback, disconnectedCallback, attributeChangedCallback with
// observedAttributes). domino has none of it: it made every hyphenated element an
// HTMLUnknownElement and its HTMLElement could not be subclassed.
//
// Elements are made through domino's htmlelts.createElement, wrapped here: a defined name is
// constructed at once by document.createElement and by the document's parser (HTML's
// "synchronous custom elements flag"); one made before its definition, or by fragment parsing
// (innerHTML), is upgraded when it is in the document and its definition exists. Reactions are
// queued per element and run when the DOM method that caused them returns (the common
// [CEReactions] methods are wrapped), at once for the parser's insertions, and otherwise at the
// next microtask, HTML's "backup element queue". Known differences: `:defined` is not a selector
// domino knows; a definition with `extends` is accepted, as WebKit does, but `is=` elements are
// not made from it; adoptedCallback is never called.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const html = ctx.require("domino/lib/htmlelts");
  const createHTML = html.createElement;
  const DominoHTMLElement = impl.HTMLElement;
  const ALREADY_CONSTRUCTED = {};
  const RESERVED = new Set(["annotation-xml", "color-profile", "font-face", "font-face-src", "font-face-uri", "font-face-format", "font-face-name", "missing-glyph"]);
  const CALLBACKS = ["connectedCallback", "disconnectedCallback", "adoptedCallback", "attributeChangedCallback"];

  const registries = new WeakMap();  // document -> registry state
  const byConstructor = new WeakMap(); // constructor -> definition (constructors of every page)
  const states = new WeakMap();      // element -> "undefined" | "custom" | "failed"

  // HTML 4.13.2 "valid custom element name".
  const PCEN = /^[a-z][-.0-9_a-z\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C\u200D\u203F\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}]*$/u;
  function isValidName(name) {
    return name.indexOf("-") > 0 && PCEN.test(name) && !RESERVED.has(name);
  }

  // MARK: - Reactions (HTML 4.13.6): each element has its own queue, and elements are served in
  // the order they first got a reaction, each until its queue is empty.

  const elements = [];
  const reactions = new Map();  // element -> [run]
  let depth = 0;
  let flushQueued = false;
  function enqueue(element, run, document) {
    let list = reactions.get(element);
    if (!list) { reactions.set(element, list = []); elements.push(element); }
    list.push(run);
    if (depth > 0) return;
    // The parser inserts an element and runs its reactions before it goes on (HTML 13.2.6.1).
    if (document && document._advParsing) { flush(); return; }
    if (!flushQueued) { flushQueued = true; Promise.resolve().then(() => { flushQueued = false; flush(); }); }
  }
  function flush() {
    while (elements.length) {
      const element = elements.shift();
      const list = reactions.get(element);
      while (list.length) {
        const run = list.shift();
        try {
          run();
        } catch (error) {
          ctx.reportError(element.ownerDocument && element.ownerDocument._advPageId, error);
        }
      }
      reactions.delete(element);
    }
  }
  const pending = () => elements.length > 0;
  function withReactions(method) {
    return function (...args) {
      depth++;
      try { return method.apply(this, args); } finally { if (--depth === 0 && pending()) flush(); }
    };
  }
  function callback(element, definition, name, args) {
    const fn = definition.callbacks[name];
    if (!fn) return;
    enqueue(element, () => fn.apply(element, args), element.ownerDocument);
  }

  // HTML 4.13.5 "upgrade an element": its observed attributes and, when connected, its
  // connection are reported after the constructor ran.
  function upgrade(element, definition) {
    if (states.get(element) !== "undefined") return;
    states.set(element, "failed");
    definition.constructionStack.push(element);
    try {
      const result = Reflect.construct(definition.constructor, []);
      if (result !== element) throw new TypeError("The custom element constructor did not produce the element being upgraded");
    } catch (error) {
      // A failed upgrade drops the element's other reactions (HTML 4.13.5 step 8).
      const list = reactions.get(element);
      if (list) list.length = 0;
      throw error;
    } finally {
      definition.constructionStack.pop();
    }
    states.set(element, "custom");
    reportAttributes(element, definition);
    if (element.isConnected && definition.callbacks.connectedCallback) definition.callbacks.connectedCallback.call(element);
  }
  function reportAttributes(element, definition) {
    const changed = definition.callbacks.attributeChangedCallback;
    if (!changed) return;
    for (const attr of Array.from(element.attributes)) {
      if (definition.observed.has(attr.localName) && !attr.namespaceURI) changed.call(element, attr.localName, null, attr.value, null);
    }
  }
  function tryToUpgrade(element, registry) {
    const definition = registry.byName.get(element.localName);
    if (definition && element.namespaceURI === "http://www.w3.org/1999/xhtml") {
      enqueue(element, () => upgrade(element, definition), element.ownerDocument);
    }
  }

  // Elements of `root`'s subtree (itself included) whose name could be a custom element's.
  function customCandidates(root, out) {
    if (root.nodeType === 1) {
      if (root.localName.indexOf("-") > 0) out.push(root);
      if (root.firstElementChild === null) return out;
      const all = root.getElementsByTagName("*");
      for (let i = 0; i < all.length; i++) if (all[i].localName.indexOf("-") > 0) out.push(all[i]);
    } else if (root.nodeType === 11 || root.nodeType === 9) {
      for (const element of root.querySelectorAll("*")) if (element.localName.indexOf("-") > 0) out.push(element);
    }
    return out;
  }

  // Definitions made in this session so far, on any page: while there are none, a change has
  // nothing to do here (most pages never define an element).
  let definitionCount = 0;
  ctx.onMutation((record) => {
    if (definitionCount === 0) return;
    const target = record.target;
    const document = target.nodeType === 9 ? target : target.ownerDocument;
    const registry = document && registries.get(document);
    if (!registry || registry.byName.size === 0) return;
    if (record.type === "childList") {
      for (const node of record.removedNodes) {
        for (const element of customCandidates(node, [])) {
          const definition = states.get(element) === "custom" ? definitionOf(element) : null;
          if (definition) callback(element, definition, "disconnectedCallback", []);
        }
      }
      if (!target.isConnected) return;
      for (const node of record.addedNodes) {
        for (const element of customCandidates(node, [])) {
          const state = states.get(element);
          if (state === "undefined") { tryToUpgrade(element, registry); continue; }
          const definition = state === "custom" ? definitionOf(element) : null;
          if (!definition) continue;
          callback(element, definition, "connectedCallback", []);
        }
      }
    } else if (record.type === "attributes" && states.get(target) === "custom" && !record.attributeNamespace) {
      const definition = definitionOf(target);
      if (definition && definition.observed.has(record.attributeName)) {
        callback(target, definition, "attributeChangedCallback", [record.attributeName, record.oldValue, target.getAttribute(record.attributeName), null]);
      }
    }
  });
  function definitionOf(element) {
    const registry = registries.get(element.ownerDocument);
    return registry ? registry.byName.get(element.localName) : undefined;
  }

  // MARK: - Making elements

  // The document whose fragment parser is running (innerHTML and the like): its elements are made
  // in a document of the parser's own, and get their upgrade queued as they are made.
  let fragmentOwner = null;
  html.createElement = function createElement(doc, localName, prefix) {
    if (localName.indexOf("-") <= 0 || !isValidName(localName)) return createHTML(doc, localName, prefix);
    const registry = registries.get(doc);
    const definition = registry ? registry.byName.get(localName) : undefined;
    if (!registry && fragmentOwner && registries.get(fragmentOwner)) {
      const element = new DominoHTMLElement(doc, localName, prefix);
      states.set(element, "undefined");
      tryToUpgrade(element, registries.get(fragmentOwner));
      return element;
    }
    if (definition && definition.constructionStack.length === 0) {
      try {
        const result = Reflect.construct(definition.constructor, []);
        if (!(result instanceof DominoHTMLElement) || result.localName !== localName || result.ownerDocument !== doc) {
          throw new TypeError("The custom element constructor did not return a new " + localName + " element");
        }
        if (result.attributes.length || result.firstChild || result.parentNode) {
          throw new ctx.DOMException("A newly constructed custom element must not have attributes, children or a parent", "NotSupportedError");
        }
        states.set(result, "custom");
        return result;
      } catch (error) {
        // The exception is reported and an HTMLUnknownElement made instead (HTML 4.13.3 "create an
        // element" step 6.1.2), for the parser and for createElement alike.
        ctx.reportError(doc._advPageId, error);
        const failed = new impl.HTMLUnknownElement(doc, localName, prefix);
        states.set(failed, "failed");
        return failed;
      }
    }
    const element = new DominoHTMLElement(doc, localName, prefix);
    states.set(element, "undefined");
    return element;
  };

  // The HTMLElement interface object: `super()` in a custom element's constructor makes the
  // element (or returns the one being upgraded); called any other way it is illegal.
  function HTMLElement() {
    const definition = new.target ? byConstructor.get(new.target) : undefined;
    if (!definition) throw new TypeError("Illegal constructor");
    const stack = definition.constructionStack;
    if (stack.length === 0) {
      // The element stays domino's; the world whose class this is gives its wrapper the class's
      // prototype (boot/membrane.js), the other worlds see an HTMLElement.
      const element = new DominoHTMLElement(definition.document, definition.name, null);
      states.set(element, "custom");
      return element;
    }
    const element = stack[stack.length - 1];
    if (element === ALREADY_CONSTRUCTED) throw new TypeError("This custom element was already constructed");
    stack[stack.length - 1] = ALREADY_CONSTRUCTED;
    return element;
  }
  HTMLElement.prototype = DominoHTMLElement.prototype;
  Object.defineProperty(DominoHTMLElement.prototype, "constructor", { value: HTMLElement, writable: true, configurable: true });
  ctx.domGlobals.HTMLElement = HTMLElement;

  // MARK: - The registry

  function CustomElementRegistry() { throw new TypeError("Illegal constructor"); }
  const registryStates = ctx.internalSlots("CustomElementRegistry");
  const isConstructor = (value) => {
    if (typeof value !== "function") return false;
    try { Reflect.construct(String, [], value); return true; } catch (error) { return false; }
  };
  const methods = {
    define(name, constructor, options) {
      const registry = registryStates.of(this);
      if (arguments.length < 2) throw new TypeError("Not enough arguments");
      if (!isConstructor(constructor)) throw new TypeError("The second argument must be a constructor");
      name = String(name);
      if (!isValidName(name)) throw new ctx.DOMException("Custom element name '" + name + "' is not valid", "SyntaxError");
      if (registry.byName.has(name)) throw new ctx.DOMException("'" + name + "' has already been defined as a custom element", "NotSupportedError");
      if (registry.constructors.has(constructor)) throw new ctx.DOMException("This constructor has already been used with this registry", "NotSupportedError");
      if (registry.defining) throw new ctx.DOMException("Custom element definition is already running", "NotSupportedError");
      registry.defining = true;
      let definition;
      try {
        const prototype = constructor.prototype;
        if (prototype === null || (typeof prototype !== "object" && typeof prototype !== "function")) throw new TypeError("The custom element constructor's prototype must be an object");
        const callbacks = {};
        for (const key of CALLBACKS) {
          const value = prototype[key];
          if (value !== undefined && typeof value !== "function") throw new TypeError("'" + key + "' must be a function");
          callbacks[key] = value;
        }
        let observed = new Set();
        if (callbacks.attributeChangedCallback) {
          const list = constructor.observedAttributes;
          if (list !== undefined) observed = new Set(Array.from(list, String));
        }
        definition = { name, constructor, callbacks, observed, constructionStack: [], document: registry.document };
      } finally {
        registry.defining = false;
      }
      registry.byName.set(name, definition);
      definitionCount++;
      registry.constructors.set(constructor, name);
      byConstructor.set(constructor, definition);
      depth++;
      try {
        for (const element of Array.from(registry.document.getElementsByTagName(name))) {
          if (states.get(element) === "undefined") tryToUpgrade(element, registry);
        }
      } finally {
        if (--depth === 0 && pending()) flush();
      }
      const waiting = registry.waiting.get(name);
      if (waiting) {
        registry.waiting.delete(name);
        for (const entry of waiting.values()) entry.resolve(entry.world ? ctx.membrane.out(constructor, entry.world) : constructor);
      }
    },
    get(name) { const definition = registryStates.of(this).byName.get(String(name)); return definition ? definition.constructor : undefined; },
    getName(constructor) { const name = registryStates.of(this).constructors.get(constructor); return name === undefined ? null : name; },
    // The promise is made in the calling world's realm and resolved with what that world sees
    // of the constructor, so its reactions run in the microtask after define(), as in WebKit
    // (an engine promise seen through the membrane would settle one microtask later).
    whenDefined(name) {
      const registry = registryStates.of(this);
      const world = ctx.membrane.current();
      const Promise = world ? world.intrinsics.Promise : registry.realm().Promise;
      const seen = (value) => (world ? ctx.membrane.out(value, world) : value);
      name = String(name);
      if (!isValidName(name)) return Promise.reject(seen(new ctx.DOMException("Custom element name '" + name + "' is not valid", "SyntaxError")));
      const definition = registry.byName.get(name);
      if (definition) return Promise.resolve(seen(definition.constructor));
      let waiting = registry.waiting.get(name);
      if (!waiting) registry.waiting.set(name, waiting = new Map());
      const key = world ? world.id : "";
      let entry = waiting.get(key);
      if (!entry) {
        let resolve;
        const promise = new Promise((r) => { resolve = r; });
        waiting.set(key, entry = { promise, resolve, world });
      }
      return entry.promise;
    },
    upgrade(root) {
      const registry = registryStates.of(this);
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      depth++;
      try {
        for (const element of customCandidates(root, [])) if (states.get(element) === "undefined") tryToUpgrade(element, registry);
      } finally {
        if (--depth === 0 && pending()) flush();
      }
    },
  };
  ctx.defineMembers(CustomElementRegistry.prototype, methods, "CustomElementRegistry");
  ctx.domGlobals.CustomElementRegistry = CustomElementRegistry;

  // The [CEReactions] methods and setters a page uses most: their reactions run before they
  // return. Each is wrapped on every prototype that has it as its own (the MutationObserver
  // layer put its own wrappers on element prototypes one level down; those are the ones called).
  // The fragment parsers (innerHTML, outerHTML, insertAdjacentHTML) also say whose document they
  // parse for.
  const parsingFor = (method) => function (...args) {
    const outer = fragmentOwner;
    fragmentOwner = this.ownerDocument;
    try { return method.apply(this, args); } finally { fragmentOwner = outer; }
  };
  const METHODS = new Set(["appendChild", "insertBefore", "removeChild", "replaceChild", "setAttribute", "setAttributeNS", "removeAttribute",
    "removeAttributeNS", "toggleAttribute", "insertAdjacentElement", "insertAdjacentHTML", "append", "prepend", "before", "after", "remove",
    "replaceWith", "replaceChildren", "importNode", "adoptNode"]);
  const SETTERS = new Set(["innerHTML", "outerHTML", "textContent"]);
  const PARSING = new Set(["innerHTML", "outerHTML", "insertAdjacentHTML"]);
  // The DOM's own prototypes hold the methods; the MutationObserver layer's innerHTML setters sit
  // on every HTML*Element prototype.
  const owners = [impl.Node, impl.Element, impl.HTMLElement, impl.SVGElement, impl.CharacterData, impl.DocumentFragment, impl.Document];
  const wraps = [];
  for (const ctor of owners) if (ctor) for (const name of METHODS) wraps.push([ctor.prototype, name]);
  for (const ctor of owners) if (ctor) for (const name of SETTERS) wraps.push([ctor.prototype, name]);
  for (const key of Object.keys(impl)) if (/^HTML.+Element$/.test(key) && impl[key].prototype) wraps.push([impl[key].prototype, "innerHTML"]);
  const hasOwn = Object.prototype.hasOwnProperty;
  for (const [proto, name] of wraps) {
    if (hasOwn.call(proto, name)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (!descriptor.configurable) continue;
      if (METHODS.has(name) && typeof descriptor.value === "function") {
        const method = PARSING.has(name) ? parsingFor(descriptor.value) : descriptor.value;
        Object.defineProperty(proto, name, Object.assign({}, descriptor, { value: withReactions(method) }));
      } else if (SETTERS.has(name) && descriptor.set) {
        const set = PARSING.has(name) ? parsingFor(descriptor.set) : descriptor.set;
        Object.defineProperty(proto, name, Object.assign({}, descriptor, { set: withReactions(set) }));
      }
    }
  }

  // A page's registry is made when a script first reads window.customElements: until then the
  // page has no definitions, and its elements cost nothing here.
  function registryOf(document) {
    let state = registries.get(document);
    if (!state) {
      state = { document, byName: new Map(), constructors: new Map(), waiting: new Map(), defining: false, registry: Object.create(CustomElementRegistry.prototype),
                realm: () => (document.defaultView && document.defaultView.Promise ? document.defaultView : globalThis) };
      registries.set(document, state);
      registryStates.set(state.registry, state);
    }
    return state.registry;
  }

  return {
    name: "customElements",
    // A warm engine's next session starts with no definitions and no pending reactions.
    sessionEnded() { definitionCount = 0; elements.length = 0; reactions.clear(); depth = 0; flushQueued = false; },
    page(p) {
      const document = p.document;
      Object.defineProperty(p.shared, "customElements", { get() { return registryOf(document); }, enumerable: true, configurable: true });
    },
  };
})
