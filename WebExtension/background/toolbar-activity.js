// Toolbar activity: the lid of the V closes (images/toolbar.svg) on a tab when blocking is
// observed on its current page, and stays open (images/toolbar-idle.svg) otherwise.
//
// Sources: cosmetic matches and confirmed YouTube ad handling reported by permitted content
// scripts, per frame; network matches from declarativeNetRequest.getMatchedRules where the
// browser allows it, polled at most once every POLL_INTERVAL_MS (Chromium allows 20 calls per
// 10 minutes, MAX_GETMATCHEDRULES_CALLS_PER_INTERVAL; Safari has no quota but the same restraint
// costs nothing). When feedback is unavailable the network count is "unknown", not zero: an open
// lid never claims nothing was blocked. Everything is in memory; navigation clears a tab.
"use strict";

var ADVToolbar = (() => {
  const FRAME_TTL_MS = 15000;
  const POLL_INTERVAL_MS = 35000;
  const ICON_ACTIVE = "images/toolbar.svg";
  const ICON_IDLE = "images/toolbar-idle.svg";
  const tabs = new Map();
  let lastPoll = -Infinity;

  function tabState(tabId) {
    let state = tabs.get(tabId);
    if (!state) {
      state = { frames: new Map(), network: "unknown", since: Date.now(), icon: null, title: null, page: null };
      tabs.set(tabId, state);
    }
    return state;
  }

  // A page is its address without the fragment: moving to an anchor stays on the page.
  function pageOf(url) {
    const hash = url.indexOf("#");
    return hash < 0 ? url : url.slice(0, hash);
  }

  function expireFrames(state) {
    const now = Date.now();
    for (const [frameId, frame] of state.frames) if (now - frame.at > FRAME_TTL_MS) state.frames.delete(frameId);
  }

  function summary(state) {
    expireFrames(state);
    let cosmetic = 0, youtube = 0;
    for (const frame of state.frames.values()) { cosmetic += frame.cosmetic; youtube += frame.youtube; }
    const network = typeof state.network === "number" ? state.network : 0;
    return { cosmetic, youtube, network: state.network, observed: cosmetic + youtube + network > 0 };
  }

  // The title changes on its own too: an open lid goes from "network blocking unknown" to
  // "nothing observed" when a poll answers that nothing was blocked.
  async function refresh(tabId) {
    const state = tabs.get(tabId);
    if (!state) return;
    const { observed, network } = summary(state);
    const icon = observed ? ICON_ACTIVE : ICON_IDLE;
    const title = observed ? "ADV: blocking observed on this page"
      : network === "unknown" ? "ADV: nothing observed (network blocking unknown)" : "ADV: nothing observed on this page";
    if (state.icon === icon && state.title === title) return;
    state.icon = icon;
    state.title = title;
    try {
      await browser.action.setIcon({ tabId, path: icon });
      await browser.action.setTitle({ tabId, title });
    } catch (error) {
      // The tab may have closed meanwhile.
      state.icon = null;
      state.title = null;
    }
  }

  /**
   * A content script in `frameId` of `tabId` reports what it hid or handled. A top frame's report
   * about another page than the tab's current one (sent before the address changed) is dropped.
   */
  function report(tabId, frameId, counts) {
    const state = tabState(tabId);
    if (frameId === 0 && state.page !== null && typeof counts.page === "string" && counts.page !== state.page) return undefined;
    state.frames.set(frameId, { cosmetic: Math.max(0, counts.cosmetic | 0), youtube: Math.max(0, counts.youtube | 0), at: Date.now() });
    return refresh(tabId);
  }

  /** The tab started loading a new page: its previous page's activity no longer applies. */
  function navigated(tabId, url) {
    tabs.set(tabId, { frames: new Map(), network: "unknown", since: Date.now(), icon: null, title: null, page: url ? pageOf(url) : null });
    return refresh(tabId);
  }

  /**
   * The tab's address changed without a load. Another page (not just another fragment) clears
   * the activity as a navigation does; returns whether it did.
   */
  function addressChanged(tabId, url) {
    const state = tabs.get(tabId);
    if (state && state.page === pageOf(url)) return false;
    navigated(tabId, url);
    return true;
  }

  function removed(tabId) {
    tabs.delete(tabId);
  }

  /** Asks the browser for network matches on `tabId`, within the polling budget. */
  async function pollNetwork(tabId) {
    const now = Date.now();
    if (now - lastPoll < POLL_INTERVAL_MS) return;
    lastPoll = now;
    const state = tabState(tabId);
    try {
      // Safari's minTimeStamp is exclusive (Chromium's inclusive): asking from one millisecond
      // before the navigation counts requests made in the same millisecond in both.
      const result = await browser.declarativeNetRequest.getMatchedRules({ tabId, minTimeStamp: state.since - 1 });
      const current = tabs.get(tabId);
      if (current === state) {
        state.network = result.rulesMatchedInfo.length;
      } else if (current) {
        // The tab navigated while the poll was in flight (on opening a tab, its activation polls
        // before its first navigation is reported). The matches made since the new page
        // started are about the new page and count; the older ones were the previous page's.
        // Finding none proves nothing: the browser may have answered before the new page
        // asked for anything, so the count stays as it was.
        const matches = result.rulesMatchedInfo.filter((info) => info.timeStamp >= current.since).length;
        if (matches > 0 && !(current.network >= matches)) current.network = matches;
      }
    } catch (error) {
      if (tabs.get(tabId) === state) state.network = "unknown";
    }
    await refresh(tabId);
  }

  /** Periodic work: expire silent frames everywhere, poll the active tab. */
  async function tick() {
    for (const tabId of tabs.keys()) await refresh(tabId);
    const [active] = await browser.tabs.query({ active: true, currentWindow: true });
    if (active && active.id !== undefined) await pollNetwork(active.id);
  }

  function snapshot(tabId) {
    const state = tabs.get(tabId);
    return state ? summary(state) : null;
  }

  return { report, navigated, addressChanged, removed, pollNetwork, tick, snapshot, FRAME_TTL_MS, POLL_INTERVAL_MS };
})();
