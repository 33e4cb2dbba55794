// The ADV popup: saved filters of the current site, bulk add, and global source blocks.
// Everything goes through the background (the same messages the picker uses); nothing here
// writes storage itself.
"use strict";

(async () => {
  const $ = (id) => document.getElementById(id);
  const status = (text) => { $("status").textContent = text; };
  const send = (type, payload) => browser.runtime.sendMessage({ type, ...payload });

  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  let hostname = "";
  try { hostname = tab && tab.url ? new URL(tab.url).hostname : ""; } catch (error) { hostname = ""; }
  $("site").textContent = hostname || "No website access on this tab";

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
    list.textContent = "";
    if (!hostname) return;
    const reply = await send("filters.list", { hostname });
    const filters = reply && reply.ok ? reply.filters : [];
    for (const filter of filters) {
      list.append(item(filter.selector, "Remove", async () => {
        const removed = await send("filters.remove", { id: filter.id });
        status(removed.ok ? "Removed " + filter.selector : removed.error);
        await showFilters();
      }));
    }
    $("filter-empty").hidden = filters.length > 0;
  }

  async function showSources() {
    const list = $("source-list");
    list.textContent = "";
    const reply = await send("sources.list", {});
    for (const host of reply && reply.ok ? reply.hosts : []) {
      list.append(item(host, "Unblock", async () => {
        const result = await send("sources.unblock", { host });
        status(result.ok ? "Unblocked " + host + " · reload pages to load it again" : result.error);
        await showSources();
      }));
    }
  }

  $("apply-draft").addEventListener("click", async () => {
    if (!hostname) { status("ADV has no access to this website."); return; }
    const reply = await send("filters.add", { hostname, text: $("bulk-text").value });
    if (!reply || !reply.ok) { status(reply ? reply.error : "ADV is not responding"); return; }
    $("bulk-text").value = "";
    status("Saved " + reply.added.length + " filter(s)" + (reply.skipped ? ", skipped " + reply.skipped + " duplicate(s)" : ""));
    await showFilters();
  });

  $("source-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const reply = await send("sources.block", { hosts: [$("source-host").value] });
    if (!reply || !reply.ok) { status(reply ? reply.error : "ADV is not responding"); return; }
    status(reply.added.length ? "Blocked " + reply.added.join(", ") + " on all sites" : reply.skipped.map((s) => s.host + ": " + s.reason).join("; "));
    $("source-host").value = "";
    await showSources();
  });

  // 4 · Move rules to another ADV (popup/move-rules.js) announces an import; show what it added.
  document.addEventListener("adv-rules-imported", () => { showFilters(); showSources(); });

  await Promise.all([showFilters(), showSources()]);
})();
