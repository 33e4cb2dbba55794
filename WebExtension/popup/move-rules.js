// Popup section 5 · Move rules to another ADV. Safari keeps each extension identifier's storage
// apart, so rules are carried over by hand: Export shows one document (background/rule-transfer.js
// describes it) to copy; Import sends pasted text to the background, which validates all of it
// before writing anything. Export only reads.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const say = (text) => { $("move-status").textContent = text; };
  const send = (type, payload) => browser.runtime.sendMessage({ type, ...payload });

  $("export-rules").addEventListener("click", async () => {
    const reply = await send("rules.export", {});
    if (!reply || !reply.ok) { say(reply ? reply.error : "ADV is not responding"); return; }
    $("export-text").value = reply.text;
    say("Exported " + reply.filters + " filter(s) and " + reply.sourceHosts + " source host(s) · copy the text into the other ADV's Import");
  });

  $("import-rules").addEventListener("click", async () => {
    const reply = await send("rules.import", { text: $("import-text").value });
    if (!reply || !reply.ok) {
      say(reply ? reply.error : "ADV is not responding");
      if (reply && reply.repair) document.dispatchEvent(new CustomEvent("adv-sources-disagree"));
      return;
    }
    const parts = ["Imported " + reply.filters.added + " filter(s)"];
    if (reply.filters.skipped) parts.push("skipped " + reply.filters.skipped + " duplicate(s)");
    if (reply.filters.renamed) parts.push(reply.filters.renamed + " got a new id");
    parts.push("blocked " + reply.sources.added.length + " source host(s)");
    if (reply.sources.skipped) parts.push(reply.sources.skipped + " already blocked");
    if (reply.sources.added.length) parts.push("reload pages to block them there");
    if (reply.repaired) parts.push("the saved sources and installed rules agree again");
    say(parts.join(" · "));
    $("import-text").value = "";
    document.dispatchEvent(new CustomEvent("adv-rules-imported"));
  });
})();
