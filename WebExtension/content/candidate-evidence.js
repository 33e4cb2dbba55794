// Candidate evidence, top frame only: the popup or the workspace asks (as it starts the picker,
// by tabs.sendMessage to frame 0), this inspects the document and answers candidate conditions,
// each with its exact CSS, match count, position, size and evidence. Model-free and bounded:
//
// - "terms" (a named brand or domain): up to 500 links, image descriptions (alt, title,
//   aria-label) and iframe URLs of this document, matched against the terms;
// - "general" (an ad described without a selection or a name, "the ad on the right"): up to 500
//   known advertising containers (an id, class or data-ad attribute naming an ad, a label saying
//   Advertisement or Sponsored, a frame served from an ad host), ranked by the position asked for.
//
// Every condition is built from an attribute the element really has, or the host of a URL it
// really carries; when there is none, there is no candidate. URLs are read without their query
// strings and fragments, and text content, form fields and scripts are never read
// (content/element-evidence.js). Out of reach by design: iframe contents (another document,
// often another origin), Shadow DOM, and images without a description (no image recognition).
"use strict";

(() => {
  if (globalThis.__advCandidateEvidence) return;
  globalThis.__advCandidateEvidence = true;
  const MAX_INSPECTED = 500;
  const MAX_CANDIDATES = 12;
  const MAX_TERMS = 5;
  const AD_WORDS = new Set(["banner", "promo", "promoted", "leaderboard", "skyscraper", "mpu", "dfp", "adcontainer", "adwrapper"]);
  const AD_LABEL = /\b(advertisement|advertising|sponsored|ad)\b/i;
  const SKIPPED = "script, style, noscript, template, input, textarea, select, option";

  const words = (text) => String(text).replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const namesAd = (text) => ADVSelectorGenerator.namesAd(text) || words(text).some((word) => AD_WORDS.has(word));
  const quote = (value) => "\"" + String(value).replace(/\\/g, "\\\\").replace(/"/g, "\\\"") + "\"";
  const isOwn = (element) => ADVPageOutlines.isOwnUI(element);
  // data-ad… attributes name ads; data-adv-… are ADV's own marks (outlines, its UI), never evidence.
  const isAdAttribute = (name) => /^data-ad/.test(name) && !/^data-adv-/.test(name) && /^[a-z0-9-]+$/.test(name);
  const outOfBounds = (element) => Boolean(element.closest(SKIPPED));

  function hostOf(raw) {
    const bare = ADVElementEvidence.bareURL(raw);
    return bare ? new URL(bare).hostname : null;
  }

  /** A usable condition: valid, matching at least one page element. */
  function condition(text) {
    const result = ADVSelectorValidation.validate(text);
    if (result.error) return null;
    return ADVPageOutlines.matching(result.selector).length ? result.selector : null;
  }

  // MARK: - Conditions from real attributes

  /** The conditions an ad container's own attributes give, most specific first. */
  function containerConditions(element) {
    const tag = element.localName;
    const out = [];
    const id = element.getAttribute("id");
    if (id && !ADVSelectorGenerator.looksGenerated(id) && /^[A-Za-z][A-Za-z0-9_-]*$/.test(id)) out.push({ css: "#" + id, basis: "id " + id });
    const classes = Array.from(element.classList).filter((name) => namesAd(name) && !ADVSelectorGenerator.looksGenerated(name) && /^[A-Za-z_-][A-Za-z0-9_-]*$/.test(name));
    if (classes.length) out.push({ css: tag + classes.map((name) => "." + name).join(""), basis: "class " + classes.join(" ") });
    for (const attribute of Array.from(element.attributes)) {
      if (isAdAttribute(attribute.name)) {
        out.push({ css: attribute.value ? tag + "[" + attribute.name + "=" + quote(attribute.value) + "]" : tag + "[" + attribute.name + "]", basis: "attribute " + attribute.name });
      }
    }
    for (const name of ["aria-label", "title"]) {
      const value = element.getAttribute(name);
      if (value && value.length <= 80 && (AD_LABEL.test(value) || !out.length)) out.push({ css: tag + "[" + name + "=" + quote(value) + "]", basis: name + " " + quote(value) });
    }
    if (tag === "iframe") {
      const host = hostOf(element.getAttribute("src") || "");
      if (host) out.push({ css: "iframe[src*=" + quote("//" + host + "/") + "]", basis: "frame URL host " + host });
    }
    return out;
  }

  /** True for an element ADV counts as a known advertising container. */
  function isAdContainer(element) {
    if (isOwn(element) || outOfBounds(element) || element === document.body || element === document.documentElement) return false;
    if (namesAd(element.getAttribute("id") || "")) return true;
    if (Array.from(element.classList).some(namesAd)) return true;
    if (Array.from(element.attributes).some((attribute) => isAdAttribute(attribute.name))) return true;
    if (AD_LABEL.test(element.getAttribute("aria-label") || "")) return true;
    if (element.localName === "iframe") {
      const host = hostOf(element.getAttribute("src") || "");
      return Boolean(host && host.split(".").some((label) => namesAd(label)));
    }
    return false;
  }

  // MARK: - Candidates

  function candidateFor(element, found, evidence, label) {
    const matches = ADVPageOutlines.matching(found.css);
    return {
      label,
      condition: found.css,
      basis: found.basis,
      count: matches.length,
      box: ADVElementEvidence.box(element),
      evidence,
      resourceHosts: ADVSourceHosts.collect(matches.length ? matches : [element]),
    };
  }

  function containerEvidence(element) {
    const lines = ADVElementEvidence.descriptions(element).map((line) => "image description · " + line);
    if (!lines.length && element.querySelector("img, picture, svg, canvas")) lines.push("image without a description (ADV cannot tell what it shows)");
    const frames = element.localName === "iframe" ? [element] : Array.from(element.querySelectorAll("iframe[src]"));
    for (const frame of frames.slice(0, 5)) {
      const bare = ADVElementEvidence.bareURL(frame.getAttribute("src") || "");
      if (bare) lines.push("iframe URL · " + bare + " (its contents are out of reach)");
    }
    return lines;
  }

  /** Adds the conditions of `element` to `out` (each condition once), up to the cap. */
  function addCandidates(out, seen, element, evidence) {
    for (const found of containerConditions(element)) {
      if (out.length >= MAX_CANDIDATES) return;
      if (seen.has(found.css) || !condition(found.css)) continue;
      seen.add(found.css);
      out.push(candidateFor(element, found, evidence, "Condition " + (out.length + 1)));
    }
  }

  const rendered = (element) => {
    const box = ADVElementEvidence.box(element);
    return box.width > 0 && box.height > 0;
  };

  /** "the ad on the right": known containers, outermost only, ranked by the position asked for. */
  function general(position) {
    let inspected = 0;
    const containers = [];
    for (const element of document.querySelectorAll("[id], [class], [aria-label], iframe[src], [data-ad], [data-ad-client]")) {
      if (inspected >= MAX_INSPECTED) break;
      if (!isAdContainer(element)) continue;
      inspected++;
      if (!rendered(element)) continue;
      if (containers.some((outer) => outer.contains(element))) continue;
      containers.push(element);
    }
    const centre = (element) => {
      const box = ADVElementEvidence.box(element);
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const order = { right: (a, b) => centre(b).x - centre(a).x, left: (a, b) => centre(a).x - centre(b).x,
      top: (a, b) => centre(a).y - centre(b).y, bottom: (a, b) => centre(b).y - centre(a).y };
    // Array.prototype.sort is stable: equal positions keep document order.
    if (order[position]) containers.sort(order[position]);
    const out = [];
    const seen = new Set();
    for (const element of containers) addCandidates(out, seen, element, containerEvidence(element));
    return { ok: true, mode: "general", inspected, limit: MAX_INSPECTED, candidates: out };
  }

  /** Where `term` shows in an element's evidence: [text] (empty when nowhere). */
  function termEvidence(element, term) {
    const lines = [];
    if (element.localName === "a" && element.hasAttribute("href")) {
      const bare = ADVElementEvidence.bareURL(element.getAttribute("href"));
      if (bare && bare.toLowerCase().includes(term)) lines.push("link · " + bare);
    }
    if (element.localName === "iframe" && element.hasAttribute("src")) {
      const bare = ADVElementEvidence.bareURL(element.getAttribute("src"));
      if (bare && bare.toLowerCase().includes(term)) lines.push("iframe URL · " + bare + " (its contents are out of reach)");
    }
    for (const { attribute, value } of ADVElementEvidence.ownDescriptions(element)) {
      if (value.toLowerCase().includes(term)) lines.push("image description · " + attribute + ": " + value);
    }
    return lines;
  }

  /** Conditions for an element whose own link, frame URL or description names a term. */
  function matchedConditions(element, term) {
    const tag = element.localName;
    const out = [];
    if (tag === "a" || tag === "iframe") {
      const host = hostOf(element.getAttribute(tag === "a" ? "href" : "src") || "");
      if (host && host.includes(term)) out.push({ css: tag + "[" + (tag === "a" ? "href" : "src") + "*=" + quote("//" + host + "/") + "]", basis: (tag === "a" ? "link" : "frame URL") + " host " + host });
    }
    for (const { attribute, value } of ADVElementEvidence.ownDescriptions(element)) {
      if (value.toLowerCase().includes(term) && value.length <= 80) out.push({ css: tag + "[" + attribute + "=" + quote(value) + "]", basis: attribute + " " + quote(value) });
    }
    return out;
  }

  /** A named brand or domain: links, image descriptions and frame URLs that name it. */
  function terms(list) {
    const wanted = [...new Set((Array.isArray(list) ? list : []).map((t) => String(t).toLowerCase().trim()).filter((t) => t.length >= 2))].slice(0, MAX_TERMS);
    if (!wanted.length) return { ok: false, error: "no search terms" };
    let inspected = 0;
    const out = [];
    const seen = new Set();
    for (const element of document.querySelectorAll("a[href], iframe[src], [alt], [title], [aria-label]")) {
      if (inspected >= MAX_INSPECTED) break;
      if (isOwn(element) || outOfBounds(element)) continue;
      inspected++;
      for (const term of wanted) {
        const evidence = termEvidence(element, term);
        if (!evidence.length) continue;
        // The ad container around the match (when there is one) is offered first: hiding it
        // hides the whole slot; the element's own conditions follow.
        let outer = null;
        for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) if (isAdContainer(node)) outer = node;
        if (outer) addCandidates(out, seen, outer, evidence.concat(containerEvidence(outer).filter((line) => !evidence.includes(line))));
        for (const found of matchedConditions(element, term)) {
          if (out.length >= MAX_CANDIDATES) break;
          if (seen.has(found.css) || !condition(found.css)) continue;
          seen.add(found.css);
          out.push(candidateFor(element, found, evidence, "Condition " + (out.length + 1)));
        }
      }
    }
    return { ok: true, mode: "terms", terms: wanted, inspected, limit: MAX_INSPECTED, candidates: out };
  }

  /** Match counts of given conditions (a pasted selector, a fragment's), without outlining. */
  function counts(conditions) {
    return (Array.isArray(conditions) ? conditions.slice(0, MAX_CANDIDATES) : []).map((css) => {
      const result = ADVSelectorValidation.validate(String(css));
      if (result.error) return { condition: String(css), error: result.error };
      const matches = ADVPageOutlines.matching(result.selector);
      return { condition: result.selector, count: matches.length, box: matches.length ? ADVElementEvidence.box(matches[0]) : null,
        evidence: matches.length ? containerEvidence(matches[0]) : [], resourceHosts: ADVSourceHosts.collect(matches) };
    });
  }

  browser.runtime.onMessage.addListener((message) => {
    if (!message || message.type !== "evidence.collect") return undefined;
    if (message.mode === "terms") return Promise.resolve(terms(message.terms));
    if (message.mode === "general") return Promise.resolve(general(String(message.position || "")));
    if (message.mode === "conditions") return Promise.resolve({ ok: true, mode: "conditions", results: counts(message.conditions) });
    return Promise.resolve({ ok: false, error: "unknown evidence request" });
  });
})();
