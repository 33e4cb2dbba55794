// Personal filters on this page: a stylesheet that hides what the user picked, which repairs
// itself when the page removes it, rewrites it, edits its rules, changes its media or disables
// it; and, where page CSS or an inline !important still wins, the element's inline display is
// enforced and the page's own declaration restored exactly when the element stops matching or
// the filter goes away. Selectors that look at the style attribute keep stylesheet-only
// behaviour: writing an inline style would change their own match.
//
// In the top frame the background also inserts the filters as a user-origin sheet
// (background/filter-user-sheets.js), which no author rule outranks and the page cannot reach;
// once it is in, this script's inline enforcement has nothing left to do there. Child frames,
// which Safari's insertCSS cannot target one by one, and a top frame whose user sheet could not
// be inserted rely on the stylesheet here and on a check of every match after each repair.
"use strict";

(() => {
  if (globalThis.__advPersonalFilters) return;
  globalThis.__advPersonalFilters = true;
  // Repairs allowed per second before backing off: a page that fights forever costs bounded work.
  // The same bound holds for ADV's inline writes on one element.
  const REPAIRS_PER_SECOND = 20;
  // CSSOM-only changes (deleteRule, media, disabled, insertRule in the page's own sheets) make no
  // mutation records: a check this often bounds how long they can show a filtered element where
  // no user sheet holds it.
  const CHECK_MS = 100;
  let selectors = [];
  let styleElement = null;
  let expectedText = "";
  let repairs = { second: -1, count: 0 };
  let backedOff = 0;
  // The user sheet the background says this document holds ("" for none): sent back with every
  // request, so that a background started again since can still remove it.
  let userSheet = "";
  // Once the page has broken ADV's sheet where the observer could not mend it at once (through
  // the CSSOM, or past the repair cap), every match gets the inline display, whether or not the
  // sheet is winning at that moment: the next such attack then shows nothing.
  let sheetAttacked = false;
  // Where no user sheet holds them, the elements an enforceable filter matches, checked at every
  // repair check. The mutation records keep the set current (the nodes they add and the elements
  // whose attributes they change, with their subtrees); what they cannot show (a match through
  // a sibling combinator or :has(), or an attribute the observer does not watch) is found by a
  // search of the whole document: after a filter change, and at most once a second while the
  // document changes (a search per mutation delivery cost a page that inserts a node every
  // 10 ms, in a frame with 50 filters, a hundred times its own work).
  const SEARCH_MS = 1000;
  const matched = new Set();
  let searchDue = true;
  let changedSinceSearch = false;
  let lastSearch = -Infinity;
  // element -> what the page had before ADV enforced its display:
  //   text: its style attribute exactly as the page last wrote it (null: it had none), or
  //     undefined once the page changed single declarations through element.style while ADV's
  //     display was in it (its exact text is then unknown);
  //   value, priority: its own inline display;
  //   ours: the attribute as ADV's last write left it, to tell the page's later writes from it.
  const enforced = new Map();

  function ruleText(selector) {
    return selector + " { display: none !important; }";
  }

  // ADV's own DOM writes must not come back to it as mutation records. The observer's callback
  // would run at the next microtask checkpoint, so the records a write queued are taken out
  // right after it. Only ours are there: the write is synchronous, no page script runs inside
  // it, and every earlier record was delivered at an earlier checkpoint (this runs in ADV's own
  // tasks and in the observer's callback, which has just been handed the page's records).
  function quietly(write) {
    try { write(); } finally { if (observing) observer.takeRecords(); }
  }

  function makeStyle() {
    const element = document.createElement("style");
    element.setAttribute("data-adv-personal-filters", "");
    element.textContent = expectedText;
    return element;
  }

  function parentForStyle() {
    return document.head || document.documentElement;
  }

  function sheetIsIntact() {
    if (!styleElement || !styleElement.isConnected) return false;
    if (styleElement.textContent !== expectedText) return false;
    if (styleElement.hasAttribute("media") || styleElement.hasAttribute("disabled")) return false;
    const sheet = styleElement.sheet;
    if (!sheet) return expectedText === "";
    if (sheet.disabled) return false;
    if (sheet.media && sheet.media.mediaText !== "") return false;
    if (sheet.cssRules.length !== selectors.length) return false;
    for (let i = 0; i < selectors.length; i++) {
      const rule = sheet.cssRules[i];
      if (!rule || !rule.style || rule.style.getPropertyValue("display") !== "none" || rule.style.getPropertyPriority("display") !== "important") return false;
    }
    return true;
  }

  /** Counts one more write in `budget` ({ second, count }) and says whether it is within the cap. */
  function within(budget) {
    const second = Math.floor(performance.now() / 1000);
    if (second !== budget.second) { budget.second = second; budget.count = 0; }
    budget.count++;
    return budget.count <= REPAIRS_PER_SECOND;
  }

  function allowRepair() {
    if (within(repairs)) return true;
    backedOff++;
    return false;
  }

  /** Puts a fresh, intact stylesheet in place of whatever the page did to the old one. */
  function repairSheet() {
    if (selectors.length === 0 || sheetIsIntact()) return false;
    if (!allowRepair()) return false;
    const parent = parentForStyle();
    if (!parent) return false;
    const fresh = makeStyle();
    quietly(() => {
      if (styleElement && styleElement.parentNode) styleElement.parentNode.removeChild(styleElement);
      parent.appendChild(fresh);
    });
    styleElement = fresh;
    return true;
  }

  function dependsOnStyleAttribute(selector) {
    return /\[\s*style\b/i.test(selector);
  }

  // The filters as one selector list, so that a single matches() call tests them all: a call
  // per filter cost 50 DOM calls for every node the page inserts. A list the engine cannot parse
  // as a whole (a filter it does not support) falls back to a call per filter, skipping the ones
  // it rejects. Style-attribute selectors are left out of enforcement.
  let lists = null;
  function selectorLists() {
    if (lists === null || lists.of !== selectors) {
      const enforceable = selectors.filter((selector) => !dependsOnStyleAttribute(selector));
      lists = { of: selectors, all: selectors.join(", "), enforceable, enforceableText: enforceable.join(", ") };
    }
    return lists;
  }
  function matchesList(element, text, list) {
    try {
      return element.matches(text);
    } catch (e) {
      return list.some((selector) => { try { return element.matches(selector); } catch (e) { return false; } });
    }
  }

  function matchesAny(element) {
    const { all } = selectorLists();
    return matchesList(element, all, selectors);
  }

  /** Elements among `roots` (and their descendants) that a filter matches. */
  function matchedIn(roots) {
    const { enforceable, enforceableText } = selectorLists();
    const found = new Set();
    if (enforceable.length === 0) return found;
    // A root inside another root is searched with it: the page's parser reports every element it
    // inserts, and searching each one's subtree again would cost the depth of the page per node.
    const given = new Set(roots);
    const outermost = [];
    for (const root of given) {
      let inner = false;
      for (let node = root.parentNode; node && !inner; node = node.parentNode) inner = given.has(node);
      if (!inner) outermost.push(root);
    }
    for (const root of outermost) if (matchesList(root, enforceableText, enforceable)) found.add(root);
    // Descendants filter by filter, which lets the engine answer a plain class or tag selector
    // from its own indexes.
    const parents = outermost.filter((root) => root.firstElementChild !== null);
    for (const selector of enforceable) {
      for (const root of parents) {
        try {
          for (const element of root.querySelectorAll(selector)) found.add(element);
        } catch (e) { break; }
      }
    }
    return found;
  }

  /**
   * Enforces the inline display on `elements` where the stylesheet lost the cascade (on all of
   * them once the page has attacked the sheet).
   */
  function enforceOn(elements) {
    for (const element of elements) {
      // ADV's own page UI (the picker panel) keeps its inline display: a broad filter such as
      // "div" must not hide the tool the user needs to undo it.
      if (element.closest("[data-adv-ui]")) continue;
      const text = element.getAttribute("style");
      let own = enforced.get(element);
      if (own) {
        if (text === own.ours) continue;
        const value = element.style.getPropertyValue("display");
        const priority = element.style.getPropertyPriority("display");
        if (value === "none" && priority === "important") {
          // ADV's display is still in force: the page changed other declarations (through
          // element.style, which re-serializes the whole attribute), so the restore will have to
          // give back the display alone.
          own.text = undefined;
          own.ours = text;
          continue;
        }
        // The page wrote its own inline display or the whole attribute meanwhile: that is its
        // latest declaration, and the attribute is exactly what it wrote.
        own = { text, value, priority, ours: null, budget: own.budget };
      } else {
        if (!sheetAttacked && getComputedStyle(element).display === "none") continue;
        own = { text, value: element.style.getPropertyValue("display"), priority: element.style.getPropertyPriority("display"), ours: null, budget: { second: -1, count: 0 } };
      }
      // A page that undoes the write on sight would otherwise keep ADV writing forever.
      if (!within(own.budget)) { backedOff++; enforced.set(element, own); continue; }
      element.style.setProperty("display", "none", "important");
      own.ours = element.getAttribute("style");
      enforced.set(element, own);
    }
  }

  /** Gives back the page's own declaration where an element stopped matching or left. */
  function releaseStale() {
    for (const [element, own] of enforced) {
      if (!element.isConnected || !matchesAny(element)) {
        restore(element, own);
        enforced.delete(element);
      }
    }
  }

  /** The roots whose subtrees `records` may have changed the matches of. */
  function rootsOf(records) {
    const roots = new Set();
    for (const record of records) {
      if (record.type === "childList") {
        for (const node of record.addedNodes) if (node.nodeType === 1) roots.add(node);
      } else if (record.target.nodeType === 1) {
        roots.add(record.target);
      }
    }
    return roots;
  }

  /** Brings `matched` up to date: from `records` if given, by a search when one is due. */
  function updateMatches(records) {
    const root = document.documentElement;
    if (!root) return;
    if (records) {
      changedSinceSearch = true;
      const roots = rootsOf(records);
      if (roots.size) for (const element of matchedIn(roots)) matched.add(element);
    }
    const now = performance.now();
    if (searchDue || (changedSinceSearch && now - lastSearch >= SEARCH_MS)) {
      matched.clear();
      for (const element of matchedIn([root])) matched.add(element);
      searchDue = false;
      changedSinceSearch = false;
      lastSearch = now;
    }
    const { enforceable, enforceableText } = selectorLists();
    for (const element of matched) {
      if (!element.isConnected || !matchesList(element, enforceableText, enforceable)) matched.delete(element);
    }
  }

  /**
   * One repair check, after DOM mutations (their `records`), the periodic check and a style
   * sheet's load: the stylesheet is mended, elements that stopped matching get their own
   * declaration back, and every element a filter matches (updateMatches) is checked. The user
   * sheet, once in, hides them all: no author declaration outranks it, so that last pass is left
   * out where it is.
   */
  function check(records) {
    if (selectors.length === 0) return;
    repairSheet();
    quietly(() => {
      releaseStale();
      if (userSheet) return;
      updateMatches(records);
      enforceOn(matched);
    });
  }

  /**
   * Puts back the page's own style attribute byte for byte (or removes it, if the page had none)
   * when ADV's write is the last one; going through element.style would re-serialize it
   * ("display: flex !important" comes back with a ';', an absent attribute as style="").
   */
  function restore(element, own) {
    if (own.text !== undefined && element.getAttribute("style") === own.ours) {
      if (own.text === null) element.removeAttribute("style");
      else element.setAttribute("style", own.text);
      return;
    }
    // The page has changed the attribute since: only the display is ADV's to give back, and
    // only if ADV's is still there (otherwise the page's newer display stays).
    if (element.style.getPropertyValue("display") !== "none" || element.style.getPropertyPriority("display") !== "important") return;
    if (own.value) element.style.setProperty("display", own.value, own.priority);
    else element.style.removeProperty("display");
  }

  function apply(list) {
    selectors = list;
    matched.clear();
    searchDue = true;
    watch(list.length > 0);
    expectedText = list.map(ruleText).join("\n");
    quietly(() => {
      if (styleElement && styleElement.parentNode) styleElement.parentNode.removeChild(styleElement);
      styleElement = null;
      if (list.length === 0) {
        for (const [element, own] of enforced) restore(element, own);
        enforced.clear();
      }
    });
    if (list.length === 0) return;
    repairs = { second: -1, count: 0 };
    repairSheet();
    // The stylesheet hides at once; the full check for elements where page CSS or an inline
    // !important wins needs computed styles, so it runs as the next task, after first render.
    setTimeout(() => { if (selectors === list) check(); }, 0);
  }

  // Only selectors that pass the popup's validation reach the sheet, whoever stored them: one
  // that is not a pure selector list could close ADV's rule and inject its own (hide other
  // content, @import a sheet) or swallow the rules after it. The background leaves them out
  // already and reports them in the popup's diagnostics; this page skips them silently.
  function applicable(filters) {
    const list = [];
    for (const filter of Array.isArray(filters) ? filters : []) {
      const checked = ADVSelectorValidation.validate(filter && filter.selector);
      if (!checked.error) list.push(checked.selector);
    }
    return list;
  }

  let shared = false;
  // Answers can come back out of order (a slow storage read answering an earlier request after
  // a later one): only the latest request's answer is applied.
  let requests = 0;
  async function refresh() {
    const ticket = ++requests;
    const reply = await ADVMessaging.request("filters.forPage", userSheet ? { hostname: location.hostname, userSheet } : { hostname: location.hostname });
    if (ticket !== requests) return;
    // Without an answer the document's user sheet is as it was (the background may be starting
    // again): it is still there to be replaced or removed by the next request.
    if (reply && reply.ok) {
      const held = typeof reply.userSheet === "string" ? reply.userSheet : "";
      // Without the user sheet the matches are this script's to check again, from a search.
      if (userSheet && !held) searchDue = true;
      userSheet = held;
    }
    const next = reply && reply.ok ? applicable(reply.filters) : [];
    shared = Boolean(reply && reply.mode === "native");
    if (next.join("\n") !== selectors.join("\n") || next.length === 0) apply(next);
  }

  // DOM changes (removing or rewriting the element, new content, a page <style> or <link>) are
  // seen at the next MutationObserver delivery, in the same task's microtask checkpoint. The
  // observer and the periodic check run only while this host has filters: on the many pages
  // without any, the page's own DOM work (its whole parse, to begin with) costs no mutation
  // records and no timer wakes the page.
  const observer = new MutationObserver((records) => check(records));
  let observing = false;
  let periodic = 0;
  function watch(on) {
    if (on === observing) return;
    observing = on;
    if (on) {
      observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ["style", "media", "disabled", "class", "id"] });
      periodic = setInterval(periodicCheck, CHECK_MS);
    } else {
      observer.disconnect();
      clearInterval(periodic);
    }
  }
  // CSSOM-only changes (deleteRule, insertRule, media, disabled) produce no mutation records;
  // this check catches them within CHECK_MS, at a cost set by the page's matches, not by how
  // often it changes its sheets. It marks the sheet as attacked only when ADV had put one in.
  function periodicCheck() {
    if (styleElement && !sheetIsIntact()) sheetAttacked = true;
    check();
  }
  // A linked sheet applies when it has loaded, after the mutation that inserted it (load events
  // do not bubble, but reach a capturing listener on the window, added here before any page
  // script could stop them).
  window.addEventListener("load", (event) => {
    const target = event.target;
    if (target && (target.localName === "link" || target.localName === "style")) check();
  }, true);
  window.addEventListener("pagehide", () => watch(false));

  browser.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && (changes.personalRules || changes.personalRulesRevision)) refresh();
  });
  // In App Group mode the native app (or another device, through it) may change the shared file
  // at any time: a visible page looks again every few seconds.
  const SHARED_POLL_MS = 5000;
  const poll = setInterval(() => {
    if (shared && document.visibilityState !== "hidden") refresh();
  }, SHARED_POLL_MS);
  window.addEventListener("pagehide", () => clearInterval(poll));
  globalThis.__advPersonalFiltersStats = () => ({ repairs: repairs.count, backedOff, enforced: enforced.size, selectors: selectors.length });
  refresh();
})();
