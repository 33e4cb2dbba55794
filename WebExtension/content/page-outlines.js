// Blue outlines ADV draws on page elements (picker selections, bulk-draft previews).
// Each purpose owns one marker attribute and one small stylesheet; clearing removes both, so
// the page gets back exactly what it had: ADV never writes the elements' own style attribute
// (which personal filters and pages watch, and which selectors may depend on).
"use strict";

var ADVPageOutlines = (() => {
  const BLUE = "#1f4fd6";

  /** An outline set for `purpose` ("picker", "preview"): mark(elements), clear(), size(). */
  function create(purpose) {
    const attribute = "data-adv-outline-" + purpose;
    let sheet = null;
    let marked = new Set();

    function ensureSheet() {
      if (sheet && sheet.isConnected) return;
      sheet = document.createElement("style");
      sheet.setAttribute("data-adv-ui", "");
      sheet.textContent = "[" + attribute + "] { outline: 3px solid " + BLUE + " !important; outline-offset: -3px !important; }";
      (document.head || document.documentElement).appendChild(sheet);
    }

    /** Outlines exactly `elements` (replacing the previous set). */
    function show(elements) {
      const next = new Set(elements);
      for (const element of marked) if (!next.has(element)) element.removeAttribute(attribute);
      for (const element of next) if (!element.hasAttribute(attribute)) element.setAttribute(attribute, "");
      marked = next;
      if (marked.size) ensureSheet();
      else removeSheet();
    }

    function removeSheet() {
      if (sheet && sheet.parentNode) sheet.parentNode.removeChild(sheet);
      sheet = null;
    }

    function clear() {
      show([]);
    }

    return { show, clear, size: () => marked.size, attribute };
  }

  /** True for ADV's own UI in the page, which is never picked, counted or outlined. */
  function isOwnUI(element) {
    return Boolean(element.closest && element.closest("[data-adv-ui]"));
  }

  /** Page elements matching `selector`, ADV's own UI left out; [] for an invalid selector. */
  function matching(selector) {
    try {
      return Array.from(document.querySelectorAll(selector)).filter((element) => !isOwnUI(element));
    } catch (error) {
      return [];
    }
  }

  return { create, isOwnUI, matching };
})();
