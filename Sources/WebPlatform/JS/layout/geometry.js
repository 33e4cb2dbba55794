// layer: layout/geometry
// order: 100
// provides: boxOf
// requires: computeStyle, style, onMutation, pageNow, useLayoutSizes, cssValues
//
// Geometry from a box model without text: what CSS 2.1's visual formatting model gives boxes
// whose sizes are declared, laid out when first asked after a change of the DOM, the styles or
// the viewport (after a DOM change, boxes whose subtree did not change are kept and only placed
// again), and read by everything that reports geometry (getBoundingClientRect, offset*,
// client*, elementFromPoint, IntersectionObserver, ResizeObserver, resolved sizes in
// getComputedStyle).
//
// - Block flow (CSS 2.1 §9.4.1, §10.3.3, §10.6.3): in-flow block boxes stack vertically in their
//   parent's content box; `auto` widths fill it, auto horizontal margins centre a sized box,
//   adjoining vertical margins collapse (§8.3.1: siblings, a parent and its first or last child,
//   empty boxes), `auto` heights are the height of the content. Lengths are px or % of the
//   containing block (heights only when its height is definite), kept in WebKit's LayoutUnit
//   (1/64 px, truncated); margins, borders (0 where the style is none), padding, box-sizing,
//   min/max sizes.
// - Positioned boxes (§10.3.7, §10.6.4): absolute against the padding box of the nearest
//   positioned or transformed ancestor (else the initial containing block), fixed against the
//   viewport (or a transformed ancestor), from any of left/right/top/bottom/width/height and
//   auto margins, at the static position when both insets of an axis are auto; relative offsets;
//   sticky boxes keep to the viewport within their parent's content box as the page scrolls.
// - transform: the translate property and the translation of the transform's matrix (values.js)
//   move the box and its descendants for everything but offset* (CSSOM View §7 ignores
//   transforms); scales, rotations and skews are ignored.
// - Painting order (CSS 2.1 Appendix E) for hit testing: stacking contexts (positioned with a
//   z-index, fixed, sticky, opacity < 1, transforms), negative z-index below the flow, positioned
//   boxes above it in tree order, positive z-index above those.
// What is left out (README, known differences): text and inline layout (inline elements take
// the union of the blocks inside them; inline-blocks and replaced elements each start a line of
// their own, without baseline or strut), floats (placed where they start, taking no room), flex
// and grid (their items flow as blocks), tables (as blocks), overflow clipping and scrolling
// boxes other than the viewport.
//
// A box the harness declared (Page.setBox, or `data-adv-box="x y width height"`) is the border
// box in document coordinates, whatever layout says; its content flows inside it. An element
// that is display:none, or inside one, has no box at all (CSSOM View: getBoundingClientRect is
// all zeros, offsetParent null).
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const cssValues = ctx.cssValues;

  function viewportOf(doc) { return doc._advStyle.viewport; }
  function scrollOf(doc) { return doc._advScroll; }

  // MARK: - Lengths

  // WebKit keeps layout in LayoutUnits of 1/64 px; a float becomes one by truncation
  // (LayoutUnit::fromFloatFloor is not what lengths use: LayoutUnit(float) truncates).
  const lu = (v) => Math.trunc(v * 64) / 64;
  // A specified length against `base` (a % of null is unresolvable), or null for auto/none.
  function resolve(value, base) {
    if (value === undefined || value === "auto" || value === "none") return null;
    const n = parseFloat(value);
    if (!Number.isFinite(n)) return null;
    if (value.endsWith("%")) return base === null ? null : lu((n * base) / 100);
    return lu(n);
  }
  const SIDES = ["top", "right", "bottom", "left"];
  function borders(values) {
    // Computed widths: 0 where the style is none or hidden (values.js).
    return SIDES.map((side) => resolve(values["border-" + side + "-width"], 0) || 0);
  }
  const paddings = (values, base) => SIDES.map((side) => resolve(values["padding-" + side], base === null ? 0 : base) || 0);
  // Margins, null where auto.
  const margins = (values, base) => SIDES.map((side) => values["margin-" + side] === "auto" ? null : resolve(values["margin-" + side], base === null ? 0 : base) || 0);

  // Replaced elements (HTML §15.4): their size comes from CSS, else their width/height
  // attributes (presentational hints, HTML §15.4.3), else the intrinsic size: 300×150 for
  // frames, video, canvas, plug-ins and SVG; 0×0 for an image, as no image is ever decoded.
  const REPLACED = new Set(["img", "iframe", "video", "canvas", "embed", "object", "svg"]);
  const isReplaced = (element) => REPLACED.has(element.localName);
  function attributeLength(element, name) {
    if (!isReplaced(element)) return null;
    const m = /^\s*(\d+(?:\.\d+)?)(%?)/.exec(element.getAttribute(name) || "");
    return m ? m[1] + (m[2] ? "%" : "px") : null;
  }
  function declaredLength(element, values, axis) {
    const value = values[axis];
    if (value === "auto" || value === "min-content" || value === "max-content" || value === "fit-content") return attributeLength(element, axis) || "auto";
    return value;
  }
  // Width over height for a canvas (its bitmap, 300×150 by default) and for an image with both
  // size attributes (HTML §15.4.3 maps them to an aspect ratio); none for the others here.
  function intrinsicRatio(element) {
    const number = (name, fallback) => { const n = parseInt(element.getAttribute(name), 10); return n >= 0 ? n : fallback; };
    if (element.localName === "canvas") { const h = number("height", 150); return h > 0 ? number("width", 300) / h : null; }
    if (element.localName === "img" && element.hasAttribute("width") && element.hasAttribute("height")) {
      const h = number("height", 0); return h > 0 ? number("width", 0) / h : null;
    }
    return null;
  }
  function intrinsic(element, axis) {
    if (!isReplaced(element) || element.localName === "img") return 0;
    return axis === "width" ? 300 : 150;
  }

  // The content-box width or height `values` ask for, null when auto (or a % of an indefinite
  // size); min/max applied by clamp().
  function specified(element, values, axis, base, extras) {
    let size = resolve(declaredLength(element, values, axis), base);
    if (size === null && isReplaced(element)) {
      // §10.3.2, §10.6.2: with the other size given, an intrinsic ratio gives this one.
      const ratio = intrinsicRatio(element);
      const other = ratio ? resolve(declaredLength(element, values, axis === "width" ? "height" : "width"), null) : null;
      size = other !== null ? lu(axis === "width" ? other * ratio : other / ratio) : intrinsic(element, axis);
    }
    if (size !== null && values["box-sizing"] === "border-box") size = Math.max(0, size - extras);
    return size;
  }
  function clamp(size, values, axis, base, extras) {
    const borderBox = values["box-sizing"] === "border-box";
    let max = resolve(values["max-" + axis], base);
    if (max !== null && borderBox) max = Math.max(0, max - extras);
    if (max !== null && size > max) size = max;
    let min = resolve(values["min-" + axis], base) || 0;
    if (borderBox) min = Math.max(0, min - extras);
    return size < min ? min : size;
  }

  // MARK: - Layout records

  // One record per element with a box: the border box (document coordinates, or viewport
  // coordinates when `fixed`), its edges [top, right, bottom, left], where its position came
  // from (`base`: the parent's record for in-flow boxes, the containing block's for positioned
  // ones), and what flow needs (children placed relative to the content box, collapsing margins).
  function newRecord(element, values, cbWidth) {
    return { element, values, border: borders(values), padding: paddings(values, cbWidth), margin: [0, 0, 0, 0],
      x: 0, y: 0, width: 0, height: 0, contentWidth: 0, contentHeight: 0, rx: 0, ry: 0, rel: null, children: [],
      fixed: false, base: null, sticky: null, parts: null, declared: null, translation: null };
  }

  // Margin collapsing (CSS 2.1 §8.3.1): a set of adjoining margins is its largest positive and
  // its most negative member; it collapses to their sum.
  const NO_MARGINS = [0, 0];
  const joined = (a, b) => [Math.max(a[0], b[0]), Math.min(a[1], b[1])];
  const single = (m) => (m >= 0 ? [m, 0] : [0, m]);
  const collapsed = (set) => set[0] + set[1];

  const MAX_DEPTH = 600;   // above the HTML parser's nesting cap (512); deeper boxes are empty

  // `previous` is the last layout, made under the same styles, and `dirty` what changed in the
  // DOM since: boxes whose subtree did not change keep their records (only placed again).
  function layoutDocument(doc, previous, dirty) {
    const viewport = viewportOf(doc);
    const layout = { records: new Map(), paint: null, viewport, previous, changed: dirty.subtrees, path: new Set() };
    if (previous) {
      // Every element with a change at or below it.
      for (const set of [dirty.subtrees, dirty.children]) {
        for (const element of set) for (let n = element; n && n.nodeType === 1 && !layout.path.has(n); n = n.parentNode) layout.path.add(n);
      }
    }
    const root = doc.documentElement;
    if (!root || ctx.computeStyle(root).display === "none") return layout;
    const positioned = [];
    const values = ctx.computeStyle(root);
    const html = flowBox(layout, root, values, viewport.width, viewport.height, "block", positioned, 0);
    html.rx = html.margin[3];
    html.ry = html.margin[0];
    place(html, 0, 0, false, null);
    for (let i = 0; i < positioned.length; i++) layoutPositioned(layout, positioned[i], positioned);
    layout.previous = null;
    return layout;
  }

  // The previous layout's record for `element`, when nothing it depends on has changed: its
  // computed values (the cascade keeps the same object while they hold), its containing block,
  // how it is sized, and its subtree (no change in it, none to an ancestor's attributes, which
  // can change its styles).
  function reusable(layout, element, values, cbWidth, cbHeight, mode) {
    const rec = layout.previous && layout.previous.records.get(element);
    if (!rec || rec.values !== values || rec.cbWidth !== cbWidth || rec.cbHeight !== cbHeight || rec.mode !== mode || layout.path.has(element)) return null;
    if (layout.changed.size > 0) for (let n = element.parentNode; n && n.nodeType === 1; n = n.parentNode) if (layout.changed.has(n)) return null;
    return rec;
  }
  // The box of an in-flow element: the previous one when it can be reused, else laid out.
  function flowBox(layout, element, values, cbWidth, cbHeight, mode, positioned, depth) {
    const previous = reusable(layout, element, values, cbWidth, cbHeight, mode);
    return previous ? adopt(layout, previous, positioned) : layoutBox(layout, element, values, cbWidth, cbHeight, mode, positioned, null, depth);
  }
  // Takes over a record and its in-flow subtree, with the positioned boxes found in it.
  function adopt(layout, rec, positioned) {
    const stack = [rec];
    while (stack.length > 0) {
      const r = stack.pop();
      layout.records.set(r.element, r);
      for (const child of r.children) stack.push(child);
    }
    for (const item of rec.queued) positioned.push(item);
    return rec;
  }

  // Sizes the box of `element` in a containing block of `cbWidth` × `cbHeight` (null when
  // indefinite) and lays out its in-flow content. `mode` is how an auto width is found: "block"
  // fills the containing block, "shrink" fits the content (CSS 2.1 §10.3.5); `forced` holds
  // what an absolutely positioned box's constraints already fixed (width, height, margins).
  function layoutBox(layout, element, values, cbWidth, cbHeight, mode, positioned, forced, depth) {
    const rec = newRecord(element, values, cbWidth);
    rec.cbWidth = cbWidth; rec.cbHeight = cbHeight; rec.mode = mode;
    const queued = positioned.length;
    layout.records.set(element, rec);
    const [bt, br, bb, bl] = rec.border, [pt, pr, pb, pl] = rec.padding;
    const extrasX = bl + br + pl + pr, extrasY = bt + bb + pt + pb;
    const declared = element.ownerDocument._advBoxes.get(element) || declaredAttribute(element);
    let [mt, mr, mb, ml] = forced && forced.margin ? forced.margin : margins(values, cbWidth);
    let width = forced && forced.width !== undefined ? forced.width : null;
    if (declared) width = Math.max(0, declared.width - extrasX);
    if (width === null) {
      let size = specified(element, values, "width", cbWidth, extrasX);
      const auto = size === null;
      if (auto) size = mode === "block" ? Math.max(0, cbWidth - (ml || 0) - (mr || 0) - extrasX) : maxContent(element, values);
      width = clamp(size, values, "width", cbWidth, extrasX);
      if (mode === "block" && !(auto && width === size)) {
        // §10.3.3: a sized box's auto margins share what is left; an over-wide box's count as 0.
        const free = cbWidth - width - extrasX - (ml || 0) - (mr || 0);
        if (ml === null && mr === null) ml = mr = free > 0 ? lu(free / 2) : 0;
        else if (ml === null) ml = Math.max(0, free);
        else if (mr === null) mr = Math.max(0, free);
      }
    }
    rec.margin = [mt || 0, mr || 0, mb || 0, ml || 0];
    rec.contentWidth = width;
    let height = forced && forced.height !== undefined ? forced.height : specified(element, values, "height", cbHeight, extrasY);
    if (declared) height = Math.max(0, declared.height - extrasY);
    const fixedHeight = height !== null;
    if (height !== null && !declared) height = clamp(height, values, "height", cbHeight, extrasY);
    // A new block formatting context keeps its children's margins inside it (CSS 2.1 §9.4.1).
    const root = mode !== "block" || element === element.ownerDocument.documentElement || values.position === "absolute" || values.position === "fixed" ||
      values["overflow-x"] !== "visible" || values["overflow-y"] !== "visible" || values.display === "flow-root" || values.display === "table-cell" ||
      values.display === "flex" || values.display === "grid" || isFlexOrGridItem(element);
    const minHeight = resolve(values["min-height"], cbHeight) || 0;
    const canTop = !root && bt === 0 && pt === 0;
    const canBottom = !root && bb === 0 && pb === 0 && !fixedHeight && minHeight === 0;
    // A replaced element's children are not rendered (its content is an image, a frame …).
    const inner = depth < MAX_DEPTH && !isReplaced(element) ? flow(layout, rec, width, height, canTop, canBottom, positioned, depth + 1)
      : { height: 0, topOut: NO_MARGINS, bottomOut: NO_MARGINS, atTop: true };
    rec.queued = positioned.slice(queued);
    if (height === null) height = clamp(inner.height, values, "height", cbHeight, extrasY);
    rec.contentHeight = height;
    rec.width = width + extrasX;
    rec.height = height + extrasY;
    rec.mTop = canTop ? joined(single(rec.margin[0]), inner.topOut) : single(rec.margin[0]);
    rec.mBottom = joined(single(rec.margin[2]), inner.bottomOut);
    rec.empty = canTop && canBottom && inner.atTop && rec.height === 0;
    if (declared) rec.declared = declared;
    if (values.position === "relative") {
      const left = resolve(values.left, cbWidth), right = resolve(values.right, cbWidth);
      const top = resolve(values.top, cbHeight), bottom = resolve(values.bottom, cbHeight);
      rec.rel = { x: left !== null ? left : right !== null ? -right : 0, y: top !== null ? top : bottom !== null ? -bottom : 0 };
    } else if (values.position === "sticky") {
      const viewport = layout.viewport;
      rec.sticky = { top: resolve(values.top, viewport.height), right: resolve(values.right, viewport.width),
        bottom: resolve(values.bottom, viewport.height), left: resolve(values.left, viewport.width) };
    }
    return rec;
  }
  function declaredAttribute(element) {
    const attribute = element.getAttribute("data-adv-box");
    if (!attribute) return null;
    const n = attribute.trim().split(/[\s,]+/).map(Number);
    return n.length === 4 && n.every(Number.isFinite) ? { x: n[0], y: n[1], width: n[2], height: n[3] } : null;
  }
  function isFlexOrGridItem(element) {
    const parent = element.parentNode;
    if (!parent || parent.nodeType !== 1) return false;
    const display = ctx.computeStyle(parent).display;
    return display === "flex" || display === "inline-flex" || display === "grid" || display === "inline-grid";
  }

  // The max-content width of a box without text (CSS 2.1 §10.3.5's preferred width): the widest
  // margin box among its in-flow children.
  function maxContent(element, values) {
    if (isReplaced(element)) return intrinsic(element, "width");
    let widest = 0;
    for (const child of flowChildren(element)) {
      const v = ctx.computeStyle(child);
      if (v.position === "absolute" || v.position === "fixed") continue;
      const b = borders(v), p = paddings(v, 0), m = margins(v, 0);
      const extras = b[1] + b[3] + p[1] + p[3];
      let size = specified(child, v, "width", null, extras);
      if (size === null) size = maxContent(child, v);
      widest = Math.max(widest, clamp(size, v, "width", null, extras) + extras + (m[1] || 0) + (m[3] || 0));
    }
    return widest;
  }
  // The element children that take part in a box's flow: display:contents gives its children.
  function flowChildren(element) {
    const out = [];
    for (let n = element.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      const display = ctx.computeStyle(n).display;
      if (display === "none") continue;
      if (display === "contents") out.push(...flowChildren(n));
      else out.push(n);
    }
    return out;
  }

  // Lays out the in-flow content of `rec` (content width `cw`, definite content height `ch` or
  // null): block boxes stack with their margins collapsing, out-of-flow boxes are queued with
  // their static position. Returns the content height and the margins that collapse through the
  // box's top and bottom.
  function flow(layout, rec, cw, ch, canTop, canBottom, positioned, depth) {
    const state = { y: 0, pending: NO_MARGINS, atTop: canTop, topOut: NO_MARGINS };
    flowInto(layout, rec, rec.element, cw, ch, state, positioned, depth);
    if (state.atTop) return { height: 0, topOut: state.topOut, bottomOut: NO_MARGINS, atTop: true };
    if (canBottom) return { height: state.y, topOut: state.topOut, bottomOut: state.pending, atTop: false };
    return { height: state.y + collapsed(state.pending), topOut: state.topOut, bottomOut: NO_MARGINS, atTop: false };
  }
  // Where the next box's top margin starts: at the top, margins collapse with the parent's.
  const flowTop = (state) => (state.atTop ? 0 : state.y + collapsed(state.pending));
  function flowInto(layout, rec, parent, cw, ch, state, positioned, depth) {
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== 1) continue;
      const v = ctx.computeStyle(child);
      if (v.display === "none") continue;
      if (v.display === "contents") { flowInto(layout, rec, child, cw, ch, state, positioned, depth); continue; }
      if (v.position === "absolute" || v.position === "fixed") {
        positioned.push({ element: child, values: v, container: rec, x: 0, y: flowTop(state), depth });
        continue;
      }
      const replaced = isReplaced(child);
      if (v.display === "inline" && !replaced && !child.ownerDocument._advBoxes.has(child) && !child.hasAttribute("data-adv-box")) {
        // An inline box without text: as big as the blocks inside it, else empty where it starts.
        const inline = newRecord(child, v, cw);
        layout.records.set(child, inline);
        inline.ry = flowTop(state);
        rec.children.push(inline);
        const first = rec.children.length;
        flowInto(layout, rec, child, cw, ch, state, positioned, depth);
        inline.parts = rec.children.slice(first);
        continue;
      }
      if (v.float !== "none") {
        const box = flowBox(layout, child, v, cw, ch, "shrink", positioned, depth);
        box.rx = v.float === "right" ? cw - box.width - box.margin[1] : box.margin[3];
        box.ry = flowTop(state) + box.margin[0];
        rec.children.push(box);
        continue;
      }
      if (replaced || v.display === "inline" || v.display.startsWith("inline-")) {
        // An atomic inline (or a declared box) on a line of its own: its margins do not collapse.
        const box = flowBox(layout, child, v, cw, ch, "shrink", positioned, depth);
        box.rx = box.margin[3];
        box.ry = flowTop(state) + box.margin[0];
        state.y = box.ry + box.height + box.margin[2];
        state.pending = NO_MARGINS;
        state.atTop = false;
        rec.children.push(box);
        continue;
      }
      const box = flowBox(layout, child, v, cw, ch, v.display === "table" ? "shrink" : "block", positioned, depth);
      box.rx = box.margin[3];
      if (state.atTop) {
        state.topOut = joined(state.topOut, box.mTop);
        box.ry = 0;
        if (box.empty) state.topOut = joined(state.topOut, box.mBottom);
        else { state.atTop = false; state.y = box.height; state.pending = box.mBottom; }
      } else {
        box.ry = state.y + collapsed(joined(state.pending, box.mTop));
        if (box.empty) state.pending = joined(joined(state.pending, box.mTop), box.mBottom);
        else { state.y = box.ry + box.height; state.pending = box.mBottom; }
      }
      rec.children.push(box);
    }
  }

  // Gives `rec` and its in-flow descendants their positions, from the content-box origin of
  // what they flow in; inline boxes then take the union of theirs.
  function place(rec, originX, originY, fixed, base) {
    if (rec.declared) { rec.x = rec.declared.x; rec.y = rec.declared.y; }
    else {
      rec.x = originX + rec.rx + (rec.rel ? rec.rel.x : 0);
      rec.y = originY + rec.ry + (rec.rel ? rec.rel.y : 0);
    }
    rec.fixed = fixed && !rec.declared;
    rec.base = base;
    rec.translation = null;
    const cx = rec.x + rec.border[3] + rec.padding[3], cy = rec.y + rec.border[0] + rec.padding[0];
    for (const child of rec.children) place(child, cx, cy, rec.fixed, rec);
    for (let i = rec.children.length - 1; i >= 0; i--) {
      const inline = rec.children[i];
      if (!inline.parts) continue;
      const boxes = inline.parts.filter((part) => !part.parts || part.width > 0 || part.height > 0);
      if (boxes.length === 0) continue;
      const left = Math.min(...boxes.map((b) => b.x)), top = Math.min(...boxes.map((b) => b.y));
      inline.x = left; inline.y = top;
      inline.width = Math.max(...boxes.map((b) => b.x + b.width)) - left;
      inline.height = Math.max(...boxes.map((b) => b.y + b.height)) - top;
    }
  }

  // The containing block of an absolutely or fixed positioned box (CSS 2.1 §10.1, CSS
  // Transforms 1 §6: a transformed element contains both): a padding box, or the initial
  // containing block / the viewport.
  function containingBlock(layout, element, values) {
    for (let n = element.parentNode; n && n.nodeType === 1; n = n.parentNode) {
      const v = ctx.computeStyle(n);
      if (!(hasTransform(v) || (values.position === "absolute" && v.position !== "static"))) continue;
      const rec = layout.records.get(n);
      if (!rec) continue;
      return { x: rec.x + rec.border[3], y: rec.y + rec.border[0], width: rec.width - rec.border[1] - rec.border[3],
        height: rec.height - rec.border[0] - rec.border[2], fixed: rec.fixed, record: rec };
    }
    const viewport = layout.viewport;
    return { x: 0, y: 0, width: viewport.width, height: viewport.height, fixed: values.position === "fixed", record: null };
  }
  const hasTransform = (values) => values.transform !== "none" || values.translate !== "none";

  // CSS 2.1 §10.3.7 and §10.6.4: left + margins + borders + padding + width + right = the
  // containing block's width (and the same vertically); over-constrained, right and bottom give.
  function layoutPositioned(layout, item, positioned) {
    const { element, values } = item;
    const cb = containingBlock(layout, element, values);
    const container = item.container;
    const staticX = container.x + container.border[3] + container.padding[3] + item.x - cb.x;
    const staticY = container.y + container.border[0] + container.padding[0] + item.y - cb.y;
    const b = borders(values), p = paddings(values, cb.width);
    const extrasX = b[1] + b[3] + p[1] + p[3], extrasY = b[0] + b[2] + p[0] + p[2];
    let [mt, mr, mb, ml] = margins(values, cb.width);
    let left = resolve(values.left, cb.width), right = resolve(values.right, cb.width);
    let width = specified(element, values, "width", cb.width, extrasX);
    if (left === null && right === null) left = staticX;
    if (width === null) {
      const auto = left !== null && right !== null ? Math.max(0, cb.width - left - right - (ml || 0) - (mr || 0) - extrasX) : maxContent(element, values);
      width = clamp(auto, values, "width", cb.width, extrasX);
      // §10.4: a width that min/max changed is solved for again as if specified, auto margins
      // and all; otherwise auto margins of an auto width are 0.
      if (width === auto) { ml = ml || 0; mr = mr || 0; }
    } else width = clamp(width, values, "width", cb.width, extrasX);
    if (left !== null && right !== null) {
      // Both insets and the width known: auto margins take what is left (centred when both
      // are auto, the left one 0 when that is negative); otherwise right gives.
      const free = cb.width - left - right - width - extrasX - (ml || 0) - (mr || 0);
      if (ml === null && mr === null) { if (free >= 0) ml = mr = lu(free / 2); else { ml = 0; mr = free; } }
      else if (ml === null) ml = free;
      else if (mr === null) mr = free;
    }
    ml = ml || 0; mr = mr || 0;
    if (left === null) left = cb.width - right - ml - mr - extrasX - width;

    let top = resolve(values.top, cb.height), bottom = resolve(values.bottom, cb.height);
    let height = specified(element, values, "height", cb.height, extrasY);
    if (top === null && bottom === null) top = staticY;
    if (height === null && top !== null && bottom !== null) height = Math.max(0, cb.height - top - bottom - (mt || 0) - (mb || 0) - extrasY);
    if (height !== null) height = clamp(height, values, "height", cb.height, extrasY);
    if (height !== null && top !== null && bottom !== null && (mt === null || mb === null)) {
      const free = cb.height - top - bottom - height - extrasY - (mt || 0) - (mb || 0);
      if (mt === null && mb === null) mt = mb = lu(free / 2);
      else if (mt === null) mt = free;
      else mb = free;
    }
    mt = mt || 0; mb = mb || 0;
    const rec = layoutBox(layout, element, values, cb.width, cb.height, "shrink", positioned,
      { width, height: height === null ? undefined : height, margin: [mt, mr, mb, ml] }, item.depth);
    if (top === null) top = cb.height - bottom - mt - mb - rec.height;
    place(rec, cb.x + left + ml, cb.y + top + mt, cb.fixed, cb.record);
  }

  // MARK: - Reading the layout

  // The document's layout, made again after any change to its DOM, styles, viewport or
  // declared boxes (scrolling moves boxes at read time and needs none).
  // A change of styles (sheets, the viewport, a rule that depends on siblings) or of declared
  // boxes lays everything out again; a DOM change only what it touched (layoutDocument).
  function layoutOf(doc) {
    const g = doc._advGeometry;
    const styles = () => ctx.style.version + ":" + doc._advStyle.sheetsVersion + ":" + doc._advStyle.generation + ":" + g.declared;
    if (g.layout !== null && g.domVersion === g.version && g.styles === styles()) return g.layout;
    const previous = g.layout !== null && g.styles === styles() ? g.layout : null;
    g.layout = layoutDocument(doc, previous, g.dirty);
    g.dirty.subtrees.clear();
    g.dirty.children.clear();
    g.styles = styles();   // after layout: computing styles may have rebuilt the rule index
    g.domVersion = g.version;
    return g.layout;
  }
  function recordOf(element) {
    if (!element || element.nodeType !== 1 || !element.rooted) return null;
    const doc = element.ownerDocument;
    if (!doc._advGeometry || !doc._advStyle) return null;
    return layoutOf(doc).records.get(element) || null;
  }
  const isInlineRecord = (rec) => rec.parts !== null;

  // The translate property then the transform (CSS Transforms 2 §5: translate applies first) as
  // one matrix (values.js, percentages of the border box), of which only the translation moves
  // the box: scales, rotations and skews are not modelled.
  function ownTranslation(rec) {
    const values = rec.values;
    let text = values.transform === "none" ? "" : values.transform;
    if (values.translate !== "none") {
      const parts = values.translate.split(" ");
      text = (parts.length === 3 ? "translate3d(" : "translate(") + parts.join(", ") + ") " + text;
    }
    const matrix = text ? cssValues.transformMatrix(text, { width: rec.width, height: rec.height }) : null;
    return matrix ? { x: matrix[12], y: matrix[13] } : { x: 0, y: 0 };
  }
  // The translation of `rec` and its ancestors (a transformed element contains its positioned
  // descendants, so the tree's ancestors are the ones that move it).
  function translation(rec) {
    if (rec.translation) return rec.translation;
    const records = rec.element.ownerDocument._advGeometry.layout.records;
    const chain = [];
    let r = rec;
    while (r && !r.translation) {
      chain.push(r);
      let parent = null;
      for (let n = r.element.parentNode; n && n.nodeType === 1 && !parent; n = n.parentNode) parent = records.get(n) || null;
      r = parent;
    }
    let [x, y] = r ? r.translation : [0, 0];
    for (let i = chain.length - 1; i >= 0; i--) {
      const own = ownTranslation(chain[i]);
      x += own.x; y += own.y;
      chain[i].translation = [x, y];
    }
    return rec.translation;
  }
  // How far a sticky box has moved to stay in the viewport, inset by its top/right/bottom/left,
  // without leaving its parent's content box (CSS Positioned Layout 3 §3.4).
  function stickyShift(rec, doc) {
    const container = rec.base, sticky = rec.sticky;
    if (!container) return [0, 0];
    const s = scrollOf(doc), viewport = viewportOf(doc);
    const left = container.x + container.border[3] + container.padding[3], top = container.y + container.border[0] + container.padding[0];
    const right = left + container.contentWidth, bottom = top + container.contentHeight;
    function axis(start, size, scroll, extent, before, after, lowest, highest, marginBefore, marginAfter) {
      let shift = 0;
      if (before !== null && start < scroll + before) shift = Math.max(0, Math.min(scroll + before - start, highest - marginAfter - (start + size)));
      if (after !== null && start + size > scroll + extent - after) shift = Math.min(0, Math.max(scroll + extent - after - (start + size), lowest + marginBefore - start));
      return shift;
    }
    return [axis(rec.x, rec.width, s.x, viewport.width, sticky.left, sticky.right, left, right, rec.margin[3], rec.margin[1]),
      axis(rec.y, rec.height, s.y, viewport.height, sticky.top, sticky.bottom, top, bottom, rec.margin[0], rec.margin[2])];
  }
  function stickyOffset(rec) {
    let x = 0, y = 0;
    for (let b = rec; b; b = b.base) if (b.sticky) { const s = stickyShift(b, rec.element.ownerDocument); x += s[0]; y += s[1]; }
    return [x, y];
  }
  // The border box as the viewport shows it: transforms, sticky offsets and scrolling applied.
  function clientBox(rec) {
    const doc = rec.element.ownerDocument;
    const t = translation(rec), sticky = stickyOffset(rec);
    let x = rec.x + t[0] + sticky[0], y = rec.y + t[1] + sticky[1];
    if (!rec.fixed) { const s = scrollOf(doc); x -= s.x; y -= s.y; }
    return { x, y, width: rec.width, height: rec.height };
  }
  ctx.boxOf = (element) => {
    const rec = recordOf(element);
    return rec ? clientBox(rec) : null;
  };

  // MARK: - DOMRect and the element's geometry (CSSOM View §6-7)

  function DOMRectReadOnly(x, y, width, height) {
    this.x = x || 0; this.y = y || 0; this.width = width || 0; this.height = height || 0;
  }
  for (const [name, get] of Object.entries({
    top() { return Math.min(this.y, this.y + this.height); },
    left() { return Math.min(this.x, this.x + this.width); },
    right() { return Math.max(this.x, this.x + this.width); },
    bottom() { return Math.max(this.y, this.y + this.height); },
  })) Object.defineProperty(DOMRectReadOnly.prototype, name, { get, configurable: true, enumerable: true });
  DOMRectReadOnly.prototype.toJSON = function () {
    return { x: this.x, y: this.y, width: this.width, height: this.height, top: this.top, right: this.right, bottom: this.bottom, left: this.left };
  };
  function DOMRect(x, y, width, height) { DOMRectReadOnly.call(this, x, y, width, height); }
  DOMRect.prototype = Object.create(DOMRectReadOnly.prototype, { constructor: { value: DOMRect, writable: true, configurable: true } });

  function clientRect(element) {
    const box = ctx.boxOf(element);
    return box ? new DOMRect(box.x, box.y, box.width, box.height) : new DOMRect(0, 0, 0, 0);
  }
  // CSSOM View §7 offsetParent: null for a box-less element, body, html and fixed boxes; else
  // the nearest positioned ancestor, or td/th/table when the element is not positioned, or body.
  function offsetParent(element) {
    const doc = element.ownerDocument;
    if (!recordOf(element) || element === doc.body || element === doc.documentElement) return null;
    const values = ctx.computeStyle(element);
    if (values.position === "fixed") return null;
    for (let n = element.parentNode; n && n.nodeType === 1; n = n.parentNode) {
      if (n === doc.body) return n;
      const v = ctx.computeStyle(n);
      if (v.position !== "static") return n;
      if (values.position === "static" && (n.localName === "td" || n.localName === "th" || n.localName === "table")) return n;
    }
    return null;
  }
  // offsetLeft/offsetTop in LayoutUnits: from the offset parent's padding edge, or the initial
  // containing block (body: 0); a fixed box, which has none, from its containing block.
  // Transforms are ignored, relative and sticky offsets are not.
  function offsetPosition(element) {
    const rec = recordOf(element);
    if (!rec || element === element.ownerDocument.body) return [0, 0];
    const sticky = stickyOffset(rec);
    let x = rec.x + sticky[0], y = rec.y + sticky[1];
    const parent = offsetParent(element);
    if (parent && parent !== element.ownerDocument.body) {
      const p = recordOf(parent), ps = stickyOffset(p);
      x -= p.x + ps[0] + p.border[3]; y -= p.y + ps[1] + p.border[0];
    } else if (!parent && rec.values.position === "fixed") {
      const cb = containingBlock(layoutOf(element.ownerDocument), element, rec.values);
      x -= cb.x; y -= cb.y;
    }
    return [x, y];
  }
  // WebKit's pixel snapping: LayoutUnit::round rounds half up; a size snaps together with the
  // fraction of where it starts (snapSizeToPixel).
  const round = (v) => Math.floor(v + 0.5);
  const snapSize = (size, location) => round((location - Math.floor(location)) + size) - round(location - Math.floor(location));
  // The padding box of a box that has one (not a non-replaced inline), for client*.
  function paddingBox(element) {
    const rec = recordOf(element);
    if (!rec || isInlineRecord(rec)) return null;
    return { rec, x: rec.x + rec.border[3], width: rec.width - rec.border[1] - rec.border[3], height: rec.height - rec.border[0] - rec.border[2] };
  }
  // scrollWidth/Height: the padding box, or for the root everything that was laid out.
  function scrollSize(element, axis) {
    const doc = element.ownerDocument;
    if (element === doc.documentElement || element === doc.body) {
      const viewport = viewportOf(doc);
      let extent = axis === "width" ? viewport.width : viewport.height;
      const layout = doc._advGeometry && doc._advStyle ? layoutOf(doc) : null;
      if (layout) for (const rec of layout.records.values()) if (!rec.fixed) extent = Math.max(extent, axis === "width" ? rec.x + rec.width : rec.y + rec.height);
      if (element === doc.documentElement || recordOf(element)) return round(extent);
    }
    const box = paddingBox(element);
    return box ? round(box[axis]) : 0;
  }

  const Element = impl.Element.prototype, HTMLElement = impl.HTMLElement;
  const elementMembers = {
    getBoundingClientRect: { value() { return clientRect(this); } },
    getClientRects: { value() {
      const box = ctx.boxOf(this);
      const list = box ? [new DOMRect(box.x, box.y, box.width, box.height)] : [];
      list.item = (i) => list[i] || null;
      return list;
    } },
    clientWidth: { get() {
      if (this === this.ownerDocument.documentElement) return viewportOf(this.ownerDocument).width;
      const box = paddingBox(this); return box ? snapSize(box.width, box.x) : 0;
    } },
    clientHeight: { get() {
      if (this === this.ownerDocument.documentElement) return viewportOf(this.ownerDocument).height;
      const box = paddingBox(this); return box ? snapSize(box.height, box.rec.y + box.rec.border[0]) : 0;
    } },
    clientTop: { get() { const box = paddingBox(this); return box ? round(box.rec.border[0]) : 0; } },
    clientLeft: { get() { const box = paddingBox(this); return box ? round(box.rec.border[3]) : 0; } },
    scrollWidth: { get() { return scrollSize(this, "width"); } },
    scrollHeight: { get() { return scrollSize(this, "height"); } },
    scrollTop: { get() { return 0; }, set() {} },
    scrollLeft: { get() { return 0; }, set() {} },
    scrollIntoView: { value() {
      const rec = recordOf(this);
      if (rec && !rec.fixed) scrollTo(this.ownerDocument, rec.x, rec.y);
    } },
    checkVisibility: { value(options) { return visibility(this, Object.assign({ viewport: false, coverage: false }, options || {})).visible; } },
  };
  const htmlMembers = {
    offsetWidth: { get() { const rec = recordOf(this); return rec ? snapSize(rec.width, offsetPosition(this)[0]) : 0; } },
    offsetHeight: { get() { const rec = recordOf(this); return rec ? snapSize(rec.height, offsetPosition(this)[1]) : 0; } },
    offsetParent: { get() { return offsetParent(this); } },
    offsetLeft: { get() { return round(offsetPosition(this)[0]); } },
    offsetTop: { get() { return round(offsetPosition(this)[1]); } },
  };
  // Element.prototype's own members are fixed by domino; these are new names, so they can go
  // there (and on HTMLElement's subclasses for the offset* family).
  for (const [name, d] of Object.entries(elementMembers)) {
    if (!Object.prototype.hasOwnProperty.call(Element, name)) Object.defineProperty(Element, name, Object.assign({ configurable: true }, d.value ? { writable: true } : {}, d));
  }
  for (const [name, d] of Object.entries(htmlMembers)) {
    if (!Object.prototype.hasOwnProperty.call(HTMLElement.prototype, name)) Object.defineProperty(HTMLElement.prototype, name, Object.assign({ configurable: true }, d));
  }

  // MARK: - Resolved values (CSSOM §9.1)

  // getComputedStyle is the cascade's, which loads below layout: it asks here first. For a
  // rendered box, sizes, margins, padding and the insets of a positioned box are used values
  // (in px, as WebKit writes LayoutUnits); a transform is a matrix() (percentages of the border
  // box, 0 without one). Otherwise the computed value.
  const RESOLVED = new Set(["width", "height", "top", "right", "bottom", "left", "transform"]);
  for (const side of SIDES) for (const name of ["margin-" + side, "padding-" + side]) RESOLVED.add(name);
  ctx.useLayoutSizes(function resolvedValue(element, name, values) {
    if (!RESOLVED.has(name)) return null;
    let rec = recordOf(element);
    if (rec && isInlineRecord(rec)) rec = null;
    if (name === "transform") {
      const matrix = cssValues.transformMatrix(values.transform, rec && { width: rec.width, height: rec.height });
      return matrix ? cssValues.matrixText(matrix) : null;
    }
    if (!rec) return null;
    const index = SIDES.indexOf(name.slice(name.indexOf("-") + 1));
    if (name.startsWith("margin-")) return rec.margin[index] + "px";
    if (name.startsWith("padding-")) return rec.padding[index] + "px";
    if (name === "width" || name === "height") {
      if (rec.declared) return rec.declared[name] + "px";
      const content = name === "width" ? rec.contentWidth : rec.contentHeight;
      const extras = name === "width" ? rec.border[1] + rec.border[3] + rec.padding[1] + rec.padding[3] : rec.border[0] + rec.border[2] + rec.padding[0] + rec.padding[2];
      return (values["box-sizing"] === "border-box" ? content + extras : content) + "px";
    }
    if (values.position === "relative") {
      const offset = name === "left" ? rec.rel.x : name === "right" ? -rec.rel.x : name === "top" ? rec.rel.y : -rec.rel.y;
      return offset + "px";
    }
    if (values.position !== "absolute" && values.position !== "fixed") return null;
    const cb = containingBlock(layoutOf(element.ownerDocument), element, values);
    switch (name) {
      case "left": return (rec.x - rec.margin[3] - cb.x) + "px";
      case "top": return (rec.y - rec.margin[0] - cb.y) + "px";
      case "right": return (cb.x + cb.width - (rec.x + rec.width + rec.margin[1])) + "px";
      default: return (cb.y + cb.height - (rec.y + rec.height + rec.margin[2])) + "px";
    }
  });

  // MARK: - Hit testing and visibility

  // The painting order of the document's boxes, bottom first (CSS 2.1 Appendix E, without the
  // split of inline content from block backgrounds): each stacking context paints its own box,
  // its negative z-index contexts, its in-flow boxes in tree order, its floats, its positioned
  // boxes of z-index auto or 0 in tree order (an auto one paints as a context of its own whose
  // z-indexed descendants still belong to the enclosing context), then positive z-index.
  function paintOrder(layout, doc) {
    if (layout.paint) return layout.paint;
    const out = [];
    const root = doc.documentElement && layout.records.get(doc.documentElement);
    if (root) {
      const top = layer(root, true);
      collectLayers(layout, root.element, top, top);
      flatten(top, out);
    }
    layout.paint = out;
    return out;
  }
  const layer = (rec, real) => ({ rec, negative: real ? [] : null, flow: [], floats: [], positioned: [], positive: real ? [] : null });
  function collectLayers(layout, element, context, current) {
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== 1) continue;
      const rec = layout.records.get(child);
      if (!rec) {
        if (ctx.computeStyle(child).display === "contents") collectLayers(layout, child, context, current);
        continue;
      }
      const v = rec.values;
      const positioned = v.position !== "static";
      const z = v["z-index"] !== "auto" && (positioned || isFlexOrGridItem(child)) ? parseInt(v["z-index"], 10) : null;
      if (z !== null || v.position === "fixed" || v.position === "sticky" || parseFloat(v.opacity) < 1 || hasTransform(v)) {
        const own = layer(rec, true);
        collectLayers(layout, child, own, own);
        if (z !== null && z < 0) context.negative.push({ z, own });
        else if (z !== null && z > 0) context.positive.push({ z, own });
        else current.positioned.push(own);
      } else if (positioned || v.float !== "none") {
        const own = layer(rec, false);
        (positioned ? current.positioned : current.floats).push(own);
        collectLayers(layout, child, context, own);
      } else {
        current.flow.push(rec);
        collectLayers(layout, child, context, current);
      }
    }
  }
  function flatten(context, out) {
    out.push(context.rec);
    const byZ = (list) => list.slice().sort((a, b) => a.z - b.z);   // stable: tree order within a z
    if (context.negative) for (const { own } of byZ(context.negative)) flatten(own, out);
    out.push(...context.flow);
    for (const own of context.floats) flatten(own, out);
    for (const own of context.positioned) flatten(own, out);
    if (context.positive) for (const { own } of byZ(context.positive)) flatten(own, out);
  }

  // The elements at a viewport point, topmost first (CSSOM View §5: elementsFromPoint), ending
  // with the root, whose background fills the viewport; only the first one when `all` is false.
  // A box whose visibility is not visible, or with pointer-events none, lets the point through.
  function hitTest(doc, x, y, all) {
    const viewport = viewportOf(doc);
    if (!(x >= 0 && y >= 0 && x <= viewport.width && y <= viewport.height)) return all ? [] : null;
    const root = doc.documentElement;
    const hits = [];
    if (doc._advGeometry && doc._advStyle) {
      const order = paintOrder(layoutOf(doc), doc);
      for (let i = order.length - 1; i >= 0; i--) {
        const rec = order[i];
        if (isInlineRecord(rec) || rec.values.visibility !== "visible" || rec.values["pointer-events"] === "none") continue;
        const box = clientBox(rec);
        if (x < box.x || y < box.y || x >= box.x + box.width || y >= box.y + box.height) continue;
        if (!all) return rec.element;
        hits.push(rec.element);
      }
    }
    if (!all) return root || null;
    if (root && !hits.includes(root)) hits.push(root);
    return hits;
  }

  // "Would a user see it": rendered, visibility visible on itself, every ancestor opaque enough,
  // a non-empty box, inside the viewport (optional), and not covered at its centre by another
  // element (optional).
  function visibility(element, options) {
    options = Object.assign({ viewport: true, coverage: true }, options || {});
    const describe = (n) => "<" + n.localName + (n.id ? "#" + n.id : "") + ">";
    if (!element || element.nodeType !== 1 || !element.rooted) return { visible: false, reason: "not in the document" };
    for (let n = element; n && n.nodeType === 1; n = n.parentNode) {
      const values = ctx.computeStyle(n);
      if (values.display === "none") return { visible: false, reason: "display:none on " + describe(n) };
      if (parseFloat(values.opacity) === 0) return { visible: false, reason: "opacity:0 on " + describe(n) };
    }
    const own = ctx.computeStyle(element);
    if (own.visibility !== "visible") return { visible: false, reason: "visibility:" + own.visibility };
    if (own.display === "contents") return { visible: true, reason: "display:contents" };
    const box = ctx.boxOf(element);
    if (!box || box.width <= 0 || box.height <= 0) return { visible: false, reason: "empty box" };
    const viewport = viewportOf(element.ownerDocument);
    if (options.viewport && (box.x >= viewport.width || box.y >= viewport.height || box.x + box.width <= 0 || box.y + box.height <= 0)) {
      return { visible: false, reason: "outside the viewport" };
    }
    if (options.coverage) {
      const cx = Math.min(Math.max(box.x + box.width / 2, 0), viewport.width - 1);
      const cy = Math.min(Math.max(box.y + box.height / 2, 0), viewport.height - 1);
      const hit = hitTest(element.ownerDocument, cx, cy, false);
      if (hit && hit !== element && !element.contains(hit) && own["pointer-events"] !== "none") {
        return { visible: false, reason: "covered by " + describe(hit) };
      }
    }
    return { visible: true, reason: "" };
  }

  function scrollTo(doc, x, y) {
    const s = scrollOf(doc);
    const nx = Math.max(0, Number(x) || 0), ny = Math.max(0, Number(y) || 0);
    if (nx === s.x && ny === s.y) return;
    s.x = nx; s.y = ny;
    scheduleIntersections(doc);
    const id = doc._advPageId;
    if (id !== undefined) ctx.host.setTimer(id, () => doc._dispatchEvent(new impl.Event("scroll", { bubbles: true }), true), 0, false, [], "scroll");
  }

  // MARK: - IntersectionObserver (Intersection Observer §3), checked after changes

  const observersByDoc = new WeakMap();
  function scheduleIntersections(doc) {
    if (!doc || doc._advIntersectionQueued || !observersByDoc.get(doc) || observersByDoc.get(doc).size === 0) return;
    doc._advIntersectionQueued = true;
    ctx.host.setTimer(doc._advPageId, () => { doc._advIntersectionQueued = false; runIntersections(doc); }, 0, false, [], "intersection observer");
  }
  function parseMargin(text) {
    const parts = String(text || "0px").trim().split(/\s+/);
    const v = parts.map((p) => { const m = /^(-?[0-9.]+)(px|%)?$/.exec(p); if (!m) throw new SyntaxError("Failed to construct 'IntersectionObserver': rootMargin must be specified in pixels or percent."); return { n: parseFloat(m[1]), pct: m[2] === "%" }; });
    const [t, r = t, b = t, l = r] = v;
    return [t, r, b, l];
  }
  function runIntersections(doc) {
    const set = observersByDoc.get(doc);
    if (!set) return;
    const now = ctx.pageNow(doc);
    for (const observer of Array.from(set).sort((a, b) => a._order - b._order)) {
      const rootBox = observer.root ? ctx.boxOf(observer.root) : (() => { const v = viewportOf(doc); return { x: 0, y: 0, width: v.width, height: v.height }; })();
      for (const entry of observer._targets) {
        const target = entry.target;
        const box = ctx.boxOf(target);
        let rootRect = rootBox ? Object.assign({}, rootBox) : null;
        if (rootRect) {
          const [t, r, b, l] = observer._margin;
          const dx = (m, size) => (m.pct ? (m.n * size) / 100 : m.n);
          rootRect = { x: rootRect.x - dx(l, rootRect.width), y: rootRect.y - dx(t, rootRect.height),
            width: rootRect.width + dx(l, rootRect.width) + dx(r, rootRect.width), height: rootRect.height + dx(t, rootRect.height) + dx(b, rootRect.height) };
        }
        let isIntersecting = false, ratio = 0, inter = new DOMRect(0, 0, 0, 0);
        const targetRect = box ? new DOMRect(box.x, box.y, box.width, box.height) : new DOMRect(0, 0, 0, 0);
        if (box && rootRect && (!observer.root || observer.root.contains(target))) {
          const x1 = Math.max(box.x, rootRect.x), y1 = Math.max(box.y, rootRect.y);
          const x2 = Math.min(box.x + box.width, rootRect.x + rootRect.width), y2 = Math.min(box.y + box.height, rootRect.y + rootRect.height);
          // Edge-adjacent intersections count (Intersection Observer §3.2.8 step 2.10).
          if (x2 >= x1 && y2 >= y1) {
            isIntersecting = true;
            inter = new DOMRect(x1, y1, x2 - x1, y2 - y1);
            const area = box.width * box.height;
            ratio = area > 0 ? ((x2 - x1) * (y2 - y1)) / area : 1;
          }
        }
        let index = 0;
        for (const threshold of observer.thresholds) if (ratio >= threshold) index++;
        if (!isIntersecting) index = 0;
        if (index !== entry.previousIndex || isIntersecting !== entry.previousIntersecting) {
          entry.previousIndex = index;
          entry.previousIntersecting = isIntersecting;
          observer._records.push(Object.freeze(Object.assign(Object.create(IntersectionObserverEntry.prototype), {
            time: now, target, isIntersecting, intersectionRatio: ratio, isVisible: false,
            boundingClientRect: targetRect, intersectionRect: inter,
            rootBounds: rootRect ? new DOMRect(rootRect.x, rootRect.y, rootRect.width, rootRect.height) : null,
          })));
        }
      }
      if (observer._records.length > 0) {
        const records = observer._records;
        observer._records = [];
        try { observer._callback.call(observer, records, observer); } catch (error) { ctx.reportError(doc._advPageId, error); }
      }
    }
  }
  function IntersectionObserverEntry() { throw new TypeError("Illegal constructor"); }
  let nextOrder = 1;
  function IntersectionObserver(callback, options) {
    if (!new.target) throw new TypeError("Failed to construct 'IntersectionObserver': Please use the 'new' operator.");
    if (typeof callback !== "function") throw new TypeError("Failed to construct 'IntersectionObserver': parameter 1 is not of type 'Function'.");
    options = options || {};
    let thresholds = options.threshold === undefined ? [0] : Array.isArray(options.threshold) ? options.threshold.map(Number) : [Number(options.threshold)];
    if (thresholds.length === 0) thresholds = [0];
    for (const t of thresholds) if (!(t >= 0 && t <= 1)) throw new RangeError("Failed to construct 'IntersectionObserver': Threshold values must be numbers between 0 and 1");
    thresholds.sort((a, b) => a - b);
    Object.defineProperties(this, {
      _callback: { value: callback }, _order: { value: nextOrder++ }, _records: { value: [], writable: true },
      _targets: { value: [], writable: true }, _margin: { value: parseMargin(options.rootMargin) },
      root: { value: options.root || null, enumerable: true },
      rootMargin: { value: String(options.rootMargin || "0px 0px 0px 0px"), enumerable: true },
      thresholds: { value: Object.freeze(thresholds), enumerable: true },
    });
  }
  IntersectionObserver.prototype.observe = function observe(target) {
    if (!target || target.nodeType !== 1) throw new TypeError("Failed to execute 'observe' on 'IntersectionObserver': parameter 1 is not of type 'Element'.");
    if (this._targets.some((e) => e.target === target)) return;
    this._targets.push({ target, previousIndex: -1, previousIntersecting: false });
    const doc = target.ownerDocument;
    if (!observersByDoc.has(doc)) observersByDoc.set(doc, new Set());
    observersByDoc.get(doc).add(this);
    this._doc = doc;
    scheduleIntersections(doc);
  };
  IntersectionObserver.prototype.unobserve = function unobserve(target) {
    this._targets = this._targets.filter((e) => e.target !== target);
  };
  IntersectionObserver.prototype.disconnect = function disconnect() {
    this._targets = [];
    if (this._doc && observersByDoc.get(this._doc)) observersByDoc.get(this._doc).delete(this);
  };
  IntersectionObserver.prototype.takeRecords = function takeRecords() { const r = this._records; this._records = []; return r; };

  // MARK: - ResizeObserver (Resize Observer §3), as WebKit runs it: in the rendering update after
  // the animation frame callbacks; every newly observed element is reported once (a hidden or
  // empty one with zero sizes), then whenever its size changes, never for a move; observers are
  // served in the order they first observed something, each with one call for its entries.
  // Sizes come from the layout above; there is no devicePixelContentBoxSize, as in Safari.
  const resizeObservers = new WeakMap();   // document -> [observer], in order of first observe
  let observing = false;   // any element observed in this session yet (most pages never do)
  function scheduleResize(doc) {
    if (!observing) return;
    const list = resizeObservers.get(doc);
    if (!doc || doc._advResizeQueued || !list || list.length === 0) return;
    doc._advResizeQueued = true;
    ctx.host.renderingStep(doc._advPageId, () => { doc._advResizeQueued = false; runResize(doc); }, "resize observer");
  }
  // The observed sizes: content box (with where it starts in the border box) and border box;
  // all zero without a box, or for a non-replaced inline.
  function sizeOf(target) {
    const rec = target.isConnected ? recordOf(target) : null;
    if (!rec || isInlineRecord(rec)) return { x: 0, y: 0, width: 0, height: 0, borderWidth: 0, borderHeight: 0 };
    return { x: rec.padding[3], y: rec.padding[0], width: rec.contentWidth, height: rec.contentHeight, borderWidth: rec.width, borderHeight: rec.height };
  }
  function ResizeObserverSize() { throw new TypeError("Illegal constructor"); }
  function ResizeObserverEntry() { throw new TypeError("Illegal constructor"); }
  function makeSize(inlineSize, blockSize) { return Object.freeze(Object.assign(Object.create(ResizeObserverSize.prototype), { inlineSize, blockSize })); }
  function runResize(doc) {
    for (const observer of (resizeObservers.get(doc) || []).slice()) {
      const entries = [];
      for (const observation of observer._targets) {
        const size = sizeOf(observation.target);
        const [width, height] = observation.box === "border-box" ? [size.borderWidth, size.borderHeight] : [size.width, size.height];
        if (observation.last && observation.last.width === width && observation.last.height === height) continue;
        observation.last = { width, height };
        entries.push(Object.freeze(Object.assign(Object.create(ResizeObserverEntry.prototype), {
          target: observation.target, contentRect: new DOMRectReadOnly(size.x, size.y, size.width, size.height),
          borderBoxSize: Object.freeze([makeSize(size.borderWidth, size.borderHeight)]), contentBoxSize: Object.freeze([makeSize(size.width, size.height)]),
        })));
      }
      if (entries.length === 0) continue;
      try { observer._callback.call(observer, entries, observer); } catch (error) { ctx.reportError(doc._advPageId, error); }
    }
  }
  function ResizeObserver(callback) {
    if (!new.target) throw new TypeError("Failed to construct 'ResizeObserver': Please use the 'new' operator.");
    if (typeof callback !== "function") throw new TypeError("Failed to construct 'ResizeObserver': parameter 1 is not of type 'Function'.");
    Object.defineProperties(this, { _callback: { value: callback }, _targets: { value: [], writable: true }, _doc: { value: null, writable: true } });
  }
  Object.assign(ResizeObserver.prototype, {
    observe(target, options) {
      if (!target || target.nodeType !== 1) throw new TypeError("Failed to execute 'observe' on 'ResizeObserver': parameter 1 is not of type 'Element'.");
      if (this._targets.some((o) => o.target === target)) return;
      this._targets.push({ target, last: null, box: options && options.box ? String(options.box) : "content-box" });
      const doc = target.ownerDocument;
      let list = resizeObservers.get(doc);
      if (!list) resizeObservers.set(doc, list = []);
      if (!list.includes(this)) list.push(this);
      this._doc = doc;
      observing = true;
      scheduleResize(doc);
    },
    unobserve(target) { this._targets = this._targets.filter((o) => o.target !== target); },
    disconnect() {
      this._targets = [];
      const list = this._doc && resizeObservers.get(this._doc);
      if (list && list.includes(this)) list.splice(list.indexOf(this), 1);
    },
  });
  for (const [Interface, name] of [[ResizeObserver, "ResizeObserver"], [ResizeObserverEntry, "ResizeObserverEntry"], [ResizeObserverSize, "ResizeObserverSize"]]) {
    Object.defineProperty(Interface.prototype, Symbol.toStringTag, { value: name, configurable: true });
  }

  // Any DOM or style change can move or resize boxes: re-check intersections once, as a task,
  // and sizes at the next rendering update.
  ctx.onMutation((record) => {
    const target = record.target;
    const doc = target && (target.nodeType === 9 ? target : target.ownerDocument);
    if (!doc) return;
    const g = doc._advGeometry;
    if (g) {
      g.version++;
      // An attribute can change the styles of the whole subtree; a child list or text only the
      // parent's content. A page that changes much and never asks for geometry starts over.
      if (record.type === "attributes") g.dirty.subtrees.add(target);
      else if (target.nodeType === 1) g.dirty.children.add(target);
      else if (target.parentNode) g.dirty.children.add(target.parentNode);
      if (g.dirty.subtrees.size + g.dirty.children.size > 2000) { g.layout = null; g.dirty.subtrees.clear(); g.dirty.children.clear(); }
    }
    scheduleIntersections(doc);
    scheduleResize(doc);
  });

  Object.assign(ctx.domGlobals, { DOMRect, DOMRectReadOnly, IntersectionObserver, IntersectionObserverEntry, ResizeObserver, ResizeObserverEntry, ResizeObserverSize });

  return {
    name: "geometry",
    // A warm engine's next session starts with no observers, numbered from 1 again.
    sessionEnded() { nextOrder = 1; observing = false; },
    page(p) {
      const doc = p.document;
      Object.defineProperty(doc, "_advBoxes", { value: new Map() });
      Object.defineProperty(doc, "_advScroll", { value: { x: 0, y: 0 } });
      Object.defineProperty(doc, "_advGeometry", { value: { version: 0, declared: 0, layout: null, styles: null, domVersion: 0, dirty: { subtrees: new Set(), children: new Set() } } });
      Object.defineProperty(doc, "elementFromPoint", { value: function elementFromPoint(x, y) { return hitTest(this, Number(x), Number(y), false); }, configurable: true, writable: true });
      Object.defineProperty(doc, "elementsFromPoint", { value: function elementsFromPoint(x, y) { return hitTest(this, Number(x), Number(y), true); }, configurable: true, writable: true });
      const shared = p.shared;
      for (const name of ["innerWidth", "outerWidth"]) Object.defineProperty(shared, name, { get() { return viewportOf(doc).width; }, configurable: true, enumerable: true });
      for (const name of ["innerHeight"]) Object.defineProperty(shared, name, { get() { return viewportOf(doc).height; }, configurable: true, enumerable: true });
      for (const name of ["scrollX", "pageXOffset"]) Object.defineProperty(shared, name, { get() { return scrollOf(doc).x; }, configurable: true, enumerable: true });
      for (const name of ["scrollY", "pageYOffset"]) Object.defineProperty(shared, name, { get() { return scrollOf(doc).y; }, configurable: true, enumerable: true });
      shared.scrollTo = shared.scroll = function (x, y) {
        if (x && typeof x === "object") { y = x.top === undefined ? scrollOf(doc).y : x.top; x = x.left === undefined ? scrollOf(doc).x : x.left; }
        scrollTo(doc, x, y);
      };
      shared.scrollBy = function (x, y) {
        if (x && typeof x === "object") { y = x.top || 0; x = x.left || 0; }
        scrollTo(doc, scrollOf(doc).x + (Number(x) || 0), scrollOf(doc).y + (Number(y) || 0));
      };
      shared.screen = Object.freeze({ width: 1440, height: 900, availWidth: 1440, availHeight: 875, colorDepth: 24, pixelDepth: 24 });
    },
    // Harness side (Page+Geometry.swift).
    setBox(element, x, y, width, height) {
      element.ownerDocument._advBoxes.set(element, { x, y, width, height });
      element.ownerDocument._advGeometry.declared++;
      ctx.style.changed(element.ownerDocument);
      scheduleIntersections(element.ownerDocument);
      scheduleResize(element.ownerDocument);
    },
    clearBox(element) { element.ownerDocument._advBoxes.delete(element); element.ownerDocument._advGeometry.declared++; ctx.style.changed(element.ownerDocument); scheduleIntersections(element.ownerDocument); scheduleResize(element.ownerDocument); },
    viewportChanged(doc) { scheduleIntersections(doc); scheduleResize(doc); },
    scrollTo(doc, x, y) { scrollTo(doc, x, y); },
    visibility(element, viewport, coverage) { return visibility(element, { viewport, coverage }); },
    rect(element) { return ctx.boxOf(element); },
  };
})
