// ADV background: restores source blocks, routes messages, keeps the toolbar current.
"use strict";

// Every start (install, browser start, or a wake-up after Safari suspended the background)
// makes the dynamic rules match the saved source hosts.
const ADVStartup = ADVSourceBlocks.restore().catch((error) => console.error("restoring source blocks failed:", error.message));

// A failed change of source blocks (or an import, which blocks its source hosts) tells the caller
// when the saved hosts and the installed rules disagree until ADV repairs them, so it can list them.
function sourcesFailed(error) {
  const repair = error.repair || ADVSourceBlocks.pendingRepair();
  return repair ? { ok: false, error: error.message, repair } : { ok: false, error: error.message };
}

browser.runtime.onMessage.addListener((message, sender) => {
  if (!message || typeof message.type !== "string") return undefined;
  switch (message.type) {
    case "activity":
      if (!sender.tab) return undefined;
      ADVToolbar.report(sender.tab.id, sender.frameId || 0, message);
      return undefined;
    case "sources.block":
      return ADVStartup.then(() => ADVSourceBlocks.block(Array.isArray(message.hosts) ? message.hosts : [message.hosts]))
        .then((result) => ({ ok: true, ...result }), sourcesFailed);
    case "sources.unblock":
      return ADVStartup.then(() => ADVSourceBlocks.unblock(String(message.host)))
        .then((result) => ({ ok: true, ...result }), sourcesFailed);
    case "sources.list":
      // `repair`, while one is pending: why the saved hosts and the installed rules disagree, and
      // the hosts whose rule is active although they are not saved (the popup lists them too).
      return ADVSourceBlocks.list().then((hosts) => ADVStartup.then(() => {
        const repair = ADVSourceBlocks.pendingRepair();
        return repair ? { ok: true, hosts, repair } : { ok: true, hosts };
      }));
    case "filters.forPage": {
      const read = Promise.all([ADVPersonalFilters.forHost(sender.url ? new URL(sender.url).hostname : message.hostname), ADVPersonalFilters.backend()]);
      if (!sender.tab || sender.frameId !== 0) return read.then(([filters, mode]) => ({ ok: true, filters, mode }));
      // The top frame also gets its filters as a user sheet, in place before it hears them;
      // `userSheet` is the text its document holds (it sends it back with its next request).
      const held = typeof message.userSheet === "string" ? message.userSheet : "";
      const sheet = ADVFilterUserSheets.follow(sender.tab.id, held, read.then(([filters]) => filters));
      return Promise.all([read, sheet]).then(([[filters, mode], userSheet]) => (userSheet ? { ok: true, filters, mode, userSheet } : { ok: true, filters, mode }));
    }
    case "filters.add":
      return ADVPersonalFilters.add(message.hostname, message.text)
        .then((result) => ({ ok: true, ...result }), (error) => ({ ok: false, error: error.message }));
    case "filters.remove":
      return ADVPersonalFilters.remove(String(message.id))
        .then((result) => ({ ok: true, ...result }), (error) => ({ ok: false, error: error.message }));
    case "filters.get":
      // Edit loads one saved filter with its revision (modifiedAt); only ADV's own pages edit.
      if (!fromExtensionPage(sender)) return undefined;
      return ADVPersonalFilters.get(String(message.id))
        .then((rule) => ({ ok: true, rule }), (error) => ({ ok: false, error: error.message }));
    case "filters.update":
      return fromExtensionPage(sender)
        ? ADVPersonalFilters.update(String(message.id), message.text, message.expectedModifiedAt)
          .then((result) => ({ ok: true, ...result }), (error) => ({ ok: false, error: error.message, stale: Boolean(error.stale) }))
        : undefined;
    case "filters.list":
      // `skipped`: saved filters of the host that fail validation and are never applied.
      return ADVPersonalFilters.listHost(message.hostname).then(({ filters, skipped }) => ({ ok: true, filters, skipped }));
    case "rules.export":
      return ADVStartup.then(() => ADVRuleTransfer.exportText())
        .then((result) => ({ ok: true, ...result }), (error) => ({ ok: false, error: error.message }));
    case "rules.import":
      return ADVStartup.then(() => ADVRuleTransfer.importText(message.text))
        .then((result) => ({ ok: true, ...result }), sourcesFailed);
    case "handoff.offer": {
      // From the picker in a page's top frame: its last selection, kept in memory for that tab.
      if (!sender.tab || sender.frameId !== 0) return undefined;
      const result = ADVSelectionHandoff.offer(sender.tab.id, message.selection);
      if (result.ok && Number.isInteger(message.returnTo)) returnToWorkspace(message.returnTo, sender.tab.id);
      return Promise.resolve(result);
    }
    case "handoff.take":
      // Only ADV's own pages (the popup, the workspace) load a handoff, never a content script.
      if (!fromExtensionPage(sender) || !Number.isInteger(message.tabId)) return undefined;
      return Promise.resolve(ADVSelectionHandoff.take(message.tabId));
    case "toolbar.state":
      return Promise.resolve({ ok: true, state: ADVToolbar.snapshot(message.tabId) });
    default:
      return undefined;
  }
});

/** True for a message from one of ADV's own pages (popup, workspace tab), not a web page. */
function fromExtensionPage(sender) {
  return typeof sender.url === "string" && sender.url.startsWith(browser.runtime.getURL(""));
}

/**
 * After a handoff from a picker the workspace started: brings that workspace tab back to the
 * front and tells it its source tab has a selection waiting. Only a tab showing ADV's workspace
 * for that very source tab is brought back.
 */
async function returnToWorkspace(workspaceTabId, sourceTabId) {
  try {
    const workspace = await browser.tabs.get(workspaceTabId);
    const url = new URL(workspace.url || "");
    const expected = new URL(browser.runtime.getURL("popup/popup.html"));
    if (url.origin + url.pathname !== expected.origin + expected.pathname || url.searchParams.get("tab") !== String(sourceTabId)) return;
    await browser.tabs.update(workspaceTabId, { active: true });
    await browser.runtime.sendMessage({ type: "handoff.ready", tabId: sourceTabId });
  } catch (error) {
    // The workspace was closed meanwhile: the handoff waits for the popup, as without one.
  }
}

browser.tabs.onUpdated.addListener((tabId, change) => {
  if (change.status === "loading") {
    ADVToolbar.navigated(tabId, change.url);
  } else if (change.url && ADVToolbar.addressChanged(tabId, change.url)) {
    // The page moved to another address without loading (history.pushState, as YouTube does
    // between videos): that is another page for the toolbar, so its content scripts count again.
    browser.tabs.sendMessage(tabId, { type: "page.changed" }).catch(() => {});
  }
});
browser.tabs.onRemoved.addListener((tabId) => {
  ADVToolbar.removed(tabId);
  ADVSelectionHandoff.forget(tabId);
  ADVFilterUserSheets.forget(tabId);
});
browser.tabs.onActivated.addListener(({ tabId }) => ADVToolbar.pollNetwork(tabId));

setInterval(() => { ADVToolbar.tick(); }, 5000);
