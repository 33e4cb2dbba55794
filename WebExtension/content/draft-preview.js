// Bulk-draft preview, top frame only: the popup sends the draft text, this outlines every
// element it matches for ten seconds and answers the count, so the user sees what Apply draft
// would hide before saving anything. The page token lets the popup notice a reload between
// preview and apply (a new document has a new token). After a preview the page is watched: when
// what the previewed draft matches changes (an element added, removed or changed), the new count
// is sent to the popup or workspace at once (draft.countChanged), which then asks for a new
// preview before Apply. The watch ends with that report, the next preview (which watches anew)
// or the page.
"use strict";

(() => {
  if (globalThis.__advDraftPreview) return;
  globalThis.__advDraftPreview = true;
  const PREVIEW_MS = 10000;
  const pageToken = crypto.randomUUID();
  const outlines = ADVPageOutlines.create("preview");
  let timer = null;
  let watcher = null; // { observer, text, count }

  /** { selectors } of the draft's non-blank lines, or { error } naming the first bad line. */
  function parseDraft(text) {
    const selectors = [];
    const lines = String(text || "").split(/\r\n|\r|\n/);
    for (let index = 0; index < lines.length; index++) {
      if (lines[index].trim() === "") continue;
      const result = ADVSelectorValidation.validate(lines[index]);
      if (result.error) return { error: "line " + (index + 1) + ": " + result.error };
      selectors.push(result.selector);
    }
    if (selectors.length === 0) return { error: "the draft has no selectors" };
    return { selectors: [...new Set(selectors)] };
  }

  /** Every distinct element any selector of the draft matches. */
  function matchesOf(selectors) {
    const found = new Set();
    for (const selector of selectors) for (const element of ADVPageOutlines.matching(selector)) found.add(element);
    return [...found];
  }

  function count(text) {
    const draft = parseDraft(text);
    if (draft.error) return { ok: false, error: draft.error };
    return { ok: true, count: matchesOf(draft.selectors).length, selectors: draft.selectors.length, pageToken };
  }

  /** Watches the document for changes of what `selectors` match (one watch at a time). */
  function watch(text, selectors, count) {
    unwatch();
    const observer = new MutationObserver(() => {
      if (!watcher) return;
      const now = matchesOf(selectors).length;
      if (now === watcher.count) return;
      const changed = watcher.text;
      // One report is enough: the popup then needs a new preview, which watches again.
      unwatch();
      ADVMessaging.request("draft.countChanged", { text: changed, count: now, pageToken });
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: false });
    watcher = { observer, text, count };
  }

  function unwatch() {
    if (watcher) watcher.observer.disconnect();
    watcher = null;
  }

  function preview(text) {
    const draft = parseDraft(text);
    if (draft.error) { unwatch(); return { ok: false, error: draft.error }; }
    const elements = matchesOf(draft.selectors);
    watch(text, draft.selectors, elements.length);
    outlines.show(elements);
    clearTimeout(timer);
    timer = setTimeout(() => { timer = null; outlines.clear(); }, PREVIEW_MS);
    return { ok: true, count: elements.length, selectors: draft.selectors.length, pageToken, outlinedForMs: PREVIEW_MS };
  }

  browser.runtime.onMessage.addListener((message) => {
    if (!message || typeof message.type !== "string") return undefined;
    if (message.type === "draft.preview") return Promise.resolve(preview(message.text));
    if (message.type === "draft.count") return Promise.resolve(count(message.text));
    return undefined;
  });
  window.addEventListener("pagehide", () => { clearTimeout(timer); unwatch(); outlines.clear(); });
})();
