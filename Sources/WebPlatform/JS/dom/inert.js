// layer: dom/inert
// order: 60
// provides:
// requires: DOMException
//
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

  // XMLSerializer (DOM Parsing §3.2 "XML serialization", require-well-formed off), checked
  // against WebKit: the outermost element declares its namespace (xmlns="…xhtml" for HTML),
  // prefixed names declare theirs where first used, an empty HTML void element is `<br />` and
  // any other empty non-HTML element `<x/>`; text escapes & < >, attributes also " and tab,
  // line feed and carriage return; a template serializes its contents.
  const HTML_NS = "http://www.w3.org/1999/xhtml";
  const VOID = new Set(["area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr"]);
  const escapeText = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const escapeAttribute = (text) => escapeText(text).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
  function serializeXML(node, namespace, prefixes) {
    switch (node.nodeType) {
      case 1: {
        const ns = node.namespaceURI, prefix = node.prefix, local = node.localName;
        const name = prefix ? prefix + ":" + local : local;
        const scope = Object.create(prefixes);
        let out = "<" + name;
        let inherited = namespace;
        if (prefix) {
          if (scope[prefix] !== ns) { out += " xmlns:" + prefix + "=\"" + escapeAttribute(ns || "") + "\""; scope[prefix] = ns; }
        } else if (ns !== namespace) {
          out += " xmlns=\"" + escapeAttribute(ns || "") + "\"";
          inherited = ns;
        }
        for (const attr of Array.from(node.attributes)) {
          let attrName = attr.localName;
          if (attr.namespaceURI && attr.prefix && attr.prefix !== "xmlns") {
            if (scope[attr.prefix] !== attr.namespaceURI) { out += " xmlns:" + attr.prefix + "=\"" + escapeAttribute(attr.namespaceURI) + "\""; scope[attr.prefix] = attr.namespaceURI; }
            attrName = attr.prefix + ":" + attr.localName;
          } else if (attr.prefix === "xmlns") {
            attrName = "xmlns:" + attr.localName;
          }
          out += " " + attrName + "=\"" + escapeAttribute(attr.value) + "\"";
        }
        const holder = ns === HTML_NS && local === "template" && node.content ? node.content : node;
        if (holder.firstChild === null) {
          if (ns === HTML_NS) return out + (VOID.has(local) ? " />" : "></" + name + ">");
          return out + "/>";
        }
        out += ">";
        for (let child = holder.firstChild; child; child = child.nextSibling) out += serializeXML(child, inherited, scope);
        return out + "</" + name + ">";
      }
      case 3: return escapeText(node.data);
      case 4: return "<![CDATA[" + node.data + "]]>";
      case 7: return "<?" + node.target + " " + node.data + "?>";
      case 8: return "<!--" + node.data + "-->";
      case 10: {
        let out = "<!DOCTYPE " + node.name;
        if (node.publicId) out += " PUBLIC \"" + node.publicId + "\"";
        else if (node.systemId) out += " SYSTEM";
        if (node.systemId) out += " \"" + node.systemId + "\"";
        return out + ">";
      }
      case 9: case 11: {
        let out = "";
        for (let child = node.firstChild; child; child = child.nextSibling) out += serializeXML(child, namespace, prefixes);
        return out;
      }
      default: return "";
    }
  }
  function XMLSerializer() {
    if (!new.target) throw new TypeError("Failed to construct 'XMLSerializer': Please use the 'new' operator.");
  }
  Object.defineProperty(XMLSerializer.prototype, "serializeToString", {
    value: function serializeToString(root) {
      if (arguments.length === 0) throw new TypeError("Not enough arguments");
      if (!(root instanceof impl.Node)) throw new TypeError("Argument 1 ('root') to XMLSerializer.serializeToString must be an instance of Node");
      return serializeXML(root, null, Object.create(null));
    },
    writable: true, enumerable: true, configurable: true,
  });
  Object.defineProperty(XMLSerializer.prototype, Symbol.toStringTag, { value: "XMLSerializer", configurable: true });
  ctx.domGlobals.XMLSerializer = XMLSerializer;

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
