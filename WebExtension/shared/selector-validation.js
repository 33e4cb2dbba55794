// One rule for what counts as a personal-filter selector, shared by the background (which
// saves filters) and the picker and draft preview (which show errors before anything is sent).
"use strict";

var ADVSelectorValidation = (() => {
  const MAX_SELECTOR = 4096;

  /**
   * A selector list and nothing else, or { error }. Braces, semicolons, comments and at-rules
   * are refused before parsing, so no text can close the rule ADV wraps around it and inject
   * CSS of its own; then the browser's selector parser must accept it.
   */
  function validate(text) {
    const selector = String(text).trim();
    if (selector === "") return { error: "empty selector" };
    if (selector.length > MAX_SELECTOR) return { error: "selector longer than " + MAX_SELECTOR + " characters" };
    if (/[\u0000-\u001f\u007f]/.test(selector)) return { error: "control characters are not allowed" };
    if (selector.includes("/*") || selector.includes("*/")) return { error: "comments are not allowed in a selector" };
    if (/[{};]/.test(selector)) return { error: "'{', '}' and ';' are not allowed in a selector" };
    if (selector.startsWith("@") || selector.includes("<!--") || selector.includes("-->")) return { error: "only selectors are allowed, not CSS rules" };
    try {
      document.createDocumentFragment().querySelector(selector);
    } catch (error) {
      return { error: "not a valid selector" };
    }
    return { selector };
  }

  return { validate, MAX_SELECTOR };
})();
