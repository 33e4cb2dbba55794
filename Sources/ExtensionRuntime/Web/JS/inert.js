// Inert parsing (HTML 4.12.3 <template>, DOM Parsing §3 DOMParser): markup parsed into a
// document that has no browsing context, so its scripts never run and nothing it names is
// fetched. ADV relies on this to keep pasted HTML inert.
//
// domino already parses <template> contents into a separate, window-less document; DOMParser
// is added here. The runtime runs only the scripts the page's own parser reaches, so neither
// kind of document can run script.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const SUPPORTED = ["text/html", "text/xml", "application/xml", "application/xhtml+xml", "image/svg+xml"];

  function DOMParser() {
    if (!new.target) throw new TypeError("Failed to construct 'DOMParser': Please use the 'new' operator.");
  }
  DOMParser.prototype.parseFromString = function parseFromString(string, type) {
    if (arguments.length < 2) throw new TypeError("Not enough arguments");
    type = String(type);
    if (!SUPPORTED.includes(type)) {
      throw new TypeError("The provided value '" + type + "' is not a valid enum value of type DOMParserSupportedType.");
    }
    if (type !== "text/html") {
      // domino has no XML parser: known difference, reported rather than parsed wrongly.
      throw new ctx.DOMException("XML parsing is not supported by this runtime.", "NotSupportedError");
    }
    const address = this._advURL || "about:blank";
    // Scripting disabled: <noscript> parses as markup, as for a document without a browsing context.
    const parser = new impl.HTMLParser(address, undefined, { scripting_enabled: false });
    parser.parse(String(string), true);
    const doc = parser.document();
    doc._scripting_enabled = false;
    // A document without a browsing context: no window; parsing is over.
    doc.defaultView = null;
    doc.readyState = "complete";
    return doc;
  };
  Object.defineProperty(DOMParser.prototype, Symbol.toStringTag, { value: "DOMParser", configurable: true });
  ctx.domGlobals.DOMParser = DOMParser;

  return {
    name: "inert",
    page(p) {
      // The parsed document's URL is the page's (DOM Parsing §3: the relevant global's document).
      const PageDOMParser = function DOMParser() {
        if (!new.target) throw new TypeError("Failed to construct 'DOMParser': Please use the 'new' operator.");
        Object.defineProperty(this, "_advURL", { value: p.document.URL });
      };
      PageDOMParser.prototype = DOMParser.prototype;
      p.shared.DOMParser = PageDOMParser;
      // <template> contents live in a document without a browsing context (HTML 4.12.3).
      p.document._templateDoc.defaultView = null;
    },
  };
})
