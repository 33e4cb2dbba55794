// The top frame's personal filters as one user-origin style sheet (scripting.insertCSS with
// origin "USER"). The page cannot see it (it is in no document.styleSheets) or touch it, and a
// user !important declaration outranks every author declaration, inline !important included
// (CSS Cascade 4, "Cascading Origins" and "Important Declarations"). Safari cannot give one
// child frame a sheet of its own (frameIds means the top frame, WebKit bug 262491; allFrames
// reaches every frame, whatever its host), so child frames keep the content script's sheet and
// inline enforcement (content/personal-filters.js).
"use strict";

var ADVFilterUserSheets = (() => {
  // Tab id -> the text last inserted into that tab's top document. It can outlive the document
  // (the top frame's navigation drops the sheet); removing it again is then harmless, and it is
  // what catches an insertion that landed in the next document of the tab, after a navigation
  // that overtook the previous document's request.
  const inserted = new Map();
  // Tab id -> the number of top-frame requests that have arrived, and the number of the latest
  // one whose sheet was put in. Requests read their filters concurrently and can finish out of
  // order (a slow read, or a navigation overtaking the previous document's request); the sheet
  // follows the order in which they arrived, so an earlier request finishing late changes
  // nothing, as its answer changes nothing in the page.
  const arrived = new Map();
  const applied = new Map();
  const serialize = ADVSerialQueue.make();

  // ADV's own page UI (the picker panel, marked data-adv-ui) shows itself through inline
  // !important declarations, which a user sheet would outrank: no rule reaches into it.
  const NOT_ADV_UI = ":not([data-adv-ui], [data-adv-ui] *)";
  // :is() takes no pseudo-element; such a filter stays with the content script's sheet alone.
  const PSEUDO_ELEMENT = /::|:(?:before|after|first-line|first-letter)\b/i;

  /** The user sheet for validated `filters` ({ selector }), one rule a filter: "" for none. */
  function sheetText(filters) {
    return filters
      .map((filter) => filter.selector)
      .filter((selector) => !PSEUDO_ELEMENT.test(selector))
      .map((selector) => ":is(" + selector + ")" + NOT_ADV_UI + " { display: none !important; }")
      .join("\n");
  }

  async function insert(tabId, css) {
    try {
      await browser.scripting.insertCSS({ target: { tabId }, css, origin: "USER" });
      return true;
    } catch (error) {
      return false;
    }
  }

  async function remove(tabId, css) {
    try {
      await browser.scripting.removeCSS({ target: { tabId }, css, origin: "USER" });
    } catch (error) {
      // The tab has gone: so has its sheet.
    }
  }

  /**
   * Makes the top document of `tabId` hold exactly the user sheet for `filters` (a promise of
   * the validated filters the request is answered with), in the order requests arrive: call it
   * as the request arrives. `held` is the text that document was last told it holds ("" for a
   * new document). The new sheet goes in before the old one comes out, so no moment is left
   * without one. Answers the text the document now holds: "" when there are no filters or
   * insertCSS failed (no scripting API, no access), and the content script then relies on its
   * own sheet and inline enforcement; null when a later request of the tab got there first.
   */
  function follow(tabId, held, filters) {
    const turn = (arrived.get(tabId) || 0) + 1;
    arrived.set(tabId, turn);
    return filters.then((list) => serialize(async () => {
      if (turn < (applied.get(tabId) || 0)) return null;
      applied.set(tabId, turn);
      if (!browser.scripting) return "";
      const css = sheetText(list);
      let holds = "";
      if (css) holds = held === css || (await insert(tabId, css)) ? css : "";
      const stale = new Set([inserted.get(tabId), held].filter((text) => text && text !== css));
      for (const text of stale) await remove(tabId, text);
      if (holds) inserted.set(tabId, holds);
      else inserted.delete(tabId);
      return holds;
    }));
  }

  function forget(tabId) {
    inserted.delete(tabId);
    arrived.delete(tabId);
    applied.delete(tabId);
  }

  return { follow, forget, sheetText };
})();
