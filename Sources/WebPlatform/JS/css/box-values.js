// layer: css/box-values
// order: 35
// provides: boxValues
// requires: cssValues
//
// The box properties the layout model (layout/geometry.js) reads, added to the cascade's table of
// modelled properties (values.js) before the cascade loads: the remaining insets (`right`,
// `bottom`), margins, padding, border widths and styles, `box-sizing`, min/max sizes, `overflow`,
// `transform` and `translate`; and the shorthands that set them (`margin`, `padding`, `inset`,
// `border` and its sides, `border-width`, `border-style`, `overflow`), expanded into their
// longhands as CSS Cascade 4 §2.2 does, so that a later longhand beats an earlier shorthand.
// Values are kept as specified (lengths in px or %, keywords), except border widths, whose
// keywords are px (CSS Backgrounds 3 §4.3: thin 1px, medium 3px, thick 5px, as WebKit draws
// them); layout resolves percentages against the containing block. element.style goes on
// judging these properties with domino's parser (values.js judges only its own).
(function (ctx) {
  "use strict";
  const values = ctx.cssValues;
  const baseValidate = values.validate;

  const SIDES = ["top", "right", "bottom", "left"];
  const BORDER_STYLES = new Set(["none", "hidden", "dotted", "dashed", "solid", "double", "groove", "ridge", "inset", "outset"]);
  const BORDER_WIDTHS = { thin: "1px", medium: "3px", thick: "5px" };
  const OVERFLOW = new Set(["visible", "hidden", "clip", "scroll", "auto"]);
  const GLOBAL_KEYWORDS = new Set(["inherit", "initial", "unset", "revert", "revert-layer"]);

  const INITIAL = { right: "auto", bottom: "auto", "box-sizing": "content-box", "min-width": "auto", "min-height": "auto",
    "max-width": "none", "max-height": "none", "overflow-x": "visible", "overflow-y": "visible", transform: "none", translate: "none" };
  for (const side of SIDES) {
    INITIAL["margin-" + side] = "0px";
    INITIAL["padding-" + side] = "0px";
    INITIAL["border-" + side + "-width"] = "3px";
    INITIAL["border-" + side + "-style"] = "none";
  }

  // A length (px, em, rem, pt, %, unitless 0) as values.js writes it, or null.
  const length = (value) => { const v = baseValidate("left", value); return v === "auto" || GLOBAL_KEYWORDS.has(v) ? null : v; };
  const nonNegative = (value) => { const v = length(value); return v !== null && !v.startsWith("-") ? v : null; };
  function borderWidth(value) {
    return Object.prototype.hasOwnProperty.call(BORDER_WIDTHS, value) ? BORDER_WIDTHS[value] : nonNegative(value);
  }
  const TRANSFORM = /^(?:[a-z0-9-]+\([^()]*\)\s*)+$/;

  // The value a longhand declaration of this layer contributes, or null when it is invalid.
  function validateBox(property, value) {
    if (property === "right" || property === "bottom" || property.startsWith("margin-")) return value === "auto" ? value : length(value);
    if (property.startsWith("padding-")) return nonNegative(value);
    if (property.endsWith("-width") && property.startsWith("border-")) return borderWidth(value);
    if (property.endsWith("-style")) return BORDER_STYLES.has(value) ? value : null;
    switch (property) {
      case "box-sizing": return value === "content-box" || value === "border-box" ? value : null;
      case "min-width": case "min-height": return value === "auto" ? value : nonNegative(value);
      case "max-width": case "max-height": return value === "none" ? value : nonNegative(value);
      case "overflow-x": case "overflow-y": return OVERFLOW.has(value) ? value : null;
      case "transform": return value === "none" || TRANSFORM.test(value) ? value.replace(/\s+/g, " ") : null;
      case "translate": {
        if (value === "none") return value;
        const parts = tokens(value).map(length);
        return parts.length >= 1 && parts.length <= 3 && parts.every((p) => p !== null) ? parts.join(" ") : null;
      }
    }
    return null;
  }

  // Space-separated tokens outside brackets.
  function tokens(text) {
    const out = [];
    let depth = 0, start = 0;
    for (let i = 0; i <= text.length; i++) {
      const c = text[i];
      if (c === "(") depth++;
      else if (c === ")") depth--;
      else if ((c === undefined || /\s/.test(c)) && depth === 0) {
        if (i > start) out.push(text.slice(start, i));
        start = i + 1;
      }
    }
    return out;
  }

  // A 1–4 value box shorthand (CSS Box 4 §3.2): top, right = top, bottom = top, left = right.
  function fourSides(names, value, check) {
    const parts = tokens(value).map(check);
    if (parts.length < 1 || parts.length > 4 || parts.some((p) => p === null)) return [];
    const [t, r = t, b = t, l = r] = parts;
    return [[names[0], t], [names[1], r], [names[2], b], [names[3], l]];
  }
  // `border` and its sides: a width, a style and a colour in any order, each at most once; what is
  // left out goes back to its initial value (CSS Backgrounds 3 §4.4). Colours are not modelled, so
  // any other single token counts as the colour.
  function borderSide(value) {
    let width = null, style = null, color = null;
    for (const token of tokens(value)) {
      const w = borderWidth(token);
      if (w !== null && width === null) { width = w; continue; }
      if (BORDER_STYLES.has(token) && style === null) { style = token; continue; }
      if (color !== null) return null;
      color = token;
    }
    return { width: width || "3px", style: style || "none" };
  }

  const sides = (pattern) => SIDES.map((side) => pattern.replace("*", side));
  // The longhands a shorthand sets, as [property, value] (none when its value is invalid), or
  // null when `property` is not one of these shorthands.
  function longhands(property, raw) {
    const value = String(raw).trim().toLowerCase();
    let names = null, borders = null;
    switch (property) {
      case "margin": names = sides("margin-*"); break;
      case "padding": names = sides("padding-*"); break;
      case "inset": names = SIDES; break;
      case "border-width": names = sides("border-*-width"); break;
      case "border-style": names = sides("border-*-style"); break;
      case "overflow": names = ["overflow-x", "overflow-y"]; break;
      case "border": borders = SIDES; break;
      case "border-top": case "border-right": case "border-bottom": case "border-left": borders = [property.slice(7)]; break;
      default: return null;
    }
    if (borders) {
      const side = GLOBAL_KEYWORDS.has(value) ? { width: value, style: value } : borderSide(value);
      if (!side) return [];
      return borders.flatMap((name) => [["border-" + name + "-width", side.width], ["border-" + name + "-style", side.style]]);
    }
    if (GLOBAL_KEYWORDS.has(value)) return names.map((name) => [name, value]);
    switch (property) {
      case "margin": case "inset": return fourSides(names, value, (v) => v === "auto" ? v : length(v));
      case "padding": return fourSides(names, value, nonNegative);
      case "border-width": return fourSides(names, value, borderWidth);
      case "border-style": return fourSides(names, value, (v) => BORDER_STYLES.has(v) ? v : null);
    }
    const parts = tokens(value);
    if (parts.length < 1 || parts.length > 2 || !parts.every((p) => OVERFLOW.has(p))) return [];
    return [["overflow-x", parts[0]], ["overflow-y", parts[1] || parts[0]]];
  }

  Object.assign(values.INITIAL, INITIAL);
  values.PROPERTIES.push(...Object.keys(INITIAL));
  values.validate = (property, raw, base) => {
    if (!Object.prototype.hasOwnProperty.call(INITIAL, property)) return baseValidate(property, raw, base);
    const value = String(raw).trim().toLowerCase();
    return GLOBAL_KEYWORDS.has(value) ? value : validateBox(property, value);
  };
  ctx.boxValues = { longhands };
})
