// What ADV may say about a page element, for the picker's handoff and the workspace's candidate
// evidence: its image descriptions (alt, title and aria-label on it and inside it), its box on
// the page and the hosts serving its images, frames and media (picker/source-hosts.js, never a
// link's target). Deliberately absent: text content, form values (the value attribute and
// property of inputs, textareas and selects), scripts, and URL query strings or fragments.
"use strict";

var ADVElementEvidence = (() => {
  const MAX_DESCRIPTIONS = 20;
  const MAX_TEXT = 200;
  const DESCRIBING = ["alt", "title", "aria-label"];
  // Nothing is read inside these: scripts and styles are code, templates are inert, and form
  // fields hold what the user typed.
  const SKIPPED = new Set(["script", "style", "noscript", "template", "input", "textarea", "select", "option"]);

  const clip = (value) => String(value).replace(/\s+/g, " ").trim().slice(0, MAX_TEXT);

  /** The element's own image descriptions: [{ attribute, value }], blanks left out. */
  function ownDescriptions(element) {
    if (SKIPPED.has(element.localName)) return [];
    const found = [];
    for (const name of DESCRIBING) {
      const value = element.getAttribute(name);
      if (value && clip(value)) found.push({ attribute: name, value: clip(value) });
    }
    return found;
  }

  /** Descriptions on `element` and inside it ("alt: Boots"), each once, at most 20. */
  function descriptions(element) {
    const seen = new Set();
    const out = [];
    const nodes = [element, ...element.querySelectorAll("[alt], [title], [aria-label]")];
    for (const node of nodes) {
      if (node !== element && node.closest && node.closest("script, style, noscript, template")) continue;
      for (const { attribute, value } of ownDescriptions(node)) {
        const line = attribute + ": " + value;
        if (seen.has(line)) continue;
        seen.add(line);
        out.push(line);
        if (out.length >= MAX_DESCRIPTIONS) return out;
      }
    }
    return out;
  }

  /** The element's border box in the page (CSS px, whole numbers). */
  function box(element) {
    const rect = element.getBoundingClientRect();
    return { x: Math.round(rect.left + scrollX), y: Math.round(rect.top + scrollY), width: Math.round(rect.width), height: Math.round(rect.height) };
  }

  /** A URL without its query string and fragment ("https://ads.example/unit.html"), or null. */
  function bareURL(raw) {
    try {
      const url = new URL(String(raw).trim(), document.baseURI || location.href);
      if (url.protocol !== "http:" && url.protocol !== "https:") return null;
      return url.origin + url.pathname;
    } catch (error) {
      return null;
    }
  }

  return { descriptions, ownDescriptions, box, bareURL, sourceHosts: (element) => ADVSourceHosts.collect([element]) };
})();
