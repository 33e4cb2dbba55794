// 3 · Your saved filters: Edit and Inspect / ask (Remove is popup/popup.js's). Rules are the
// source of truth, not the conversation: both load the rule itself from the background.
//
// Edit loads the rule with its revision (modifiedAt) and stages its selector in 2 · Review your
// draft through the same flow as Select & preview (replacing the draft, previewed at once);
// Apply draft then saves the edited condition as the same rule (same id), and the background
// refuses it when the rule changed or was removed after it was loaded (another popup or
// workspace saved first, or the native app synced a change). Inspect / ask explains the rule:
// its exact condition, its revision, what it matches on the target page now (count, position,
// size, image descriptions, frame URLs, resource hosts: the same bounded evidence candidates
// carry) and what Check existing filters would say of its condition alone; the guide
// (popup/guide.js) may add an explanation from those same facts.
"use strict";

var ADVSavedFilters = (() => {
  const context = ADVPopup.ready;
  const say = (text) => ADVConversation.say("adv", text);

  async function load(filter) {
    const { send } = await context;
    const reply = await send("filters.get", { id: filter.id });
    return reply && reply.ok ? { rule: reply.rule } : { error: reply ? reply.error : "ADV is not responding" };
  }

  /** Edit: the rule's selector becomes the draft (previewed at once), bound to its id and revision. */
  async function edit(filter) {
    const { stage, status } = await context;
    const { rule, error } = await load(filter);
    if (error) { status("Cannot edit: " + error); return; }
    await stage(rule.selector, null, { edit: { id: rule.id, selector: rule.selector, modifiedAt: rule.modifiedAt } });
  }

  /** The rule's condition-only findings (generated names, positions), as Check existing filters words them. */
  function conditionFindings(rule) {
    const result = ADVRuleAssistance.check([{ id: rule.id, hostname: rule.hostname, selector: rule.selector }]);
    return result.ok ? result.findings.map((finding) => finding.message) : [];
  }

  /** Inspect / ask: the rule's evidence and current matches on the target page. */
  async function inspect(filter) {
    const { sendToPage, target } = await context;
    ADVConversation.say("you", "Inspect / ask: " + filter.selector);
    const { rule, error } = await load(filter);
    if (error) { say("ADV cannot inspect this filter: " + error + "."); return; }
    const head = rule.selector + " is saved for " + rule.hostname + " (rule " + rule.id + ", last changed " + new Date(rule.modifiedAt).toISOString() + ").";
    const { tab } = target();
    const reply = tab ? await sendToPage("evidence.collect", { mode: "conditions", conditions: [rule.selector] }) : undefined;
    const findings = conditionFindings(rule);
    if (!reply || !reply.ok || !reply.results.length) {
      say(head + " ADV cannot look at this page (no website access, or no page): it cannot say what the filter matches here." + (findings.length ? " " + findings.join(" ") : ""));
      return;
    }
    const result = reply.results[0];
    let text = head;
    if (result.error) {
      text += " It is not a selector the page can use: " + result.error + ".";
    } else if (result.count === 0) {
      text += " It matches nothing on this page now. " + ADVRuleAssistance.PAGE_CAVEAT;
    } else {
      // A saved filter hides what it matches, so its elements usually have no box to describe.
      const shown = result.box && result.box.width > 0 && result.box.height > 0;
      text += " On this page it matches " + result.count + " element(s)" + (shown ? ", the first " + ADVConversation.where(result.box) : ", hidden now (no position or size to show)") + ".";
      text += result.evidence.length ? " Evidence: " + result.evidence.join("; ") + "." : " Its elements carry no image description or frame URL.";
      if (result.resourceHosts.length) text += " Resources inside come from " + result.resourceHosts.join(", ") + ".";
    }
    if (findings.length) text += " " + findings.join(" ");
    say(text + " Choose Edit to change it, or Remove.");
    // The guide (popup/guide.js) may explain it further from the same facts; it changes nothing.
    if (result.error) return;
    const guide = await ADVGuide.explain({ condition: rule.selector, hostname: rule.hostname, count: result.count, box: result.box,
      evidence: result.evidence, resourceHosts: result.resourceHosts }, findings);
    if (ADVPopup.showGuide) ADVPopup.showGuide(guide.note);
    if (guide.source === "model") say("The on-device guide explains: " + guide.text);
  }

  return { edit, inspect };
})();
