// layer: css/declarations
// order: 27
// provides: declarations
// requires: splitTopLevel, cssColor, cssDisplay
//
// CSS declaration blocks as WebKit keeps them (StyleProperties, MutableStyleProperties): a list
// of longhands, each with its value, priority and the shorthand that set it. A shorthand is
// expanded into its longhands when set, every longhand it does not mention getting its initial
// value (CSS Cascade 4 §1.2); `cssText` gives back a shorthand where all its longhands are
// present with one priority and can be written as it (CSSOM §6.7.2 "serialize a CSS declaration
// block", WebKit StyleProperties::asText), and getPropertyValue(shorthand) serializes one.
// Values of the longhands modelled here are kept in WebKit's serialization: lengths with a
// lowercase unit (0 as 0px), colors as rgb()/rgba() unless named, keywords lowercase, url()s
// quoted, font-family names double-quoted. Other properties WebKit knows are judged by the
// caller (element.style asks domino's parser) and kept as written.
(function (ctx) {
  "use strict";
  const splitTopLevel = ctx.splitTopLevel;
  const color = ctx.cssColor;

  // MARK: - Components of a value

  // `text` cut at top-level whitespace, with "," and "/" as components of their own.
  function components(text) {
    const out = [];
    let depth = 0, quote = null, current = "";
    const flush = () => { if (current !== "") { out.push(current); current = ""; } };
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quote !== null) {
        current += c;
        if (c === "\\" && i + 1 < text.length) current += text[++i];
        else if (c === quote) quote = null;
        continue;
      }
      if (c === "\"" || c === "'") { quote = c; current += c; continue; }
      if (c === "(") depth++;
      else if (c === ")" && depth > 0) depth--;
      if (depth === 0 && /\s/.test(c)) { flush(); continue; }
      if (depth === 0 && (c === "," || c === "/")) { flush(); out.push(c); continue; }
      current += c;
    }
    flush();
    return out;
  }
  // The layers of a comma-separated value, each as its components.
  function layers(text) {
    const parts = components(text);
    const out = [[]];
    for (const part of parts) {
      if (part === ",") out.push([]); else out[out.length - 1].push(part);
    }
    return out;
  }

  // MARK: - Numbers, lengths, times

  // WebKit writes at most six decimals (0.707107) and no exponent.
  function formatNumber(n) {
    const rounded = Math.round(n * 1e6) / 1e6;
    return Object.is(rounded, -0) ? "0" : String(rounded);
  }
  const NUMBER = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z%]*)$/i;
  const LENGTH_UNITS = new Set(["px", "em", "rem", "pt", "pc", "in", "cm", "mm", "q", "vw", "vh", "vmin", "vmax", "ex", "ch",
    "lh", "rlh", "svw", "svh", "lvw", "lvh", "dvw", "dvh", "cqw", "cqh"]);
  function number(text) {
    const m = NUMBER.exec(text);
    return m && m[2] === "" ? parseFloat(m[1]) : null;
  }
  // A <length> (units lowercased, a bare 0 as 0px), `%` too when `percent`; null otherwise.
  function length(text, { percent = false, negative = true } = {}) {
    if (/^calc\(/i.test(text)) return text.replace(/\s+/g, " ").toLowerCase();
    const m = NUMBER.exec(text);
    if (!m) return null;
    const n = parseFloat(m[1]), unit = m[2].toLowerCase();
    if (!negative && n < 0) return null;
    if (unit === "") return n === 0 ? "0px" : null;
    if (unit === "%") return percent ? formatNumber(n) + "%" : null;
    return LENGTH_UNITS.has(unit) ? formatNumber(n) + unit : null;
  }
  function time(text, negative) {
    const m = NUMBER.exec(text);
    if (!m) return null;
    const unit = m[2].toLowerCase(), n = parseFloat(m[1]);
    if ((unit !== "s" && unit !== "ms") || (!negative && n < 0)) return null;
    return formatNumber(n) + unit;
  }
  const ANGLE_UNITS = new Set(["deg", "rad", "grad", "turn"]);
  function angle(text) {
    const m = NUMBER.exec(text);
    if (!m) return null;
    const unit = m[2].toLowerCase(), n = parseFloat(m[1]);
    if (unit === "") return n === 0 ? "0deg" : null;
    return ANGLE_UNITS.has(unit) ? formatNumber(n) + unit : null;
  }
  const keyword = (words) => { const set = new Set(words.split(" ")); return (text) => (set.has(text.toLowerCase()) ? text.toLowerCase() : null); };
  // One component, tried against each grammar in turn.
  const either = (...grammars) => (text) => { for (const g of grammars) { const v = g(text); if (v !== null) return v; } return null; };

  // MARK: - Images and functions

  // A function's text with a lowercase name, its arguments trimmed and joined by ", ".
  function functionText(text, name) {
    const open = text.indexOf("(");
    const args = splitTopLevel(text.slice(open + 1, text.lastIndexOf(")")), ",").map((a) => components(a).join(" "));
    return (name || text.slice(0, open).toLowerCase()) + "(" + args.join(", ") + ")";
  }
  // url(a.png), url('a.png') -> url("a.png") (CSSOM §6.7.2: a URL is serialized as a string).
  function url(text) {
    const m = /^url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^'"()\s]*))\s*\)$/i.exec(text);
    if (!m) return null;
    const href = m[1] !== undefined ? m[1] : m[2] !== undefined ? m[2] : m[3];
    return "url(" + JSON.stringify(href.replace(/\\(.)/g, "$1")) + ")";
  }
  function image(text) {
    if (/^url\(/i.test(text)) return url(text);
    if (/^(-webkit-)?(repeating-)?(linear|radial|conic)-gradient\(|^(-webkit-)?image-set\(|^-webkit-gradient\(|^(-webkit-)?cross-fade\(/i.test(text) && text.endsWith(")")) return functionText(text);
    return null;
  }
  const imageOrNone = either(keyword("none"), image);

  // MARK: - Longhand grammars

  // Each modelled longhand: its initial value and the grammar of its whole value (text -> the
  // serialized value or null). Layered (comma-separated) properties list their layers.
  const lp = (text) => length(text, { percent: true });
  const lpPositive = (text) => length(text, { percent: true, negative: false });
  const single = (grammar) => (text) => { const parts = components(text); return parts.length === 1 ? grammar(parts[0]) : null; };
  const BORDER_STYLE = keyword("none hidden dotted dashed solid double groove ridge inset outset");
  const LINE_WIDTH = either(keyword("thin medium thick"), (t) => length(t, { negative: false }));
  const OVERFLOW = keyword("visible hidden clip scroll auto");
  const colorValue = (text) => color.specified(text);
  const layered = (grammar) => (text) => {
    const out = [];
    for (const layer of layers(text)) { const v = grammar(layer); if (v === null) return null; out.push(v); }
    return out.join(", ");
  };
  const repeatStyle = (parts) => {
    const words = parts.map((p) => p.toLowerCase());
    if (words.length === 1 && (words[0] === "repeat-x" || words[0] === "repeat-y")) return words[0];
    if (words.length < 1 || words.length > 2 || !words.every((w) => /^(repeat|space|round|no-repeat)$/.test(w))) return null;
    return words.length === 2 && words[0] === words[1] ? words[0] : words.join(" ");
  };
  const bgSize = (parts) => {
    if (parts.length === 1 && /^(cover|contain)$/i.test(parts[0])) return parts[0].toLowerCase();
    if (parts.length < 1 || parts.length > 2) return null;
    const values = parts.map(either(keyword("auto"), lpPositive));
    if (values.includes(null)) return null;
    return values.length === 2 && values[1] === "auto" ? values[0] : values.join(" ");
  };
  const position = (axis) => (parts) => {
    const edge = axis === "x" ? /^(left|right|center)$/i : /^(top|bottom|center)$/i;
    if (parts.length === 1) return edge.test(parts[0]) ? parts[0].toLowerCase() : lp(parts[0]);
    if (parts.length === 2 && edge.test(parts[0]) && !/^center$/i.test(parts[0])) { const o = lp(parts[1]); return o === null ? null : parts[0].toLowerCase() + " " + o; }
    return null;
  };
  const TIMING = /^(ease|linear|ease-in|ease-out|ease-in-out|step-start|step-end)$/i;
  const timing = (parts) => {
    if (parts.length !== 1) return null;
    if (TIMING.test(parts[0])) return parts[0].toLowerCase();
    if (/^(cubic-bezier|steps|linear)\(.*\)$/i.test(parts[0])) return functionText(parts[0]);
    return null;
  };
  const transitionProperty = (parts) => (parts.length === 1 && /^-?[a-z_][a-z0-9_-]*$/i.test(parts[0]) && !/^(initial|inherit|unset|default)$/i.test(parts[0]) ? parts[0].toLowerCase() : null);
  const FONT_SIZE = keyword("xx-small x-small small medium large x-large xx-large xxx-large larger smaller");
  const FONT_WEIGHT = (text) => {
    const k = keyword("normal bold bolder lighter")(text);
    if (k !== null) return k;
    const n = number(text);
    return n !== null && n >= 1 && n <= 1000 ? formatNumber(n) : null;
  };
  const FONT_STRETCH = keyword("normal ultra-condensed extra-condensed condensed semi-condensed semi-expanded expanded extra-expanded ultra-expanded");
  const fontFamily = (text) => {
    const names = splitTopLevel(text, ",");
    if (names.length === 0) return null;
    const out = [];
    for (const name of names) {
      const quoted = /^(["'])((?:[^\\]|\\.)*)\1$/.exec(name);
      if (quoted) { out.push(JSON.stringify(quoted[2].replace(/\\(.)/g, "$1"))); continue; }
      const words = name.split(/\s+/);
      if (!words.every((w) => /^-?[a-z_\u0080-\uffff][a-z0-9_\u0080-\uffff-]*$/i.test(w))) return null;
      out.push(words.join(" "));
    }
    return out.join(", ");
  };
  const lineHeight = either(keyword("normal"), (t) => { const n = number(t); return n !== null && n >= 0 ? formatNumber(n) : null; }, lpPositive);
  const numberAtLeastZero = (t) => { const n = number(t); return n !== null && n >= 0 ? formatNumber(n) : null; };
  const integer = (t) => (/^[+-]?\d+$/.test(t) ? String(parseInt(t, 10)) : null);

  // transform: a list of transform functions, each with its canonical name and its arguments'
  // units (CSS Transforms 1 §9, 2 §12).
  const TRANSFORMS = {
    matrix: ["number", 6, 6], matrix3d: ["number", 16, 16], translate: ["lp", 1, 2], translatex: ["lp", 1, 1], translatey: ["lp", 1, 1],
    translatez: ["length", 1, 1], translate3d: ["lp lp length", 3, 3], scale: ["number", 1, 2], scalex: ["number", 1, 1], scaley: ["number", 1, 1],
    scalez: ["number", 1, 1], scale3d: ["number", 3, 3], rotate: ["angle", 1, 1], rotatex: ["angle", 1, 1], rotatey: ["angle", 1, 1],
    rotatez: ["angle", 1, 1], rotate3d: ["number number number angle", 4, 4], skew: ["angle", 1, 2], skewx: ["angle", 1, 1], skewy: ["angle", 1, 1],
    perspective: ["length", 1, 1],
  };
  const CANONICAL = { translatex: "translateX", translatey: "translateY", translatez: "translateZ", scalex: "scaleX", scaley: "scaleY",
    scalez: "scaleZ", rotatex: "rotateX", rotatey: "rotateY", rotatez: "rotateZ", skewx: "skewX", skewy: "skewY" };
  const ARGUMENT = {
    number: (t) => { const n = number(t); return n === null ? (/%$/.test(t) && number(t.slice(0, -1)) !== null ? formatNumber(number(t.slice(0, -1)) / 100) : null) : formatNumber(n); },
    lp, length: (t) => length(t), angle,
  };
  function transform(text) {
    if (/^none$/i.test(text.trim())) return "none";
    const out = [];
    const re = /\s*([a-z0-9]+)\(([^()]*)\)\s*/iy;
    let at = 0;
    while (at < text.length) {
      re.lastIndex = at;
      const m = re.exec(text);
      if (!m) return null;
      at = re.lastIndex;
      const name = m[1].toLowerCase(), shape = TRANSFORMS[name];
      if (!shape) return null;
      const args = m[2].split(",").map((a) => a.trim());
      if (args.length < shape[1] || args.length > shape[2]) return null;
      const kinds = shape[0].split(" ");
      const values = args.map((a, i) => ARGUMENT[kinds[Math.min(i, kinds.length - 1)]](a));
      if (values.includes(null)) return null;
      out.push((CANONICAL[name] || name) + "(" + values.join(", ") + ")");
    }
    return out.length ? out.join(" ") : null;
  }

  const LONGHANDS = new Map();
  function longhand(names, initial, grammar) {
    for (const name of names.split(" ")) LONGHANDS.set(name, { initial, grammar });
  }
  const SIDES = ["top", "right", "bottom", "left"];
  const sided = (pattern) => SIDES.map((side) => pattern.replace("*", side)).join(" ");
  longhand(sided("margin-*"), "0px", single(either(keyword("auto"), lp)));
  longhand(sided("padding-*"), "0px", single(lpPositive));
  longhand("top right bottom left", "auto", single(either(keyword("auto"), lp)));
  longhand(sided("border-*-width"), "medium", single(LINE_WIDTH));
  longhand(sided("border-*-style"), "none", single(BORDER_STYLE));
  longhand(sided("border-*-color"), "currentcolor", colorValue);
  longhand("border-image-source", "none", single(imageOrNone));
  longhand("outline-color", "currentcolor", colorValue);
  longhand("outline-style", "none", single(either(keyword("auto"), BORDER_STYLE)));
  longhand("outline-width", "medium", single(LINE_WIDTH));
  longhand("border-image-slice", "100%", null);
  longhand("border-image-width", "1", null);
  longhand("border-image-outset", "0", null);
  longhand("border-image-repeat", "stretch", null);
  longhand("border-top-left-radius border-top-right-radius border-bottom-right-radius border-bottom-left-radius", "0px", (text) => {
    const parts = components(text).map(lpPositive);
    if (parts.length < 1 || parts.length > 2 || parts.includes(null)) return null;
    return parts.length === 2 && parts[0] === parts[1] ? parts[0] : parts.join(" ");
  });
  longhand("background-image", "none", layered((parts) => (parts.length === 1 ? imageOrNone(parts[0]) : null)));
  longhand("background-position-x", "0%", layered(position("x")));
  longhand("background-position-y", "0%", layered(position("y")));
  longhand("background-size", "auto", layered(bgSize));
  longhand("background-repeat", "repeat", layered(repeatStyle));
  longhand("background-attachment", "scroll", layered((p) => (p.length === 1 ? keyword("scroll fixed local")(p[0]) : null)));
  longhand("background-origin", "padding-box", layered((p) => (p.length === 1 ? keyword("border-box padding-box content-box")(p[0]) : null)));
  longhand("background-clip", "border-box", layered((p) => (p.length === 1 ? keyword("border-box padding-box content-box text")(p[0]) : null)));
  longhand("background-color", "transparent", colorValue);
  longhand("color", "canvastext", colorValue);
  longhand("flex-grow flex-shrink", "1", single(numberAtLeastZero));
  longhand("flex-basis", "auto", single(either(keyword("auto content min-content max-content fit-content"), lpPositive)));
  longhand("row-gap column-gap", "normal", single(either(keyword("normal"), lpPositive)));
  longhand("overflow-x overflow-y", "visible", single(OVERFLOW));
  longhand("transition-duration", "0s", layered((p) => (p.length === 1 ? time(p[0], false) : null)));
  longhand("transition-timing-function", "ease", layered(timing));
  longhand("transition-delay", "0s", layered((p) => (p.length === 1 ? time(p[0], true) : null)));
  longhand("transition-behavior", "normal", layered((p) => (p.length === 1 ? keyword("normal allow-discrete")(p[0]) : null)));
  longhand("transition-property", "all", layered((p) => (p.length === 1 && /^none$/i.test(p[0]) ? "none" : transitionProperty(p))));
  longhand("font-style", "normal", (text) => {
    const parts = components(text);
    if (parts.length === 1) return keyword("normal italic oblique")(parts[0]);
    if (parts.length === 2 && /^oblique$/i.test(parts[0])) { const a = angle(parts[1]); return a === null ? null : "oblique " + a; }
    return null;
  });
  longhand("font-variant-caps", "normal", single(keyword("normal small-caps all-small-caps petite-caps all-petite-caps unicase titling-caps")));
  longhand("font-weight", "normal", single(FONT_WEIGHT));
  longhand("font-width", "normal", single(either(FONT_STRETCH, (t) => length(t, { percent: true, negative: false }) !== null && /%$/.test(t) ? length(t, { percent: true }) : null)));
  longhand("font-size", "medium", single(either(FONT_SIZE, lpPositive)));
  longhand("line-height", "normal", single(lineHeight));
  longhand("font-family", "", fontFamily);
  longhand("font-size-adjust", "none", null);
  longhand("font-kerning", "auto", null);
  longhand("font-variant-alternates font-variant-ligatures font-variant-numeric font-variant-east-asian font-variant-position font-variant-emoji font-feature-settings font-variation-settings", "normal", null);
  longhand("font-optical-sizing", "auto", null);
  longhand("width height", "auto", single(either(keyword("auto min-content max-content fit-content"), lpPositive)));
  longhand("min-width min-height", "auto", single(either(keyword("auto min-content max-content fit-content"), lpPositive)));
  longhand("max-width max-height", "none", single(either(keyword("none min-content max-content fit-content"), lpPositive)));
  longhand("opacity", "1", single((t) => {
    const n = number(t);
    if (n !== null) return formatNumber(n);
    return /%$/.test(t) && number(t.slice(0, -1)) !== null ? formatNumber(number(t.slice(0, -1)) / 100) : null;
  }));
  longhand("z-index", "auto", single(either(keyword("auto"), integer)));
  longhand("display", "inline", (text) => {
    const words = components(text).map((w) => w.toLowerCase());
    if (words.length === 1 && ctx.cssDisplay.has(words[0])) return words[0];
    if (words.length === 1 && (words[0] === "-webkit-flex" || words[0] === "-webkit-inline-flex")) return words[0].slice(8);
    return null;
  });
  longhand("position", "static", single(keyword("static relative absolute fixed sticky -webkit-sticky")));
  longhand("visibility", "visible", single(keyword("visible hidden collapse")));
  longhand("float", "none", single(keyword("none left right inline-start inline-end")));
  longhand("pointer-events", "auto", single(keyword("auto none visiblepainted visiblefill visiblestroke visible painted fill stroke all")));
  longhand("transform", "none", transform);

  // MARK: - Shorthands: expansion

  const SHORTHANDS = new Map();
  const WIDTHS = sided("border-*-width").split(" "), STYLES = sided("border-*-style").split(" "), COLORS = sided("border-*-color").split(" ");
  const IMAGE_LONGHANDS = ["border-image-source", "border-image-slice", "border-image-width", "border-image-outset", "border-image-repeat"];
  const BACKGROUND = ["background-image", "background-position-x", "background-position-y", "background-size", "background-repeat",
    "background-attachment", "background-origin", "background-clip", "background-color"];
  const TRANSITION = ["transition-duration", "transition-timing-function", "transition-delay", "transition-behavior", "transition-property"];
  const FONT = ["font-style", "font-variant-caps", "font-weight", "font-width", "font-size", "line-height", "font-family", "font-size-adjust",
    "font-kerning", "font-variant-alternates", "font-variant-ligatures", "font-variant-numeric", "font-variant-east-asian",
    "font-variant-position", "font-variant-emoji", "font-feature-settings", "font-optical-sizing", "font-variation-settings"];
  const initialOf = (name) => LONGHANDS.get(name).initial;

  // top, right, bottom, left from one to four values (CSS Backgrounds 3 §4.1 and the box properties).
  function fourSides(names, grammar) {
    return (text) => {
      const parts = components(text).map(grammar);
      if (parts.length < 1 || parts.length > 4 || parts.includes(null)) return null;
      const [t, r = t, b = t, l = r] = parts;
      return [[names[0], t], [names[1], r], [names[2], b], [names[3], l]];
    };
  }
  function twoValues(names, grammar) {
    return (text) => {
      const parts = components(text).map(grammar);
      if (parts.length < 1 || parts.length > 2 || parts.includes(null)) return null;
      return [[names[0], parts[0]], [names[1], parts[1] === undefined ? parts[0] : parts[1]]];
    };
  }
  // <line-width> || <line-style> || <color>, each at most once, any order.
  function borderLine(text) {
    const out = { width: null, style: null, color: null };
    for (const part of components(text)) {
      let v;
      if (out.width === null && (v = LINE_WIDTH(part)) !== null) out.width = v;
      else if (out.style === null && (v = BORDER_STYLE(part)) !== null) out.style = v;
      else if (out.color === null && (v = color.specified(part)) !== null) out.color = v;
      else return null;
    }
    if (out.width === null && out.style === null && out.color === null) return null;
    return { width: out.width || "medium", style: out.style || "none", color: out.color || "currentcolor" };
  }
  function shorthand(name, longhands, expand) { SHORTHANDS.set(name, { longhands, expand }); }
  const marginNames = sided("margin-*").split(" ");
  shorthand("margin", marginNames, fourSides(marginNames, either(keyword("auto"), lp)));
  const paddingNames = sided("padding-*").split(" ");
  shorthand("padding", paddingNames, fourSides(paddingNames, lpPositive));
  shorthand("inset", SIDES, fourSides(SIDES, either(keyword("auto"), lp)));
  shorthand("border-width", WIDTHS, fourSides(WIDTHS, LINE_WIDTH));
  shorthand("border-style", STYLES, fourSides(STYLES, BORDER_STYLE));
  shorthand("border-color", COLORS, fourSides(COLORS, colorValue));
  for (const side of SIDES) {
    const names = ["border-" + side + "-width", "border-" + side + "-style", "border-" + side + "-color"];
    shorthand("border-" + side, names, (text) => {
      const line = borderLine(text);
      return line && [[names[0], line.width], [names[1], line.style], [names[2], line.color]];
    });
  }
  shorthand("border", WIDTHS.concat(STYLES, COLORS, IMAGE_LONGHANDS), (text) => {
    const line = borderLine(text);
    if (!line) return null;
    return WIDTHS.map((n) => [n, line.width]).concat(STYLES.map((n) => [n, line.style]), COLORS.map((n) => [n, line.color]),
      IMAGE_LONGHANDS.map((n) => [n, initialOf(n)]));
  });
  // outline: <outline-color> || <outline-style> || <outline-width>, longhands in WebKit's order.
  const OUTLINE = ["outline-color", "outline-style", "outline-width"];
  shorthand("outline", OUTLINE, (text) => {
    const out = { color: null, style: null, width: null };
    for (const part of components(text)) {
      let v;
      if (out.width === null && (v = LINE_WIDTH(part)) !== null) out.width = v;
      else if (out.style === null && (v = either(keyword("auto"), BORDER_STYLE)(part)) !== null) out.style = v;
      else if (out.color === null && (v = color.specified(part)) !== null) out.color = v;
      else return null;
    }
    return [["outline-color", out.color || "currentcolor"], ["outline-style", out.style || "none"], ["outline-width", out.width || "medium"]];
  });
  // border-image: only `none` (the initial values) is modelled; other values are kept whole.
  shorthand("border-image", IMAGE_LONGHANDS, (text) => (/^none$/i.test(text.trim()) ? IMAGE_LONGHANDS.map((n) => [n, initialOf(n)]) : undefined));
  const radiusNames = ["border-top-left-radius", "border-top-right-radius", "border-bottom-right-radius", "border-bottom-left-radius"];
  shorthand("border-radius", radiusNames, (text) => (text.includes("/") ? undefined : fourSides(radiusNames, lpPositive)(text)));
  shorthand("overflow", ["overflow-x", "overflow-y"], twoValues(["overflow-x", "overflow-y"], OVERFLOW));
  shorthand("gap", ["row-gap", "column-gap"], twoValues(["row-gap", "column-gap"], either(keyword("normal"), lpPositive)));
  // flex: none | [ <flex-grow> <flex-shrink>? || <flex-basis> ] (CSS Flexbox 1 §7.1: a missing
  // basis is 0%, a missing grow or shrink 1).
  shorthand("flex", ["flex-grow", "flex-shrink", "flex-basis"], (text) => {
    const parts = components(text);
    if (parts.length === 1 && /^none$/i.test(parts[0])) return [["flex-grow", "0"], ["flex-shrink", "0"], ["flex-basis", "auto"]];
    if (parts.length === 1 && /^auto$/i.test(parts[0])) return [["flex-grow", "1"], ["flex-shrink", "1"], ["flex-basis", "auto"]];
    let grow = null, shrink = null, basis = null;
    for (let i = 0; i < parts.length; i++) {
      // A unitless zero is a flex factor, never the basis.
      const factor = numberAtLeastZero(parts[i]);
      if (factor !== null && grow === null) {
        grow = factor;
        const next = i + 1 < parts.length ? numberAtLeastZero(parts[i + 1]) : null;
        if (next !== null) { shrink = next; i++; }
      } else if (basis === null) {
        basis = either(keyword("auto content"), lpPositive)(parts[i]);
        if (basis === null) return null;
      } else return null;
    }
    return [["flex-grow", grow || "1"], ["flex-shrink", shrink || "1"], ["flex-basis", basis || "0%"]];
  });
  shorthand("background-position", ["background-position-x", "background-position-y"], (text) => {
    const xs = [], ys = [];
    for (const layer of layers(text)) { const p = bgPosition(layer); if (!p) return null; xs.push(p[0]); ys.push(p[1]); }
    return [["background-position-x", xs.join(", ")], ["background-position-y", ys.join(", ")]];
  });
  // <position> of one to two values, or edge-offset pairs (CSS Backgrounds 3 §3.6).
  function bgPosition(parts) {
    const words = parts.map((p) => p.toLowerCase());
    const isX = (w) => w === "left" || w === "right", isY = (w) => w === "top" || w === "bottom";
    if (words.length === 1) {
      if (isY(words[0])) return ["center", words[0]];
      if (isX(words[0]) || words[0] === "center") return [words[0], "center"];
      const v = lp(parts[0]);
      return v === null ? null : [v, "center"];
    }
    if (words.length === 2) {
      let [a, b] = words;
      if (isY(a) || (a === "center" && isX(b))) [a, b] = [b, a];
      const x = isX(a) || a === "center" ? a : lp(a);
      const y = isY(b) || b === "center" ? b : lp(b);
      return x === null || y === null || isY(x) || isX(y) ? null : [x, y];
    }
    if (words.length === 4 && (isX(words[0]) || isY(words[0]))) {
      let pairs = [[words[0], lp(parts[1])], [words[2], lp(parts[3])]];
      if (isY(pairs[0][0])) pairs = [pairs[1], pairs[0]];
      if (!isX(pairs[0][0]) || !isY(pairs[1][0]) || pairs[0][1] === null || pairs[1][1] === null) return null;
      return [pairs[0].join(" "), pairs[1].join(" ")];
    }
    return null;
  }
  // background: layers of <bg-layer> separated by commas, the last one may carry a color
  // (CSS Backgrounds 3 §3.10); every longhand a layer leaves out is its initial value.
  shorthand("background", BACKGROUND, (text) => {
    const all = layers(text);
    const columns = BACKGROUND.map(() => []);
    let backgroundColor = "transparent";
    for (let index = 0; index < all.length; index++) {
      const parts = all[index];
      const layer = { image: null, x: null, y: null, size: null, repeat: null, attachment: null, boxes: [] };
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i];
        let v;
        if (layer.image === null && (v = imageOrNone(part)) !== null) { layer.image = v; continue; }
        if (layer.x === null && /^(left|right|top|bottom|center)$/i.test(part) || (layer.x === null && lp(part) !== null)) {
          let end = i;
          while (end < parts.length && (/^(left|right|top|bottom|center)$/i.test(parts[end]) || lp(parts[end]) !== null)) end++;
          const p = bgPosition(parts.slice(i, end));
          if (!p) return null;
          [layer.x, layer.y] = p;
          i = end - 1;
          if (parts[i + 1] === "/") {
            let sizeEnd = i + 2;
            while (sizeEnd < parts.length && sizeEnd < i + 4 && (/^(auto|cover|contain)$/i.test(parts[sizeEnd]) || lpPositive(parts[sizeEnd]) !== null)) sizeEnd++;
            const size = bgSize(parts.slice(i + 2, sizeEnd));
            if (size === null) return null;
            layer.size = size;
            i = sizeEnd - 1;
          }
          continue;
        }
        if (layer.repeat === null && /^(repeat-x|repeat-y|repeat|space|round|no-repeat)$/i.test(part)) {
          const two = parts[i + 1] && /^(repeat|space|round|no-repeat)$/i.test(parts[i + 1]) && !/^repeat-[xy]$/i.test(part);
          layer.repeat = repeatStyle(two ? [part, parts[i + 1]] : [part]);
          if (layer.repeat === null) return null;
          if (two) i++;
          continue;
        }
        if (layer.attachment === null && (v = keyword("scroll fixed local")(part)) !== null) { layer.attachment = v; continue; }
        if (layer.boxes.length < 2 && (v = keyword("border-box padding-box content-box")(part)) !== null) { layer.boxes.push(v); continue; }
        if (index === all.length - 1 && (v = color.specified(part)) !== null) { backgroundColor = v; continue; }
        return null;
      }
      const values = [layer.image || "none", layer.x || "0%", layer.y || "0%", layer.size || "auto", layer.repeat || "repeat",
        layer.attachment || "scroll", layer.boxes[0] || "padding-box", layer.boxes[1] || layer.boxes[0] || "border-box"];
      values.forEach((v, i) => columns[i].push(v));
    }
    return BACKGROUND.map((name, i) => [name, i === 8 ? backgroundColor : columns[i].join(", ")]);
  });
  // transition: layers of <single-transition> (CSS Transitions 1 §2.5): the first time is the
  // duration, the second the delay.
  shorthand("transition", TRANSITION, (text) => {
    const columns = TRANSITION.map(() => []);
    for (const parts of layers(text)) {
      const layer = { duration: null, timing: null, delay: null, behavior: null, property: null };
      for (const part of parts) {
        let v;
        if ((v = time(part, true)) !== null) {
          if (layer.duration === null) { if (v.startsWith("-")) return null; layer.duration = v; } else if (layer.delay === null) layer.delay = v; else return null;
        } else if (layer.timing === null && (v = timing([part])) !== null) layer.timing = v;
        else if (layer.behavior === null && (v = keyword("normal allow-discrete")(part)) !== null) layer.behavior = v;
        else if (layer.property === null && (v = /^none$/i.test(part) ? "none" : transitionProperty([part])) !== null) layer.property = v;
        else return null;
      }
      [layer.duration || "0s", layer.timing || "ease", layer.delay || "0s", layer.behavior || "normal", layer.property || "all"].forEach((v, i) => columns[i].push(v));
    }
    return TRANSITION.map((name, i) => [name, columns[i].join(", ")]);
  });
  // font: [ <font-style> || <font-variant-css2> || <font-weight> || <font-width-css3> ]?
  // <font-size> [ / <line-height> ]? <font-family> (CSS Fonts 4 §2.8); everything else resets.
  shorthand("font", FONT, (text) => {
    const parts = components(text);
    const found = { "font-style": null, "font-variant-caps": null, "font-weight": null, "font-width": null };
    let i = 0;
    for (; i < parts.length; i++) {
      const part = parts[i], lower = part.toLowerCase();
      if (lower === "normal") continue;
      if (found["font-style"] === null && (lower === "italic" || lower === "oblique")) { found["font-style"] = lower; continue; }
      if (found["font-variant-caps"] === null && lower === "small-caps") { found["font-variant-caps"] = lower; continue; }
      // A weight is a keyword or a unitless number, which no font size is.
      if (found["font-weight"] === null && FONT_WEIGHT(part) !== null) { found["font-weight"] = FONT_WEIGHT(part); continue; }
      if (found["font-width"] === null && FONT_STRETCH(part) !== null) { found["font-width"] = lower; continue; }
      break;
    }
    const size = either(FONT_SIZE, lpPositive)(parts[i] || "");
    if (size === null) return null;
    i++;
    let height = "normal";
    if (parts[i] === "/") {
      height = lineHeight(parts[i + 1] || "");
      if (height === null) return null;
      i += 2;
    }
    const family = fontFamily(parts.slice(i).join(" ").replace(/ , /g, ", "));
    if (family === null) return null;
    const set = Object.assign({ "font-size": size, "line-height": height, "font-family": family }, found);
    return FONT.map((name) => [name, set[name] || initialOf(name)]);
  });

  // -webkit- names WebKit keeps as aliases of the standard property (CSSProperties.json).
  const ALIASES = {
    "-webkit-transform": "transform", "-webkit-transition": "transition", "-webkit-transition-duration": "transition-duration",
    "-webkit-transition-property": "transition-property", "-webkit-transition-delay": "transition-delay",
    "-webkit-transition-timing-function": "transition-timing-function", "-webkit-flex": "flex", "-webkit-flex-grow": "flex-grow",
    "-webkit-flex-shrink": "flex-shrink", "-webkit-flex-basis": "flex-basis", "-webkit-border-radius": "border-radius",
    "-webkit-opacity": "opacity", "-webkit-background-size": "background-size", "-webkit-background-clip": "background-clip",
    "-webkit-background-origin": "background-origin", "-webkit-border-top-left-radius": "border-top-left-radius",
    "-webkit-border-top-right-radius": "border-top-right-radius", "-webkit-border-bottom-left-radius": "border-bottom-left-radius",
    "-webkit-border-bottom-right-radius": "border-bottom-right-radius",
  };

  // MARK: - Parsing declarations

  const WIDE = /^(initial|inherit|unset|revert|revert-layer)$/i;
  // The longhands a declaration sets: [[name, value], ...] and the shorthand it came from, or
  // null when the declaration is invalid; `judge(name, value)` decides properties not modelled
  // here (true: keep the value as written).
  function parseDeclaration(rawName, rawValue, judge) {
    const custom = rawName.startsWith("--");
    let name = custom ? rawName : rawName.toLowerCase();
    if (ALIASES[name]) name = ALIASES[name];
    const value = String(rawValue).trim();
    if (custom) return { entries: [[name, customValue(value)]], shorthand: null };
    if (value === "") return null;
    const short = SHORTHANDS.get(name);
    // A CSS-wide keyword is a value of every property (CSS Cascade 4 §7.3).
    if (WIDE.test(value)) {
      const word = value.toLowerCase();
      if (short) return { entries: short.longhands.map((n) => [n, word]), shorthand: name };
      return LONGHANDS.has(name) ? { entries: [[name, word]], shorthand: null } : judgeOther(name, word, judge, true);
    }
    if (/var\(/i.test(value)) return judgeOther(name, value, judge, true);
    if (short) {
      const entries = short.expand(value);
      if (entries === undefined) return judgeOther(name, value, judge);
      return entries ? { entries, shorthand: name } : null;
    }
    const long = LONGHANDS.get(name);
    if (long && long.grammar) {
      const v = long.grammar(value);
      return v === null ? null : { entries: [[name, v]], shorthand: null };
    }
    return judgeOther(name, value, judge);
  }
  function judgeOther(name, value, judge, keep) {
    if (!keep && !judge(name, value)) return null;
    if (keep && !judge(name, null)) return null;
    return { entries: [[name, value]], shorthand: null };
  }
  // Custom properties keep their value as written (CSS Variables 1 §2), strings double-quoted as
  // WebKit serializes them.
  function customValue(value) {
    return value.replace(/'((?:[^'\\]|\\.)*)'/g, (m, inner) => JSON.stringify(inner.replace(/\\(.)/g, "$1")));
  }

  // A declaration list's text as WebKit's parser leaves it (CSSParserImpl::createStyleProperties):
  // for each property only its last declaration, an !important one beating any normal one;
  // the normal declarations come first, then the important ones, each in the order of their
  // last appearance.
  function parseList(text, judge) {
    const parsed = [];
    for (const declaration of splitTopLevel(String(text), ";")) {
      const colon = declaration.indexOf(":");
      if (colon <= 0) continue;
      const rawName = declaration.slice(0, colon).trim();
      if (!/^(--|-?[a-zA-Z_])[a-zA-Z0-9_-]*$/.test(rawName)) continue;
      let value = declaration.slice(colon + 1);
      const important = /!\s*important\s*$/i.test(value);
      if (important) value = value.replace(/!\s*important\s*$/i, "");
      if (/!/.test(value) && !rawName.startsWith("--")) continue;
      const result = parseDeclaration(rawName, value, judge);
      if (!result) continue;
      for (const [name, v] of result.entries) parsed.push({ name, value: v, important, shorthand: result.shorthand });
    }
    const seen = new Set(), out = [];
    for (const important of [true, false]) {
      for (let i = parsed.length - 1; i >= 0; i--) {
        const entry = parsed[i];
        if (entry.important !== important || seen.has(entry.name)) continue;
        seen.add(entry.name);
        out.push(entry);
      }
    }
    return out.reverse();
  }

  // MARK: - Serialization

  function find(entries, name) {
    for (let i = 0; i < entries.length; i++) if (entries[i].name === name) return entries[i];
    return null;
  }
  // The shorthand's longhands' entries when all are present with one priority, else null.
  function complete(entries, short) {
    const found = [];
    for (const name of SHORTHANDS.get(short).longhands) {
      const entry = find(entries, name);
      if (!entry || (found.length && entry.important !== found[0].important)) return null;
      found.push(entry);
    }
    return found;
  }
  const collapse4 = ([t, r, b, l]) => (l === r ? (b === t ? (r === t ? t : t + " " + r) : t + " " + r + " " + b) : t + " " + r + " " + b + " " + l);
  const collapse2 = ([a, b]) => (a === b ? a : a + " " + b);
  // Components left out where they are initial; the first one when all are.
  function omitInitial(values, initials) {
    const kept = values.filter((v, i) => v !== initials[i]);
    return kept.length ? kept.join(" ") : values[0];
  }
  const SERIALIZERS = {
    margin: collapse4, padding: collapse4, inset: collapse4, "border-width": collapse4, "border-style": collapse4, "border-color": collapse4,
    "border-radius": collapse4, overflow: collapse2, gap: collapse2,
    outline: (values) => omitInitial(values, ["currentcolor", "none", "medium"]),
    "border-top": sideLine, "border-right": sideLine, "border-bottom": sideLine, "border-left": sideLine,
    border(values) {
      const [w, s, c, image] = [values.slice(0, 4), values.slice(4, 8), values.slice(8, 12), values.slice(12)];
      if (!w.every((v) => v === w[0]) || !s.every((v) => v === s[0]) || !c.every((v) => v === c[0])) return null;
      if (image.some((v, i) => v !== initialOf(IMAGE_LONGHANDS[i]))) return null;
      return omitInitial([w[0], s[0], c[0]], ["medium", "none", "currentcolor"]);
    },
    "border-image"(values) { return values.every((v, i) => v === initialOf(IMAGE_LONGHANDS[i])) ? "none" : null; },
    flex: (values) => values.join(" "),
    "background-position": (values) => zipLayers(values, (layer) => layer.join(" ")),
    background(values) {
      const layerCount = values[0].split(", ").length;
      const perLayer = values.slice(0, 8).map((v) => splitTopLevel(v, ","));
      if (perLayer.some((v) => v.length !== layerCount)) return null;
      const out = [];
      for (let i = 0; i < layerCount; i++) {
        const [img, x, y, size, repeat, attachment, origin, clip] = perLayer.map((v) => v[i]);
        const parts = [];
        if (img !== "none") parts.push(img);
        // A one-value size is written with its implicit `auto` height here.
        const fullSize = /^(cover|contain)$/.test(size) || size.includes(" ") ? size : size + " auto";
        if (x !== "0%" || y !== "0%" || size !== "auto") parts.push(x + " " + y + (size !== "auto" ? " / " + fullSize : ""));
        if (repeat !== "repeat") parts.push(repeat);
        if (attachment !== "scroll") parts.push(attachment);
        if (origin !== "padding-box" || clip !== "border-box") parts.push(origin === clip ? origin : origin + " " + clip);
        if (i === layerCount - 1 && values[8] !== "transparent") parts.push(values[8]);
        out.push(parts.length ? parts.join(" ") : "none");
      }
      return out.join(", ");
    },
    transition(values) {
      return zipLayers(values, ([duration, timing, delay, behavior, property]) => {
        const parts = [];
        if (property !== "all") parts.push(property);
        // Each initial component is left out on its own, even a 0s duration before a delay
        // (WebKit writes `opacity 0s 1s` as `opacity 1s`).
        if (duration !== "0s") parts.push(duration);
        if (timing !== "ease") parts.push(timing);
        if (delay !== "0s") parts.push(delay);
        if (behavior !== "normal") parts.push(behavior);
        return parts.length ? parts.join(" ") : property;
      });
    },
    font(values) {
      const set = Object.fromEntries(FONT.map((name, i) => [name, values[i]]));
      for (const name of FONT.slice(7)) if (set[name] !== initialOf(name)) return null;
      const parts = [set["font-style"], set["font-variant-caps"], set["font-weight"], set["font-width"]].filter((v) => v !== "normal");
      parts.push(set["font-size"] + (set["line-height"] !== "normal" ? " / " + set["line-height"] : ""), set["font-family"]);
      return parts.join(" ");
    },
  };
  function sideLine(values) { return omitInitial(values, ["medium", "none", "currentcolor"]); }
  function zipLayers(values, serialize) {
    const split = values.map((v) => splitTopLevel(v, ","));
    if (split.some((v) => v.length !== split[0].length)) return null;
    return split[0].map((_, i) => serialize(split.map((v) => v[i]))).join(", ");
  }
  // getPropertyValue(shorthand): "" unless every longhand is there with one priority.
  function shorthandValue(entries, short) {
    const found = complete(entries, short);
    if (!found) return null;
    const values = found.map((e) => e.value);
    if (values.some((v) => WIDE.test(v))) return values.every((v) => v === values[0]) ? values[0] : null;
    if (values.some((v) => /var\(/i.test(v))) return null;
    return SERIALIZERS[short](values);
  }

  // The shorthands `cssText` tries for a longhand, in WebKit's order: the side shorthands of
  // border (border-top …) are never used there, the font shorthand is never written back.
  const CANDIDATES = new Map();
  for (const [short, { longhands }] of SHORTHANDS) {
    if (/^border-(top|right|bottom|left)$/.test(short) || short === "font") continue;
    for (const name of longhands) {
      if (!CANDIDATES.has(name)) CANDIDATES.set(name, []);
      CANDIDATES.get(name).push(short);
    }
  }
  for (const list of CANDIDATES.values()) list.sort((a, b) => SHORTHANDS.get(b).longhands.length - SHORTHANDS.get(a).longhands.length);

  function text(entries) {
    const out = [];
    const written = new Set(), failed = new Set();
    for (const entry of entries) {
      let covered = false;
      for (const short of CANDIDATES.get(entry.name) || []) {
        if (written.has(short)) { covered = true; break; }
        if (failed.has(short)) continue;
        const value = shorthandValue(entries, short);
        if (value === null) { failed.add(short); continue; }
        written.add(short);
        out.push(short + ": " + value + (entry.important ? " !important" : "") + ";");
        covered = true;
        break;
      }
      if (!covered) out.push(entry.name + ": " + entry.value + (entry.important ? " !important" : "") + ";");
    }
    return out.join(" ");
  }

  // MARK: - Changing a block

  function canonicalName(name) {
    const lower = name.startsWith("--") ? name : name.toLowerCase();
    return ALIASES[lower] || lower;
  }
  // setProperty: every longhand replaced where it is, or appended. True when anything changed
  // (a longhand's value, priority, or the shorthand it came from: WebKit compares the whole
  // property, so `margin-top` set over `margin` is a change even with the same value).
  function set(entries, name, value, important, judge) {
    const result = parseDeclaration(name, value, judge);
    if (!result) return false;
    let changed = false;
    for (const [longName, v] of result.entries) {
      const existing = find(entries, longName);
      if (existing) {
        if (existing.value === v && existing.important === important && existing.shorthand === result.shorthand) continue;
        existing.value = v; existing.important = important; existing.shorthand = result.shorthand;
      } else entries.push({ name: longName, value: v, important, shorthand: result.shorthand });
      changed = true;
    }
    return changed;
  }
  // removeProperty: the longhand's old value ("" for a shorthand, as WebKit returns), and
  // whether anything was removed.
  function remove(entries, name) {
    name = canonicalName(name);
    const short = SHORTHANDS.get(name);
    const names = short ? short.longhands : [name];
    let old = "", removed = false;
    for (const n of names) {
      const at = entries.findIndex((e) => e.name === n);
      if (at < 0) continue;
      if (!short) old = entries[at].value;
      entries.splice(at, 1);
      removed = true;
    }
    return { old, removed };
  }
  function value(entries, name) {
    name = canonicalName(name);
    if (SHORTHANDS.has(name)) {
      const v = shorthandValue(entries, name);
      return v === null ? "" : v;
    }
    const entry = find(entries, name);
    return entry ? entry.value : "";
  }
  function priority(entries, name) {
    name = canonicalName(name);
    const short = SHORTHANDS.get(name);
    if (short) { const found = complete(entries, name); return found && found[0].important ? "important" : ""; }
    const entry = find(entries, name);
    return entry && entry.important ? "important" : "";
  }

  // The longhands a declaration of a style sheet rule sets, for the cascade ([[name, value]],
  // or null when invalid); properties not modelled here are kept as written.
  function expand(name, rawValue) {
    const result = parseDeclaration(name, rawValue, () => true);
    return result && result.entries;
  }

  ctx.declarations = {
    parseList, text, set, remove, value, priority, expand,
    isShorthand: (name) => SHORTHANDS.has(canonicalName(name)),
    // The longhands a shorthand sets ([] for any other name).
    longhands: (name) => (SHORTHANDS.has(canonicalName(name)) ? SHORTHANDS.get(canonicalName(name)).longhands : []),
  };
})
