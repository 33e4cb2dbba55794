// layer: dom/selectors
// order: 18
// provides: selectors
// requires: DOMException
//
// One selector engine for scripts (querySelector, querySelectorAll, matches, closest,
// webkitMatchesSelector) and for style sheets (the cascade, CSS.supports): Debian's css-select
// (fb55's Selectors 4 compiler over css-what's parser) with an adapter for domino's nodes, and a
// layer of WebKit's rules on top, from Source/WebCore/css/parser/CSSSelectorParser.cpp:
// - only pseudo-classes WebKit knows (css-select's jQuery extensions such as :contains, :header
//   or :button are invalid); `:has()` inside `:has()` is invalid; the `s` attribute flag is
//   invalid (WebKit parses only `i`);
// - `:is()` and `:where()` take forgiving selector lists: an argument that is not valid is
//   dropped (Selectors 4 §4.2), and the pseudo-class matches nothing when none is left;
// - a pseudo-element (`::before`, or the legacy `:before`, `:after`, `:first-line`,
//   `:first-letter`) is valid in a selector but matches no element; an unknown one is invalid;
// - an invalid selector throws a SyntaxError DOMException "'<selector>' is not a valid selector."
// `:scope` is the element a query or a match is made from (the root element for a document,
// and in style sheets); `:hover` and `:active` match nothing (no pointer is modelled), `:focus`
// follows document.activeElement.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const parse = ctx.require("css-what").parse;
  const compile = ctx.require("css-select/lib/compile.js").compile;

  // Pseudo-classes WebKit parses (CSSSelectorParser / CSSPseudoSelectors.json) that css-select
  // implements itself.
  const BUILTIN = new Set(["active", "any-link", "checked", "disabled", "empty", "enabled", "first-child",
    "first-of-type", "has", "hover", "is", "last-child", "last-of-type", "link", "not", "nth-child",
    "nth-last-child", "nth-last-of-type", "nth-of-type", "only-child", "only-of-type", "optional",
    "required", "root", "scope", "visited", "where"]);
  const PSEUDO_ELEMENTS = new Set(["after", "backdrop", "before", "cue", "file-selector-button", "first-letter",
    "first-line", "grammar-error", "highlight", "marker", "part", "placeholder", "selection", "slotted",
    "spelling-error", "target-text", "view-transition", "view-transition-group", "view-transition-image-pair",
    "view-transition-new", "view-transition-old"]);
  const LEGACY_PSEUDO_ELEMENTS = new Set(["after", "before", "first-letter", "first-line"]);
  const FORGIVING = new Set(["is", "where"]);

  const HTML = "http://www.w3.org/1999/xhtml";
  const isHTML = (element) => element.namespaceURI === HTML;
  const attribute = (element, name) => element.hasAttribute(name);
  const formControl = (element) => isHTML(element) && /^(button|input|select|textarea|optgroup|option|fieldset)$/.test(element.localName);
  function inputType(element) {
    return (element.getAttribute("type") || "text").toLowerCase();
  }
  // With nothing focused, document.activeElement is the body, which :focus does not match.
  function isUnfocusedDefault(element) {
    const doc = element.ownerDocument;
    return doc !== null && (element === doc.body || element === doc.documentElement);
  }
  // HTML 4.10.20.1: a submittable element not barred from constraint validation (disabled,
  // readonly, a button that is not a submit button, hidden/reset/button inputs).
  function validationCandidate(e) {
    if (!isHTML(e) || attribute(e, "disabled")) return false;
    const name = e.localName;
    if (name === "select") return true;
    if (name === "textarea") return !attribute(e, "readonly");
    if (name === "button") return (e.getAttribute("type") || "submit").toLowerCase() === "submit";
    if (name === "input") return !attribute(e, "readonly") && !/^(hidden|reset|button|image)$/.test(inputType(e));
    return false;
  }
  // The only constraint modelled: `required` with no value (unchecked for a checkbox or radio).
  function missingValue(e) {
    if (!attribute(e, "required")) return false;
    if (e.localName === "input" && /^(checkbox|radio)$/.test(inputType(e))) return e.checked !== true;
    return String(e.value === undefined || e.value === null ? "" : e.value) === "";
  }
  function activeElement(element) {
    const doc = element.ownerDocument;
    return doc ? doc.activeElement : null;
  }
  // Pseudo-classes WebKit has that css-select does not, as predicates of one element.
  const EXTRA = {
    "focus": (e) => activeElement(e) === e && !isUnfocusedDefault(e),
    "focus-visible": () => false,
    "focus-within": (e) => { const active = activeElement(e); return active !== null && !isUnfocusedDefault(active) && (active === e || e.contains(active)); },
    "target": (e) => { const doc = e.ownerDocument; const hash = doc && doc.location ? decodeURIComponent(String(doc.location.hash || "").slice(1)) : ""; return hash !== "" && e.id === hash; },
    // An element with a custom element name is defined once upgraded: its prototype is then its
    // definition's, no longer HTMLElement's.
    "defined": (e) => !isHTML(e) || !e.localName.includes("-") || Object.getPrototypeOf(e) !== impl.HTMLElement.prototype,
    "read-only": (e) => !EXTRA["read-write"](e),
    "read-write": (e) => {
      if (isHTML(e) && (e.localName === "textarea" || (e.localName === "input" && !/^(checkbox|radio|button|submit|reset|image|file|hidden|range|color)$/.test(inputType(e))))) {
        return !attribute(e, "readonly") && !attribute(e, "disabled");
      }
      const editable = e.getAttribute("contenteditable");
      return editable !== null && editable.toLowerCase() !== "false";
    },
    "placeholder-shown": (e) => isHTML(e) && (e.localName === "input" || e.localName === "textarea") && attribute(e, "placeholder") && (e.value === "" || e.value === undefined),
    "indeterminate": (e) => isHTML(e) && e.localName === "input" && inputType(e) === "checkbox" && e.indeterminate === true,
    "default": (e) => isHTML(e) && ((e.localName === "input" && /^(checkbox|radio)$/.test(inputType(e)) && attribute(e, "checked")) || (e.localName === "option" && attribute(e, "selected"))),
    "valid": (e) => validationCandidate(e) && !missingValue(e),
    "invalid": (e) => validationCandidate(e) && missingValue(e),
    "user-valid": () => false,
    "user-invalid": () => false,
    "in-range": () => false,
    "out-of-range": () => false,
    "autofill": () => false,
    "-webkit-autofill": () => false,
    "fullscreen": () => false,
    "-webkit-full-screen": () => false,
    "modal": (e) => isHTML(e) && e.localName === "dialog" && e._advModal === true,
    "popover-open": () => false,
    "playing": (e) => isHTML(e) && (e.localName === "video" || e.localName === "audio") && e.paused === false,
    "paused": (e) => isHTML(e) && (e.localName === "video" || e.localName === "audio") && e.paused !== false,
    "open": (e) => isHTML(e) && (e.localName === "details" || e.localName === "dialog") && attribute(e, "open"),
    "closed": (e) => isHTML(e) && (e.localName === "details" || e.localName === "dialog") && !attribute(e, "open"),
  };
  // Pseudo-classes with an argument (css-select gets them as `(element, argument)`).
  const EXTRA_FUNCTIONS = {
    "lang": (e, range) => {
      let node = e;
      while (node && node.nodeType === 1 && !node.hasAttribute("lang")) node = node.parentNode;
      const lang = node && node.nodeType === 1 ? node.getAttribute("lang").toLowerCase() : "";
      return String(range).split(",").some((r) => { const want = r.trim().replace(/^["']|["']$/g, "").toLowerCase(); return want !== "" && (lang === want || lang.startsWith(want + "-")); });
    },
    "dir": (e, direction) => {
      let node = e;
      while (node && node.nodeType === 1 && !node.hasAttribute("dir")) node = node.parentNode;
      const dir = node && node.nodeType === 1 ? node.getAttribute("dir").toLowerCase() : "ltr";
      return dir === String(direction).trim().toLowerCase();
    },
  };
  // Where css-select's own definition is not WebKit's: :empty passes over comments (Selectors 4
  // §14.2), :enabled applies to form controls only, :checked follows checkedness.
  EXTRA.empty = (e) => {
    for (let c = e.firstChild; c !== null; c = c.nextSibling) if (c.nodeType === 1 || (c.nodeType === 3 && c.data.length > 0)) return false;
    return true;
  };
  EXTRA.checked = (e) => isHTML(e) && ((e.localName === "input" && /^(checkbox|radio)$/.test(inputType(e)) && e.checked === true) || (e.localName === "option" && e.selected === true));
  const pseudos = Object.create(null);
  pseudos.enabled = ":is(button, input, select, textarea, optgroup, option, fieldset):not(:disabled)";
  pseudos.optional = ":is(input, select, textarea, button):not([required])";
  pseudos["-adv-tag"] = (e, name) => (isHTML(e) ? e.localName === name.toLowerCase() : e.localName === name);
  // `:nth-child(An+B of S)`: the element's position among its siblings that match S.
  const nth = ctx.require("nth-check").default;
  const nthOf = new Map();
  function nthOfTest(data) {
    let entry = nthOf.get(data);
    if (entry === undefined) {
      const [formula, list] = JSON.parse(data);
      entry = { position: nth(formula), list };
      if (nthOf.size > 1000) nthOf.clear();
      nthOf.set(data, entry);
    }
    return entry;
  }
  function nthChildOf(fromEnd) {
    return (e, data) => {
      const { position, list } = nthOfTest(data);
      const parent = e.parentNode;
      if (parent === null || !api.matches(e, list)) return false;
      let index = 0;
      for (let c = fromEnd ? e.nextElementSibling : e.previousElementSibling; c !== null; c = fromEnd ? c.nextElementSibling : c.previousElementSibling) {
        if (api.matches(c, list)) index++;
      }
      return position(index);
    };
  }
  pseudos["-adv-nth-child-of"] = nthChildOf(false);
  pseudos["-adv-nth-last-child-of"] = nthChildOf(true);
  for (const name of Object.keys(EXTRA)) pseudos[name] = EXTRA[name];
  for (const name of Object.keys(EXTRA_FUNCTIONS)) pseudos[name] = EXTRA_FUNCTIONS[name];
  // css-select's own :hover/:active/:visited ask the adapter; none of them is modelled.
  const KNOWN = new Set([...BUILTIN, ...Object.keys(EXTRA), ...Object.keys(EXTRA_FUNCTIONS), "-webkit-any", "matches"]);

  // MARK: - The adapter: domino's nodes as css-select walks them

  function children(node) {
    const out = [];
    for (let child = node.firstChild; child !== null; child = child.nextSibling) out.push(child);
    return out;
  }
  const adapter = {
    isTag: (node) => node !== null && node !== undefined && node.nodeType === 1,
    getName: (element) => (isHTML(element) ? element.localName : element.localName),
    getParent: (node) => node.parentNode,
    getChildren: children,
    getSiblings: (node) => (node.parentNode ? children(node.parentNode) : [node]),
    prevElementSibling: (element) => element.previousElementSibling,
    getAttributeValue: (element, name) => { const value = element.getAttribute(name); return value === null ? undefined : value; },
    hasAttrib: (element, name) => element.hasAttribute(name),
    getText: (node) => node.textContent,
    removeSubsets(nodes) {
      return nodes.filter((node, i) => nodes.indexOf(node) === i && !nodes.some((other) => other !== node && other.contains(node)));
    },
    existsOne(test, nodes) {
      for (const node of nodes) if (findFirst(node, test, true) !== null) return true;
      return false;
    },
    findOne(test, nodes) {
      for (const node of nodes) { const found = findFirst(node, test, true); if (found !== null) return found; }
      return null;
    },
    findAll(test, nodes) {
      const out = [];
      for (const node of nodes) collect(node, test, out, true);
      return out;
    },
    equals: (a, b) => a === b,
  };

  // Walks `root`'s subtree in tree order (`root` itself too when `self`): every element that
  // passes `test` goes into `out`, or with no `out` the first one is returned (null if none).
  function walk(root, test, self, out) {
    let node = self ? root : root.firstChild;
    while (node !== null) {
      if (node.nodeType === 1 && test(node)) {
        if (out === undefined) return node;
        out.push(node);
      }
      let next = node.firstChild;
      if (next === null) {
        if (node === root) break;
        next = node.nextSibling;
        while (next === null) {
          node = node.parentNode;
          if (node === null || node === root) return out === undefined ? null : out;
          next = node.nextSibling;
        }
      }
      node = next;
    }
    return out === undefined ? null : out;
  }
  const findFirst = (root, test, self) => walk(root, test, self);
  const collect = (root, test, out, self) => walk(root, test, self, out);

  // MARK: - WebKit's rules over css-what's tokens

  const invalid = () => { throw new SyntaxError("invalid"); };
  const COMBINATORS = new Set(["child", "descendant", "adjacent", "sibling", "parent", "column-combinator"]);
  // Checks `selector` (one complex selector's tokens) in place. Returns false when it can match
  // nothing (a pseudo-element), throws when it is not valid. `inHas`: inside a :has() argument.
  function check(selector, inHas, inFunction) {
    let matchesSomething = true;
    const last = selector[selector.length - 1];
    if (last !== undefined && COMBINATORS.has(last.type)) invalid();
    for (let i = 0; i < selector.length; i++) {
      const token = selector[i];
      if (token.type === "tag" && token.name !== token.name.toLowerCase()) {
        // An HTML element's name matches in any case, another element's exactly (css-select
        // would lower the name for both).
        selector[i] = { type: "pseudo", name: "-adv-tag", data: token.name };
        continue;
      }
      if (token.type === "attribute") {
        if (token.ignoreCase === false) invalid();
        continue;
      }
      if (token.type === "pseudo-element") {
        const pseudoName = token.name.toLowerCase();
        if (inFunction || !(PSEUDO_ELEMENTS.has(pseudoName) || pseudoName.startsWith("-webkit-"))) invalid();
        matchesSomething = false;
        continue;
      }
      if (token.type !== "pseudo") continue;
      const name = token.name.toLowerCase();
      token.name = name;
      if (LEGACY_PSEUDO_ELEMENTS.has(name) && token.data === null) {
        if (inFunction) invalid();
        matchesSomething = false;
        continue;
      }
      if (!KNOWN.has(name)) invalid();
      if (name === "matches" || name === "-webkit-any") {
        token.name = "is";
        if (typeof token.data === "string") token.data = parse(token.data);
      }
      if (name === "has") {
        if (inHas || !Array.isArray(token.data) || token.data.length === 0) invalid();
        for (const argument of token.data) if (!check(argument, true, true)) invalid();
        continue;
      }
      if (name === "nth-child" || name === "nth-last-child") {
        // `An+B of S` (Selectors 4 §14.4), which css-select lacks: a pseudo-class of our own.
        if (typeof token.data === "string" && /\sof\s/i.test(token.data)) {
          const at = token.data.search(/\sof\s/i);
          const list = token.data.slice(at + 4).trim();
          const of = parse(list);
          for (const argument of of) if (!check(argument, inHas, true)) invalid();
          token.name = name === "nth-child" ? "-adv-nth-child-of" : "-adv-nth-last-child-of";
          token.data = JSON.stringify([token.data.slice(0, at).trim(), list]);
        }
        continue;
      }
      if (Array.isArray(token.data)) {
        if (FORGIVING.has(token.name)) {
          token.data = token.data.filter((argument) => { try { return check(argument, inHas, true); } catch (e) { return false; } });
          if (token.data.length === 0) { selector.splice(i, 1, { type: "pseudo", name: "not", data: [[{ type: "universal", namespace: null }]] }); }
        } else {
          for (const argument of token.data) if (!check(argument, inHas, true)) invalid();
        }
      } else if ((name === "is" || name === "where" || name === "not") && token.data === null) {
        invalid();
      }
    }
    return matchesSomething;
  }

  // True when an id or class in `text` does not start as a CSS identifier must (`#1`, `.1a`,
  // `.-2`; css-what takes them): looked for outside strings and attribute brackets.
  function badIdentifier(text) {
    let quote = null, brackets = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === "\\") { i++; continue; }
      if (quote !== null) { if (c === quote) quote = null; continue; }
      if (c === "\"" || c === "'") { quote = c; continue; }
      if (c === "[") { brackets++; continue; }
      if (c === "]") { brackets--; continue; }
      if (brackets === 0 && (c === "#" || c === ".")) {
        const next = text[i + 1] || "", after = text[i + 2] || "";
        if (/[0-9]/.test(next) || (c === "." && next === "-" && /[0-9]/.test(after))) return true;
      }
    }
    return false;
  }
  // `:is()` and `:where()` with nothing in them are valid and match nothing (forgiving lists);
  // css-what rejects an empty argument.
  const emptyForgiving = /:(is|where)\(\s*\)/gi;

  function notValid(text) {
    return new ctx.DOMException("'" + text + "' is not a valid selector.", "SyntaxError");
  }
  const falseTest = () => false;
  // A compiled selector list: `test(element)` with `scope` (a one-element array) naming the
  // element :scope is, set before each use. Cached by text, one map per document mode; invalid
  // texts are cached as errors. The caller's own string is the key: a key made per call (a
  // prefix and the text) would be a new string to hash every time, as long as the selector list
  // (a content script that tests 50 filters as one list, once per element, paid that per call).
  const caches = [new Map(), new Map()];
  function compiled(text, quirks) {
    const cache = caches[quirks ? 1 : 0];
    let entry = cache.get(text);
    if (entry === undefined) {
      const scope = [null];
      try {
        let tokens;
        if (badIdentifier(text)) throw notValid(text);
        try { tokens = parse(text.replace(emptyForgiving, ":not(*)")); } catch (e) { throw notValid(text); }
        if (tokens.length === 0) throw notValid(text);
        const kept = [];
        for (const selector of tokens) {
          if (selector.length === 0) throw notValid(text);
          let live;
          try { live = check(selector, false, false); } catch (e) { throw notValid(text); }
          if (live) kept.push(selector);
        }
        let test = falseTest;
        if (kept.length > 0) {
          try {
            test = compile(kept, { adapter, equals: adapter.equals, xmlMode: false, quirksMode: quirks, pseudos, relativeSelector: false, cacheResults: false }, scope);
          } catch (e) {
            throw notValid(text);
          }
        }
        entry = { test, scope, error: null };
      } catch (error) {
        entry = { test: null, scope, error: error.message };
      }
      if (cache.size >= 4096) cache.clear();
      cache.set(text, entry);
    }
    if (entry.error !== null) throw notValid(text);
    return entry;
  }
  const quirksOf = (node) => { const doc = node.nodeType === 9 ? node : node.ownerDocument; return doc !== null && doc !== undefined && doc.mode === "quirks"; };
  function scopeElement(node) {
    if (node.nodeType === 1) return node;
    if (node.nodeType === 9) return node.documentElement;
    return null;
  }
  // Runs `body` with :scope bound to `node`, putting back what it was (queries may nest through
  // custom pseudo-class code).
  function withScope(entry, node, body) {
    const previous = entry.scope[0];
    entry.scope[0] = scopeElement(node);
    try { return body(entry.test); } finally { entry.scope[0] = previous; }
  }

  const api = {
    // The elements of `root`'s subtree (not `root`) that match, in tree order.
    all(root, text) {
      const entry = compiled(String(text), quirksOf(root));
      if (entry.test === falseTest) return [];
      return withScope(entry, root, (test) => collect(root, test, [], false));
    },
    first(root, text) {
      const entry = compiled(String(text), quirksOf(root));
      if (entry.test === falseTest) return null;
      return withScope(entry, root, (test) => findFirst(root, test, false));
    },
    matches(element, text) {
      const entry = compiled(String(text), quirksOf(element));
      return withScope(entry, element, (test) => test(element));
    },
    closest(element, text) {
      const entry = compiled(String(text), quirksOf(element));
      return withScope(entry, element, (test) => {
        for (let node = element; node !== null && node.nodeType === 1; node = node.parentNode) if (test(node)) return node;
        return null;
      });
    },
    // For style sheets: a test without a scoping element (:scope is :root), or null when the
    // selector is not valid.
    test(text) {
      let entry;
      try { entry = compiled(String(text), false); } catch (e) { return null; }
      return entry.test;
    },
    isValid(text) {
      try { compiled(String(text), false); return true; } catch (e) { return false; }
    },
  };
  ctx.selectors = api;

  // MARK: - The DOM methods

  const NodeList = ctx.require("domino/lib/NodeList");
  function define(proto, name, value) {
    Object.defineProperty(proto, name, { configurable: true, writable: true, enumerable: true, value });
  }
  function needsArgument(args, name, interfaceName) {
    if (args.length === 0) throw new TypeError("Failed to execute '" + name + "' on '" + interfaceName + "': 1 argument required, but only 0 present.");
  }
  for (const [proto, interfaceName] of [[impl.Element.prototype, "Element"], [impl.Document.prototype, "Document"], [impl.DocumentFragment.prototype, "DocumentFragment"]]) {
    define(proto, "querySelector", function querySelector(selectors) {
      needsArgument(arguments, "querySelector", interfaceName);
      return api.first(this, selectors);
    });
    define(proto, "querySelectorAll", function querySelectorAll(selectors) {
      needsArgument(arguments, "querySelectorAll", interfaceName);
      return new NodeList(api.all(this, selectors));
    });
  }
  const element = impl.Element.prototype;
  define(element, "matches", function matches(selectors) {
    needsArgument(arguments, "matches", "Element");
    return api.matches(this, selectors);
  });
  define(element, "webkitMatchesSelector", function webkitMatchesSelector(selectors) {
    needsArgument(arguments, "webkitMatchesSelector", "Element");
    return api.matches(this, selectors);
  });
  define(element, "closest", function closest(selectors) {
    needsArgument(arguments, "closest", "Element");
    return api.closest(this, selectors);
  });

  return { name: "selectors" };
});
