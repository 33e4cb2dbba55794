// The ADV popup, and the same interface as the full workspace in a tab of its own: three areas,
// 1 · Describe your intent (the element picker's start, Open full workspace, the picker's
// handoff; questions and candidates are popup/intent.js), 2 · Review your draft (conditions to
// view or edit as CSS, Add in bulk, a CSS or Block domain · all websites draft, a preview on the
// page before Apply draft), 3 · Your saved filters (with diagnostics of those never applied because their
// selector fails validation), then global source blocks.
// Filters and sources go through the background (the same messages the picker uses); the
// picker and the draft preview are asked of the target page's top frame (popup/target-tab.js:
// the active tab for the popup, the bound tab for the workspace). Nothing here writes storage
// itself.
"use strict";

/**
 * What the popup's other scripts (popup/intent.js) share with it: `ready` gives { target(),
 * sendToPage, send, status, stage(text, source, options), draft() } once the tab is known;
 * `offerCandidates` shows candidates (intent.js gives them their buttons); `lastSelection` is the
 * handoff loaded last (ephemeral, this page only).
 */
var ADVPopup = (() => {
  let resolve;
  const ready = new Promise((done) => { resolve = done; });
  return { ready, settle: (context) => resolve(context), offerCandidates: (candidates) => ADVConversation.showCandidates(candidates) };
})();

(async () => {
  const $ = (id) => document.getElementById(id);
  const status = (text) => { $("status").textContent = text; };
  const send = (type, payload) => browser.runtime.sendMessage({ type, ...payload });

  const workspace = ADVTarget.isWorkspace;
  if (workspace) document.body.classList.add("workspace");
  let tab = await ADVTarget.current();
  let hostname = ADVTarget.hostnameOf(tab);
  function showTarget() {
    $("site").textContent = hostname || (workspace && !tab ? "No source tab" : "No website access on this tab");
    $("open-workspace").hidden = workspace;
    $("binding").hidden = !workspace;
    if (!workspace) return;
    $("binding-text").textContent = !tab
      ? "This workspace has no source tab any more: open ADV from a page to continue there."
      : "Workspace for tab " + tab.id + (hostname ? " · " + hostname : "") + ". Switching tabs does not change its page; to work on another site, open ADV from that site.";
    $("show-source").disabled = !tab;
  }
  showTarget();

  function item(text, buttonLabel, onClick) {
    const li = document.createElement("li");
    const label = document.createElement("span");
    label.textContent = text;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = buttonLabel;
    button.addEventListener("click", onClick);
    li.append(label, button);
    return li;
  }

  async function showFilters() {
    const list = $("filter-list");
    const skippedList = $("skipped-list");
    if (!hostname) { list.textContent = ""; return; }
    const reply = await send("filters.list", { hostname });
    const filters = reply && reply.ok ? reply.filters : [];
    const skipped = reply && reply.ok && Array.isArray(reply.skipped) ? reply.skipped : [];
    // Emptied only once the answer is here: two redraws under way at once (an import's and a
    // Remove's) must not both append to the list.
    list.textContent = "";
    skippedList.textContent = "";
    const removeButton = (filter) => async () => {
      const removed = await send("filters.remove", { id: filter.id });
      status(removed.ok ? "Removed " + filter.selector : removed.error);
      await showFilters();
    };
    // Each saved filter shows its exact condition with Edit, Inspect / ask (popup/saved-filters.js)
    // and Remove; the rule, not the conversation, is what is true.
    for (const filter of filters) {
      const li = document.createElement("li");
      li.dataset.id = filter.id;
      const label = document.createElement("span");
      label.textContent = filter.selector;
      const row = document.createElement("div");
      row.className = "actions";
      const action = (text, className, onClick) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = className;
        button.textContent = text;
        button.addEventListener("click", onClick);
        row.append(button);
      };
      action("Edit", "edit", () => ADVSavedFilters.edit(filter));
      action("Inspect / ask", "inspect", () => ADVSavedFilters.inspect(filter));
      action("Remove", "remove", removeButton(filter));
      li.append(label, row);
      list.append(li);
    }
    $("filter-empty").hidden = filters.length + skipped.length > 0;
    // Diagnostics: saved filters whose selector fails validation (an older ADV's storage, the
    // native app's file) are never applied; each is listed once here, with Remove.
    for (const entry of skipped) skippedList.append(item(entry.selector + " — " + entry.error, "Remove", removeButton(entry)));
    $("diagnostics-summary").textContent = skipped.length + " saved filter(s) of this site are not valid selectors: ADV skips them on every page. Remove them, or add them again as valid selectors.";
    $("filter-diagnostics").hidden = skipped.length === 0;
  }

  // A change that ended a disagreement of saved sources and installed rules says so.
  const agreedAgain = (reply) => (reply.repaired ? " · the saved sources and installed rules agree again" : "");

  async function showSources() {
    const list = $("source-list");
    const notice = $("source-repair");
    const reply = await send("sources.list", {});
    const hosts = reply && reply.ok ? reply.hosts : [];
    const repair = reply && reply.ok ? reply.repair : undefined;
    // Emptied only once the answer is here, as the filter list is (two redraws may overlap).
    list.textContent = "";
    const unblockButton = (host) => async () => {
      const result = await send("sources.unblock", { host });
      status(result.ok ? "Unblocked " + host + " · reload pages to load it again" + agreedAgain(result) : result.error);
      await showSources();
    };
    for (const host of hosts) list.append(item(host, "Unblock", unblockButton(host)));
    // While a repair is pending, a host whose rule stayed active without being saved (a block
    // whose undo failed) is blocked all the same: it is listed, and Unblock removes its rule.
    for (const host of repair ? repair.activeNotSaved : []) {
      if (!hosts.includes(host)) list.append(item(host + " · rule active, not saved", "Unblock", unblockButton(host)));
    }
    notice.textContent = repair ? "Saved sources and installed rules disagree: " + repair.reason + ". ADV repairs them at the next change or start." : "";
    notice.hidden = !repair;
  }

  /** A message to the page's top frame (the picker and the draft preview live there only). */
  async function sendToPage(type, payload) {
    if (!tab) return undefined;
    try {
      return await browser.tabs.sendMessage(tab.id, { type, ...payload }, { frameId: 0 });
    } catch (error) {
      return undefined; // no content script: no website access, or the page is still loading
    }
  }

  /** Brings the source tab to the front (workspace only): the workspace tab stays open behind it. */
  async function switchToSource() {
    if (!tab) return false;
    try {
      await browser.tabs.update(tab.id, { active: true });
      return true;
    } catch (error) {
      return false;
    }
  }

  const NO_SOURCE = "This workspace has no source tab: open ADV from a page to continue there.";

  $("pick-elements").addEventListener("click", async () => {
    if (workspace && !tab) { status(NO_SOURCE); return; }
    // A picker the workspace starts brings the workspace back after Help with last selection.
    let payload = {};
    if (workspace) {
      const own = await browser.tabs.getCurrent();
      if (own) payload = { returnTo: own.id };
    }
    const reply = await sendToPage("picker.start", payload);
    if (!reply || !reply.ok) { status("ADV cannot pick on this page: grant website access, then reload it."); return; }
    if (workspace) {
      // The workspace stays open in its tab; picking happens in the source tab.
      await switchToSource();
      status("Picking in tab " + tab.id + ". Return to this tab to continue.");
      return;
    }
    status("Click elements on the page; the picker panel lists your selection.");
    // The user works in the page now; Safari closes the popup as the page takes focus anyway.
    try { window.close(); } catch (error) { /* the popup stays open */ }
  });

  $("open-workspace").addEventListener("click", async () => {
    if (!tab) { status("ADV has no page to work on in this window."); return; }
    try {
      await browser.tabs.create({ url: ADVTarget.workspaceURL(tab.id) });
    } catch (error) {
      status("ADV could not open the workspace: " + error.message);
      return;
    }
    // The workspace tab comes to the front, which closes the popover in Safari anyway.
    try { window.close(); } catch (error) { /* the popup stays open */ }
  });

  $("show-source").addEventListener("click", async () => {
    if (!(await switchToSource())) status("The source tab is gone: open ADV from a page to continue there.");
  });

  // Apply draft needs a preview of exactly this text on this very page: the draft, the page
  // (a reload or navigation) or what the draft matches must not have changed since. The page
  // reports a changed match count itself (content/draft-preview.js), so Apply is disabled the
  // moment it changes, and Apply checks the count once more before saving.
  let preview = null; // { text, count, pageToken }
  // A source-block draft (Block domain · all websites): the host Apply blocks on every site, and
  // the reference condition whose elements the preview outlines (never saved). null: a CSS draft.
  let draftSource = null; // { host, label }
  // An edit of one saved filter (Edit): the rule whose selector Apply replaces, keeping its id,
  // and the revision (modifiedAt) it was loaded at. null: Apply adds new filters.
  let draftEdit = null; // { id, selector, modifiedAt }
  // Counts every change of the draft (typed or staged), so an investigation that ends can tell
  // whether the user edited the draft while it ran.
  let draftVersion = 0;
  function requirePreview(reason) {
    preview = null;
    $("apply-draft").disabled = true;
    $("draft-status").textContent = reason;
  }

  function showDraftSource() {
    const line = $("draft-source");
    line.hidden = !draftSource;
    line.textContent = draftSource
      ? "Block domain · all websites: " + draftSource.host + ". Apply draft blocks resource requests to " + draftSource.host +
        " and its subdomains on every website (top-level navigation stays allowed; normal resources from this host are blocked too). " +
        "The conditions above are its reference elements (" + draftSource.label + "): the preview outlines them, nothing here is saved as CSS."
      : "";
  }

  function showDraftEdit() {
    const line = $("draft-edit");
    line.hidden = !draftEdit;
    line.textContent = draftEdit
      ? "Editing the saved filter " + draftEdit.selector + ": Apply draft saves the condition above in its place, as the same rule. Other saved filters stay as they are."
      : "";
  }

  $("bulk-text").addEventListener("input", () => {
    draftVersion++;
    // Typing makes the draft CSS of the user's own: a staged source block no longer applies.
    if (draftSource) { draftSource = null; showDraftSource(); }
    if (preview) requirePreview("The draft changed: preview it again before applying.");
  });
  browser.tabs.onUpdated.addListener((tabId, change, updated) => {
    if (!tab || tabId !== tab.id) return;
    if (change.status === "loading" && preview) requirePreview("The page reloaded: preview the draft again.");
    // The workspace follows its own tab to the site it shows now (never another tab).
    if (workspace && change.url && updated) {
      tab = updated;
      const next = ADVTarget.hostnameOf(updated);
      if (next !== hostname) { hostname = next; showTarget(); showFilters(); }
    }
  });
  browser.tabs.onRemoved.addListener((tabId) => {
    if (!workspace || !tab || tabId !== tab.id) return;
    tab = undefined;
    hostname = "";
    requirePreview("The source tab was closed: nothing to preview.");
    showTarget();
    showFilters();
  });
  browser.runtime.onMessage.addListener((message, sender) => {
    if (!message || message.type !== "draft.countChanged" || !preview || !tab || !sender.tab || sender.tab.id !== tab.id) return undefined;
    if (message.pageToken === preview.pageToken && message.text === preview.text && message.count !== preview.count) {
      requirePreview("The draft now matches " + message.count + " element(s), not " + preview.count + ": preview it again.");
    }
    return undefined;
  });

  async function previewDraft() {
    const text = $("bulk-text").value;
    if (workspace && !tab) { requirePreview(NO_SOURCE); return; }
    const reply = await sendToPage("draft.preview", { text });
    if (!reply) { requirePreview("ADV cannot preview on this page: grant website access, then reload it."); return; }
    if (!reply.ok) { requirePreview(reply.error); return; }
    // The draft changed while the page answered: this preview is of an older text.
    if ($("bulk-text").value !== text) { requirePreview("The draft changed: preview it again before applying."); return; }
    preview = { text, count: reply.count, pageToken: reply.pageToken };
    $("apply-draft").disabled = false;
    $("draft-status").textContent = reply.count + " element(s) match on this page, outlined for ten seconds.";
    // The outlines are on the page: the workspace shows it, and the user comes back to apply.
    if (workspace && (await switchToSource())) $("draft-status").textContent += " Return to this tab to apply.";
  }

  /**
   * Replaces the draft with `text` (a candidate's condition) and previews it at once; `source`
   * ({ host, label }) makes it a Block domain · all websites draft with `text` as its reference.
   */
  async function stage(text, source, { thenPreview = true, edit = null } = {}) {
    $("bulk-text").value = text;
    draftVersion++;
    draftSource = source || null;
    showDraftSource();
    // Staging a candidate (or another rule) ends an edit; Edit stages the rule it loaded.
    draftEdit = edit;
    showDraftEdit();
    if (edit) $("conditions").open = true;
    requirePreview("Preview the draft before applying it.");
    if (thenPreview) await previewDraft();
  }

  $("preview-draft").addEventListener("click", () => { previewDraft(); });

  $("apply-draft").addEventListener("click", async () => {
    if (!hostname) { status("ADV has no access to this website."); return; }
    const text = $("bulk-text").value;
    if (!preview || preview.text !== text) { requirePreview("Preview the draft before applying it."); return; }
    const now = await sendToPage("draft.count", { text });
    if (!now || !now.ok || now.pageToken !== preview.pageToken) { requirePreview("The page changed: preview the draft again."); return; }
    if (now.count !== preview.count) { requirePreview("The draft now matches " + now.count + " element(s), not " + preview.count + ": preview it again."); return; }
    if (draftSource) {
      // Block domain · all websites: only the DNR rule is installed (the global source-block
      // path the Blocked sources section uses); the reference CSS is not saved.
      const host = draftSource.host;
      const reply = await send("sources.block", { hosts: [host] });
      if (!reply || !reply.ok) {
        status(reply ? reply.error : "ADV is not responding");
        if (reply && reply.repair) await showSources();
        return;
      }
      $("bulk-text").value = "";
      draftVersion++;
      draftSource = null;
      showDraftSource();
      requirePreview("Preview the draft before applying it.");
      status((reply.added.length ? "Blocked " + reply.added.join(", ") + " on all websites · reload pages to stop ads already loaded; no CSS filter was saved"
        : reply.skipped.map((s) => s.host + ": " + s.reason).join("; ")) + agreedAgain(reply));
      await showSources();
      return;
    }
    if (draftEdit) {
      // Edit: the same rule (its id) gets the new condition, if it is still the revision loaded.
      const edit = draftEdit;
      const reply = await send("filters.update", { id: edit.id, text, expectedModifiedAt: edit.modifiedAt });
      if (!reply || !reply.ok) {
        // Refused (changed or removed since it was loaded, invalid, a duplicate): the draft stays.
        status(reply ? "Not saved: " + reply.error : "ADV is not responding");
        return;
      }
      $("bulk-text").value = "";
      draftVersion++;
      draftEdit = null;
      showDraftEdit();
      requirePreview("Preview the draft before applying it.");
      status(reply.changed ? "Saved your edit: " + edit.selector + " is now " + reply.selector + " (the same rule)" : "Nothing to save: the filter already is " + reply.selector);
      await showFilters();
      return;
    }
    const reply = await send("filters.add", { hostname, text });
    if (!reply || !reply.ok) { status(reply ? reply.error : "ADV is not responding"); return; }
    $("bulk-text").value = "";
    draftVersion++;
    requirePreview("Preview the draft before applying it.");
    status("Saved " + reply.added.length + " filter(s)" + (reply.skipped ? ", skipped " + reply.skipped + " duplicate(s)" : ""));
    await showFilters();
  });

  $("source-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const reply = await send("sources.block", { hosts: [$("source-host").value] });
    if (!reply || !reply.ok) {
      status(reply ? reply.error : "ADV is not responding");
      if (reply && reply.repair) await showSources();
      return;
    }
    status((reply.added.length ? "Blocked " + reply.added.join(", ") + " on all sites" : reply.skipped.map((s) => s.host + ": " + s.reason).join("; ")) + agreedAgain(reply));
    $("source-host").value = "";
    await showSources();
  });

  // MARK: - Picker handoff (background/selection-handoff.js)

  /** Loads the source tab's handed-off selection once: a candidate with the picker's condition. */
  async function loadHandoff() {
    if (!tab) { status(workspace ? NO_SOURCE : "ADV has no page to work on in this window."); return; }
    const reply = await send("handoff.take", { tabId: tab.id });
    if (!reply || !reply.ok) { ADVConversation.say("adv", reply ? reply.error : "ADV is not responding."); return; }
    const selection = reply.selection;
    ADVPopup.lastSelection = selection;
    const place = selection.hostname === hostname ? "" : " (picked on " + selection.hostname + ", not the page this tab shows now)";
    ADVConversation.say("adv", "Your last selection" + place + ": <" + selection.tag + ">, " + selection.count + " element(s) matching " +
      selection.selector + ", " + ADVConversation.where(selection.box) + "." +
      (selection.descriptions.length ? " Image descriptions: " + selection.descriptions.join("; ") + "." : " It has no image description.") +
      (selection.sourceHosts.length ? " Served from: " + selection.sourceHosts.join(", ") + "." : ""));
    ADVPopup.offerCandidates([{ label: "Your selection", condition: selection.selector, count: selection.count, box: selection.box,
      evidence: selection.descriptions.map((line) => "image description · " + line), resourceHosts: selection.sourceHosts }]);
  }

  $("help-selection").addEventListener("click", () => { loadHandoff(); });
  ADVPopup.settle({
    target: () => ({ tab, hostname, workspace }), sendToPage, send, status, stage,
    draft: () => ({ text: $("bulk-text").value, version: draftVersion }),
  });
  browser.runtime.onMessage.addListener((message) => {
    // The background brought the workspace back from a picker it started: load what it handed off.
    if (workspace && tab && message && message.type === "handoff.ready" && message.tabId === tab.id) loadHandoff();
    return undefined;
  });

  // 5 · Move rules to another ADV (popup/move-rules.js) announces an import; show what it added.
  document.addEventListener("adv-rules-imported", () => { showFilters(); showSources(); });
  // An import that failed with the saved sources and the installed rules disagreeing: list them.
  document.addEventListener("adv-sources-disagree", () => { showSources(); });

  await Promise.all([showFilters(), showSources()]);
})();
