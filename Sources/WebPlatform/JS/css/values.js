// layer: css/values
// order: 25
// provides: splitTopLevel, closingBracket, cssValues, judgeDeclaration
// requires:
//
// CSS text and values, below both the CSSOM and the cascade: splitting CSS text at top-level
// separators, the properties the cascade models (their initial values, inheritance and value
// grammar), and the verdict on an inline declaration that element.style (cssom.js) and the
// cascade (cascade.js) both need. It was the cascade's, which made cssom.js ask for it before the
// cascade had loaded.
(function (ctx) {
  "use strict";

  // MARK: - CSS text

  // `text` cut at each `separator` outside strings, comments and brackets; parts trimmed, empty
  // ones dropped (declarations at `;`, selector and media lists at `,`).
  function splitTopLevel(text, separator) {
    const out = [];
    let depth = 0, quote = null, start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quote !== null) {
        if (c === "\\") i++;
        else if (c === quote) quote = null;
      } else if (c === "/" && text[i + 1] === "*") {
        const end = text.indexOf("*/", i + 2);
        i = end < 0 ? text.length : end + 1;
      } else if (c === "\"" || c === "'") quote = c;
      else if (c === "\\") i++;
      else if (c === "(" || c === "[" || c === "{") depth++;
      else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
      else if (c === separator && depth === 0) { out.push(text.slice(start, i)); start = i + 1; }
    }
    out.push(text.slice(start));
    return out.map((part) => part.trim()).filter((part) => part !== "");
  }
  // The index of the bracket closing the one at `open` (strings and escapes skipped), or -1.
  const CLOSE = { "(": ")", "[": "]", "{": "}" };
  function closingBracket(text, open) {
    const opener = text[open], closer = CLOSE[opener];
    let depth = 0, quote = null;
    for (let i = open; i < text.length; i++) {
      const c = text[i];
      if (quote !== null) { if (c === "\\") i++; else if (c === quote) quote = null; continue; }
      if (c === "\\") i++;
      else if (c === "\"" || c === "'") quote = c;
      else if (c === opener) depth++;
      else if (c === closer && --depth === 0) return i;
    }
    return -1;
  }
  ctx.splitTopLevel = splitTopLevel;
  ctx.closingBracket = closingBracket;

  // MARK: - The properties the cascade models

  const DISPLAY = new Set(["none", "block", "inline", "inline-block", "flex", "inline-flex", "grid", "inline-grid",
    "table", "inline-table", "table-row", "table-cell", "table-row-group", "table-header-group", "table-footer-group",
    "table-column", "table-column-group", "table-caption", "list-item", "contents", "flow-root", "ruby", "ruby-text",
    "-webkit-box", "-webkit-inline-box"]);
  const KEYWORDS = {
    visibility: new Set(["visible", "hidden", "collapse"]),
    position: new Set(["static", "relative", "absolute", "fixed", "sticky"]),
    float: new Set(["none", "left", "right"]),
    "pointer-events": new Set(["auto", "none", "visiblepainted", "visiblefill", "visiblestroke", "visible", "painted", "fill", "stroke", "all"]),
  };
  const INITIAL = { display: "inline", visibility: "visible", opacity: "1", position: "static", float: "none", width: "auto", height: "auto",
    "pointer-events": "auto", left: "auto", top: "auto", "z-index": "auto", "background-image": "none" };
  const INHERITED = new Set(["visibility", "pointer-events"]);
  const PROPERTIES = Object.keys(INITIAL);
  const GLOBAL_KEYWORDS = new Set(["inherit", "initial", "unset", "revert", "revert-layer"]);

  function formatNumber(n) {
    return String(Math.round(n * 1e6) / 1e6);
  }
  function length(value) {
    const m = /^(-?(?:\d+\.?\d*|\.\d+))(px|em|rem|pt|%)?$/.exec(value);
    if (!m) return null;
    const n = parseFloat(m[1]);
    switch (m[2]) {
      case undefined: return n === 0 ? "0px" : null;
      case "px": return formatNumber(n) + "px";
      case "em": case "rem": return formatNumber(n * 16) + "px";
      case "pt": return formatNumber(n * 4 / 3) + "px";
      case "%": return formatNumber(n) + "%";
    }
    return null;
  }
  // background-image: `none`, or image layers (url(), gradients, image-set()). url()s are made
  // absolute against `base` and written as WebKit serializes them: url("…").
  const DominoURL = ctx.require("domino/lib/URL");
  const IMAGE = /url\(|gradient\(|image-set\(|cross-fade\(/i;
  function backgroundImage(raw, base) {
    const text = String(raw).trim();
    if (text.toLowerCase() === "none") return "none";
    if (!IMAGE.test(text)) return null;
    return text.replace(/url\(\s*(['"]?)([^'")]*)\1\s*\)/gi, (m, quote, href) => {
      let absolute = href;
      if (base) { try { absolute = new DominoURL(base).resolve(href); } catch (e) { absolute = href; } }
      return "url(" + JSON.stringify(absolute) + ")";
    });
  }
  // The `background` shorthand sets background-image too: to its image layer, or to `none`.
  function backgroundShorthand(raw, base) {
    const text = String(raw).trim();
    if (GLOBAL_KEYWORDS.has(text.toLowerCase())) return text.toLowerCase();
    const layers = splitTopLevel(text, ",").map((layer) => {
      const image = /(url\([^)]*\)|[a-z-]*gradient\((?:[^()]|\([^()]*\))*\)|image-set\((?:[^()]|\([^()]*\))*\))/i.exec(layer);
      return image ? backgroundImage(image[1], base) : "none";
    });
    return layers.every((l) => l === "none") ? "none" : layers.join(", ");
  }

  // The value a declaration contributes, or null when the property would reject it at parse
  // time (an invalid declaration is dropped and never wins the cascade, CSS Syntax §8).
  function validate(property, raw, base) {
    const value = String(raw).trim().toLowerCase();
    if (GLOBAL_KEYWORDS.has(value)) return value;
    switch (property) {
      case "background-image": return backgroundImage(raw, base);
      case "background": return backgroundShorthand(raw, base);
      case "display": return DISPLAY.has(value) ? value : value === "-webkit-flex" ? "flex" : value === "-webkit-inline-flex" ? "inline-flex" : null;
      case "position": return value === "-webkit-sticky" ? "sticky" : KEYWORDS.position.has(value) ? value : null;
      case "visibility": case "float": case "pointer-events":
        if (!KEYWORDS[property].has(value)) return null;
        return value;
      case "opacity": {
        const m = /^(-?(?:\d+\.?\d*|\.\d+))(%)?$/.exec(value);
        if (!m) return null;
        const n = parseFloat(m[1]) / (m[2] ? 100 : 1);
        return formatNumber(Math.min(1, Math.max(0, n)));
      }
      case "left": case "top":
        return value === "auto" ? value : length(value);
      case "z-index":
        return value === "auto" || /^-?\d+$/.test(value) ? value : null;
      case "width": case "height":
        if (value === "auto" || value === "min-content" || value === "max-content" || value === "fit-content") return value;
        { const l = length(value); return l && !l.startsWith("-") ? l : null; }
    }
    return value;
  }

  // The cascade's verdict on an inline declaration, for element.style (cssom.js): true or false
  // for the keyword properties it knows completely (display, position, visibility, float,
  // pointer-events, z-index) and for values its grammar covers elsewhere (px/em/rem/pt/%
  // lengths, numbers, images); a unitless non-zero length is invalid (CSS Values 4 §6); null
  // where it cannot judge (vw, calc(), other properties), and domino's parser decides.
  const COMPLETE = new Set(["display", "position", "visibility", "float", "pointer-events", "z-index"]);
  const LENGTHS = new Set(["width", "height", "left", "top"]);
  const JUDGED = new Set(PROPERTIES);   // not the box properties box-values.js adds to the table
  ctx.judgeDeclaration = (property, value) => {
    if (!JUDGED.has(property)) return null;
    const valid = validate(property, value, "") !== null;
    if (valid || COMPLETE.has(property)) return valid;
    if (LENGTHS.has(property) && /^-?(\d+\.?\d*|\.\d+)$/.test(String(value).trim()) && parseFloat(value) !== 0) return false;
    return null;
  };

  // The cascade reads its properties' table and grammar from here.
  ctx.cssValues = { INITIAL, INHERITED, PROPERTIES, IMAGE, validate };
})
