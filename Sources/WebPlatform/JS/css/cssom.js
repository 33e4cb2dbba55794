// layer: css/cssom
// order: 30
// provides: style, parseSheet, collectSheets, activeSheets, judgeProperty
// requires: DOMException, onMutation, splitTopLevel, closingBracket, declarations, selectors
//
// CSSOM (CSS Object Model, W3C CSSOM §6) on Debian's node-cssom: `.sheet` for <style> and
// <link rel=stylesheet>, document.styleSheets, and fixes that make node-cssom behave as WebKit's
// CSSStyleSheet does (DOMException types, serialization, live declarations).
//
// Every change a sheet can undergo bumps the style version (so computed styles are recomputed)
// and is appended to the page's sheet-change log: CSSOM mutations produce no MutationObserver
// records in browsers, and the harness needs another way to see a page tamper with a sheet.
(function (ctx) {
  "use strict";
  const CSSOM = ctx.require("cssom");
  const impl = ctx.impl;
  // The engine realm has no WHATWG URL (JavaScriptCore does not provide one); domino's resolver
  // implements RFC 3986 reference resolution, which is what relative hrefs and srcs need.
  const DominoURL = ctx.require("domino/lib/URL");
  const resolveURL = (relative, base) => new DominoURL(base).resolve(String(relative));

  // MARK: - domino's CSS value parser, for the properties css/declarations.js does not model

  // domino's parser (parserlib, its cssparser.js) judges the values of the properties WebKit
  // knows that css/declarations.js does not model (element.style and CSS.supports ask it through
  // ctx.judgeProperty). parserlib predates CSS custom properties: a declaration such as
  // `--gap: 4px` made it throw, which lost every declaration after it; so the text is split
  // into declarations here, custom properties kept as written (CSS Variables 1 §2: any value),
  // the others given to parserlib one at a time, and a declaration it cannot parse is dropped
  // instead of the whole text (CSS Syntax 3 §5.4.5: an invalid declaration is ignored).
  ctx.require.wrap("domino/lib/cssparser.js", (parserlib) => ({ css: { Parser: makeDeclarationParser(parserlib), Colors: parserlib.css.Colors } }));
  const splitTopLevel = ctx.splitTopLevel, closingBracket = ctx.closingBracket;

  function customProperty(declaration) {
    const colon = declaration.indexOf(":");
    if (colon < 0) return null;
    const name = declaration.slice(0, colon).trim();
    if (!name.startsWith("--") || name.length < 3) return null;
    let value = declaration.slice(colon + 1);
    const important = /!\s*important\s*$/i.test(value);
    if (important) value = value.replace(/!\s*important\s*$/i, "");
    value = value.trim().replace(/'((?:[^'\\]|\\.)*)'/g, (m, inner) => JSON.stringify(inner.replace(/\\(.)/g, "$1")));
    return { name, value, important };
  }
  // parserlib knows CSS as of 2012, so its verdict is corrected with what WebKit knows: a
  // property WebKit lacks is dropped; one parserlib has never heard of (aspect-ratio) is kept
  // as written. Other values are judged by parserlib alone (README, known differences).
  let webKitProperties = null;
  function webKitKnows(name) {
    if (webKitProperties === null) webKitProperties = new Set(ctx.host.resource("css/css-properties.js"));
    return webKitProperties.has(name);
  }
  function correct(event) {
    if (!event.property || !event.value) return event;
    const name = String(event.property.text).toLowerCase();
    if (!webKitKnows(name)) return event.invalid ? event : { property: event.property, value: event.value, important: event.important, invalid: true };
    const valid = !event.invalid || String(event.invalid.message || "").startsWith("Unknown property");
    if (valid === !event.invalid) return event;
    return { property: event.property, value: event.value, important: event.important, invalid: valid ? null : true };
  }
  // The same declarations are judged again and again (element.style asks for every declaration
  // of a property css/declarations.js does not model, each as the text `name:value` with a new
  // parserlib parser, whenever an element's style attribute changed), mostly over the same few
  // texts. What the declarations of a text come out as depends on the text alone, so each
  // text's events are kept (at most 4,096 texts, then the cache starts over) and replayed to the
  // listeners, who read only `property.text`, `value.text`, `important` and `invalid`
  // (ctx.judgeProperty below).
  const parsedDeclarations = new Map();
  const PARSED_DECLARATIONS_KEPT = 4096;
  function makeDeclarationParser(parserlib) {
    // One parserlib parser serves every text; a parse that starts while one runs (a listener
    // that parses) gets its own.
    let real = null, busy = false;
    let events = null;
    const makeParser = () => {
      const made = new parserlib.css.Parser();
      made.addListener("property", (event) => { events.push(record(correct(event))); });
      return made;
    };
    // parserlib over `text`; false when it threw (the declarations it had not reached are lost).
    const parse = (text) => {
      const parser = busy ? makeParser() : (real || (real = makeParser()));
      const outer = busy;
      busy = true;
      try { parser.parseStyleAttribute(text); return true; } catch (e) { return false; } finally { busy = outer; }
    };
    const record = (event) => Object.freeze({
      property: Object.freeze({ text: String(event.property.text) }),
      value: Object.freeze({ text: String(event.value.text) }),
      important: !!event.important,
      invalid: event.invalid ? true : null,
    });
    function declarations(source) {
      const kept = parsedDeclarations.get(source);
      if (kept !== undefined) return kept;
      const outer = events;
      events = [];
      // No custom property: parserlib takes the whole text, as before, unless it throws.
      if (source.includes("--") || !parse(source)) {
        for (const declaration of splitTopLevel(source, ";")) {
          const custom = customProperty(declaration);
          // A declaration parserlib cannot parse is dropped, as an invalid one is.
          if (custom === null) { parse(declaration); continue; }
          events.push(record({ property: { text: custom.name }, value: { text: custom.value }, important: custom.important, invalid: null }));
        }
      }
      const made = Object.freeze(events);
      events = outer;
      if (parsedDeclarations.size >= PARSED_DECLARATIONS_KEPT) parsedDeclarations.clear();
      parsedDeclarations.set(source, made);
      return made;
    }
    return function Parser() {
      const listeners = [];
      return {
        addListener(type, listener) { if (type === "property") listeners.push(listener); },
        parseStyleAttribute(text) {
          const made = declarations(String(text));
          for (let i = 0; i < made.length; i++) {
            for (let j = 0; j < listeners.length; j++) listeners[j](made[i]);
          }
        },
      };
    };
  }

  // MARK: - Style version and sheet-change log

  // A change that can alter computed styles makes its document rebuild its rule index (cascade.js)
  // on the next style computation: `changed(doc)` counts it for that document alone (another
  // tab's or frame's sheets do not reach it); a change whose document is unknown counts for all.
  ctx.style = {
    version: 1,
    changed(doc) {
      const state = doc && doc._advStyle;
      if (state) state.sheetsVersion++; else this.version++;
    },
  };
  // `detail` says what changed (the inserted rule, the new media text …) for the trace: the
  // engine's traceHooks.sheetChange, which dom-trace.js sets to record changes made by extension
  // code (a no-op until then).
  function bump(sheet, what, detail) {
    const node = sheet && sheet.ownerNode;
    const doc = node && node.ownerDocument;
    ctx.style.changed(doc);
    if (doc && doc._advSheetLog) {
      doc._advSheetLog.push({ what, sheet: sheetIndex(doc, sheet), time: ctx.host.now() });
    }
    if (doc) ctx.traceHooks.sheetChange(doc, node, what, detail);
  }
  function sheetIndex(doc, sheet) {
    return collectSheets(doc).indexOf(sheet);
  }

  function domException(name, message) {
    return new ctx.DOMException(message, name);
  }

  // MARK: - Live declarations

  function hyphenate(name) {
    if (name.startsWith("--")) return name;
    if (name === "cssFloat") return "float";
    return name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()).replace(/^webkit-/, "-webkit-");
  }
  const NOT_PROPERTIES = new Set(["length", "parentRule", "_importants", "constructor", "cssText", "item",
    "getPropertyValue", "setProperty", "removeProperty", "getPropertyPriority", "then", "toJSON"]);
  function isPropertyName(name) {
    return typeof name === "string" && !NOT_PROPERTIES.has(name) && /^(--|-?[a-zA-Z][a-zA-Z-]*$)/.test(name) && !/^\d/.test(name);
  }

  // node-cssom keeps declarations as plain own properties, so `rule.style.display = "none"` would
  // neither register the property nor reach the cascade. A proxy gives it CSSOM's accessors.
  // Its methods are one set of functions shared by every declaration, called on the proxy (as
  // WebIDL operations are: `a.style.setProperty === b.style.setProperty`, and a call on something
  // else is a TypeError); the proxy's handler is shared too, so a sheet's rules cost one proxy
  // each. The rule a declaration belongs to is what a change reports (to the sheet-change log).
  const declarationRules = new WeakMap();
  // proxy -> its declaration (a lookup here costs less than a trip through the proxy's handler)
  const liveDeclarations = ctx.internalSlots("CSSStyleDeclaration");
  function declarationChanged(declaration) {
    const rule = declarationRules.get(declaration);
    bump(rule && rule.parentStyleSheet, "style", () => (rule ? rule.cssText : ""));
  }
  function setDeclaration(declaration, name, value, priority) {
    name = String(name).toLowerCase().startsWith("--") ? String(name) : String(name).toLowerCase();
    value = value === null || value === undefined ? "" : String(value);
    if (value === "") { removeDeclaration(declaration, name); return; }
    priority = priority ? String(priority).toLowerCase() : "";
    if (priority !== "" && priority !== "important") return;
    CSSOM.CSSStyleDeclaration.prototype.setProperty.call(declaration, name, value.trim(), priority);
    declarationChanged(declaration);
  }
  function removeDeclaration(declaration, name) {
    name = String(name).toLowerCase();
    const old = CSSOM.CSSStyleDeclaration.prototype.removeProperty.call(declaration, name);
    delete declaration._importants[name];
    delete declaration[name];
    declarationChanged(declaration);
    return old;
  }
  function declaredValue(declaration, name) {
    name = String(name).toLowerCase();
    return Array.prototype.indexOf.call(declaration, name) >= 0 ? declaration[name] : "";
  }
  const declarationMethods = {
    setProperty(name, value, priority) { setDeclaration(liveDeclarations.of(this, "setProperty"), name, value, priority); },
    removeProperty(name) { return removeDeclaration(liveDeclarations.of(this, "removeProperty"), name); },
    getPropertyValue(name) { return declaredValue(liveDeclarations.of(this, "getPropertyValue"), name); },
    getPropertyPriority(name) {
      const declaration = liveDeclarations.of(this, "getPropertyPriority");
      name = String(name).toLowerCase();
      return Array.prototype.indexOf.call(declaration, name) >= 0 ? (declaration._importants[name] || "") : "";
    },
    item(index) {
      const declaration = liveDeclarations.of(this, "item");
      return index >= 0 && index < declaration.length ? declaration[index] : "";
    },
  };
  // The methods a live declaration answers, as the membrane looks them up on a call (one
  // table lookup instead of a trip through the proxy's get).
  const declarationTable = Object.assign(Object.create(null), declarationMethods);
  const liveDeclarationHandler = {
    get(target, name) {
      if (name === "_advTarget") return target;
      if (Object.prototype.hasOwnProperty.call(declarationMethods, name)) return declarationMethods[name];
      if (name === "cssText") return serializeDeclaration(target);
      if (typeof name === "string" && /^\d+$/.test(name)) return target[name];
      if (isPropertyName(name)) return declaredValue(target, hyphenate(name));
      return Reflect.get(target, name);
    },
    set(target, name, value) {
      if (name === "cssText") {
        const parsed = CSSOM.parse("x{" + String(value) + "}").cssRules[0];
        for (let i = target.length - 1; i >= 0; i--) { delete target[target[i]]; delete target[i]; }
        target.length = 0; target._importants = {};
        if (parsed) for (let i = 0; i < parsed.style.length; i++) {
          const n = parsed.style[i];
          CSSOM.CSSStyleDeclaration.prototype.setProperty.call(target, n, parsed.style[n], parsed.style._importants[n]);
        }
        declarationChanged(target);
        return true;
      }
      if (isPropertyName(name)) { setDeclaration(target, hyphenate(name), value, ""); return true; }
      return Reflect.set(target, name, value);
    },
  };
  function liveDeclaration(declaration, rule) {
    declarationRules.set(declaration, rule);
    const live = new Proxy(declaration, liveDeclarationHandler);
    liveDeclarations.set(live, declaration);
    ctx.namedObjects.set(live, declarationTable);
    return live;
  }

  // WebKit serializes `name: value;` joined by single spaces, `!important` with one space.
  function serializeDeclaration(declaration) {
    const parts = [];
    for (let i = 0; i < declaration.length; i++) {
      const name = declaration[i];
      const priority = declaration._importants[name];
      parts.push(name + ": " + declaration[name] + (priority ? " !" + priority : "") + ";");
    }
    return parts.join(" ");
  }

  function defineIfPossible(object, name, descriptor) {
    const existing = Object.getOwnPropertyDescriptor(object, name);
    if (existing && !existing.configurable) return false;
    Object.defineProperty(object, name, descriptor);
    return true;
  }

  function adopt(rule, sheet) {
    rule.parentStyleSheet = sheet;
    if (rule instanceof CSSOM.CSSStyleRule) Object.defineProperty(rule, "cssText", styleRuleText);
    else if (rule instanceof CSSOM.CSSMediaRule) Object.defineProperty(rule, "cssText", mediaRuleText);
    if (rule.style && !rule.style._advTarget) {
      rule.style = liveDeclaration(rule.style, rule);
      rule.style.parentRule = rule;
    }
    if (rule.media && !rule.media._advOwner) Object.defineProperty(rule.media, "_advOwner", { value: () => rule.parentStyleSheet });
    if (rule.cssRules) for (const child of rule.cssRules) { adopt(child, sheet); child.parentRule = rule; }
  }

  // MARK: - Prototype fixes

  const SheetProto = CSSOM.CSSStyleSheet.prototype;
  // CSSOM 6.1.3 insertRule: index defaults to 0; out of range is IndexSizeError; a string that
  // is not exactly one rule is SyntaxError (WebKit: CSSStyleSheet::insertRule). "insert a CSS
  // rule" step 5: an @import only after @imports, a @namespace only in a sheet of @imports and
  // @namespaces (else InvalidStateError) and after its @imports, any other rule only after both
  // (else HierarchyRequestError).
  SheetProto.insertRule = function insertRule(rule, index) {
    if (arguments.length === 0) throw new TypeError("Not enough arguments");
    index = index === undefined ? 0 : Number(index) >>> 0;
    const rules = this.cssRules;
    if (index > rules.length) throw domException("IndexSizeError", "The index is not in the allowed range.");
    const parsed = parseOneRule(String(rule));
    if (parsed === null) throw domException("SyntaxError", "The string did not match the expected pattern.");
    const before = rules[index - 1], after = rules[index];
    if (parsed instanceof CSSNamespaceRule && rules.some((r) => !isImport(r) && !(r instanceof CSSNamespaceRule))) {
      throw domException("InvalidStateError", "The object is in an invalid state.");
    }
    const misplaced = isImport(parsed) ? before !== undefined && !isImport(before)
      : parsed instanceof CSSNamespaceRule ? after !== undefined && isImport(after)
        : after !== undefined && (isImport(after) || after instanceof CSSNamespaceRule);
    if (misplaced) throw domException("HierarchyRequestError", "The operation would yield an incorrect node tree.");
    adopt(parsed, this);
    rules.splice(index, 0, parsed);
    bump(this, "insertRule", () => index + " " + parsed.cssText);
    return index;
  };
  const isImport = (rule) => rule instanceof CSSOM.CSSImportRule;
  // The one rule `text` holds, or null. Blocks left open at the end are closed there (CSS Syntax
  // 3 §5.4.4: the end of input ends every block), as WebKit accepts `p { color: blue`; anything
  // after the rule but white space and comments makes it no rule. @charset is no rule at all.
  function parseOneRule(text) {
    let depth = 0, quote = null, end = -1;
    for (let i = 0; i < text.length && end < 0; i++) {
      const c = text[i];
      if (quote !== null) { if (c === "\\") i++; else if (c === quote) quote = null; continue; }
      if (c === "/" && text[i + 1] === "*") { const close = text.indexOf("*/", i + 2); i = close < 0 ? text.length : close + 1; continue; }
      if (c === "\"" || c === "'") quote = c;
      else if (c === "{") depth++;
      else if (c === "}") { if (--depth === 0) end = i + 1; if (depth < 0) return null; }
      else if (c === ";" && depth === 0) end = i + 1;
    }
    const body = end < 0 ? text + "}".repeat(depth) : text.slice(0, end);
    if (end >= 0 && text.slice(end).replace(/\/\*[\s\S]*?\*\//g, "").trim() !== "") return null;
    if (/^\s*@charset\b/i.test(body)) return null;
    const namespace = /^\s*@namespace\s+(?:([a-zA-Z_][\w-]*)\s+)?(?:url\(\s*["']?([^"')]*)["']?\s*\)|"([^"]*)"|'([^']*)')\s*;?\s*$/i.exec(body);
    if (namespace) return makeNamespaceRule(namespace[1] || "", namespace[2] !== undefined ? namespace[2] : namespace[3] !== undefined ? namespace[3] : namespace[4]);
    let parsed;
    try { parsed = CSSOM.parse(body).cssRules; } catch (e) { return null; }
    if (parsed.length !== 1 || (parsed[0].selectorText !== undefined && parsed[0].selectorText.trim() === "")) return null;
    return parsed[0];
  }
  // CSS Namespaces 3 §3 @namespace, which node-cssom does not parse (CSSOM §6.4.9 CSSNamespaceRule).
  function CSSNamespaceRule() { throw new TypeError("Illegal constructor"); }
  CSSNamespaceRule.prototype = Object.create(CSSOM.CSSRule.prototype, { constructor: { value: CSSNamespaceRule, writable: true, configurable: true } });
  Object.defineProperties(CSSNamespaceRule.prototype, {
    type: { value: 10, configurable: true },
    cssText: { get() { return "@namespace " + (this.prefix ? this.prefix + " " : "") + "url(\"" + this.namespaceURI + "\");"; }, configurable: true },
  });
  function makeNamespaceRule(prefix, uri) {
    const rule = Object.create(CSSNamespaceRule.prototype);
    Object.defineProperties(rule, { prefix: { value: prefix, enumerable: true }, namespaceURI: { value: uri, enumerable: true } });
    return rule;
  }
  SheetProto.deleteRule = function deleteRule(index) {
    if (arguments.length === 0) throw new TypeError("Not enough arguments");
    index = Number(index) >>> 0;
    if (index >= this.cssRules.length) throw domException("IndexSizeError", "The index is not in the allowed range.");
    this.cssRules.splice(index, 1);
    bump(this, "deleteRule", () => String(index));
  };
  SheetProto.addRule = function addRule(selector, style, index) {
    const at = index === undefined ? this.cssRules.length : index;
    this.insertRule(String(selector) + " { " + String(style === undefined ? "" : style) + " }", at);
    return -1;
  };
  SheetProto.removeRule = function removeRule(index) { this.deleteRule(index === undefined ? 0 : index); };
  Object.defineProperty(SheetProto, "rules", { get() { return this.cssRules; }, configurable: true });
  Object.defineProperty(SheetProto, "disabled", {
    get() { return !!this._advDisabled; },
    set(value) {
      const next = !!value;
      if (next === !!this._advDisabled) return;
      this._advDisabled = next;
      bump(this, "disabled", () => String(next));
    },
    configurable: true,
  });
  Object.defineProperty(SheetProto, "type", { get() { return "text/css"; }, configurable: true });
  Object.defineProperty(SheetProto, "href", { get() { return this._advHref || null; }, configurable: true });
  Object.defineProperty(SheetProto, "title", { get() { const n = this.ownerNode; return (n && n.getAttribute("title")) || null; }, configurable: true });
  Object.defineProperty(SheetProto, "ownerRule", { get() { return null; }, configurable: true });
  SheetProto.replaceSync = function replaceSync(text) {
    const parsed = CSSOM.parse(String(text));
    this.cssRules.length = 0;
    for (const rule of parsed.cssRules) { adopt(rule, this); this.cssRules.push(rule); }
    bump(this, "replace", () => this.cssRules.length + " rules");
  };

  // node-cssom's rule cssText is non-configurable on its prototype; each adopted style rule gets
  // WebKit's serialization (`sel { a: b; }`, StyleRule.cpp) as its own accessor instead.
  const styleRuleText = {
    get() { const body = this.style.cssText; return this.selectorText + " {" + (body ? " " + body + " " : " ") + "}"; },
    set() {},
    configurable: true,
  };
  // WebKit's @media serialization (StyleRuleMedia, CSSGroupingRule::appendCSSTextForItems): each
  // child rule on its own line, indented by two spaces.
  const mediaRuleText = {
    get() {
      const inner = Array.prototype.map.call(this.cssRules, (r) => "\n  " + r.cssText).join("");
      return "@media " + this.media.mediaText + " {" + inner + "\n}";
    },
    set() {},
    configurable: true,
  };
  defineIfPossible(CSSOM.CSSStyleRule.prototype, "type", { value: 1, configurable: true, writable: true });
  const MediaRuleProto = CSSOM.CSSMediaRule.prototype;
  defineIfPossible(MediaRuleProto, "type", { value: 4, configurable: true, writable: true });
  // CSSOM 6.4.5 insertRule of a grouping rule: no @import or @namespace inside one.
  MediaRuleProto.insertRule = function insertRule(rule, index) {
    index = index === undefined ? 0 : Number(index) >>> 0;
    if (index > this.cssRules.length) throw domException("IndexSizeError", "The index is not in the allowed range.");
    const parsed = parseOneRule(String(rule));
    if (parsed === null) throw domException("SyntaxError", "The string did not match the expected pattern.");
    if (isImport(parsed) || parsed instanceof CSSNamespaceRule) throw domException("HierarchyRequestError", "The operation would yield an incorrect node tree.");
    adopt(parsed, this.parentStyleSheet); parsed.parentRule = this;
    this.cssRules.splice(index, 0, parsed);
    bump(this.parentStyleSheet, "insertRule", () => index + " " + parsed.cssText + " in @media " + this.media.mediaText);
    return index;
  };
  MediaRuleProto.deleteRule = function deleteRule(index) {
    index = Number(index) >>> 0;
    if (index >= this.cssRules.length) throw domException("IndexSizeError", "The index is not in the allowed range.");
    this.cssRules.splice(index, 1);
    bump(this.parentStyleSheet, "deleteRule", () => index + " in @media " + this.media.mediaText);
  };
  Object.defineProperty(MediaRuleProto, "conditionText", { get() { return this.media.mediaText; }, configurable: true });

  // MediaList changes re-evaluate the sheet or rule that owns it.
  const MediaProto = CSSOM.MediaList.prototype;
  const mediaTextSet = Object.getOwnPropertyDescriptor(MediaProto, "mediaText").set;
  const deleteMedium = MediaProto.deleteMedium;
  const mediaOwner = (list) => (list._advOwner ? list._advOwner() : null);
  function setMediaText(list, value) {
    const text = String(value === null ? "" : value).trim();
    if (text === "") { Array.prototype.splice.call(list, 0, list.length); list.length = 0; }
    else mediaTextSet.call(list, text);
  }
  Object.defineProperty(MediaProto, "mediaText", {
    get() { return Array.prototype.join.call(this, ", "); },
    set(value) {
      setMediaText(this, value);
      bump(mediaOwner(this), "media", () => JSON.stringify(this.mediaText));
    },
    configurable: true,
  });
  // WebKit's MediaList::appendMedium appends even a medium already in the list.
  MediaProto.appendMedium = function (medium) {
    Array.prototype.push.call(this, String(medium).trim());
    bump(mediaOwner(this), "media", () => JSON.stringify(this.mediaText));
  };
  MediaProto.deleteMedium = function (medium) {
    const index = Array.prototype.indexOf.call(this, String(medium).trim());
    if (index < 0) throw domException("NotFoundError", "The object can not be found here.");
    deleteMedium.call(this, String(medium).trim());
    bump(mediaOwner(this), "media", () => JSON.stringify(this.mediaText));
  };
  MediaProto.item = function (i) { return i >= 0 && i < this.length ? this[i] : null; };
  Object.defineProperty(MediaProto, "toString", { value: function () { return this.mediaText; }, configurable: true, writable: true });

  // MARK: - Sheets of <style> and <link>

  // MARK: - Parsing, once per text

  // node-cssom reads a sheet a character at a time, which makes parsing the costly part of a
  // sheet; the same texts come back on every page of a site (its own <style>s) and with every
  // page an extension styles (ADV's filters sheet for the host). A text whose rules are all
  // plain style rules is kept as the calls node-cssom's parser made (rule, selector, each
  // declaration through CSSStyleDeclaration.setProperty, the rule's source offsets), and the
  // next sheet of that text is built by making the same calls: a new, independent object tree
  // that is identical to a fresh parse. Other texts (at-rules) are parsed every time.
  // At most 256 texts and 8 MB of text are kept (a long session of large site sheets); past
  // either, the cache starts over.
  const parsedTexts = new Map();
  const PARSED_TEXTS_KEPT = 256, PARSED_CHARACTERS_KEPT = 8 * 1024 * 1024;
  let parsedCharacters = 0;
  function parseCSS(text) {
    const kept = parsedTexts.get(text);
    if (kept !== undefined) return rebuild(kept);
    const sheet = CSSOM.parse(text);
    const plain = text.length <= PARSED_CHARACTERS_KEPT ? plainRules(sheet) : null;
    if (plain !== null) {
      if (parsedTexts.size >= PARSED_TEXTS_KEPT || parsedCharacters + text.length > PARSED_CHARACTERS_KEPT) {
        parsedTexts.clear();
        parsedCharacters = 0;
      }
      parsedTexts.set(text, plain);
      parsedCharacters += text.length;
    }
    return sheet;
  }
  function plainRules(sheet) {
    const rules = sheet.cssRules;
    const out = new Array(rules.length);
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      if (rule.constructor !== CSSOM.CSSStyleRule || rule.parentRule || rule.parentStyleSheet !== sheet) return null;
      const style = rule.style;
      const declarations = [];
      for (let j = 0; j < style.length; j++) {
        const name = style[j];
        declarations.push(name, style[name], style._importants[name]);
      }
      out[i] = { selectorText: rule.selectorText, starts: rule.__starts, ends: rule.__ends, styleStarts: style.__starts, declarations };
    }
    return out;
  }
  function rebuild(plain) {
    const sheet = new CSSOM.CSSStyleSheet();
    for (const kept of plain) {
      const rule = new CSSOM.CSSStyleRule();
      rule.__starts = kept.starts;
      rule.selectorText = kept.selectorText;
      rule.style.__starts = kept.styleStarts;
      const declarations = kept.declarations;
      for (let j = 0; j < declarations.length; j += 3) rule.style.setProperty(declarations[j], declarations[j + 1], declarations[j + 2]);
      rule.__ends = kept.ends;
      rule.parentStyleSheet = sheet;
      sheet.cssRules.push(rule);
    }
    return sheet;
  }

  function makeSheet(text, node, href) {
    let sheet;
    try { sheet = parseCSS(text); } catch (e) { sheet = new CSSOM.CSSStyleSheet(); }
    Object.defineProperty(sheet, "ownerNode", { value: node, writable: true, configurable: true });
    sheet.parentStyleSheet = null;
    sheet._advHref = href || null;
    sheet.media = new CSSOM.MediaList();
    const media = node.getAttribute("media");
    if (media) mediaTextSet.call(sheet.media, media);
    Object.defineProperty(sheet.media, "_advOwner", { value: () => sheet });
    for (const rule of sheet.cssRules) adopt(rule, sheet);
    hideOwnState(sheet);
    return sheet;
  }
  // WebIDL attributes are prototype accessors, so a sheet has no own enumerable properties
  // (JSON.stringify(sheet) is "{}" in WebKit); node-cssom keeps them as own data properties.
  function hideOwnState(object) {
    for (const key of Object.keys(object)) {
      const d = Object.getOwnPropertyDescriptor(object, key);
      if (d.configurable) Object.defineProperty(object, key, { enumerable: false });
    }
  }

  function isCSSType(node) {
    const type = node.getAttribute("type");
    return type === null || type === "" || type.trim().toLowerCase() === "text/css";
  }

  // HTML 4.2.6 "update a style block": the sheet exists while the element is connected and its
  // type is CSS; a change of its text makes a new sheet (checked lazily against the text). A
  // change of its media attribute keeps the sheet and its MediaList and gives them the new
  // queries (WebKit's HTMLStyleElement::attributeChanged: sheet()->setMediaQueries).
  function styleSheetOf(node) {
    if (!node.rooted || !isCSSType(node)) { node._advSheet = null; return null; }
    const text = node.textContent;
    if (node._advSheet && node._advSheetText === text) {
      const media = node.getAttribute("media");
      if (node._advSheetMedia !== media) {
        node._advSheetMedia = media;
        // Quietly: the attribute's own change is what invalidates style and the trace shows.
        setMediaText(node._advSheet.media, media);
      }
      return node._advSheet;
    }
    node._advSheetText = text;
    node._advSheetMedia = node.getAttribute("media");
    node._advSheet = makeSheet(text, node, null);
    return node._advSheet;
  }
  // HTML 4.2.4 link type "stylesheet" (also "alternate stylesheet"): the address of the sheet a
  // <link> has, or null: it must be connected, have an href and a CSS type, and no `disabled`
  // attribute (HTML 4.6.7: a disabled link has no sheet until the attribute goes).
  function linkAddress(node) {
    if (!node.rooted || node.hasAttribute("disabled") || !isCSSType(node)) return null;
    const rel = (node.getAttribute("rel") || "").toLowerCase().split(/\s+/);
    const href = node.getAttribute("href");
    if (!rel.includes("stylesheet") || !href) return null;
    try { return resolveURL(href, node.ownerDocument.URL); } catch (e) { return null; }
  }
  // Fetched synchronously through the harness's resource loader; a failed or blocked load still
  // gives an empty sheet, as WebKit does.
  function fetchLinkSheet(node, url) {
    node._advSheetHref = url;
    node._advSheetMedia = node.getAttribute("media");
    const text = ctx.host.loadResource(url);
    node._advSheet = makeSheet(typeof text === "string" ? text : "", node, url);
    return typeof text === "string";
  }
  function linkSheetOf(node) {
    const url = linkAddress(node);
    if (url === null) { node._advSheet = null; return null; }
    if (node._advSheet && node._advSheetHref === url && node._advSheetMedia === node.getAttribute("media")) return node._advSheet;
    fetchLinkSheet(node, url);
    return node._advSheet;
  }
  // HTML 4.2.4 "fetch and process the linked resource": a stylesheet link that is inserted, or
  // whose href, rel, type or disabled attribute changes, loads its sheet again and then fires
  // `load`, or `error` when the sheet could not be fetched or a rule blocked it, in a task of
  // its own (HTML 4.6.7 "process the linked resource"); only the latest load fires.
  function linkChanged(node) {
    const hadDisabled = node._advDisabledAttribute === true;
    node._advDisabledAttribute = node.hasAttribute("disabled");
    // WebKit (HTMLLinkElement::setDisabledState): a link whose disabled attribute a script
    // removed is "enabled via script", so its sheet applies even as an alternate one.
    if (hadDisabled && !node._advDisabledAttribute) node._advEnabledViaScript = true;
    const url = linkAddress(node);
    if (url === null) { detach(node); return; }
    detach(node);
    const loaded = fetchLinkSheet(node, url);
    const generation = (node._advLoadGeneration || 0) + 1;
    node._advLoadGeneration = generation;
    const page = node.ownerDocument._advPageId;
    if (page === undefined) return;
    ctx.host.queueTask(page, () => {
      if (node._advLoadGeneration === generation) node._dispatchEvent(new impl.Event(loaded ? "load" : "error"), true);
    }, "link " + (loaded ? "load" : "error"));
  }
  const LINK_ATTRIBUTES = new Set(["href", "rel", "type", "disabled"]);
  Object.defineProperty(impl.HTMLStyleElement.prototype, "sheet", { get() { return styleSheetOf(this); }, configurable: true });
  Object.defineProperty(impl.HTMLLinkElement.prototype, "sheet", { get() { return linkSheetOf(this); }, configurable: true });
  // HTML 4.2.6: a <style>'s disabled is its sheet's (nothing without one); a <link>'s reflects
  // its content attribute (HTML 4.2.4).
  Object.defineProperty(impl.HTMLStyleElement.prototype, "disabled", {
    get() { const sheet = styleSheetOf(this); return sheet ? sheet.disabled : false; },
    set(value) { const sheet = styleSheetOf(this); if (sheet) sheet.disabled = value; },
    enumerable: true, configurable: true,
  });
  Object.defineProperty(impl.HTMLLinkElement.prototype, "disabled", {
    get() { return this.hasAttribute("disabled"); },
    set(value) { if (value) this.setAttribute("disabled", ""); else this.removeAttribute("disabled"); },
    enumerable: true, configurable: true,
  });

  // CSSOM 6.2 "document or shadow root CSS style sheets": in tree order.
  function collectSheets(doc) {
    const out = [];
    const nodes = sheetOwners(doc);
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      if (node.namespaceURI !== "http://www.w3.org/1999/xhtml") continue;
      const sheet = node.localName === "style" ? styleSheetOf(node) : linkSheetOf(node);
      if (sheet) out.push(sheet);
    }
    return out;
  }
  ctx.collectSheets = collectSheets;

  // The sheets whose rules apply (HTML 4.2.4, CSSOM 6.2 "enable a CSS style sheet set"): not
  // disabled, and titled only if of the preferred set (the title of the first titled sheet that
  // is no alternate). An alternate sheet applies only when titled with the preferred set's
  // name, or after a script removed its link's disabled attribute. WebKit reports such sheets
  // as not disabled all the same, so `disabled` alone cannot tell.
  function activeSheets(doc) {
    const sheets = collectSheets(doc);
    let preferred = null;
    for (const sheet of sheets) {
      const title = sheet.ownerNode.getAttribute("title");
      if (title && !isAlternate(sheet.ownerNode)) { preferred = title; break; }
    }
    return sheets.filter((sheet) => {
      if (sheet.disabled) return false;
      const node = sheet.ownerNode;
      if (node._advEnabledViaScript) return true;
      const title = node.getAttribute("title");
      if (isAlternate(node)) return !!title && title === preferred;
      return !title || title === preferred;
    });
  }
  function isAlternate(node) {
    return node.localName === "link" && (node.getAttribute("rel") || "").toLowerCase().split(/\s+/).includes("alternate");
  }
  ctx.activeSheets = activeSheets;

  // The <style> and <link> elements that may own the sheets, in tree order. Finding them walks
  // the whole document (0.1 to 0.3 ms on a 2,000-element page) and sheets are looked up on every
  // style change, so a page document keeps the list (`_advSheetOwners`, set up in `page` below)
  // and the mutation feed keeps it current: an inserted <style> or <link> goes into its place,
  // one no longer in the document is dropped when the list is read, and a subtree holding
  // one makes the list be found again. Other documents (no mutation feed) search every time.
  const OWNERS = "style, link";
  function isOwner(node) { return node.localName === "style" || node.localName === "link"; }
  function holdsOwner(node) { return node.firstChild !== null && node.querySelector(OWNERS) !== null; }
  function sheetOwners(doc) {
    let owners = doc._advSheetOwners;
    if (owners === undefined) return doc.querySelectorAll(OWNERS);
    if (owners === null) {
      owners = Array.prototype.slice.call(doc.querySelectorAll(OWNERS));
      doc._advSheetOwners = owners;
      return owners;
    }
    dropDisconnected(owners, doc);
    return owners;
  }
  function dropDisconnected(owners, doc) {
    let kept = 0;
    for (let i = 0; i < owners.length; i++) {
      const node = owners[i];
      if (node.rooted && node.ownerDocument === doc) owners[kept++] = node;
    }
    owners.length = kept;
  }
  // `node` was just connected: it goes after every owner that precedes it in tree order.
  function insertOwner(owners, node, doc) {
    dropDisconnected(owners, doc);
    const at = owners.indexOf(node);
    if (at >= 0) owners.splice(at, 1);
    let low = 0, high = owners.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (owners[mid].compareDocumentPosition(node) & impl.Node.DOCUMENT_POSITION_FOLLOWING) low = mid + 1; else high = mid;
    }
    owners.splice(low, 0, node);
  }
  function noteInserted(record) {
    const target = record.target;
    const doc = target && (target.nodeType === 9 ? target : target.ownerDocument);
    const owners = doc && doc._advSheetOwners;
    if (!owners) return;
    for (const node of record.addedNodes) {
      if (node.nodeType !== 1 || !node.rooted) continue;
      if (holdsOwner(node)) { doc._advSheetOwners = null; return; }
      if (isOwner(node)) insertOwner(owners, node, doc);
    }
  }
  ctx.parseSheet = (text) => {
    const sheet = parseCSS(text);
    for (const rule of sheet.cssRules) adopt(rule, sheet);
    hideOwnState(sheet);
    return sheet;
  };

  function StyleSheetList() { throw new TypeError("Illegal constructor"); }
  // document.styleSheets (CSSOM 6.2.2): [SameObject], and live: one list per document, whose
  // length and indices are the document's sheets at the time they are read.
  function liveSheetList(doc) {
    if (doc._advStyleSheets) return doc._advStyleSheets;
    const indexOf = (key) => (typeof key === "string" && /^(?:0|[1-9][0-9]*)$/.test(key) ? Number(key) : -1);
    const list = new Proxy(Object.create(StyleSheetList.prototype), {
      get(target, key, receiver) {
        if (key === "length") return collectSheets(doc).length;
        const index = indexOf(key);
        if (index >= 0) return collectSheets(doc)[index];
        return Reflect.get(target, key, receiver);
      },
      has(target, key) {
        const index = indexOf(key);
        return index >= 0 ? index < collectSheets(doc).length : key === "length" || Reflect.has(target, key);
      },
      ownKeys(target) {
        const keys = collectSheets(doc).map((sheet, i) => String(i));
        return keys.concat(["length"], Reflect.ownKeys(target));
      },
      getOwnPropertyDescriptor(target, key) {
        if (key === "length") return { value: collectSheets(doc).length, writable: false, enumerable: false, configurable: true };
        const index = indexOf(key);
        if (index >= 0) {
          const sheet = collectSheets(doc)[index];
          return sheet === undefined ? undefined : { value: sheet, writable: false, enumerable: true, configurable: true };
        }
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
      set() { return false; },
      defineProperty() { return false; },
      deleteProperty(target, key) { return indexOf(key) < 0 && key !== "length" && Reflect.deleteProperty(target, key); },
    });
    Object.defineProperty(doc, "_advStyleSheets", { value: list });
    return list;
  }
  StyleSheetList.prototype.item = function (i) { return this[i] === undefined ? null : this[i]; };
  StyleSheetList.prototype[Symbol.iterator] = Array.prototype[Symbol.iterator];

  // CSSOM 6.1 "remove a CSS style sheet": when a <style> or <link> leaves the document, or a
  // <style>'s text changes, its old sheet is detached (ownerNode null); a new one is made lazily.
  function detach(node) {
    if (node._advSheet) {
      node._advSheet.ownerNode = null;
      node._advSheet = undefined;
    }
  }
  function detachWithin(node) {
    if (node.nodeType !== 1) return;
    if (node.localName === "style" || node.localName === "link") detach(node);
    else if (node.firstChild) { const inner = node.querySelectorAll("style, link"); for (let i = 0; i < inner.length; i++) detach(inner[i]); }
  }
  function linksWithin(node, each) {
    if (node.nodeType !== 1) return;
    if (node.localName === "link") each(node);
    else if (node.firstChild) { const inner = node.querySelectorAll("link"); for (let i = 0; i < inner.length; i++) each(inner[i]); }
  }
  ctx.onMutation((record) => {
    const target = record.target;
    if (record.type === "childList" && record.addedNodes.length > 0) noteInserted(record);
    if (record.type === "childList") for (const node of record.addedNodes) if (node.rooted) linksWithin(node, linkChanged);
    if (record.type === "attributes" && target.localName === "link" && LINK_ATTRIBUTES.has(record.attributeName) && target.namespaceURI === "http://www.w3.org/1999/xhtml") linkChanged(target);
    const parent = target && (target.nodeType === 3 ? target.parentNode : target);
    if (record.type !== "attributes") for (const node of record.removedNodes) detachWithin(node);
    if (parent && parent.localName === "style" && record.type !== "attributes") {
      if (parent.textContent !== parent._advSheetText) detach(parent);
      const doc = parent.ownerDocument;
      if (doc && doc._advSheetLog) doc._advSheetLog.push({ what: "text", sheet: -1, time: ctx.host.now() });
    }
  });

  // The CSS namespace: CSS.escape (CSSOM §2.1 "serialize an identifier") and CSS.supports.
  function cssEscape(value) {
    if (arguments.length === 0) throw new TypeError("Not enough arguments");
    const text = String(value);
    const points = Array.from(text);
    let out = "";
    for (let i = 0; i < points.length; i++) {
      const c = points[i];
      const code = c.codePointAt(0);
      const hexEscape = () => "\\" + code.toString(16) + " ";
      if (code === 0) out += "\uFFFD";
      else if ((code >= 0x1 && code <= 0x1f) || code === 0x7f) out += hexEscape();
      else if (i === 0 && code >= 0x30 && code <= 0x39) out += hexEscape();
      else if (i === 1 && code >= 0x30 && code <= 0x39 && points[0] === "-") out += hexEscape();
      else if (i === 0 && c === "-" && points.length === 1) out += "\\" + c;
      else if (code >= 0x80 || c === "-" || c === "_" || /[0-9A-Za-z]/.test(c)) out += c;
      else out += "\\" + c;
    }
    return out;
  }

  // CSS.supports (CSS Conditional 3 §8.1, §2.2 for the condition grammar). A declaration is
  // supported exactly when element.style would keep it: the same parser and corrections
  // (WebKit's property names, the cascade's own properties), so a script's feature detection and
  // its later style writes agree. A condition combines `( declaration )`, `selector( … )`
  // (whether domino's selector engine compiles it; a relative :has() is judged by its argument),
  // `not`, and one kind of `and`/`or` per level; anything else in parentheses is false, and text
  // that is not a condition at all makes the whole call false.
  const declarationParser = () => ctx.require("domino/lib/cssparser.js").css.Parser;
  // Whether WebKit would keep `name: value` for a property css/declarations.js does not model
  // (a null value: whether it knows the property at all, for a value with var() references).
  ctx.judgeProperty = (name, value) => {
    if (value === null) return webKitKnows(name);
    let kept = false;
    const parser = new (declarationParser())();
    parser.addListener("property", (event) => {
      if (!event.invalid && String(event.property.text).toLowerCase() === name) kept = true;
    });
    parser.parseStyleAttribute(name + ":" + value);
    return kept;
  };
  function supportsDeclaration(property, value) {
    const name = String(property), text = String(value);
    if (!/^-?-?[A-Za-z_][A-Za-z0-9_-]*$/.test(name) || /!\s*important\s*$/i.test(text)) return false;
    if (splitTopLevel(name + ":" + text, ";").length !== 1 || text.trim() === "") return false;
    return ctx.declarations.parseList(name + ":" + text, ctx.judgeProperty).length > 0;
  }
  function supportsSelector(text) {
    if (text.trim() === "") return false;
    return ctx.selectors.isValid(text);
  }
  // true or false, or null when `text` is not a <supports-condition>.
  function supportsCondition(text) {
    let i = 0;
    const skip = () => { while (i < text.length && /\s/.test(text[i])) i++; };
    function inParens() {
      skip();
      const fn = /^([A-Za-z-][A-Za-z0-9-]*)\(/.exec(text.slice(i));
      if (fn) {
        const end = closingBracket(text, i + fn[1].length);
        if (end < 0) return null;
        const argument = text.slice(i + fn[1].length + 1, end);
        i = end + 1;
        return fn[1].toLowerCase() === "selector" ? supportsSelector(argument) : false;
      }
      if (text[i] !== "(") return null;
      const end = closingBracket(text, i);
      if (end < 0) return null;
      const inner = text.slice(i + 1, end);
      i = end + 1;
      const nested = supportsCondition(inner);
      if (nested !== null) return nested;
      const colon = inner.indexOf(":");
      return colon > 0 ? supportsDeclaration(inner.slice(0, colon).trim(), inner.slice(colon + 1).trim()) : false;
    }
    skip();
    let result;
    const not = /^not(?=[\s(])/i.exec(text.slice(i));
    if (not) {
      i += 3;
      const operand = inParens();
      if (operand === null) return null;
      result = !operand;
    } else {
      result = inParens();
      if (result === null) return null;
      skip();
      const first = /^(and|or)(?=[\s(])/i.exec(text.slice(i));
      if (first) {
        const kind = first[1].toLowerCase();
        for (;;) {
          skip();
          const next = /^(and|or)(?=[\s(])/i.exec(text.slice(i));
          if (!next) break;
          if (next[1].toLowerCase() !== kind) return null;
          i += kind.length;
          const operand = inParens();
          if (operand === null) return null;
          result = kind === "and" ? result && operand : result || operand;
        }
      }
    }
    skip();
    return i === text.length ? result : null;
  }
  function supports(first, second) {
    if (arguments.length === 0) throw new TypeError("Not enough arguments");
    if (arguments.length >= 2) return supportsDeclaration(first, second);
    const text = String(first);
    const result = supportsCondition(text);
    if (result !== null) return result;
    return supportsCondition("(" + text + ")") === true;
  }

  const CSSNamespace = {};
  Object.defineProperty(CSSNamespace, "escape", { value: function escape(value) { return cssEscape.apply(null, arguments); }, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(CSSNamespace, "supports", { value: function supports_(first, second) { return supports.apply(null, arguments); }, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(CSSNamespace.supports, "name", { value: "supports" });
  Object.defineProperty(CSSNamespace, Symbol.toStringTag, { value: "CSS", configurable: true });
  ctx.domGlobals.CSS = CSSNamespace;

  for (const [name, value] of Object.entries({
    CSSStyleSheet: CSSOM.CSSStyleSheet, StyleSheet: CSSOM.StyleSheet, CSSRule: CSSOM.CSSRule,
    CSSStyleRule: CSSOM.CSSStyleRule, CSSMediaRule: CSSOM.CSSMediaRule, MediaList: CSSOM.MediaList,
    CSSImportRule: CSSOM.CSSImportRule, CSSFontFaceRule: CSSOM.CSSFontFaceRule,
    CSSKeyframesRule: CSSOM.CSSKeyframesRule, CSSKeyframeRule: CSSOM.CSSKeyframeRule,
    CSSSupportsRule: CSSOM.CSSSupportsRule, StyleSheetList,
  })) if (value) ctx.domGlobals[name] = value;

  return {
    name: "cssom",
    page(p) {
      const doc = p.document;
      Object.defineProperty(doc, "_advSheetLog", { value: [], writable: true });
      Object.defineProperty(doc, "_advSheetOwners", { value: null, writable: true });
      Object.defineProperty(doc, "styleSheets", { get() { return liveSheetList(this); }, configurable: true, enumerable: true });
    },
    // The sheet changes seen since the last call (harness side).
    takeSheetChanges(doc) {
      const log = doc._advSheetLog || [];
      doc._advSheetLog = [];
      return log;
    },
  };
})
