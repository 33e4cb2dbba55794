// The guide: the one interface through which the popup and the workspace consult a model about
// candidates and findings. In Safari the guide is ADV's native handler with Apple's on-device
// Foundation Models, reached with runtime.sendNativeMessage (message type "guide"); when the
// native app is missing or answers that the model is unavailable (no Apple Intelligence, not
// ready, an older OS), or answers something ADV cannot use, the deterministic guide below ranks
// and explains from the same evidence. Either way the guide only advises:
//
// - It has no write tools. It returns a decision ({ action, candidate, text }) and nothing else
//   is read from the model's answer: whatever else an answer holds (instructions to save a
//   filter, block a host, run a script) is ignored, and this module has no way to save, block,
//   stage or message a page. The caller stages only a chosen candidate, and only into an empty
//   draft; Preview draft on page and Apply draft stay the user's.
// - Only bounded evidence crosses: the last three questions (URL query strings and fragments
//   cut, 200 characters each), up to 12 candidates with their label, exact condition, count,
//   box, up to 6 evidence lines and 8 resource hosts (already free of query strings, form values
//   and scripts: content/candidate-evidence.js), counts, and findings. Pasted markup never
//   reaches this module; the conversation is not sent, only the questions.
"use strict";

var ADVGuide = (() => {
  const APP = "tools.ars.browser.adv";
  const MAX_QUESTIONS = 3;
  const MAX_QUESTION = 200;
  const MAX_CANDIDATES = 12;
  const MAX_EVIDENCE = 6;
  const MAX_HOSTS = 8;
  const MAX_LINE = 200;
  const MAX_FINDINGS = 5;
  const MAX_ANSWER = 600;
  const questions = []; // this page's recent questions, ephemeral

  // A URL-like token (with or without a scheme) loses its query string and fragment.
  const URLISH = /((?:[a-z][a-z0-9+.-]*:\/\/)?[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::[0-9]+)?(?:\/[^\s?#]*)?)[?#][^\s]*/gi;
  const bare = (text) => String(text).replace(URLISH, "$1");
  const cap = (text, limit) => { const value = bare(text); return value.length > limit ? value.slice(0, limit - 1) + "…" : value; };
  const box = (b) => (b ? { x: b.x, y: b.y, width: b.width, height: b.height } : null);

  /** Keeps a typed question for the guide's context (cut and bounded; never pasted markup). */
  function remember(question) {
    questions.push(cap(question, MAX_QUESTION));
    while (questions.length > MAX_QUESTIONS) questions.shift();
  }

  function view(candidate) {
    return {
      label: String(candidate.label),
      condition: String(candidate.condition),
      count: candidate.count,
      box: box(candidate.box),
      evidence: (candidate.evidence || []).slice(0, MAX_EVIDENCE).map((line) => cap(line, MAX_LINE)),
      resourceHosts: (candidate.resourceHosts || []).slice(0, MAX_HOSTS).map(String),
    };
  }

  /** The native guide's answer, or { unavailable: reason } (no app, no model, no answer). */
  async function consult(payload) {
    if (typeof browser.runtime.sendNativeMessage !== "function") return { unavailable: "no native app" };
    let reply;
    try {
      reply = await browser.runtime.sendNativeMessage(APP, payload);
    } catch (error) {
      return { unavailable: error.message };
    }
    if (!reply || reply.ok !== true || !reply.answer || typeof reply.answer !== "object") {
      return { unavailable: reply && reply.error && reply.error.message ? String(reply.error.message) : "the ADV app gave no guide answer" };
    }
    return { answer: reply.answer };
  }

  // MARK: - The deterministic guide

  /** Why a candidate's condition is fragile (a generated name, a position), or "". */
  function fragility(candidate) {
    const result = ADVRuleAssistance.check([{ id: candidate.label, hostname: "", selector: candidate.condition }]);
    const finding = result.ok ? result.findings.find((f) => f.kind === "likely-generated" || f.kind === "positional") : null;
    return finding ? finding.kind : "";
  }

  /**
   * The collector's order (relevance to what was asked: the position, the term) with fragile
   * conditions (generated names, positions) after stable ones; the first is the choice.
   */
  function rankItself(candidates) {
    const scored = candidates.map((candidate, index) => ({ candidate, index, fragile: fragility(candidate) }));
    scored.sort((a, b) => (a.fragile ? 1 : 0) - (b.fragile ? 1 : 0) || a.index - b.index);
    const first = scored[0];
    const demoted = scored.filter((entry) => entry.fragile).map((entry) => entry.candidate.label + " (" + (entry.fragile === "positional" ? "selects by position" : "looks generated") + ")");
    return {
      source: "ADV",
      action: "choose",
      candidate: first.candidate,
      text: demoted.length && first.index !== 0 ? "ADV ranked " + first.candidate.label + " first; after it " + demoted.join(", ") + ", whose conditions break more easily." : "",
    };
  }

  // MARK: - The interface

  /**
   * Which candidate to stage, if any: { source: "model" | "ADV", action: "choose" | "clarify" |
   * "broaden", candidate (one of `request.candidates`), text, note }. `request`: { candidates,
   * inspected, limit }. A model answer naming no offered candidate is not used.
   */
  async function rank(request) {
    const candidates = request.candidates.slice(0, MAX_CANDIDATES);
    const { answer, unavailable } = await consult({
      type: "guide", task: "rank", questions: questions.slice(),
      candidates: candidates.map(view), counts: { candidates: request.candidates.length, inspected: request.inspected, limit: request.limit },
    });
    if (answer) {
      const text = typeof answer.text === "string" ? cap(answer.text, MAX_ANSWER) : "";
      const named = candidates.find((candidate) => candidate.label === answer.candidate);
      if (answer.action === "clarify" && typeof answer.question === "string" && answer.question.trim()) {
        return { source: "model", action: "clarify", text: cap(answer.question, MAX_ANSWER) };
      }
      if ((answer.action === "choose" || answer.action === "broaden") && named) return { source: "model", action: answer.action, candidate: named, text };
      return { ...rankItself(candidates), note: "The on-device guide's answer named no candidate ADV offered, so ADV ranked them itself." };
    }
    return { ...rankItself(candidates), note: "On-device model unavailable (" + unavailable + "): ADV ranks candidates itself from the same evidence." };
  }

  /**
   * Explains `subject` ({ condition, hostname, count, box, evidence, resourceHosts }) with its
   * `findings` (plain sentences): { source, text } from the model, or null without one (the
   * caller's own facts are the deterministic explanation), with `note` saying why.
   */
  async function explain(subject, findings) {
    const { answer, unavailable } = await consult({
      type: "guide", task: "explain", questions: questions.slice(),
      subject: { ...view({ label: "saved filter", ...subject }), hostname: String(subject.hostname || "") },
      findings: findings.slice(0, MAX_FINDINGS).map((line) => cap(line, 300)),
    });
    if (answer && typeof answer.text === "string" && answer.text.trim()) return { source: "model", text: cap(answer.text, MAX_ANSWER) };
    return { source: "ADV", text: "", note: answer ? "The on-device guide gave no explanation." : "On-device model unavailable (" + unavailable + "): ADV explains from the evidence alone." };
  }

  /**
   * Explains Check existing filters' `findings` ([{ kind, rule: { hostname, selector }, message }],
   * at most 80 rules' worth): { source: "model", text } from the model, or { source: "ADV" } (the
   * findings themselves are the deterministic explanation) with `note` saying why.
   */
  async function explainFindings(findings, counts) {
    const { answer, unavailable } = await consult({
      type: "guide", task: "findings", questions: questions.slice(), counts,
      findings: findings.slice(0, 80).map((f) => ({ kind: f.kind, hostname: String(f.rule.hostname), condition: String(f.rule.selector), message: cap(f.message, 300) })),
    });
    if (answer && typeof answer.text === "string" && answer.text.trim()) return { source: "model", text: cap(answer.text, MAX_ANSWER) };
    return { source: "ADV", note: answer ? "The on-device guide gave no explanation." : "On-device model unavailable (" + unavailable + "): the findings above are ADV's own." };
  }

  return { remember, rank, explain, explainFindings, bare };
})();
