// layer: layout/geometry
// order: 100
// provides: boxOf
// requires: computeStyle, style, onMutation, pageNow, useLayoutSizes
//
// Geometry without layout: boxes are declared, everything else follows from them.
//
// An element's border box (document coordinates, CSS px) is, first of all that apply:
// 1. a box the harness declared (Page.setBox), 2. a `data-adv-box="x y width height"` attribute,
// 3. an absolutely or fixed positioned element with px left, top, width and height (offset from
// its containing block: the nearest positioned ancestor's box, else the initial containing block;
// fixed: the viewport), 4. <html> spans the viewport, <body> its width with height 0; any other element has an
// empty box at its containing block's origin. An element that is display:none, or inside one,
// has no box at all (CSSOM View: getBoundingClientRect is all zeros, offsetParent null).
// Borders, padding and scrollbars are not modelled: border, padding and content boxes coincide.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;

  function rendered(element) {
    if (!element.rooted) return false;
    for (let n = element; n && n.nodeType === 1; n = n.parentNode) {
      if (ctx.computeStyle(n).display === "none") return false;
    }
    return true;
  }
  function viewportOf(doc) { return doc._advStyle.viewport; }
  function scrollOf(doc) { return doc._advScroll; }
  function px(value) {
    const m = /^(-?[0-9.]+)px$/.exec(value);
    return m ? parseFloat(m[1]) : null;
  }

  // The border box in document coordinates, or null when the element has no box.
  function boxOf(element) {
    if (!element || element.nodeType !== 1 || !rendered(element)) return null;
    const doc = element.ownerDocument;
    const declared = doc._advBoxes.get(element);
    if (declared) return declared;
    const attribute = element.getAttribute("data-adv-box");
    if (attribute) {
      const n = attribute.trim().split(/[\s,]+/).map(Number);
      if (n.length === 4 && n.every(Number.isFinite)) return { x: n[0], y: n[1], width: n[2], height: n[3] };
    }
    const values = ctx.computeStyle(element);
    const viewport = viewportOf(doc);
    if (element === doc.documentElement) return { x: 0, y: 0, width: viewport.width, height: viewport.height };
    // Flow layout is not modelled, so the body's height is unknown: 0, as WebKit gives for a
    // body with margin 0 whose children are all positioned.
    if (element === doc.body) {
      const values = ctx.computeStyle(element);
      return { x: 0, y: 0, width: px(values.width) || viewport.width, height: px(values.height) || 0 };
    }
    const origin = containingOrigin(element, values);
    if (values.position === "absolute" || values.position === "fixed") {
      const left = px(values.left), top = px(values.top), width = px(values.width), height = px(values.height);
      return { x: origin.x + (left || 0), y: origin.y + (top || 0), width: width || 0, height: height || 0 };
    }
    return { x: origin.x, y: origin.y, width: 0, height: 0 };
  }
  function containingOrigin(element, values) {
    const doc = element.ownerDocument;
    if (values.position === "fixed") { const s = scrollOf(doc); return { x: s.x, y: s.y }; }
    for (let n = element.parentNode; n && n.nodeType === 1; n = n.parentNode) {
      if (n === doc.body || n === doc.documentElement) break;
      const v = ctx.computeStyle(n);
      if (v.position !== "static" || values.position !== "absolute") {
        const box = boxOf(n);
        if (box) return { x: box.x, y: box.y };
      }
    }
    return { x: 0, y: 0 };
  }
  ctx.boxOf = (element) => {
    const box = boxOf(element);
    if (!box) return null;
    const s = scrollOf(element.ownerDocument);
    return { x: box.x - s.x, y: box.y - s.y, width: box.width, height: box.height };
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
  function isInline(element) {
    return ctx.computeStyle(element).display === "inline";
  }
  // CSSOM View §7 offsetParent: null for a box-less element, body, html and fixed boxes; else
  // the nearest positioned ancestor, or td/th/table when the element is not positioned, or body.
  function offsetParent(element) {
    const doc = element.ownerDocument;
    if (!rendered(element) || element === doc.body || element === doc.documentElement) return null;
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
      const box = boxOf(this); return box && !isInline(this) ? Math.floor(box.width) : 0;
    } },
    clientHeight: { get() {
      if (this === this.ownerDocument.documentElement) return viewportOf(this.ownerDocument).height;
      const box = boxOf(this); return box && !isInline(this) ? Math.floor(box.height) : 0;
    } },
    clientTop: { get() { return 0; } },
    clientLeft: { get() { return 0; } },
    scrollWidth: { get() { const box = boxOf(this); return box ? Math.round(box.width) : 0; } },
    scrollHeight: { get() { const box = boxOf(this); return box ? Math.round(box.height) : 0; } },
    scrollTop: { get() { return 0; }, set() {} },
    scrollLeft: { get() { return 0; }, set() {} },
    scrollIntoView: { value() {
      const box = boxOf(this);
      if (box) scrollTo(this.ownerDocument, box.x, box.y);
    } },
    checkVisibility: { value(options) { return visibility(this, Object.assign({ viewport: false, coverage: false }, options || {})).visible; } },
  };
  const htmlMembers = {
    offsetWidth: { get() { const box = boxOf(this); return box ? Math.round(box.width) : 0; } },
    offsetHeight: { get() { const box = boxOf(this); return box ? Math.round(box.height) : 0; } },
    offsetParent: { get() { return offsetParent(this); } },
    offsetLeft: { get() {
      const box = boxOf(this); if (!box) return 0;
      const parent = offsetParent(this); const base = parent && parent !== this.ownerDocument.body ? boxOf(parent) : null;
      return Math.round(box.x - (base ? base.x : 0));
    } },
    offsetTop: { get() {
      const box = boxOf(this); if (!box) return 0;
      const parent = offsetParent(this); const base = parent && parent !== this.ownerDocument.body ? boxOf(parent) : null;
      return Math.round(box.y - (base ? base.y : 0));
    } },
  };
  // Element.prototype's own members are fixed by domino; these are new names, so they can go
  // there (and on HTMLElement's subclasses for the offset* family).
  for (const [name, d] of Object.entries(elementMembers)) {
    if (!Object.prototype.hasOwnProperty.call(Element, name)) Object.defineProperty(Element, name, Object.assign({ configurable: true }, d.value ? { writable: true } : {}, d));
  }
  for (const [name, d] of Object.entries(htmlMembers)) {
    if (!Object.prototype.hasOwnProperty.call(HTMLElement.prototype, name)) Object.defineProperty(HTMLElement.prototype, name, Object.assign({ configurable: true }, d));
  }
  // CSS 2.1: width and height of a rendered, non-inline box are used values; a declared box is
  // what the harness says layout produced, so it is reported in px. Otherwise the computed value.
  // getComputedStyle is the cascade's, which loads below layout: it gets this measure from here.
  ctx.useLayoutSizes(function usedSize(element, name) {
    if (name !== "width" && name !== "height") return null;
    const doc = element.ownerDocument;
    if (!doc._advBoxes.has(element) && !element.hasAttribute("data-adv-box")) return null;
    if (!rendered(element) || isInline(element)) return null;
    const box = boxOf(element);
    return box ? box[name] + "px" : null;
  });

  // MARK: - Hit testing and visibility

  function hitTest(doc, x, y) {
    const viewport = viewportOf(doc);
    if (x < 0 || y < 0 || x > viewport.width || y > viewport.height) return null;
    const s = scrollOf(doc);
    const px = x + s.x, py = y + s.y;
    let best = null, bestZ = -Infinity;
    const all = doc.getElementsByTagName("*");
    for (let i = 0; i < all.length; i++) {
      const element = all[i];
      if (element === doc.documentElement || element === doc.body) continue;
      const box = boxOf(element);
      if (!box || px < box.x || py < box.y || px >= box.x + box.width || py >= box.y + box.height) continue;
      const values = ctx.computeStyle(element);
      if (values.visibility !== "visible" || values["pointer-events"] === "none") continue;
      const z = values.position !== "static" && values["z-index"] !== "auto" ? parseInt(values["z-index"], 10) : 0;
      // Later in tree order paints on top at the same z-index (CSS 2.1 Appendix E, simplified).
      if (z >= bestZ) { best = element; bestZ = z; }
    }
    if (best) return best;
    const body = doc.body && boxOf(doc.body);
    return body && py < body.y + body.height ? doc.body : doc.documentElement;
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
      const hit = hitTest(element.ownerDocument, cx, cy);
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
  // Boxes are the runtime's (no padding or borders: content box = border box), and there is no
  // devicePixelContentBoxSize, as in Safari.
  const resizeObservers = new WeakMap();   // document -> [observer], in order of first observe
  let observing = false;   // any element observed in this session yet (most pages never do)
  function scheduleResize(doc) {
    if (!observing) return;
    const list = resizeObservers.get(doc);
    if (!doc || doc._advResizeQueued || !list || list.length === 0) return;
    doc._advResizeQueued = true;
    ctx.host.renderingStep(doc._advPageId, () => { doc._advResizeQueued = false; runResize(doc); }, "resize observer");
  }
  function sizeOf(target) {
    const box = target.isConnected ? ctx.boxOf(target) : null;
    return box ? { width: box.width, height: box.height } : { width: 0, height: 0 };
  }
  function ResizeObserverSize() { throw new TypeError("Illegal constructor"); }
  function ResizeObserverEntry() { throw new TypeError("Illegal constructor"); }
  function makeSize(inlineSize, blockSize) { return Object.freeze(Object.assign(Object.create(ResizeObserverSize.prototype), { inlineSize, blockSize })); }
  function runResize(doc) {
    for (const observer of (resizeObservers.get(doc) || []).slice()) {
      const entries = [];
      for (const observation of observer._targets) {
        const size = sizeOf(observation.target);
        if (observation.last && observation.last.width === size.width && observation.last.height === size.height) continue;
        observation.last = size;
        const box = makeSize(size.width, size.height);
        entries.push(Object.freeze(Object.assign(Object.create(ResizeObserverEntry.prototype), {
          target: observation.target, contentRect: new DOMRectReadOnly(0, 0, size.width, size.height),
          borderBoxSize: Object.freeze([box]), contentBoxSize: Object.freeze([box]),
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
    if (doc) { scheduleIntersections(doc); scheduleResize(doc); }
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
      Object.defineProperty(doc, "elementFromPoint", { value: function elementFromPoint(x, y) { return hitTest(this, Number(x), Number(y)); }, configurable: true, writable: true });
      Object.defineProperty(doc, "elementsFromPoint", { value: function elementsFromPoint(x, y) { const e = hitTest(this, Number(x), Number(y)); const out = []; for (let n = e; n && n.nodeType === 1; n = n.parentNode) out.push(n); return out; }, configurable: true, writable: true });
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
      ctx.style.changed(element.ownerDocument);
      scheduleIntersections(element.ownerDocument);
      scheduleResize(element.ownerDocument);
    },
    clearBox(element) { element.ownerDocument._advBoxes.delete(element); ctx.style.changed(element.ownerDocument); scheduleIntersections(element.ownerDocument); scheduleResize(element.ownerDocument); },
    viewportChanged(doc) { scheduleIntersections(doc); scheduleResize(doc); },
    scrollTo(doc, x, y) { scrollTo(doc, x, y); },
    visibility(element, viewport, coverage) { return visibility(element, { viewport, coverage }); },
    rect(element) { return ctx.boxOf(element); },
  };
})
