// layer: trace/dom-trace
// order: 170
// provides:
// requires: attributeOwner
//
// DOM changes made by extension code, for the trace: every tree, attribute and text change
// whose call stack runs through an extension script (a safari-web-extension:// URL) becomes a
// `dom` trace line in that extension's content world, e.g.
//   tab1/content dom insert <style data-adv-personal-filters> into <head>
//   tab1/content dom set style="display: none !important;" on <div#stubborn.promo-box>
//   tab1/content dom sheet insertRule 0 .ad { display: none !important; } of <style data-adv-personal-filters>
//   tab1/content media set playbackRate=16 (now 16) on <video.html5-main-video>
// Pages' own changes are not traced (a page would drown the trace); documents with no content
// world skip the stack inspection entirely, and so do changes made while the page world's code
// is innermost, on a page where no extension script has run in that world.
(function (ctx) {
  "use strict";
  const host = ctx.host;
  const MUTATE = { VALUE: 1, ATTR: 2, REMOVE_ATTR: 3, REMOVE: 4, MOVE: 5, INSERT: 6 };
  const EXTENSION = /(?:safari-web-extension|chrome-extension):\/\/([^/\s:]+)\//;

  function describe(node) {
    if (!node) return "?";
    if (node.nodeType === 3) return "#text";
    if (node.nodeType === 9) return "#document";
    if (node.nodeType !== 1) return "#node";
    let text = "<" + node.localName;
    if (node.id) text += "#" + node.id;
    const classes = node.getAttribute && node.getAttribute("class");
    if (classes) text += "." + classes.trim().split(/\s+/).slice(0, 3).join(".");
    if (node.localName === "style" || node.localName === "script") {
      for (const attribute of Array.prototype.slice.call(node.attributes || [])) {
        if (attribute.name.startsWith("data-")) { text += " " + attribute.name; break; }
      }
    }
    return text + ">";
  }

  function clip(value) {
    const text = String(value);
    return text.length > 120 ? text.slice(0, 120) + "… (" + text.length + " chars)" : text;
  }

  /**
   * The extension whose script made the change: the innermost stack frame that is neither the
   * runtime's own code nor the DOM package decides (a page listener run by an extension's
   * `click()` is the page's change, not the extension's).
   */
  function extensionOnStack(document) {
    // While the page world's code is innermost (the membrane knows), the change is the page's
    // own, unless an extension's script has run in that world (world MAIN): only then does the
    // stack have to say.
    const world = ctx.membrane.current();
    if (world !== null && world.id === "page" && !document._advExtensionCodeInPage) return null;
    const stack = new Error().stack || "";
    for (const frame of stack.split("\n")) {
      const at = frame.indexOf("@");
      const url = at >= 0 ? frame.slice(at + 1) : frame;
      if (url === "" || url.startsWith("adv-runtime:") || url.startsWith("file://") || url === "[native code]") continue;
      const match = EXTENSION.exec(url);
      return match ? match[1] : null;
    }
    return null;
  }

  ctx.addMutationListener((record, document) => {
    // The parser's own insertions (no script runs inside a parse call) and documents without a
    // content world skip the stack inspection.
    if (!document._advExtensionWorlds || document._advParsing) return;
    const extension = extensionOnStack(document);
    if (!extension) return;
    let text;
    switch (record.type) {
      case MUTATE.INSERT: text = "insert " + describe(record.node) + " into " + describe(record.target); break;
      case MUTATE.MOVE: text = "move " + describe(record.node) + " into " + describe(record.target); break;
      case MUTATE.REMOVE: text = "remove " + describe(record.node) + " from " + describe(record.target); break;
      case MUTATE.ATTR: {
        const name = record.attr && record.attr.name;
        text = "set " + name + "=" + JSON.stringify(clip(record.target.getAttribute(name))) + " on " + describe(record.target);
        break;
      }
      case MUTATE.REMOVE_ATTR:
        // domino reports a removed attribute already detached (target null): the element is the
        // one whose attribute method is running.
        text = "remove " + (record.attr && record.attr.name) + " from " + describe(record.target || ctx.attributeOwner());
        break;
      case MUTATE.VALUE:
        text = "text of " + describe(record.target.parentNode) + " = " + JSON.stringify(clip(record.target.data));
        break;
      default:
        return;
    }
    host.traceDOM(document._advPageId, extension, text);
  });

  // Style sheet changes through CSSOM (insertRule, deleteRule, disabled, media, a rule's
  // declaration, replaceSync), which produce no mutation records: `detail` is a function so that
  // pages' own changes cost no text.
  ctx.traceHooks.sheetChange = (document, owner, what, detail) => {
    if (!document._advExtensionWorlds || document._advParsing) return;
    const extension = extensionOnStack(document);
    if (!extension) return;
    const text = detail ? " " + clip(detail()) : "";
    host.traceDOM(document._advPageId, extension, "sheet " + what + text + " of " + describe(owner));
  };

  // Media element changes (property sets, play/pause/load calls) on the `media` channel.
  ctx.traceHooks.mediaChange = (element, describeChange) => {
    const document = element.ownerDocument;
    if (!document || !document._advExtensionWorlds) return;
    const extension = extensionOnStack(document);
    if (!extension) return;
    host.traceDOM(document._advPageId, extension, describeChange() + " on " + describe(element), "media");
  };

  return { name: "domTrace" };
})
