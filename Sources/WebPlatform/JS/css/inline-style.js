// layer: css/inline-style
// order: 32
// provides:
// requires: declarations, judgeProperty, onMutation, splitTopLevel
//
// element.style (CSSOM §6.7 and WebKit's InlineCSSStyleDeclaration): the style attribute's
// declarations as a block of longhands (css/declarations.js), read again whenever the attribute
// changed. A change through the declaration writes the attribute back, serialized as cssText,
// and only when something changed: WebKit makes no mutation record for `style.color = 'red'`
// on an element whose color is already red (PropertySetCSSStyleDeclaration::setProperty
// enqueues its record only for a change), while setting cssText always writes.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const declarations = ctx.declarations;
  const judge = ctx.judgeProperty;
  const slots = ctx.internalSlots("CSSStyleDeclaration");
  // element -> its declaration (one per element, as `el.style === el.style`).
  const declarationOf = new WeakMap();

  // The block, parsed again when the attribute is no longer what it was parsed from or written as.
  function block(state) {
    const text = state.element.getAttribute("style");
    if (text !== state.text) {
      state.entries = text === null ? [] : declarations.parseList(text, judge);
      state.text = text;
      indices(state);
    }
    return state.entries;
  }
  function commit(state) {
    const text = declarations.text(state.entries);
    state.text = text;
    indices(state);
    state.element.setAttribute("style", text);
  }
  // The supported property indices (WebIDL 3.9 indexed properties) as own properties.
  function indices(state) {
    const declaration = state.declaration, entries = state.entries;
    for (let i = 0; i < entries.length; i++) {
      Object.defineProperty(declaration, i, { value: entries[i].name, enumerable: true, configurable: true });
    }
    for (let i = entries.length; i < state.indexed; i++) delete declaration[i];
    state.indexed = entries.length;
  }
  ctx.onMutation((record) => {
    if (record.type !== "attributes" || record.attributeName !== "style") return;
    const declaration = declarationOf.get(record.target);
    if (declaration) block(slots.get(declaration));
  });

  // The value of `setProperty` as CSSOM §6.7.3 takes it: nothing for a value that holds more than
  // one declaration or a priority of its own (WebKit parses it as one declaration's value).
  function singleValue(value) {
    return ctx.splitTopLevel(value, ";").length <= 1 && !/;\s*$/.test(value) && !/!\s*important\s*$/i.test(value);
  }
  const webKitProperties = new Set(ctx.host.resource("css/css-properties.js"));
  function propertyName(name) {
    const text = String(name);
    if (text.startsWith("--")) return text;
    const lower = text.toLowerCase();
    return webKitProperties.has(lower) ? lower : null;
  }

  function CSSStyleDeclaration() { throw new TypeError("Illegal constructor"); }
  const proto = Object.create(impl.CSSStyleDeclaration.prototype);
  ctx.defineMembers(proto, {
    getPropertyValue(name) {
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      return declarations.value(block(slots.of(this, "getPropertyValue")), String(name));
    },
    getPropertyPriority(name) {
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      return declarations.priority(block(slots.of(this, "getPropertyPriority")), String(name));
    },
    setProperty(name, value, priority) {
      if (arguments.length < 2) throw new TypeError("Not enough arguments");
      const state = slots.of(this, "setProperty");
      const property = propertyName(name);
      if (property === null) return;
      const text = value === null || value === undefined ? "" : String(value);
      if (text.trim() === "") { this.removeProperty(property); return; }
      const level = priority === undefined || priority === null ? "" : String(priority).toLowerCase();
      if (level !== "" && level !== "important") return;
      if (!property.startsWith("--") && !singleValue(text)) return;
      if (declarations.set(block(state), property, text, level === "important", judge)) commit(state);
    },
    removeProperty(name) {
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      const state = slots.of(this, "removeProperty");
      const result = declarations.remove(block(state), String(name));
      if (result.removed) commit(state);
      return result.old;
    },
    item(index) {
      const entries = block(slots.of(this, "item"));
      const i = Number(index) >>> 0;
      return i < entries.length ? entries[i].name : "";
    },
    length: { get() { return block(slots.of(this, "length")).length; } },
    cssText: {
      get() { return declarations.text(block(slots.of(this, "cssText"))); },
      set(value) {
        const state = slots.of(this, "cssText");
        state.entries = declarations.parseList(value === null ? "" : String(value), judge);
        commit(state);
      },
    },
    parentRule: { get() { slots.of(this, "parentRule"); return null; } },
    cssFloat: { get() { return this.getPropertyValue("float"); }, set(value) { this.setProperty("float", value); } },
  });
  // Every property WebKit knows, as written in CSS and in camel case (CSSOM §6.7.1: `margin-top`
  // and `marginTop`; `-webkit-transform` also as `webkitTransform` and `WebkitTransform`).
  const camel = (name) => name.replace(/-([a-z])/g, (m, c) => c.toUpperCase());
  for (const name of webKitProperties) {
    const accessor = { get() { return this.getPropertyValue(name); }, set(value) { this.setProperty(name, value); } };
    const names = [name, camel(name)];
    if (name.startsWith("-webkit-")) names.push(camel(name.slice(1)), "W" + camel(name.slice(2)));
    for (const alias of names) if (!Object.prototype.hasOwnProperty.call(proto, alias)) Object.defineProperty(proto, alias, Object.assign({ enumerable: true, configurable: true }, accessor));
  }
  CSSStyleDeclaration.prototype = proto;
  ctx.forwardedPrototypes.add(proto);
  // domino's own declaration prototype (behind this one) holds an accessor for every property it knows.
  for (let p = Object.getPrototypeOf(proto); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) ctx.forwardedPrototypes.add(p);
  Object.defineProperty(proto, "constructor", { value: impl.CSSStyleDeclaration, writable: true, configurable: true });

  function styleOf(element) {
    let declaration = declarationOf.get(element);
    if (declaration === undefined) {
      declaration = Object.create(proto);
      ctx.namedObjects.set(declaration, null);
      const state = { element, declaration, entries: [], text: undefined, indexed: 0 };
      slots.set(declaration, state);
      declarationOf.set(element, declaration);
      block(state);
    }
    return declaration;
  }
  // [PutForwards=cssText]: `element.style = text` sets the declaration's cssText. On HTMLElement
  // and SVGElement (the ElementCSSInlineStyle mixin), in place of domino's own: every element
  // class inherits it, including elements with no interface of their own (<i>, <section>).
  for (const target of [impl.HTMLElement.prototype, impl.SVGElement.prototype]) {
    Object.defineProperty(target, "style", { configurable: true, enumerable: true,
      get() { return styleOf(this); },
      set(value) { styleOf(this).cssText = String(value); },
    });
  }
})
