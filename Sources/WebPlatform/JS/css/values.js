// layer: css/values
// order: 25
// provides: splitTopLevel, closingBracket, cssValues, cssColor, cssDisplay
// requires:
//
// CSS text and values, below both the CSSOM and the cascade: splitting CSS text at top-level
// separators, colors (parsed, and serialized as WebKit does), and the properties the cascade
// models: their initial values, inheritance, and how their computed values follow from the
// cascaded ones (CSS Cascade 4 §4.4: font sizes, lengths in px, colors as rgb()/rgba(),
// transforms with their lengths in px), and a transform's matrix, which layout gives the box
// for (layout/geometry.js: percentages, getComputedStyle's matrix()).
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

  // MARK: - Colors (CSS Color 4)

  // Named colors come from domino's CSS parser (its table of CSS Color 3 names, which predates
  // rebeccapurple, CSS Color 4 §6.1), loaded on the first name looked up.
  let namedColors = null;
  function named(name) {
    if (namedColors === null) {
      namedColors = new Map([["rebeccapurple", "#663399"]]);
      const table = ctx.require("domino/lib/cssparser.js").css.Colors;
      for (const key in table) if (/^#[0-9a-f]{6}$/.test(table[key])) namedColors.set(key.toLowerCase(), table[key]);
    }
    return namedColors.get(name);
  }
  // The system colors WebKit resolves without a platform theme (CSS Color 4 §6.2).
  const SYSTEM_COLORS = { canvas: [255, 255, 255, 1], canvastext: [0, 0, 0, 1] };
  function hex(digits) {
    const full = digits.length <= 4 ? digits.replace(/./g, (c) => c + c) : digits;
    const n = (i) => parseInt(full.slice(i, i + 2), 16);
    return [n(0), n(2), n(4), full.length === 8 ? n(6) / 255 : 1];
  }
  function channel(text, scale) {
    const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(%?)$/i.exec(text);
    if (!m) return null;
    const n = parseFloat(m[1]);
    return m[2] ? (n / 100) * scale : n;
  }
  function hue(text) {
    const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(deg|rad|grad|turn)?$/i.exec(text);
    if (!m) return null;
    const n = parseFloat(m[1]);
    switch ((m[2] || "deg").toLowerCase()) {
      case "rad": return (n * 180) / Math.PI;
      case "grad": return n * 0.9;
      case "turn": return n * 360;
    }
    return n;
  }
  // The arguments of rgb()/hsl(): legacy comma-separated, or space-separated with `/ alpha`.
  function colorArguments(inner) {
    if (inner.includes(",")) return inner.split(",").map((a) => a.trim());
    const [main, alpha] = inner.split("/");
    const parts = main.trim().split(/\s+/);
    return alpha === undefined ? parts : parts.concat(alpha.trim());
  }
  // [r, g, b, alpha] (channels 0-255, alpha 0-1), "currentcolor", or null.
  function parseColor(text) {
    const t = String(text).trim().toLowerCase();
    if (t === "currentcolor") return t;
    if (t === "transparent") return [0, 0, 0, 0];
    let m = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(t);
    if (m) return hex(m[1]);
    if (SYSTEM_COLORS[t]) return SYSTEM_COLORS[t];
    if (/^[a-z]+$/.test(t)) { const found = named(t); return found ? hex(found.slice(1)) : null; }
    m = /^(rgba?|hsla?)\((.*)\)$/.exec(t);
    if (!m) return null;
    const args = colorArguments(m[2]);
    if (args.length !== 3 && args.length !== 4) return null;
    const alpha = args.length === 4 ? channel(args[3], 1) : 1;
    if (alpha === null) return null;
    const clamp = (v, max) => Math.min(max, Math.max(0, v));
    if (m[1].startsWith("rgb")) {
      const rgb = args.slice(0, 3).map((a) => channel(a, 255));
      if (rgb.includes(null)) return null;
      return [clamp(rgb[0], 255), clamp(rgb[1], 255), clamp(rgb[2], 255), clamp(alpha, 1)];
    }
    const h = hue(args[0]), sat = channel(args[1], 100), light = channel(args[2], 100);
    if (h === null || sat === null || light === null) return null;
    return hslToRGB(((h % 360) + 360) % 360, clamp(sat, 100) / 100, clamp(light, 100) / 100).concat(clamp(alpha, 1));
  }
  // CSS Color 4 §7.1 "Converting HSL colors to sRGB colors".
  function hslToRGB(h, s, l) {
    const f = (n) => {
      const k = (n + h / 30) % 12;
      const a = s * Math.min(l, 1 - l);
      return 255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
    };
    return [f(0), f(8), f(4)];
  }
  // WebKit keeps an sRGB color as four bytes and writes the alpha with the fewest decimals (two,
  // else three) that give the same byte back (ColorSerialization.cpp).
  function serializeColor([r, g, b, a]) {
    const byte = (v) => Math.round(Math.min(255, Math.max(0, v)));
    const alpha = Math.round(a * 255);
    const rgb = byte(r) + ", " + byte(g) + ", " + byte(b);
    if (alpha === 255) return "rgb(" + rgb + ")";
    const two = Math.round((alpha / 255) * 100) / 100;
    const text = Math.round(two * 255) === alpha ? String(two) : String(Math.round((alpha / 255) * 1000) / 1000);
    return "rgba(" + rgb + ", " + text + ")";
  }
  ctx.cssColor = {
    // A color value as element.style keeps it: names and keywords lowercase, everything else
    // as rgb()/rgba(); null when it is no color.
    specified(text) {
      const t = String(text).trim();
      const color = parseColor(t);
      if (color === null) return null;
      const lower = t.toLowerCase();
      if (/^[a-z]+$/.test(lower)) return lower;
      return serializeColor(color);
    },
    // The computed color: `currentcolor` is `current`, the element's own color.
    computed(text, current) {
      const color = parseColor(text);
      if (color === "currentcolor") return current;
      return color === null ? current : serializeColor(color);
    },
  };

  // MARK: - The properties the cascade models

  const DISPLAY = new Set(["none", "block", "inline", "inline-block", "flex", "inline-flex", "grid", "inline-grid",
    "table", "inline-table", "table-row", "table-cell", "table-row-group", "table-header-group", "table-footer-group",
    "table-column", "table-column-group", "table-caption", "list-item", "contents", "flow-root", "ruby", "ruby-text",
    "-webkit-box", "-webkit-inline-box"]);
  ctx.cssDisplay = DISPLAY;
  const SIDES = ["top", "right", "bottom", "left"];
  const sided = (pattern, value) => Object.fromEntries(SIDES.map((side) => [pattern.replace("*", side), value]));
  const INITIAL = Object.assign({ display: "inline", visibility: "visible", opacity: "1", position: "static", float: "none", width: "auto", height: "auto",
    "pointer-events": "auto", left: "auto", top: "auto", "z-index": "auto", "background-image": "none",
    color: "canvastext", "background-color": "transparent", "font-size": "medium", transform: "none", translate: "none", "overflow-x": "visible", "overflow-y": "visible",
    right: "auto", bottom: "auto", "box-sizing": "content-box", "min-width": "auto", "min-height": "auto", "max-width": "none", "max-height": "none" },
  sided("margin-*", "0px"), sided("padding-*", "0px"), sided("border-*-width", "medium"), sided("border-*-style", "none"), sided("border-*-color", "currentcolor"));
  const INHERITED = new Set(["visibility", "pointer-events", "color", "font-size"]);
  const PROPERTIES = Object.keys(INITIAL);
  const GLOBAL_KEYWORDS = new Set(["inherit", "initial", "unset", "revert", "revert-layer"]);

  function formatNumber(n) {
    const rounded = Math.round(n * 1e6) / 1e6;
    return Object.is(rounded, -0) ? "0" : String(rounded);
  }
  // background-image: `none`, or image layers (url(), gradients, image-set()). url()s are made
  // absolute against `base` and written as WebKit serializes them: url("…").
  const DominoURL = ctx.require("domino/lib/URL");
  const IMAGE = /url\(|gradient\(|image-set\(|cross-fade\(/i;
  function backgroundImage(text, base) {
    if (!IMAGE.test(text)) return text === "none" || /^none(, none)*$/.test(text) ? "none" : null;
    return text.replace(/url\(\s*(['"]?)((?:[^'"\\)]|\\.)*)\1\s*\)/gi, (m, quote, href) => {
      let absolute = href;
      if (base) { try { absolute = new DominoURL(base).resolve(href); } catch (e) { absolute = href; } }
      return "url(" + JSON.stringify(absolute) + ")";
    });
  }

  // The value a longhand contributes to the cascade, from its value as element.style keeps it
  // (css/declarations.js), or null when the cascade cannot use it (a var() reference, which it
  // does not substitute).
  function validate(property, value, base) {
    const lower = value.toLowerCase();
    if (GLOBAL_KEYWORDS.has(lower)) return lower;
    if (/var\(/i.test(value)) return null;
    switch (property) {
      case "background-image": return backgroundImage(value, base);
      // Not modelled by declarations.js (element.style keeps them as written), so judged here.
      case "box-sizing": return lower === "content-box" || lower === "border-box" ? lower : null;
      case "translate": return translateValue(lower);
      case "position": return lower === "-webkit-sticky" ? "sticky" : lower;
      case "opacity": return formatNumber(Math.min(1, Math.max(0, parseFloat(value))));
    }
    return value;
  }

  // MARK: - Computed values (CSS Cascade 4 §4.4) of what the cascade chose

  // WebKit keeps most lengths as 32-bit floats and writes them with six decimals at most
  // (26.8px -> 26.799999px); a rendered box's used lengths come from layout, in 1/64 px
  // (LayoutUnit).
  const floatPx = (n) => formatNumber(Math.fround(n)) + "px";
  // CSS Fonts 4 §2.5 absolute-size keywords, as WebKit sizes them for a 16px medium.
  const FONT_SIZES = { "xx-small": 9, "x-small": 10, small: 13, medium: 16, large: 18, "x-large": 24, "xx-large": 32, "xxx-large": 48 };
  // CSS Values 4 §6.2 absolute units, §6.1 relative ones (an ex and a ch as half an em, as
  // WebKit does without font metrics).
  function pixels(text, env) {
    const m = /^(-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z%]*)$/.exec(text);
    if (!m) return null;
    const n = parseFloat(m[1]);
    switch (m[2]) {
      case "px": return n;
      case "em": return n * env.fontSize;
      case "rem": return n * env.rootFontSize;
      case "ex": case "ch": return (n * env.fontSize) / 2;
      case "pt": return (n * 4) / 3;
      case "pc": return n * 16;
      case "in": return n * 96;
      case "cm": return (n * 96) / 2.54;
      case "mm": return (n * 96) / 25.4;
      case "q": return (n * 96) / 101.6;
      case "vw": return (n * env.viewport.width) / 100;
      case "vh": return (n * env.viewport.height) / 100;
      case "vmin": return (n * Math.min(env.viewport.width, env.viewport.height)) / 100;
      case "vmax": return (n * Math.max(env.viewport.width, env.viewport.height)) / 100;
    }
    return null;
  }
  function fontSize(value, parentSize, env) {
    if (FONT_SIZES[value] !== undefined) return FONT_SIZES[value];
    if (value === "larger") return parentSize * 1.2;
    if (value === "smaller") return parentSize / 1.2;
    if (value.endsWith("%")) return (parseFloat(value) * parentSize) / 100;
    const px = pixels(value, Object.assign({}, env, { fontSize: parentSize }));
    return px === null ? parentSize : px;
  }
  const LINE_WIDTHS = { thin: 1, medium: 3, thick: 5 };
  // CSS Backgrounds 3 §4.3: a border whose style is none or hidden is 0 wide; WebKit rounds a
  // width down to whole device pixels, a non-zero one to at least one.
  function borderWidth(value, style, env) {
    if (style === "none" || style === "hidden") return "0px";
    const px = LINE_WIDTHS[value] !== undefined ? LINE_WIDTHS[value] : pixels(value, env);
    if (px === null) return value;
    return (px > 0 && px < 1 ? 1 : Math.floor(px)) + "px";
  }
  // CSS Overflow 3 §3: `visible` with a scrolling other axis is `auto`, `clip` is `hidden`.
  function overflowPair(x, y) {
    const scrolls = (v) => v !== "visible" && v !== "clip";
    const adjust = (v, other) => (scrolls(other) && !scrolls(v) ? (v === "visible" ? "auto" : "hidden") : v);
    return [adjust(x, y), adjust(y, x)];
  }

  // The computed value of a transform list or a `translate` (CSS Transforms 1 §9, 2 §5): every
  // length in px, percentages kept, as they need the box's size (the resolved value does).
  const LENGTH_TOKEN = /(^|[\s(,])(-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?(?:px|em|rem|ex|ch|pt|pc|in|cm|mm|q|vw|vh|vmin|vmax))(?=[\s),]|$)/g;
  const absoluteLengths = (text, env) => text.replace(LENGTH_TOKEN, (m, before, token) => before + floatPx(pixels(token, env)));
  // `translate: x y z` (CSS Transforms 2 §5): one to three lengths or percentages, z no percentage.
  function translateValue(text) {
    if (text === "none") return text;
    const parts = text.split(/\s+/);
    const lp = /^-?(?:\d+\.?\d*|\.\d+)(?:px|em|rem|ex|ch|pt|pc|in|cm|mm|q|vw|vh|vmin|vmax|%)$|^0$/;
    if (parts.length > 3 || !parts.every((p) => lp.test(p)) || (parts.length === 3 && parts[2].endsWith("%"))) return null;
    return parts.map((p) => (p === "0" ? "0px" : p)).join(" ");
  }

  // CSS Transforms 1 §12: a computed transform list as one column-major 4x4 matrix, with
  // percentages of translations against `box` (the border box, CSS Transforms 1 §8; none: 0);
  // null for none, or a function not modelled here.
  function transformMatrix(value, box) {
    if (value === "none") return null;
    const re = /([a-zA-Z0-9]+)\(([^()]*)\)/g;
    let m, matrix = identity();
    while ((m = re.exec(value))) {
      const name = m[1].toLowerCase();
      const args = m[2].split(",").map((a) => a.trim());
      const len = (a, size) => (a.endsWith("%") ? (box ? (parseFloat(a) * size) / 100 : 0) : parseFloat(a) || 0);
      const x = (a) => len(a, box && box.width), y = (a) => len(a, box && box.height);
      const num = (a) => parseFloat(a);
      const rad = (a) => {
        const n = parseFloat(a), unit = a.replace(/^[-+0-9.e]+/i, "");
        return unit === "rad" ? n : unit === "grad" ? (n * Math.PI) / 200 : unit === "turn" ? n * 2 * Math.PI : (n * Math.PI) / 180;
      };
      let step = identity();
      switch (name) {
        case "matrix": step = [num(args[0]), num(args[1]), 0, 0, num(args[2]), num(args[3]), 0, 0, 0, 0, 1, 0, num(args[4]), num(args[5]), 0, 1]; break;
        case "matrix3d": step = args.map(num); break;
        case "translate": step[12] = x(args[0]); step[13] = args[1] ? y(args[1]) : 0; break;
        case "translatex": step[12] = x(args[0]); break;
        case "translatey": step[13] = y(args[0]); break;
        case "translatez": step[14] = len(args[0]); break;
        case "translate3d": step[12] = x(args[0]); step[13] = y(args[1]); step[14] = len(args[2]); break;
        case "scale": step[0] = num(args[0]); step[5] = args[1] ? num(args[1]) : num(args[0]); break;
        case "scalex": step[0] = num(args[0]); break;
        case "scaley": step[5] = num(args[0]); break;
        case "scalez": step[10] = num(args[0]); break;
        case "scale3d": step[0] = num(args[0]); step[5] = num(args[1]); step[10] = num(args[2]); break;
        case "rotate": case "rotatez": { const a = rad(args[0]); step[0] = Math.cos(a); step[1] = Math.sin(a); step[4] = -Math.sin(a); step[5] = Math.cos(a); break; }
        case "rotatex": { const a = rad(args[0]); step[5] = Math.cos(a); step[6] = Math.sin(a); step[9] = -Math.sin(a); step[10] = Math.cos(a); break; }
        case "rotatey": { const a = rad(args[0]); step[0] = Math.cos(a); step[2] = -Math.sin(a); step[8] = Math.sin(a); step[10] = Math.cos(a); break; }
        case "skew": step[4] = Math.tan(rad(args[0])); step[1] = args[1] ? Math.tan(rad(args[1])) : 0; break;
        case "skewx": step[4] = Math.tan(rad(args[0])); break;
        case "skewy": step[1] = Math.tan(rad(args[0])); break;
        case "perspective": { const d = len(args[0]); if (d > 0) step[11] = -1 / d; break; }
        default: return null;
      }
      matrix = multiply(matrix, step);
    }
    return matrix;
  }
  // A matrix as getComputedStyle writes it: matrix() when it is 2D, matrix3d() otherwise.
  function matrixText(matrix) {
    const f = (n) => formatNumber(Math.fround(n));
    const flat = [2, 3, 6, 7, 8, 9, 11, 14].every((i) => matrix[i] === 0) && matrix[10] === 1 && matrix[15] === 1;
    if (flat) return "matrix(" + [matrix[0], matrix[1], matrix[4], matrix[5], matrix[12], matrix[13]].map(f).join(", ") + ")";
    return "matrix3d(" + matrix.map(f).join(", ") + ")";
  }
  function identity() { return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]; }
  // Column-major 4x4 product a × b (the later function applies first to a point).
  function multiply(a, b) {
    const out = new Array(16);
    for (let col = 0; col < 4; col++) {
      for (let row = 0; row < 4; row++) {
        let sum = 0;
        for (let k = 0; k < 4; k++) sum += a[k * 4 + row] * b[col * 4 + k];
        out[col * 4 + row] = sum;
      }
    }
    return out;
  }

  const LENGTH_PROPERTIES = ["width", "height", "left", "top", "right", "bottom", "min-width", "min-height", "max-width", "max-height"]
    .concat(SIDES.map((s) => "margin-" + s), SIDES.map((s) => "padding-" + s));
  // The computed values of `values` (the cascaded values, inherited ones already the parent's
  // computed values), in place. `env`: the parent's font size, the root's, and the viewport.
  function compute(values, env) {
    const own = fontSize(values["font-size"], env.parentFontSize, env);
    values["font-size"] = floatPx(own);
    const lengthEnv = { fontSize: own, rootFontSize: env.rootFontSize === null ? own : env.rootFontSize, viewport: env.viewport };
    values.color = ctx.cssColor.computed(values.color, env.parentColor);
    values["background-color"] = ctx.cssColor.computed(values["background-color"], values.color);
    for (const side of SIDES) {
      values["border-" + side + "-color"] = ctx.cssColor.computed(values["border-" + side + "-color"], values.color);
      values["border-" + side + "-width"] = borderWidth(values["border-" + side + "-width"], values["border-" + side + "-style"], lengthEnv);
    }
    for (const property of LENGTH_PROPERTIES) {
      const px = pixels(values[property], lengthEnv);
      if (px !== null) values[property] = floatPx(px);
    }
    [values["overflow-x"], values["overflow-y"]] = overflowPair(values["overflow-x"], values["overflow-y"]);
    values.transform = absoluteLengths(values.transform, lengthEnv);
    values.translate = absoluteLengths(values.translate, lengthEnv);
  }

  // The cascade reads its properties' table and grammar from here, layout the transforms.
  ctx.cssValues = { INITIAL, INHERITED, PROPERTIES, IMAGE, validate, compute, transformMatrix, matrixText };
})
