// 1 · Describe your intent: the conversation (ephemeral: it lives in this page and goes with it)
// and the candidate conditions ADV found, each with its exact CSS condition, match count,
// position, size and evidence, so nothing it proposes is hidden from inspection.
"use strict";

var ADVConversation = (() => {
  const $ = (id) => document.getElementById(id);

  /** Adds one turn: `who` is "you" or "adv". */
  function say(who, text) {
    const li = document.createElement("li");
    li.className = who;
    const speaker = document.createElement("strong");
    speaker.textContent = who === "you" ? "You" : "ADV";
    const body = document.createElement("span");
    body.textContent = text;
    li.append(speaker, body);
    $("conversation").append(li);
  }

  /** "at 20, 140 · 300×250" for a box, "" when it has no size (not rendered). */
  function where(box) {
    if (!box || !(box.width > 0 && box.height > 0)) return "not rendered (no size)";
    return "at " + box.x + ", " + box.y + " · " + box.width + "×" + box.height;
  }

  /**
   * Shows `candidates` ([{ label, condition, count, box, evidence: [text], resourceHosts }]);
   * `actions(candidate)` gives each one's buttons ([{ label, className, onClick, title }]).
   */
  function showCandidates(candidates, actions) {
    const list = $("candidate-list");
    list.textContent = "";
    for (const candidate of candidates) {
      const li = document.createElement("li");
      li.dataset.label = candidate.label;
      const head = document.createElement("strong");
      head.textContent = candidate.label;
      const condition = document.createElement("code");
      condition.textContent = candidate.condition;
      const facts = document.createElement("span");
      facts.className = "facts";
      facts.textContent = candidate.count + " matching · " + where(candidate.box);
      li.append(head, condition, facts);
      for (const line of candidate.evidence || []) {
        const evidence = document.createElement("span");
        evidence.className = "evidence";
        evidence.textContent = line;
        li.append(evidence);
      }
      const buttons = actions ? actions(candidate) : [];
      if (buttons.length) {
        const row = document.createElement("div");
        row.className = "actions";
        for (const spec of buttons) {
          const button = document.createElement("button");
          button.type = "button";
          button.className = spec.className;
          button.textContent = spec.label;
          if (spec.title) button.title = spec.title;
          button.addEventListener("click", spec.onClick);
          row.append(button);
        }
        li.append(row);
      }
      list.append(li);
    }
    $("candidates").hidden = candidates.length === 0;
  }

  return { say, showCandidates, where };
})();
