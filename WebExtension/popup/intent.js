// 1 · Describe your intent, model-free: the question is read for what it names (a domain, a
// quoted or capitalised brand, an ad's position, "the ad I selected"), the target page's top
// frame is asked for candidate evidence (content/candidate-evidence.js), and the candidates are
// listed with their exact conditions. Nothing is invented: without evidence there is no
// condition, and ADV says to pick the element or paste its selector or HTML. Pasted markup is
// parsed in an inert <template> here (nothing in it runs or loads) and only the conditions read
// from its attributes go to the page, never the markup. Conversation and candidates save nothing.
//
// Select & preview puts a candidate's condition in the draft (replacing it) and previews it at
// once; Block domain · all websites, offered only for a resource host seen inside the candidate's
// elements (an image, frame or media source, never a link's target), makes a draft whose Apply
// installs that host's global source block. Conditions already saved for the site and hosts
// already blocked are not offered again. When an investigation ends and the draft is still the
// empty one it started with, the first candidate is staged there (not previewed); a draft edited
// while the investigation ran is left as it is.
"use strict";

var ADVIntent = (() => {
  // Words a capitalised token may be without naming a brand.
  const STOP = new Set(["help", "hide", "block", "remove", "please", "show", "find", "the", "a", "an", "i", "me", "my", "ad", "ads", "adv",
    "this", "that", "these", "those", "on", "from", "by", "for", "of", "in", "all", "every", "what", "why", "how", "can", "you", "it",
    "selected", "selection", "picked", "right", "left", "top", "bottom", "banner", "banners", "sponsored", "page", "site"]);
  const AD_WORDS = /\b(ad|ads|advert\w*|banners?|sponsor\w*|promo\w*|commercials?)\b/i;
  const POSITIONS = { right: "right", left: "left", top: "top", header: "top", bottom: "bottom", footer: "bottom", sidebar: "right" };

  /** What a question names: { terms, general, position, aboutSelection }. */
  function read(text) {
    const terms = [];
    const add = (term) => {
      const value = term.toLowerCase().replace(/^www\./, "");
      if (value.length >= 2 && !STOP.has(value) && !terms.includes(value)) terms.push(value);
    };
    for (const match of text.matchAll(/\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}\b/gi)) add(match[0]);
    for (const match of text.matchAll(/["“]([^"”]{2,40})["”]/g)) add(match[1]);
    const tokens = [...text.matchAll(/[A-Za-z][A-Za-z0-9&'-]*/g)];
    tokens.forEach((match, index) => {
      const word = match[0];
      const sentenceStart = index === 0 || /[.!?]\s*$/.test(text.slice(0, match.index));
      if (/^[A-Z]/.test(word) && !sentenceStart && !STOP.has(word.toLowerCase())) add(word);
    });
    for (const match of text.matchAll(/\b(?:from|by)\s+([A-Za-z0-9][A-Za-z0-9-]+)(?![.A-Za-z0-9-])/gi)) add(match[1]);
    const positionWord = (text.toLowerCase().match(/\b(right|left|top|bottom|header|footer|sidebar)\b/) || [])[1];
    return {
      terms: terms.slice(0, 5),
      general: AD_WORDS.test(text),
      position: positionWord ? POSITIONS[positionWord] : "",
      aboutSelection: /\b(i|I)\s+(selected|picked)\b|\b(my|last)\s+selection\b/.test(text),
    };
  }

  return { read };
})();

(async () => {
  const $ = (id) => document.getElementById(id);
  const context = await ADVPopup.ready;
  const say = (text) => ADVConversation.say("adv", text);
  const NO_EVIDENCE = "use Pick elements to hide, then Help with last selection, or paste an element selector or HTML fragment below.";

  /** What is saved already: the site's conditions (normalized) and the blocked source hosts. */
  async function saved() {
    const { hostname } = context.target();
    const [filters, sources] = await Promise.all([
      hostname ? context.send("filters.list", { hostname }) : Promise.resolve(undefined),
      context.send("sources.list", {}),
    ]);
    const conditions = new Set((filters && filters.ok ? filters.filters.concat(filters.skipped || []) : []).map((rule) => ADVRuleAssistance.normalized(rule.selector)));
    const hosts = sources && sources.ok ? sources.hosts : [];
    return { conditions, blocked: (host) => hosts.some((blocked) => host === blocked || host.endsWith("." + blocked)) };
  }

  function buttons(candidate, known) {
    const out = [{ label: "Select & preview", className: "select-preview", onClick: () => {
      context.stage(candidate.condition, null);
      say("Selected " + candidate.label + ": " + candidate.condition + " is the draft now, previewed on the page. Saved filters are unchanged.");
    } }];
    for (const host of candidate.resourceHosts || []) {
      if (known.blocked(host)) continue;
      out.push({ label: "Block domain · all websites: " + host, className: "block-domain", title: "Blocks resource requests to " + host + " on every website", onClick: () => {
        context.stage(candidate.condition, { host, label: candidate.label + ", " + candidate.condition });
        say("Selected Block domain · all websites for " + host + " (seen inside " + candidate.label + "). Apply draft blocks it on every website; its reference elements are outlined, no CSS is saved.");
      } });
    }
    return out;
  }

  /** Lists `candidates` without those already saved, each with its buttons; how many were left out. */
  async function offer(candidates) {
    const known = await saved();
    const fresh = candidates.filter((candidate) => !known.conditions.has(ADVRuleAssistance.normalized(candidate.condition)));
    ADVConversation.showCandidates(fresh, (candidate) => buttons(candidate, known));
    if (fresh.length < candidates.length) say((candidates.length - fresh.length) + " candidate condition(s) already saved for this site are not offered again.");
    return fresh;
  }
  ADVPopup.offerCandidates = (candidates) => { offer(candidates); };

  async function investigate(request, describe) {
    const before = context.draft();
    const reply = await context.sendToPage("evidence.collect", request);
    if (!reply || !reply.ok) { say("ADV cannot inspect this page: grant website access, then reload it. Meanwhile, " + NO_EVIDENCE); return; }
    say(describe(reply) + ": " + reply.candidates.length + " candidate(s).");
    if (reply.candidates.length === 0) {
      say("No evidence on this page, so ADV proposes no condition: " + NO_EVIDENCE);
      await offer([]);
      return;
    }
    const fresh = await offer(reply.candidates);
    if (!fresh.length) return;
    // The guide (popup/guide.js) only advises: it may choose one of these candidates, ask for
    // clarification or propose broadening; only a chosen candidate is staged, into an empty draft.
    const decision = await ADVGuide.rank({ candidates: fresh, inspected: reply.inspected, limit: reply.limit });
    showGuide(decision.note);
    const fromModel = decision.source === "model";
    if (decision.action === "clarify") {
      say("The on-device guide asks: " + decision.text + " Nothing is staged: ask again with more detail, or choose Select & preview on a candidate.");
      return;
    }
    mark(decision.candidate, decision.action === "broaden" ? "proposed" : "chosen");
    if (decision.action === "broaden") {
      say("The on-device guide proposes broadening to " + decision.candidate.label + " (" + decision.candidate.condition + ", " + decision.candidate.count +
        " matching)" + (decision.text ? ": " + decision.text : ".") + " Nothing is staged: choose its Select & preview to try it, then decide.");
      return;
    }
    if (decision.text) say((fromModel ? "The on-device guide chose " + decision.candidate.label + ": " : "") + decision.text);
    const now = context.draft();
    if (now.version !== before.version) {
      say("Your draft changed while ADV was looking, so it was left as you wrote it: choose Select & preview on a candidate to use one.");
    } else if (now.text.trim() === "") {
      context.stage(decision.candidate.condition, null, { thenPreview: false });
      say("Staged " + decision.candidate.label + " (" + decision.candidate.condition + ") in the empty draft: Preview draft on page, then Apply draft. Nothing is saved until then.");
    } else if (fromModel) {
      say("Your draft is not empty, so the guide's choice was not staged: choose Select & preview on " + decision.candidate.label + " to replace the draft with it.");
    }
  }

  /** Says which guide advised: the on-device model, or why ADV ranked by itself. */
  function showGuide(note) {
    const line = $("guide-status");
    line.textContent = note || "Guide: Apple's on-device model. It only advises: ADV stages its choice, and you preview and apply.";
    line.hidden = false;
  }

  /** Marks the candidate the guide chose or proposed (the list shows it). */
  function mark(candidate, how) {
    for (const li of document.querySelectorAll("#candidate-list li")) {
      if (li.dataset.label === candidate.label) li.dataset.guide = how; else delete li.dataset.guide;
    }
  }
  ADVPopup.showGuide = showGuide;

  async function ask(text) {
    ADVConversation.say("you", text);
    ADVGuide.remember(text);
    const { tab } = context.target();
    if (!tab) { say("ADV has no page to look at: open ADV from a page."); return; }
    const intent = ADVIntent.read(text);
    if (intent.aboutSelection) {
      const selection = ADVPopup.lastSelection;
      if (!selection) { say("ADV has no selection loaded: Pick elements to hide, choose Help with last selection in the picker, then ask again."); return; }
      say("Your selection's condition " + selection.selector + " comes from the picker and matches " + selection.count + " element(s) there; its evidence is listed with it. Select & preview shows it on the page.");
      offer([{ label: "Your selection", condition: selection.selector, count: selection.count, box: selection.box,
        evidence: selection.descriptions.map((line) => "image description · " + line), resourceHosts: selection.sourceHosts }]);
      return;
    }
    if (intent.terms.length) {
      await investigate({ mode: "terms", terms: intent.terms }, (reply) => "Searched the top document for " + reply.terms.join(", ") +
        " in " + reply.inspected + " links, image descriptions and iframe URLs (at most " + reply.limit + ")");
      return;
    }
    if (intent.general) {
      await investigate({ mode: "general", position: intent.position }, (reply) => "Inspected " + reply.inspected +
        " known advertising container(s) of the top document (at most " + reply.limit + ")" + (intent.position ? ", " + intent.position + " first" : ""));
      return;
    }
    say("ADV found nothing in your question to look for (no brand, domain, ad or selection), so it proposes no condition: " + NO_EVIDENCE);
  }

  $("intent-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("intent-text").value.trim();
    if (!text) return;
    $("intent-text").value = "";
    ask(text);
  });

  // MARK: - Pasted selector or HTML fragment

  const IDENT = /^-?[A-Za-z_][A-Za-z0-9_-]*$/;
  const quote = (value) => "\"" + String(value).replace(/\\/g, "\\\\").replace(/"/g, "\\\"") + "\"";
  const stable = (name) => IDENT.test(name) && name.length <= 64 && !ADVRuleAssistance.generatedReason(name);

  /** Conditions the fragment's elements' own attributes give (the first few elements). */
  function fragmentConditions(root) {
    const out = [];
    for (const element of [root, ...root.querySelectorAll("*")].slice(0, 20)) {
      const tag = element.localName;
      const id = element.getAttribute("id");
      if (id && stable(id)) out.push("#" + id);
      const classes = Array.from(element.classList).filter(stable);
      if (classes.length) out.push(tag + classes.map((name) => "." + name).join(""));
      for (const attribute of Array.from(element.attributes)) {
        if (/^data-ad/.test(attribute.name) && !/^data-adv-/.test(attribute.name) && /^[a-z0-9-]+$/.test(attribute.name)) out.push(tag + "[" + attribute.name + (attribute.value ? "=" + quote(attribute.value) : "") + "]");
      }
      for (const name of ["aria-label", "alt", "title"]) {
        const value = element.getAttribute(name);
        if (value && value.length <= 80) out.push(tag + "[" + name + "=" + quote(value) + "]");
      }
    }
    return [...new Set(out)].slice(0, 12);
  }

  async function usePasted() {
    const text = $("paste-text").value.trim();
    if (!text) { say("Paste an element selector or HTML fragment first."); return; }
    let conditions;
    if (text.startsWith("<")) {
      ADVConversation.say("you", "(pasted an HTML fragment of " + text.length + " characters)");
      // An inert template: its scripts never run, its images and frames never load.
      const template = document.createElement("template");
      template.innerHTML = text;
      const root = template.content.firstElementChild;
      if (!root) { say("The fragment has no element to read."); return; }
      conditions = fragmentConditions(root);
      if (!conditions.length) { say("The fragment's elements have no id, class, data-ad attribute or description to build a condition on: use Pick elements to hide instead."); return; }
      say("ADV read the fragment in an inert template (nothing in it ran or loaded, and it goes nowhere) and took " + conditions.length + " condition(s) from its attributes.");
    } else {
      ADVConversation.say("you", "(pasted the selector " + text + ")");
      const checked = ADVSelectorValidation.validate(text);
      if (checked.error) { say("'" + text + "' is not a selector ADV can use: " + checked.error + "."); return; }
      conditions = [checked.selector];
    }
    const reply = await context.sendToPage("evidence.collect", { mode: "conditions", conditions });
    if (!reply || !reply.ok) { say("ADV cannot check the page: grant website access, then reload it."); return; }
    const matching = reply.results.filter((result) => !result.error && result.count > 0);
    const none = reply.results.filter((result) => result.error || result.count === 0).map((result) => result.condition);
    if (none.length) say("Matching nothing on this page: " + none.join(", ") + ".");
    if (!matching.length) { say("None of them matches this page, so ADV proposes no condition: use Pick elements to hide instead."); await offer([]); return; }
    await offer(matching.map((result, index) => ({ label: "Pasted " + (index + 1), condition: result.condition, count: result.count, box: result.box,
      evidence: result.evidence, resourceHosts: result.resourceHosts })));
  }

  $("use-paste").addEventListener("click", () => { usePasted(); });
})();
