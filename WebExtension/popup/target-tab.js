// The page the popup or the workspace works on. The popup works on the active tab it was opened
// over. The full workspace (popup.html?workspace=1&tab=<id>, opened from the popup in a tab of its
// own) stays bound to the tab it was opened from: switching tabs never retargets it, since the
// active tab is then the workspace itself or a page the investigation knows nothing about. To
// work on another site, open ADV from that site.
"use strict";

var ADVTarget = (() => {
  const params = new URLSearchParams(location.search);
  const isWorkspace = params.get("workspace") === "1";
  const rawTab = params.get("tab");
  const boundId = isWorkspace && /^[0-9]+$/.test(rawTab || "") ? Number(rawTab) : null;

  /** The workspace address for `tabId` (a page of this extension). */
  function workspaceURL(tabId) {
    return browser.runtime.getURL("popup/popup.html") + "?workspace=1&tab=" + tabId;
  }

  /**
   * The target tab as the browser sees it now: the active tab of the popup's window, or the
   * workspace's bound tab (undefined once it is closed, or for a workspace address without one).
   */
  async function current() {
    if (!isWorkspace) {
      const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
      return tab;
    }
    if (boundId === null) return undefined;
    try {
      return await browser.tabs.get(boundId);
    } catch (error) {
      return undefined;
    }
  }

  /** The hostname of `tab`'s page, "" without one (no tab, no URL, not a URL). */
  function hostnameOf(tab) {
    try {
      return tab && tab.url ? new URL(tab.url).hostname : "";
    } catch (error) {
      return "";
    }
  }

  return { isWorkspace, boundId, current, hostnameOf, workspaceURL };
})();
