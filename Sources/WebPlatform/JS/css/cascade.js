// layer: css/cascade
// order: 40
// provides: computeStyle, useLayoutSizes
// requires: DOMException, onMutation, style, parseSheet, activeSheets, splitTopLevel, closingBracket, cssValues, declarations, selectors
//
// The cascade (CSS Cascade 4 §6) and getComputedStyle for the properties content scripts judge
// visibility and boxes by: display, visibility, opacity, position, float, width, height, the
// insets, min/max sizes, box-sizing, pointer-events, z-index, color, background-color,
// font-size, margins, paddings, borders, overflow, transform, translate; and background-image,
// where an element's image source shows (with url()s made absolute, as computed values are:
// CSS Values 4 §4.5, against the sheet's URL or the document's base URL). Shorthands in rules and style attributes set their longhands
// (css/declarations.js); values.js says how each computed value follows from the cascaded one.
//
// Origins and importance, lowest first: user-agent, user, author (sheets, then the style
// attribute), author !important (sheets, then style attribute), user !important, user-agent
// !important. Within one band: specificity (Selectors 4 §17), then order of appearance.
// Extension-injected sheets follow WebKit's user style sheets: level "user" is the user origin
// (so its !important beats the page's), level "author" joins the author origin before the
// document's own sheets (WebKit: Style::Scope::collectActiveStyleSheets puts
// ExtensionStyleSheets::injectedAuthorStyleSheets first).
//
// Invalidation: computed styles are cached per element. A change to any sheet, the viewport or
// an injected sheet discards all of them; a DOM change discards only the changed element's
// subtree, unless a rule in force depends on siblings or descendants (+, ~, :has, structural
// pseudo-classes), in which case every DOM change discards all.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  // The modelled properties and their value grammar (values.js, which element.style shares).
  const { INITIAL, INHERITED, PROPERTIES, IMAGE, validate, compute } = ctx.cssValues;
  const declarations = ctx.declarations;

  // MARK: - User-agent sheet (WebKit Source/WebCore/css/html.css, the parts fixtures use)

  const UA_DISPLAY = {
    none: "head script style title meta link base template noscript area param datalist noembed noframes rp",
    block: "html body div p section article header footer nav aside main address blockquote figure figcaption form fieldset legend h1 h2 h3 h4 h5 h6 hr pre ul ol menu dir dl dt dd details summary center hgroup search optgroup frameset frame",
    "list-item": "li",
    table: "table", "table-row": "tr", "table-cell": "td th", "table-row-group": "tbody", "table-header-group": "thead",
    "table-footer-group": "tfoot", "table-column": "col", "table-column-group": "colgroup", "table-caption": "caption",
    "inline-block": "input button select textarea meter progress marquee",
    ruby: "ruby", contents: "slot",
  };
  const uaDisplay = new Map();
  for (const [display, names] of Object.entries(UA_DISPLAY)) for (const name of names.split(" ")) uaDisplay.set(name, display);

  // The box and font declarations of html.css a content script meets when it reads margins,
  // paddings and font sizes (block margins as the margin-block of a horizontal writing mode).
  const UA_BOXES = new Map();
  const uaBox = (names, text) => { for (const name of names.split(" ")) UA_BOXES.set(name, declarations.parseList(text, () => true).map((e) => [e.name, e.value])); };
  uaBox("body", "margin: 8px");
  uaBox("p dl", "margin: 1em 0");
  uaBox("ul ol menu dir", "margin: 1em 0; padding-left: 40px");
  uaBox("blockquote figure", "margin: 1em 40px");
  uaBox("pre", "margin: 1em 0");
  uaBox("dd", "margin-left: 40px");
  uaBox("h1", "font-size: 2em; margin: 0.67em 0");
  uaBox("h2", "font-size: 1.5em; margin: 0.83em 0");
  uaBox("h3", "font-size: 1.17em; margin: 1em 0");
  uaBox("h4", "margin: 1.33em 0");
  uaBox("h5", "font-size: 0.83em; margin: 1.67em 0");
  uaBox("h6", "font-size: 0.67em; margin: 2.33em 0");
  uaBox("hr", "margin: 0.5em auto; border: 1px inset");
  uaBox("fieldset", "margin: 0 2px; padding: 0.35em 0.75em 0.625em; border: 2px groove");
  uaBox("small", "font-size: smaller");
  uaBox("big", "font-size: larger");
  uaBox("sub sup", "font-size: smaller");

  // UA declarations for an element: [property, value, important].
  function uaDeclarations(element) {
    const out = [];
    const name = element.localName;
    if (element.namespaceURI === "http://www.w3.org/1999/xhtml") {
      const display = uaDisplay.get(name);
      if (display) out.push(["display", display]);
      const box = UA_BOXES.get(name);
      if (box) for (const declaration of box) out.push(declaration);
      if (name === "dialog") out.push(["display", element.hasAttribute("open") ? "block" : "none"], ["position", "absolute"]);
      if (name === "audio" && !element.hasAttribute("controls")) out.push(["display", "none"]);
      if (name === "input" && (element.getAttribute("type") || "").toLowerCase() === "hidden") out.push(["display", "none", true]);
      if (element.hasAttribute("hidden")) out.push(["display", "none"]);
      // html.css: a list inside a list has no block margins.
      if (NESTED_LISTS.has(name) && element.parentNode && element.parentNode.closest && element.parentNode.closest("ul, ol, menu, dir")) {
        out.push(["margin-top", "0px"], ["margin-bottom", "0px"]);
      }
    }
    return out;
  }
  const NESTED_LISTS = new Set(["ul", "ol", "menu", "dir"]);

  // MARK: - Selectors: specificity and the rightmost compound

  // Splits at top-level commas (outside parentheses, brackets, strings and comments; values.js).
  const splitTopLevel = ctx.splitTopLevel;

  // Selectors 4 §17: (ids, classes/attributes/pseudo-classes, types/pseudo-elements);
  // :is/:not/:has take their most specific argument, :where counts nothing.
  function specificity(selector) {
    let a = 0, b = 0, c = 0;
    const s = selector;
    for (let i = 0; i < s.length;) {
      const ch = s[i];
      if (ch === "\\") { i += 2; continue; }
      if (ch === "#") { a++; i = skipIdent(s, i + 1); continue; }
      if (ch === ".") { b++; i = skipIdent(s, i + 1); continue; }
      if (ch === "[") { b++; i = skipTo(s, i); continue; }
      if (ch === ":") {
        const pseudoElement = s[i + 1] === ":";
        const start = pseudoElement ? i + 2 : i + 1;
        const end = skipIdent(s, start);
        const name = s.slice(start, end).toLowerCase();
        let args = null, next = end;
        if (s[end] === "(") { next = skipTo(s, end); args = s.slice(end + 1, next - 1); }
        if (pseudoElement || ["before", "after", "first-line", "first-letter"].includes(name)) c++;
        else if (name === "where") { /* zero */ }
        else if (name === "is" || name === "not" || name === "has" || name === "matches" || name === "-webkit-any") {
          const best = maxSpecificity(splitTopLevel(args || "", ","));
          a += best[0]; b += best[1]; c += best[2];
        } else if ((name === "nth-child" || name === "nth-last-child") && args && /\sof\s/i.test(args)) {
          const best = maxSpecificity(splitTopLevel(args.slice(args.search(/\sof\s/i) + 4), ","));
          b += 1 + best[1]; a += best[0]; c += best[2];
        } else b++;
        i = next;
        continue;
      }
      if (/[a-zA-Z_\u00a0-\uffff-]/.test(ch) && (i === 0 || /[\s>+~(,]/.test(s[i - 1]))) { c++; i = skipIdent(s, i); continue; }
      i++;
    }
    return [a, b, c];
  }
  function maxSpecificity(list) {
    let best = [0, 0, 0];
    for (const item of list) {
      const s = specificity(item);
      if (s[0] > best[0] || (s[0] === best[0] && (s[1] > best[1] || (s[1] === best[1] && s[2] > best[2])))) best = s;
    }
    return best;
  }
  function skipIdent(s, i) {
    while (i < s.length && (/[a-zA-Z0-9_\u00a0-\uffff-]/.test(s[i]) || s[i] === "\\")) i += s[i] === "\\" ? 2 : 1;
    return i;
  }
  // The index just after the bracket closing the one at `i` (the end of `s` when unclosed).
  function skipTo(s, i) {
    const end = ctx.closingBracket(s, i);
    return end < 0 ? s.length : end + 1;
  }

  // The plain requirements of a selector's rightmost compound (outside any parentheses or
  // brackets): its type, id and classes. Checking them first is far cheaper than running the
  // compiled selector, and rejects most candidates of a bucket.
  function rightmostCompound(selector) {
    let depth = 0, start = 0;
    for (let i = 0; i < selector.length; i++) {
      const c = selector[i];
      if (c === "\\") { i++; continue; }
      if (c === "(" || c === "[") depth++;
      else if (c === ")" || c === "]") depth--;
      else if (depth === 0 && (c === " " || c === ">" || c === "+" || c === "~")) start = i + 1;
    }
    const compound = selector.slice(start);
    let plain = "", d = 0;
    for (let i = 0; i < compound.length; i++) {
      const c = compound[i];
      if (c === "(" || c === "[") d++;
      plain += d === 0 ? c : " ";
      if (c === ")" || c === "]") d--;
    }
    return plain;
  }
  function requirements(selector) {
    const plain = rightmostCompound(selector);
    if (plain.includes("\\")) return { tag: null, id: null, classes: [] };
    const tag = /^([a-zA-Z][a-zA-Z0-9-]*)/.exec(plain);
    const id = /#([a-zA-Z0-9_\u00a0-\uffff-]+)/.exec(plain);
    const classes = [];
    const re = /\.([a-zA-Z0-9_\u00a0-\uffff-]+)/g;
    let m;
    while ((m = re.exec(plain))) classes.push(m[1]);
    return { tag: tag ? tag[1].toLowerCase() : null, id: id ? id[1] : null, classes };
  }

  // The bucket a selector lives in: its rightmost compound's id, else a class, else its type.
  function bucketKey(selector) {
    const plain = rightmostCompound(selector);
    let m = /#((?:[a-zA-Z0-9_\u00a0-\uffff-])+)/.exec(plain);
    if (m) return "#" + m[1];
    m = /\.((?:[a-zA-Z0-9_\u00a0-\uffff-])+)/.exec(plain);
    if (m) return "." + m[1];
    m = /^([a-zA-Z][a-zA-Z0-9-]*)/.exec(plain);
    if (m) return m[1].toLowerCase();
    return "*";
  }
  const CONTEXTUAL = /[+~]|:has\(|:nth-|:first-|:last-|:only-|:empty|:root|:focus-within/i;

  // A selector's test from the one selector engine (dom/selectors.js), null when not valid.
  function matcher(selector) {
    return ctx.selectors.test(selector);
  }
  function matches(element, selector) {
    const test = matcher(selector);
    return test !== null && test(element);
  }

  // MARK: - Media queries (Media Queries 4) against the page's viewport

  function evaluateMedia(text, viewport) {
    const queries = splitTopLevel(String(text), ",");
    if (queries.length === 0) return true;
    return queries.some((query) => evaluateQuery(query.toLowerCase(), viewport));
  }
  function evaluateQuery(query, viewport) {
    let negate = false;
    let rest = query.trim();
    if (rest.startsWith("not ")) { negate = true; rest = rest.slice(4).trim(); }
    else if (rest.startsWith("only ")) rest = rest.slice(5).trim();
    const parts = rest.split(/\s+and\s+/);
    let result = true;
    for (const part of parts) {
      const p = part.trim();
      if (p.startsWith("(")) result = result && evaluateFeature(p.slice(1, p.lastIndexOf(")")).trim(), viewport);
      else if (p === "all" || p === "screen") result = result && true;
      else result = false;
    }
    return negate ? !result : result;
  }
  function toPx(value) {
    const m = /^(-?(?:\d+\.?\d*|\.\d+))(px|em|rem)?$/.exec(value.trim());
    if (!m) return NaN;
    const n = parseFloat(m[1]);
    return m[2] === "em" || m[2] === "rem" ? n * 16 : n;
  }
  function evaluateFeature(feature, viewport) {
    const range = /^([a-z-]+)\s*(<=|>=|<|>|=)\s*([^<>=]+)$/.exec(feature) || null;
    const reverse = /^([^<>=]+?)\s*(<=|>=|<|>|=)\s*([a-z-]+)(?:\s*(<=|>=|<|>)\s*([^<>=]+))?$/.exec(feature);
    const dims = { width: viewport.width, height: viewport.height };
    const compare = (a, op, b) => op === "<" ? a < b : op === "<=" ? a <= b : op === ">" ? a > b : op === ">=" ? a >= b : a === b;
    if (range && dims[range[1]] !== undefined) return compare(dims[range[1]], range[2], toPx(range[3]));
    if (reverse && dims[reverse[3]] !== undefined) {
      const flip = { "<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=" };
      let ok = compare(dims[reverse[3]], flip[reverse[2]], toPx(reverse[1]));
      if (reverse[4]) ok = ok && compare(dims[reverse[3]], reverse[4], toPx(reverse[5]));
      return ok;
    }
    const colon = feature.indexOf(":");
    const name = (colon < 0 ? feature : feature.slice(0, colon)).trim();
    const value = colon < 0 ? null : feature.slice(colon + 1).trim();
    switch (name) {
      case "width": return value === null ? viewport.width > 0 : viewport.width === toPx(value);
      case "min-width": return viewport.width >= toPx(value);
      case "max-width": return viewport.width <= toPx(value);
      case "height": return value === null ? viewport.height > 0 : viewport.height === toPx(value);
      case "min-height": return viewport.height >= toPx(value);
      case "max-height": return viewport.height <= toPx(value);
      case "orientation": return value === (viewport.height >= viewport.width ? "portrait" : "landscape");
      case "prefers-color-scheme": return value === null ? true : value === viewport.colorScheme;
      case "prefers-reduced-motion": return value === null ? false : value === "no-preference";
      case "hover": case "any-hover": return value === null || value === "hover";
      case "pointer": case "any-pointer": return value === null || value === "fine";
      case "color": return true;
      case "monochrome": return value === null ? false : toPx(value) === 0;
    }
    return false;
  }

  // MARK: - Rule index per document

  function addRules(index, rules, origin, sheetOrder, viewport, base) {
    for (const rule of rules) {
      if (rule.type === 4 || rule.constructor && rule.constructor.name === "CSSMediaRule") {
        if (evaluateMedia(rule.media.mediaText, viewport)) addRules(index, rule.cssRules, origin, sheetOrder, viewport, base);
        continue;
      }
      if (rule.cssRules && rule.constructor && rule.constructor.name === "CSSSupportsRule") { addRules(index, rule.cssRules, origin, sheetOrder, viewport, base); continue; }
      if (typeof rule.selectorText !== "string" || !rule.style) continue;
      const style = rule.style._advTarget || rule.style;
      const found = [];
      for (let i = 0; i < style.length; i++) {
        const name = style[i];
        if (isCustom(name)) { found.push([name, style.getPropertyValue(name), style._importants[name] === "important"]); continue; }
        if (!INITIAL.hasOwnProperty(name) && !declarations.isShorthand(name)) continue;
        const longhands = declarations.expand(name, style[name]);
        if (longhands === null) continue;
        for (const [longhand, specified] of longhands) {
          if (HAS_VAR.test(specified)) { pendingDeclarations(longhand, specified, style._importants[name] === "important", base, found); continue; }
          if (!INITIAL.hasOwnProperty(longhand)) continue;
          const value = validate(longhand, specified, base);
          if (value !== null) found.push([longhand, value, style._importants[name] === "important"]);
        }
      }
      if (found.length === 0) continue;
      for (const facts of selectorListFacts(rule.selectorText)) {
        if (facts.contextual) index.contextual = true;
        const entry = { selector: facts.selector, specificity: facts.specificity, order: index.order++, origin, declarations: found, requires: facts.requires };
        let bucket = index.buckets.get(facts.key);
        if (!bucket) index.buckets.set(facts.key, bucket = []);
        bucket.push(entry);
      }
    }
  }

  // MARK: - Custom properties and var() (CSS Variables 1)
  //
  // A custom property (`--name`) cascades like any property, takes any value and is inherited;
  // its computed value is its text with the var() references in it substituted (§2, §3). A
  // declaration of a modelled property whose value has var() in it is valid when parsed and
  // is judged once substituted, at computed-value time: a reference to a custom property that
  // is not set (and has no fallback), a cycle, or a value the property does not take make it
  // invalid at computed-value time, and the property is then `unset` (§3.1). A shorthand with
  // var() gives each of its longhands the same pending value, expanded after substitution.
  const HAS_VAR = /var\(/i;
  const CUSTOM = Symbol("custom properties");
  const isCustom = (name) => name.charCodeAt(0) === 45 && name.charCodeAt(1) === 45 && name.length > 2;
  // The declarations a value with var() sets: one pending value for `name`, or for each
  // modelled longhand of the shorthand `name`.
  function pendingDeclarations(name, text, important, base, out) {
    const shorthand = declarations.isShorthand(name);
    const pending = { text, shorthand: shorthand ? name : null, base };
    for (const target of shorthand ? declarations.longhands(name) : [name]) {
      if (INITIAL.hasOwnProperty(target)) out.push([target, pending, important]);
    }
  }
  // The index of the first comma of `text` outside brackets and strings, or -1.
  function topLevelComma(text) {
    let depth = 0, quote = null;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quote !== null) { if (c === "\\") i++; else if (c === quote) quote = null; continue; }
      if (c === "\\") i++;
      else if (c === "\"" || c === "'") quote = c;
      else if (c === "(" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === "]" || c === "}") depth--;
      else if (c === "," && depth === 0) return i;
    }
    return -1;
  }
  // `text` with each var(--name[, fallback]) replaced by `lookup(name)`, or by its fallback
  // (substituted in turn) when that is undefined; null when a reference has neither, or the
  // text is not well formed.
  function substituteVars(text, lookup, depth) {
    if (depth > 32) return null;
    const reference = /var\(/gi;
    let out = "", from = 0, match;
    while ((match = reference.exec(text)) !== null) {
      if (match.index > 0 && /[\w-]/.test(text[match.index - 1])) continue;
      const open = match.index + 3;
      const close = ctx.closingBracket(text, open);
      if (close < 0) return null;
      const inside = text.slice(open + 1, close);
      const comma = topLevelComma(inside);
      const name = (comma < 0 ? inside : inside.slice(0, comma)).trim();
      if (!isCustom(name)) return null;
      let value = lookup(name);
      if (value === undefined) {
        if (comma < 0) return null;
        value = substituteVars(inside.slice(comma + 1), lookup, depth + 1);
        if (value === null) return null;
      }
      out += text.slice(from, match.index) + value;
      from = close + 1;
      reference.lastIndex = from;
    }
    return out + text.slice(from);
  }
  // The custom properties of an element: its own winning declarations (`own`: [name, text]),
  // resolved against each other and the inherited ones (`inherited`, its parent's map, through
  // the prototype); a CSS-wide keyword other than `initial` inherits, `initial` and an invalid
  // value leave the property unset (the guaranteed-invalid value, undefined here).
  function resolveCustomProperties(own, inherited) {
    const map = Object.create(inherited);
    const raw = new Map(own);
    const state = new Map();
    const cyclic = new Set();
    const lookup = (name) => (raw.has(name) ? resolve(name) : map[name]);
    function resolve(name) {
      const step = state.get(name);
      if (step === 2) return map[name];
      if (step === 1) { cyclic.add(name); return undefined; }
      state.set(name, 1);
      const text = raw.get(name).trim();
      const keyword = text.toLowerCase();
      let value;
      if (keyword === "initial") value = null;
      else if (keyword === "inherit" || keyword === "unset" || keyword === "revert" || keyword === "revert-layer") value = inherited ? inherited[name] : undefined;
      else value = HAS_VAR.test(text) ? substituteVars(text, lookup, 0) : text;
      if (cyclic.has(name) || value === null) value = undefined;
      state.set(name, 2);
      map[name] = value === undefined ? undefined : value.trim();
      return map[name];
    }
    for (const [name] of own) resolve(name);
    return map;
  }
  // A pending value of `property`, substituted and judged: the value, or "unset".
  function resolvePending(property, pending, custom) {
    const text = substituteVars(pending.text, (name) => (custom ? custom[name] : undefined), 0);
    if (text === null || text.trim() === "") return "unset";
    const entries = declarations.expand(pending.shorthand || property, text.trim());
    const entry = entries && entries.find((e) => e[0] === property);
    if (!entry || HAS_VAR.test(entry[1])) return "unset";
    const value = validate(property, entry[1], pending.base);
    return value === null ? "unset" : value;
  }

  // What the index needs of a rule's selector list depends on its text alone, so it is worked
  // out once per realm: the same sheets come back on every page of a session (an extension's
  // user sheets, a site's own), and an index is rebuilt whenever any sheet changes.
  const selectorLists = new Map();
  function selectorListFacts(selectorText) {
    let list = selectorLists.get(selectorText);
    if (list === undefined) {
      list = [];
      for (const selector of splitTopLevel(selectorText, ",")) {
        if (matcher(selector) === null) continue;
        list.push(Object.freeze({ selector, specificity: specificity(selector), requires: requirements(selector), key: bucketKey(selector), contextual: CONTEXTUAL.test(selector) }));
      }
      if (selectorLists.size > 20000) selectorLists.clear();
      selectorLists.set(selectorText, list);
    }
    return list;
  }

  function buildIndex(doc) {
    const state = doc._advStyle;
    const index = { buckets: new Map(), order: 0, contextual: false };
    const viewport = state.viewport;
    const documentBase = doc.baseURI;
    for (const user of state.userSheets) if (user.level === "user") addRules(index, user.sheet.cssRules, 1, 0, viewport, documentBase);
    for (const user of state.userSheets) if (user.level === "author") addRules(index, user.sheet.cssRules, 2, 0, viewport, documentBase);
    for (const sheet of ctx.activeSheets(doc)) {
      if (sheet.media && sheet.media.length > 0 && !evaluateMedia(sheet.media.mediaText, viewport)) continue;
      addRules(index, sheet.cssRules, 2, 0, viewport, sheet.href || documentBase);
    }
    return index;
  }

  // MARK: - Computing

  // The style attribute's declarations for the cascaded properties, as element.style keeps them
  // (a later declaration replaces an earlier one unless the earlier is !important and the later
  // is not, CSS Cascade 4 §6.4).
  const inlineCache = new Map();
  function inlineDeclarations(text, base) {
    // url()s resolve against the document's base URL, so it is part of the key.
    const key = IMAGE.test(text) ? base + "\n" + text : text;
    let parsed = inlineCache.get(key);
    if (parsed) return parsed;
    parsed = [];
    for (const entry of declarations.parseList(text, () => true)) {
      if (isCustom(entry.name)) { parsed.push([entry.name, entry.value, entry.important]); continue; }
      if (HAS_VAR.test(entry.value)) { pendingDeclarations(entry.name, entry.value, entry.important, base, parsed); continue; }
      if (!INITIAL.hasOwnProperty(entry.name)) continue;
      const value = validate(entry.name, entry.value, base);
      if (value !== null) parsed.push([entry.name, value, entry.important]);
    }
    if (inlineCache.size > 5000) inlineCache.clear();
    inlineCache.set(key, parsed);
    return parsed;
  }

  // Cascade bands (CSS Cascade 4 §6.1), low to high.
  const BAND = { uaNormal: 0, userNormal: 1, authorNormal: 2, inlineNormal: 3, authorImportant: 4, inlineImportant: 5, userImportant: 6, uaImportant: 7 };

  function styleState(doc) {
    return doc._advStyle;
  }

  function computeStyle(element) {
    const doc = element.ownerDocument;
    const state = styleState(doc);
    if (!state) return null;
    if (state.sheetsGeneration !== ctx.style.version || state.indexedVersion !== state.sheetsVersion || !state.index) {
      state.index = buildIndex(doc);
      state.sheetsGeneration = ctx.style.version;
      state.indexedVersion = state.sheetsVersion;
      state.generation++;
    }
    const cached = element._advComputed;
    if (cached && cached.generation === state.generation) return cached.values;
    // Ancestors whose values are stale are resolved first, outermost first, so that a deep tree
    // (one a script built, which the parser's depth cap does not limit) costs no deep recursion.
    const stale = [];
    for (let node = element.parentNode; node && node.nodeType === 1; node = node.parentNode) {
      const computed = node._advComputed;
      if (computed && computed.generation === state.generation) break;
      stale.push(node);
    }
    for (let i = stale.length - 1; i >= 0; i--) resolveStyle(stale[i], doc, state);
    return resolveStyle(element, doc, state);
  }

  // The computed values of `element`, whose parent's are up to date (computeStyle).
  function resolveStyle(element, doc, state) {
    state.recomputed++;

    // Winner per property: [band, a, b, c, order, value].
    const winners = Object.create(null);
    let hasCustom = false, hasPending = false;
    function offer(property, value, band, spec, order) {
      if (typeof value !== "string") hasPending = true;
      else if (isCustom(property)) hasCustom = true;
      const current = winners[property];
      if (current) {
        if (current[0] > band) return;
        if (current[0] === band) {
          if (current[1] > spec[0] || (current[1] === spec[0] && (current[2] > spec[1] || (current[2] === spec[1] && (current[3] > spec[2] || (current[3] === spec[2] && current[4] > order)))))) return;
        }
      }
      winners[property] = [band, spec[0], spec[1], spec[2], order, value];
    }
    const ZERO = [0, 0, 0];
    const ua = uaDeclarations(element);
    for (let i = 0; i < ua.length; i++) offer(ua[i][0], ua[i][1], ua[i][2] ? BAND.uaImportant : BAND.uaNormal, ZERO, i);

    const index = state.index;
    const id = element.getAttribute("id");
    const keys = ["*", element.localName];
    if (id) keys.push("#" + id);
    const classes = element.getAttribute("class");
    const classSet = new Set();
    if (classes) for (const name of classes.split(/\s+/)) if (name) { keys.push("." + name); classSet.add(name); }
    const localName = element.localName;
    for (const key of keys) {
      const bucket = index.buckets.get(key);
      if (!bucket) continue;
      for (const entry of bucket) {
        const needs = entry.requires;
        if ((needs.tag !== null && needs.tag !== localName && element.isHTML) || (needs.id !== null && needs.id !== id)) continue;
        let missing = false;
        for (const name of needs.classes) if (!classSet.has(name)) { missing = true; break; }
        if (missing || !matches(element, entry.selector)) continue;
        for (const [property, value, important] of entry.declarations) {
          const band = entry.origin === 1 ? (important ? BAND.userImportant : BAND.userNormal) : (important ? BAND.authorImportant : BAND.authorNormal);
          offer(property, value, band, entry.specificity, entry.order);
        }
      }
    }
    const styleText = element.getAttribute("style");
    if (styleText) {
      for (const [property, value, important] of inlineDeclarations(styleText, IMAGE.test(styleText) ? doc.baseURI : "")) {
        offer(property, value, important ? BAND.inlineImportant : BAND.inlineNormal, ZERO, 0);
      }
    }

    const parent = element.parentNode && element.parentNode.nodeType === 1 ? element.parentNode : null;
    const parentValues = parent ? computeStyle(parent) : null;
    const values = Object.create(null);
    let custom = (parentValues && parentValues[CUSTOM]) || null;
    if (hasCustom) {
      const own = [];
      for (const name of Object.keys(winners)) if (isCustom(name) && typeof winners[name][5] === "string") own.push([name, winners[name][5]]);
      custom = resolveCustomProperties(own, custom);
    }
    if (custom) values[CUSTOM] = custom;
    if (hasPending) {
      for (const property of PROPERTIES) {
        const winner = winners[property];
        if (winner && typeof winner[5] !== "string") winner[5] = resolvePending(property, winner[5], custom);
      }
    }
    for (const property of PROPERTIES) {
      const winner = winners[property];
      let value = winner ? winner[5] : (INHERITED.has(property) ? "inherit" : "initial");
      if (value === "unset" || value === "revert" || value === "revert-layer") value = INHERITED.has(property) ? "inherit" : "initial";
      if (value === "inherit") value = parentValues ? parentValues[property] : INITIAL[property];
      if (value === "initial") value = INITIAL[property];
      values[property] = value;
    }
    // CSS Display 3 §2.7 blockification: the root, absolutely positioned and floated boxes,
    // and children of flex and grid containers.
    const parentDisplay = parentValues ? parentValues.display : "block";
    if (!parent || values.position === "absolute" || values.position === "fixed" || values.float !== "none" ||
        parentDisplay === "flex" || parentDisplay === "inline-flex" || parentDisplay === "grid" || parentDisplay === "inline-grid") {
      values.display = blockify(values.display, !parent);
    }
    const root = doc.documentElement;
    const rootValues = root && root !== element && root.nodeType === 1 ? computeStyle(root) : null;
    compute(values, {
      parentFontSize: parentValues ? parseFloat(parentValues["font-size"]) : 16,
      rootFontSize: rootValues ? parseFloat(rootValues["font-size"]) : null,
      parentColor: parentValues ? parentValues.color : "rgb(0, 0, 0)",
      viewport: state.viewport,
    });
    // CSS 2.1 §9.7: a positioned box does not float.
    if (values.position === "absolute" || values.position === "fixed") values.float = "none";
    element._advComputed = { generation: state.generation, values };
    return values;
  }
  function blockify(display, isRoot) {
    switch (display) {
      case "inline": case "inline-block": case "table-row": case "table-cell": case "table-row-group": case "table-header-group":
      case "table-footer-group": case "table-column": case "table-column-group": case "table-caption": case "ruby": case "ruby-text":
      case "-webkit-inline-box": return display === "-webkit-inline-box" ? "-webkit-box" : "block";
      case "inline-flex": return "flex";
      case "inline-grid": return "grid";
      case "inline-table": return "table";
      case "contents": return isRoot ? "block" : "contents";
    }
    return display;
  }

  // MARK: - Invalidation

  function touchesSheets(n) {
    return n && n.nodeType === 1 && (n.localName === "style" || n.localName === "link" || (n.firstChild && n.querySelector && n.querySelector("style, link")));
  }
  function invalidateSubtree(node) {
    // Written even where there is nothing to drop: skipping the write for elements that never
    // had a cached style (a read first) made every later style computation of inserted elements
    // slower (mutation_cost_us 81 -> 93 µs).
    // A walk in tree order rather than a recursion: a subtree a script built can be deeper
    // than the call stack.
    if (node.nodeType === 1) node._advComputed = undefined;
    let current = node.firstChild;
    while (current) {
      if (current.nodeType === 1) {
        current._advComputed = undefined;
        if (current.firstChild) { current = current.firstChild; continue; }
      }
      while (current !== node && !current.nextSibling) current = current.parentNode;
      if (current === node) break;
      current = current.nextSibling;
    }
  }
  ctx.onMutation((record) => {
    const target = record.target;
    const doc = target && (target.nodeType === 9 ? target : target.ownerDocument);
    const state = doc && doc._advStyle;
    if (!state) return;
    const element = target.nodeType === 3 ? target.parentNode : target;
    // Anything touching a <style> or <link> changes the set of sheets.
    if ((element && (element.localName === "style" || element.localName === "link")) ||
        record.addedNodes.some(touchesSheets) || record.removedNodes.some(touchesSheets)) {
      ctx.style.changed(doc);
      return;
    }
    if (record.type === "characterData") { if (state.index && state.index.contextual) state.generation++; return; }
    if (state.index && state.index.contextual) { state.generation++; return; }
    if (record.type === "attributes") { invalidateSubtree(target); return; }
    for (const node of record.addedNodes) invalidateSubtree(node);
    for (const node of record.removedNodes) invalidateSubtree(node);
  });

  // A user style sheet is parsed once per text and shared by every page it is injected into:
  // no page can reach it (it is in no document's styleSheets), and the cascade only reads it.
  // A manifest's CSS comes back on every navigation.
  const userSheets = new Map();
  function userSheet(css) {
    let sheet = userSheets.get(css);
    if (sheet === undefined) {
      if (userSheets.size >= 64) userSheets.clear();
      sheet = ctx.parseSheet(css);
      userSheets.set(css, sheet);
    }
    return sheet;
  }

  // MARK: - CSSStyleDeclaration for computed values (read-only, live)

  // CSSOM §9 resolved values: sizes, margins, paddings and insets of a rendered box are used
  // values and a transform is a matrix of the box's size, which only layout knows; layout
  // (layout/geometry.js) needs computed styles, so it loads above this layer and hands its
  // measure down through useLayoutSizes (null where the resolved value is the computed one).
  // Until it does: the computed values.
  let usedSize = () => null;
  ctx.useLayoutSizes = (measure) => { usedSize = measure; };

  function camel(name) { return name.replace(/-([a-z])/g, (m, c) => c.toUpperCase()); }
  // The resolved values of the shorthands over computed longhands (CSSOM §9: the shortest
  // serialization WebKit gives, one to four sides; a side of border as width, style, color).
  const SIDES = ["top", "right", "bottom", "left"];
  const collapse4 = ([t, r, b, l]) => (l === r ? (b === t ? (r === t ? t : t + " " + r) : t + " " + r + " " + b) : t + " " + r + " " + b + " " + l);
  // Each takes `v(longhand)`, the longhand's resolved value.
  const sideLine = (side) => (v) => ["width", "style", "color"].map((part) => v("border-" + side + "-" + part)).join(" ");
  const COMPUTED_SHORTHANDS = {
    overflow: (v) => (v("overflow-x") === v("overflow-y") ? v("overflow-x") : v("overflow-x") + " " + v("overflow-y")),
    margin: (v) => collapse4(SIDES.map((side) => v("margin-" + side))),
    padding: (v) => collapse4(SIDES.map((side) => v("padding-" + side))),
    "border-width": (v) => collapse4(SIDES.map((side) => v("border-" + side + "-width"))),
    "border-style": (v) => collapse4(SIDES.map((side) => v("border-" + side + "-style"))),
    "border-color": (v) => collapse4(SIDES.map((side) => v("border-" + side + "-color"))),
    border: (v) => { const sides = SIDES.map((side) => sideLine(side)(v)); return sides.every((line) => line === sides[0]) ? sides[0] : ""; },
  };
  for (const side of SIDES) COMPUTED_SHORTHANDS["border-" + side] = sideLine(side);
  function CSSStyleDeclarationComputed() { throw new TypeError("Illegal constructor"); }
  const computedProto = CSSStyleDeclarationComputed.prototype;
  function valuesOf(declaration) {
    const element = declaration._advElement;
    if (!element.rooted) return null;
    return computeStyle(element);
  }
  // A disconnected element has no computed style: WebKit returns "" for every property.
  computedProto.getPropertyValue = function getPropertyValue(name) {
    const values = valuesOf(this);
    if (isCustom(String(name))) {
      const value = values && values[CUSTOM] ? values[CUSTOM][String(name)] : undefined;
      return value === undefined ? "" : value;
    }
    name = String(name).toLowerCase();
    if (!values) return "";
    const element = this._advElement;
    const resolved = (longhand) => {
      const used = usedSize(element, longhand, values);
      return used !== null ? used : values[longhand];
    };
    if (COMPUTED_SHORTHANDS[name]) return COMPUTED_SHORTHANDS[name](resolved);
    return name in values ? resolved(name) : "";
  };
  computedProto.getPropertyPriority = function () { return ""; };
  computedProto.item = function (i) { return PROPERTIES[i] || ""; };
  computedProto.setProperty = computedProto.removeProperty = function () {
    throw new ctx.DOMException("The object can not be modified.", "NoModificationAllowedError");
  };
  Object.defineProperty(computedProto, "length", { get() { return PROPERTIES.length; }, configurable: true });
  Object.defineProperty(computedProto, "cssText", { get() { return ""; }, set() { throw new ctx.DOMException("The object can not be modified.", "NoModificationAllowedError"); }, configurable: true });
  Object.defineProperty(computedProto, "parentRule", { get() { return null; }, configurable: true });
  for (const property of PROPERTIES) {
    const get = function () { return this.getPropertyValue(property); };
    Object.defineProperty(computedProto, property, { get, configurable: true });
    if (camel(property) !== property) Object.defineProperty(computedProto, camel(property), { get, configurable: true });
  }
  Object.defineProperty(computedProto, "cssFloat", { get() { return this.getPropertyValue("float"); }, configurable: true });
  for (const name of Object.keys(COMPUTED_SHORTHANDS)) {
    const get = function () { return this.getPropertyValue(name); };
    Object.defineProperty(computedProto, name, { get, configurable: true });
    if (camel(name) !== name) Object.defineProperty(computedProto, camel(name), { get, configurable: true });
  }
  Object.defineProperty(computedProto, Symbol.toStringTag, { value: "CSSStyleDeclaration", configurable: true });

  function getComputedStyle(element, pseudo) {
    if (!element || element.nodeType !== 1) throw new TypeError("Argument 1 ('element') to Window.getComputedStyle must be an instance of Element");
    const declaration = Object.create(computedProto);
    Object.defineProperty(declaration, "_advElement", { value: element });
    return declaration;
  }

  // MARK: - matchMedia

  function MediaQueryList() { throw new TypeError("Illegal constructor"); }
  function matchMedia(doc, query) {
    const list = Object.create(MediaQueryList.prototype);
    const target = new ctx.EventTarget();
    Object.defineProperties(list, {
      _advDoc: { value: doc }, _advTarget: { value: target }, _advMatched: { value: null, writable: true },
      media: { value: String(query), enumerable: true },
    });
    list._advMatched = list.matches;
    // Held strongly for the page's lifetime: a weak reference would make `change` delivery
    // depend on garbage collection, and runs must be deterministic.
    doc._advStyle.mediaLists.push(list);
    return list;
  }
  Object.defineProperty(MediaQueryList.prototype, "matches", { get() { return evaluateMedia(this.media, this._advDoc._advStyle.viewport); }, configurable: true });
  MediaQueryList.prototype.addEventListener = function (type, listener, options) { this._advTarget.addEventListener(type, listener, options); };
  MediaQueryList.prototype.removeEventListener = function (type, listener, options) { this._advTarget.removeEventListener(type, listener, options); };
  MediaQueryList.prototype.addListener = function (listener) { this._advTarget.addEventListener("change", listener); };
  MediaQueryList.prototype.removeListener = function (listener) { this._advTarget.removeEventListener("change", listener); };

  ctx.domGlobals.MediaQueryList = MediaQueryList;
  ctx.domGlobals.CSSStyleDeclaration = impl.CSSStyleDeclaration;
  ctx.computeStyle = computeStyle;

  return {
    name: "cascade",
    page(p) {
      const doc = p.document;
      Object.defineProperty(doc, "_advStyle", { value: {
        viewport: { width: 1280, height: 800, colorScheme: "light" },
        userSheets: [], index: null, sheetsGeneration: 0, sheetsVersion: 0, indexedVersion: 0, generation: 1, mediaLists: [], recomputed: 0,
      } });
      p.shared.getComputedStyle = getComputedStyle;
      p.shared.matchMedia = function (query) {
        if (arguments.length === 0) throw new TypeError("Not enough arguments");
        return matchMedia(doc, query);
      };
    },
    // Harness side (Page+Style.swift).
    injectUserStyleSheet(doc, css, extensionID, level) {
      doc._advStyle.userSheets.push({ extensionID: String(extensionID), level: level === "user" ? "user" : "author", css: String(css), sheet: userSheet(String(css)) });
      ctx.style.changed(doc);
    },
    // Every sheet of `extensionID`, or only those of that text (and of that level, when given).
    removeUserStyleSheets(doc, extensionID, css, level) {
      const state = doc._advStyle;
      const before = state.userSheets.length;
      const id = String(extensionID);
      const text = css == null ? undefined : String(css);
      state.userSheets = state.userSheets.filter((s) => s.extensionID !== id
        || (text !== undefined && s.css !== text)
        || (level != null && s.level !== level));
      ctx.style.changed(doc);
      return before - state.userSheets.length;
    },
    setViewport(doc, width, height, colorScheme) {
      const state = doc._advStyle;
      state.viewport = { width, height, colorScheme: colorScheme || state.viewport.colorScheme };
      ctx.style.changed(doc);
      // Media Queries 4 §4.2: a MediaQueryList whose result changed fires `change`.
      for (const list of state.mediaLists) {
        const now = list.matches;
        if (now !== list._advMatched) {
          list._advMatched = now;
          const event = new impl.Event("change");
          event.matches = now; event.media = list.media;
          list._advTarget._dispatchEvent(event, true);
        }
      }
    },
    computedValue(element, property) {
      const values = element.rooted ? computeStyle(element) : null;
      return values ? values[property] : "";
    },
  };
})
