// layer: timing/performance
// order: 90
// provides: pageNow
// requires: DOMException
//
// `performance` (HR Time 3) with User Timing (User Timing 3): now, timeOrigin, toJSON, mark,
// measure, getEntries/getEntriesByType/getEntriesByName, clearMarks/clearMeasures, and the
// PerformanceEntry/PerformanceMark/PerformanceMeasure interfaces. Time is the page's virtual
// clock. A page gets its own Performance object whose methods live on the shared prototype, as in
// Safari (a page may wrap `performance.now`; the runtime keeps its own clock). Resource and
// navigation timing entries are not recorded: `getEntriesByType("resource")` is empty.
(function (ctx) {
  "use strict";
  const states = ctx.internalSlots("Performance");    // Performance object -> { now, timeOrigin, entries }
  const entryData = new WeakMap(); // PerformanceEntry -> { name, entryType, startTime, duration, detail }

  function defineInterface(name, Parent, members) {
    const Interface = function () { throw new TypeError("Illegal constructor"); };
    Object.defineProperty(Interface, "name", { value: name });
    if (Parent) {
      Object.setPrototypeOf(Interface, Parent);
      Interface.prototype = Object.create(Parent.prototype, { constructor: { value: Interface, writable: true, configurable: true } });
    }
    ctx.defineMembers(Interface.prototype, members, name);
    return Interface;
  }
  const field = (key) => ({ get() { const data = entryData.get(this); if (!data) throw new TypeError("Illegal invocation"); return data[key]; } });

  const PerformanceEntry = defineInterface("PerformanceEntry", null, {
    name: field("name"), entryType: field("entryType"), startTime: field("startTime"), duration: field("duration"),
    toJSON: { value: function toJSON() { const d = entryData.get(this); return { name: d.name, entryType: d.entryType, startTime: d.startTime, duration: d.duration }; } },
  });
  const PerformanceMark = defineInterface("PerformanceMark", PerformanceEntry, { detail: field("detail") });
  const PerformanceMeasure = defineInterface("PerformanceMeasure", PerformanceEntry, { detail: field("detail") });
  function makeEntry(Interface, data) {
    const entry = Object.create(Interface.prototype);
    entryData.set(entry, data);
    return entry;
  }

  // A mark's name or a time stamp (User Timing 3, "convert a mark to a timestamp").
  function timestamp(state, value, method) {
    if (typeof value === "number") {
      if (value < 0) throw new TypeError("Failed to execute '" + method + "' on 'Performance': '" + value + "' is a negative value.");
      return value;
    }
    const name = String(value);
    for (let i = state.entries.length - 1; i >= 0; i--) {
      const data = entryData.get(state.entries[i]);
      if (data.entryType === "mark" && data.name === name) return data.startTime;
    }
    throw new ctx.DOMException("Failed to execute '" + method + "' on 'Performance': The mark '" + name + "' does not exist.", "SyntaxError");
  }
  function cloneDetail(detail) {
    return detail === undefined || detail === null ? null : JSON.parse(JSON.stringify(detail));
  }

  const Performance = defineInterface("Performance", ctx.EventTarget, {
    now: { value: function now() { return states.of(this).now(); } },
    timeOrigin: { get() { return states.of(this).timeOrigin; } },
    toJSON: { value: function toJSON() { return { timeOrigin: states.of(this).timeOrigin }; } },
    mark: {
      value: function mark(name, options) {
        const state = states.of(this);
        if (arguments.length === 0) throw new TypeError("Not enough arguments");
        const startTime = options && options.startTime !== undefined ? timestamp(state, Number(options.startTime), "mark") : state.now();
        const entry = makeEntry(PerformanceMark, { name: String(name), entryType: "mark", startTime, duration: 0, detail: cloneDetail(options && options.detail) });
        state.entries.push(entry);
        return entry;
      },
    },
    measure: {
      value: function measure(name, startOrOptions, endMark) {
        const state = states.of(this);
        if (arguments.length === 0) throw new TypeError("Not enough arguments");
        let start = 0, end = state.now(), detail = null;
        if (startOrOptions !== null && typeof startOrOptions === "object") {
          if (startOrOptions.start !== undefined) start = timestamp(state, startOrOptions.start, "measure");
          if (startOrOptions.end !== undefined) end = timestamp(state, startOrOptions.end, "measure");
          if (startOrOptions.duration !== undefined) {
            if (startOrOptions.end === undefined) end = start + Number(startOrOptions.duration);
            else start = end - Number(startOrOptions.duration);
          }
          detail = cloneDetail(startOrOptions.detail);
        } else {
          if (startOrOptions !== undefined) start = timestamp(state, startOrOptions, "measure");
          if (endMark !== undefined) end = timestamp(state, endMark, "measure");
        }
        const entry = makeEntry(PerformanceMeasure, { name: String(name), entryType: "measure", startTime: start, duration: end - start, detail });
        state.entries.push(entry);
        return entry;
      },
    },
    getEntries: { value: function getEntries() { return sorted(states.of(this).entries); } },
    getEntriesByType: {
      value: function getEntriesByType(type) { return sorted(states.of(this).entries.filter((e) => entryData.get(e).entryType === String(type))); },
    },
    getEntriesByName: {
      value: function getEntriesByName(name, type) {
        return sorted(states.of(this).entries.filter((e) => { const d = entryData.get(e); return d.name === String(name) && (type === undefined || d.entryType === String(type)); }));
      },
    },
    clearMarks: { value: function clearMarks(name) { clear(states.of(this), "mark", name); } },
    clearMeasures: { value: function clearMeasures(name) { clear(states.of(this), "measure", name); } },
  });
  function sorted(entries) {
    return entries.slice().sort((a, b) => entryData.get(a).startTime - entryData.get(b).startTime);
  }
  function clear(state, type, name) {
    state.entries = state.entries.filter((e) => { const d = entryData.get(e); return d.entryType !== type || (name !== undefined && d.name !== String(name)); });
  }
  Object.assign(ctx.domGlobals, { Performance, PerformanceEntry, PerformanceMark, PerformanceMeasure });

  // A page's Performance object is made when a script first reads window.performance. The layers
  // read the page's clock through ctx.pageNow, which a page's patch of `performance.now` does
  // not move.
  const pages = new WeakMap();   // document -> { timeOrigin }
  ctx.pageNow = (document) => { const page = pages.get(document); return page ? ctx.host.now() - page.timeOrigin : 0; };
  function makePerformance(page) {
    const performance = Object.create(Performance.prototype);
    states.set(performance, { now: () => ctx.host.now() - page.timeOrigin, timeOrigin: page.timeOrigin, entries: [] });
    return performance;
  }

  return {
    name: "performance",
    page(p) {
      const page = { timeOrigin: p.timeOrigin };
      pages.set(p.document, page);
      // A page may replace it (WebIDL [Replaceable]), which the lazy global allows.
      ctx.lazyGlobal(p.shared, "performance", () => makePerformance(page), true);
    },
  };
})
