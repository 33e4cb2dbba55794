// The element picker, top frame only (an iframe is picked as a whole element of this page).
// The popup's "Pick elements to hide" sends picker.start; while picking, clicks on the page
// are taken in the capture phase, before the page's own handlers, and never reach the page
// (no link is followed, no page handler runs). Each click toggles one selection; one save
// sends every selection in a single filters.add call for this exact hostname. Cancel, Escape
// or leaving the page removes the panel and every outline and saves nothing. Help with last
// selection hands the last selection to the background (memory only, ten minutes, loaded once)
// for the workspace or the next popup, leaves the picker without saving, and brings back the
// workspace that started the picker, if one did.
"use strict";

(() => {
  if (globalThis.__advPicker) return;
  globalThis.__advPicker = true;
  // The seed's limit on outlines shown per filter (enough to review, bounded work per update).
  const MAX_OUTLINES_PER_FILTER = 200;
  const POINTER_EVENTS = ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "auxclick", "dblclick", "contextmenu"];
  let session = null;

  // MARK: - Selections

  function targetElement(event) {
    const node = event.target;
    if (!node) return null;
    return node.nodeType === 1 ? node : node.parentElement;
  }

  function matchesOf(selection) {
    return ADVPageOutlines.matching(selection.selector);
  }

  function toggle(element) {
    if (element === document.documentElement || element === document.body) {
      session.panel.setStatus("Pick an element inside the page, not the whole page.");
      return;
    }
    const index = session.selections.findIndex((s) => s.element === element || s.matches.includes(element));
    if (index >= 0) {
      session.selections.splice(index, 1);
      session.panel.setStatus("Deselected.");
    } else {
      const selector = ADVSelectorGenerator.generate(element, { reusable: session.similar });
      if (!selector) {
        session.panel.setStatus("ADV could not describe this element; try its container.");
        return;
      }
      session.selections.push({ element, selector, edited: false, matches: [] });
      session.panel.setStatus("");
    }
    session.panel.setEditError("");
    update();
  }

  function removeAt(index) {
    if (!session.selections[index]) return;
    session.selections.splice(index, 1);
    session.panel.setEditError("");
    session.panel.setStatus("Removed from the selection.");
    update();
  }

  /** Regenerates the selectors the user did not edit, after the similar option changed. */
  function setSimilar(on) {
    session.similar = on;
    for (const selection of session.selections) {
      if (selection.edited) continue;
      selection.selector = ADVSelectorGenerator.generate(selection.element, { reusable: on }) || selection.selector;
    }
    update();
  }

  /** Replaces the last selection's selector with the user's text once it is valid and matches. */
  function editLast(text) {
    const last = session.selections[session.selections.length - 1];
    if (!last) return;
    const result = ADVSelectorValidation.validate(text);
    if (result.error) {
      session.panel.setEditError(result.error + "; the filter keeps " + last.selector);
      return;
    }
    const found = ADVPageOutlines.matching(result.selector);
    if (found.length === 0) {
      session.panel.setEditError("'" + result.selector + "' matches nothing on this page; the filter keeps " + last.selector);
      return;
    }
    last.selector = result.selector;
    last.edited = true;
    session.panel.setEditError("");
    session.panel.setStatus("The last filter now matches " + found.length + " element(s).");
    update();
  }

  // MARK: - Sources

  function refreshSources() {
    const hosts = ADVSourceHosts.collect(session.selections.map((s) => s.element));
    const next = new Map();
    // No source is ever checked by ADV: a host stays checked only if the user checked it.
    for (const host of hosts) next.set(host, session.sources.get(host) || { checked: false, blocked: false });
    session.sources = next;
  }

  function toggleSource(host, on) {
    const source = session.sources.get(host);
    if (source) source.checked = on;
    update();
  }

  async function blockSources() {
    const hosts = [...session.sources].filter(([, s]) => s.checked && !s.blocked).map(([host]) => host);
    if (hosts.length === 0) return;
    const current = session;
    const reply = await ADVMessaging.request("sources.block", { hosts });
    if (session !== current) return;
    if (!reply) { current.panel.setStatus("ADV is not responding; no source was blocked."); return; }
    if (!reply.ok) { current.panel.setStatus(reply.error); return; }
    for (const host of reply.added) {
      const source = current.sources.get(host);
      if (source) { source.checked = false; source.blocked = true; }
    }
    const skipped = reply.skipped.map((s) => s.host + ": " + s.reason);
    current.panel.setStatus((reply.added.length ? "Blocked " + reply.added.join(", ") + " on all sites. Reload pages to stop already loaded ads. " : "") +
      (skipped.length ? "Skipped " + skipped.join("; ") + ". " : "") +
      (reply.repaired ? "The saved sources and installed rules agree again. " : "") + "Selected filters are not saved by this: use Hide.");
    update();
  }

  // MARK: - Showing

  function update() {
    const outlined = [];
    for (const selection of session.selections) {
      selection.matches = matchesOf(selection);
      outlined.push(selection.element, ...selection.matches.slice(0, MAX_OUTLINES_PER_FILTER));
    }
    session.outlines.show(outlined.filter((element) => element.isConnected));
    refreshSources();
    session.panel.render({
      selections: session.selections.map((s) => ({ selector: s.selector, count: s.matches.length })),
      similar: session.similar,
      sources: [...session.sources].map(([host, s]) => ({ host, checked: s.checked, blocked: s.blocked })),
      lastSelector: session.selections.length ? session.selections[session.selections.length - 1].selector : "",
    });
  }

  // MARK: - Handoff

  /** What the workspace learns of a selection: no text content, form values or query strings. */
  function describe(selection) {
    return {
      selector: selection.selector,
      count: selection.matches.length,
      hostname: location.hostname,
      tag: selection.element.localName,
      descriptions: ADVElementEvidence.descriptions(selection.element),
      sourceHosts: ADVElementEvidence.sourceHosts(selection.element),
      box: ADVElementEvidence.box(selection.element),
    };
  }

  async function helpWithLast() {
    const last = session.selections[session.selections.length - 1];
    if (!last) { session.panel.setStatus("Select an element first: Help with last selection hands it to ADV."); return; }
    const current = session;
    const payload = { selection: describe(last) };
    if (Number.isInteger(current.returnTo)) payload.returnTo = current.returnTo;
    const reply = await ADVMessaging.request("handoff.offer", payload);
    if (session !== current) return;
    if (!reply) { current.panel.setStatus("ADV is not responding; nothing was handed off."); return; }
    if (!reply.ok) { current.panel.setStatus(reply.error); return; }
    finish();
  }

  // MARK: - Saving and leaving

  async function save() {
    if (session.saving || session.selections.length === 0) return;
    const current = session;
    current.saving = true;
    const text = current.selections.map((s) => s.selector).join("\n");
    const reply = await ADVMessaging.request("filters.add", { hostname: location.hostname, text });
    current.saving = false;
    if (session !== current) return;
    if (!reply) { current.panel.setStatus("ADV is not responding; nothing was saved."); return; }
    if (!reply.ok) { current.panel.setStatus(reply.error); return; }
    finish();
  }

  /** Removes the panel, outlines and listeners; the page is as it was before picking. */
  function finish() {
    if (!session) return;
    for (const type of POINTER_EVENTS) window.removeEventListener(type, onPointer, true);
    window.removeEventListener("keydown", onKey, true);
    window.removeEventListener("pagehide", finish);
    session.outlines.clear();
    session.panel.root.remove();
    session = null;
  }

  // MARK: - Input

  function onPointer(event) {
    const element = targetElement(event);
    if (!session || !element || ADVPageOutlines.isOwnUI(element)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (event.type === "click") toggle(element);
  }

  function onKey(event) {
    if (!session || event.key !== "Escape") return;
    event.preventDefault();
    event.stopImmediatePropagation();
    finish();
  }

  /** Starts picking; `returnTo` is the workspace tab that asked (brought back after a handoff). */
  function start(returnTo) {
    if (session) {
      if (Number.isInteger(returnTo)) session.returnTo = returnTo;
      return { ok: true, alreadyPicking: true };
    }
    const panel = ADVPickerPanel.create({
      remove: removeAt, edit: editLast, similar: setSimilar, toggleSource,
      blockSources: () => { blockSources(); }, save: () => { save(); }, cancel: finish, help: () => { helpWithLast(); },
    });
    session = { panel, outlines: ADVPageOutlines.create("picker"), selections: [], similar: false, sources: new Map(), saving: false,
      returnTo: Number.isInteger(returnTo) ? returnTo : null };
    for (const type of POINTER_EVENTS) window.addEventListener(type, onPointer, true);
    window.addEventListener("keydown", onKey, true);
    window.addEventListener("pagehide", finish);
    document.documentElement.appendChild(panel.root);
    update();
    return { ok: true };
  }

  browser.runtime.onMessage.addListener((message) => {
    if (message && message.type === "picker.start") return Promise.resolve(start(message.returnTo));
    return undefined;
  });
})();
