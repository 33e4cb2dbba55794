// One rule for what counts as a personal-filter selector, shared by the background (which
// saves filters and serves them to pages), the content script (which applies them), and the
// picker and draft preview (which show errors before anything is sent). Selectors are checked
// where they are used as well as where they are typed: storage an older ADV wrote, the App
// Group file the native app writes and an import all reach pages through the same check.
"use strict";

var ADVSelectorValidation = (() => {
  const MAX_SELECTOR = 4096;

  /**
   * What is left open, or null: a quoted string, '[' or '(' that is not closed, a ']' or ')'
   * without its opening, or a lone backslash at the end. CSS closes whatever is open at the end
   * of its input, so an engine may accept `[title="x` as a selector; inside ADV's sheet the open
   * string and block would swallow every rule after it.
   */
  function unclosed(selector) {
    const open = [];
    let quote = null;
    for (let i = 0; i < selector.length; i++) {
      const c = selector[i];
      if (c === "\\") {
        if (i === selector.length - 1) return "a selector cannot end in a lone '\\'";
        i++; // an escape: the next character is literal
      } else if (quote) {
        if (c === quote) quote = null;
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === "[" || c === "(") {
        open.push(c);
      } else if (c === "]" || c === ")") {
        const opener = c === "]" ? "[" : "(";
        if (open.pop() !== opener) return "'" + c + "' has no matching '" + opener + "'";
      }
    }
    if (quote) return "a quoted string is not closed";
    if (open.length) return "'" + open[open.length - 1] + "' is not closed";
    return null;
  }

  /**
   * A selector list and nothing else, or { error }. Braces, semicolons, comments, at-rules and
   * unclosed strings or brackets are refused before parsing, so no text can close the rule ADV
   * wraps around it and inject CSS of its own; then the browser's selector parser must accept it.
   */
  function validate(text) {
    if (typeof text !== "string") return { error: "a selector must be text" };
    const selector = text.trim();
    if (selector === "") return { error: "empty selector" };
    if (selector.length > MAX_SELECTOR) return { error: "selector longer than " + MAX_SELECTOR + " characters" };
    if (/[\u0000-\u001f\u007f]/.test(selector)) return { error: "control characters are not allowed" };
    if (selector.includes("/*") || selector.includes("*/")) return { error: "comments are not allowed in a selector" };
    if (/[{};]/.test(selector)) return { error: "'{', '}' and ';' are not allowed in a selector" };
    if (selector.startsWith("@") || selector.includes("<!--") || selector.includes("-->")) return { error: "only selectors are allowed, not CSS rules" };
    const open = unclosed(selector);
    if (open) return { error: open };
    try {
      document.createDocumentFragment().querySelector(selector);
    } catch (error) {
      return { error: "not a valid selector" };
    }
    return { selector };
  }

  return { validate, MAX_SELECTOR };
})();
