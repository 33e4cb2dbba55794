// Picker handoff: the picker's "Help with last selection" leaves the page's last selection here
// for the popup or the workspace of that tab to load once. It lives in this background's memory
// only: never in storage (local, session or the App Group file), never sent to the native app,
// so it is never synced and is gone when Safari unloads the background. Each tab holds at most
// one; loading it removes it, and it expires ten minutes after it was handed off (the seed's
// figure), whichever comes first.
"use strict";

var ADVSelectionHandoff = (() => {
  const LIFETIME_MS = 10 * 60 * 1000;
  const MAX_TEXT = 300;
  const MAX_LIST = 20;
  const handoffs = new Map(); // tab id -> { selection, expiresAt, timer }

  const text = (value) => String(value == null ? "" : value).slice(0, MAX_TEXT);
  const list = (value) => (Array.isArray(value) ? value.slice(0, MAX_LIST).map(text) : []);

  /** The fields a handoff may carry, bounded; anything else the sender put in is dropped. */
  function bounded(selection) {
    const box = selection && selection.box ? selection.box : {};
    const number = (value) => (Number.isFinite(value) ? Math.round(value) : 0);
    return {
      selector: text(selection && selection.selector),
      count: number(selection && selection.count),
      hostname: text(selection && selection.hostname),
      tag: text(selection && selection.tag),
      descriptions: list(selection && selection.descriptions),
      sourceHosts: list(selection && selection.sourceHosts),
      box: { x: number(box.x), y: number(box.y), width: number(box.width), height: number(box.height) },
    };
  }

  function drop(tabId) {
    const entry = handoffs.get(tabId);
    if (!entry) return;
    clearTimeout(entry.timer);
    handoffs.delete(tabId);
  }

  /** Keeps `selection` for `tabId`, replacing an earlier one; it expires in ten minutes. */
  function offer(tabId, selection) {
    const kept = bounded(selection);
    if (!kept.selector) return { ok: false, error: "the picker has no selection to hand off" };
    drop(tabId);
    const expiresAt = Date.now() + LIFETIME_MS;
    const timer = setTimeout(() => { handoffs.delete(tabId); }, LIFETIME_MS);
    handoffs.set(tabId, { selection: kept, expiresAt, timer });
    return { ok: true, expiresInMs: LIFETIME_MS };
  }

  /** The tab's handoff, removed as it is given (once); a reason when there is none. */
  function take(tabId) {
    const entry = handoffs.get(tabId);
    drop(tabId);
    if (!entry || Date.now() >= entry.expiresAt) {
      return { ok: false, error: "No selection to load: pick an element first, then choose Help with last selection in the picker (a handoff lasts ten minutes and loads once)." };
    }
    return { ok: true, selection: entry.selection };
  }

  return { offer, take, forget: drop, LIFETIME_MS };
})();
