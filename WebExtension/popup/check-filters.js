// 3 · Your saved filters → Check existing filters: the site's saved filters (valid or not) go to
// the page's top frame, which checks them against its DOM (content/filter-check.js); without a
// content script there (no website access, a page still loading) the popup checks the selectors
// alone, without the page-based findings, and says so. Nothing is changed: findings are advice.
// The guide (popup/guide.js) may add an explanation of the findings, from the findings alone.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  const LABELS = {
    "invalid-syntax": "Invalid", duplicate: "Duplicate", "likely-generated": "Generated name",
    positional: "Positional", "no-matches": "No matches", overlap: "Overlap",
  };

  function show(summary, findings) {
    const list = $("check-list");
    list.textContent = "";
    for (const finding of findings) {
      const li = document.createElement("li");
      const label = document.createElement("strong");
      label.textContent = LABELS[finding.kind] || finding.kind;
      const text = document.createElement("span");
      text.textContent = finding.message;
      li.append(label, text);
      li.dataset.kind = finding.kind;
      list.append(li);
    }
    $("check-summary").textContent = summary;
    $("filter-check").hidden = false;
  }

  $("check-filters").addEventListener("click", async () => {
    // The tab is asked for on click, not at load, so opening the popup costs nothing more: the
    // popup's active tab, or the workspace's bound tab (popup/target-tab.js).
    const tab = await ADVTarget.current();
    const hostname = ADVTarget.hostnameOf(tab);
    if (!hostname) { show("ADV has no access to this website.", []); return; }
    const reply = await browser.runtime.sendMessage({ type: "filters.list", hostname });
    if (!reply || !reply.ok) { show(reply ? reply.error : "ADV is not responding", []); return; }
    const rules = [...reply.filters, ...(reply.skipped || [])].map((rule) => ({ id: rule.id, hostname, selector: rule.selector }));
    if (rules.length === 0) { show("No filters for this site to check.", []); return; }
    let result;
    let onPage = true;
    try {
      result = await browser.tabs.sendMessage(tab.id, { type: "filters.check", rules }, { frameId: 0 });
    } catch (error) {
      result = undefined;
    }
    if (!result) {
      onPage = false;
      result = ADVRuleAssistance.check(rules, null);
    }
    if (!result.ok) { show(result.error, []); return; }
    const count = result.findings.length;
    const scope = onPage
      ? " · checked against this page, which does not prove global redundancy"
      : " · ADV cannot reach this page, so matches and overlaps were not checked";
    show(count + " finding(s) for " + rules.length + " filter(s)" + scope + ".", result.findings);
    // The guide (popup/guide.js) may explain the findings; it only advises and changes nothing.
    $("check-guide").hidden = true;
    if (!count) return;
    const guide = await ADVGuide.explainFindings(result.findings, { rules: rules.length, findings: count, checkedOnPage: onPage });
    $("check-guide").textContent = guide.source === "model" ? "The on-device guide explains: " + guide.text : guide.note;
    $("check-guide").hidden = false;
  });
})();
