// layer: dom/html-parser
// order: 15
// provides:
// requires:
//
// WebKit's limit on how deep the HTML parser nests elements, over domino's tree builder. The
// Debian files stay untouched: domino makes each parser's stack of open elements and list of
// active formatting elements from `HTMLParser.ElementStack` and
// `HTMLParser.ActiveFormattingElements`, read when the parser is made, so the subclasses put
// there serve every parser made after this layer loads (documents, DOMParser, innerHTML).
//
// The rule. WebKit's HTMLConstructionSite::attachLater (Source/WebCore/html/parser/
// HTMLConstructionSite.cpp: "Add as a sibling of the parent if we have reached the maximum depth
// allowed") attaches a node to the current node's parent instead of the current node once the
// stack of open elements is as deep as maximumHTMLParserDOMTreeDepth (Settings'
// defaultMaximumHTMLParserDOMTreeDepth = 512, SettingsBase.h), if that node has a parent.
// attachLater attaches elements (self-closing and foreign ones too) and comments; text
// (insertTextNode) and foster-parented nodes go where they always do, and the adoption agency's
// moves are tasks of their own. What WebKitGTK 2.50.6 does besides (recorded in
// fixtures/fidelity/cases/html-parser.json; the 2024 source read for this shows no more): the cap applies once the stack holds 512 entries,
// its root (<html>, or the root of an innerHTML fragment) included, and the current node is
// then closed (popped off the stack), so the stack never grows past 512 and end tags after a
// deep run close the ancestors of the elements at the cap. In 600 nested <div>s, d0..d509 nest
// (d509 is at depth 512 counting <html> as 1), d510 onwards are children of d508 and siblings
// of one another, text goes into the current node, and a comment or a <br> closes it;
// LayoutTests/fast/parser/block-nesting-cap.html expects the same of innerHTML (512 divs: d510
// and d511 are both children of d509).
//
// domino inserts through `stack.top._appendChild(node)` (for a <template>, its content's), then
// pushes the element. While the stack is at the cap, the current node (and a template's
// content) gets an own `_appendChild` that attaches elements and comments to the current
// node's parent and pops the current node, which the pushed element then replaces.
//
// Known difference: WebKit attaches the elements it makes for one token (an implied <tbody>
// and the row that implied it, reconstructed formatting elements) only after the token, so at
// the cap the second of them still goes into the first (which has no parent yet); domino
// attaches each at once, and here it is capped like any other.
//
// Why this matters for time as well as shape: the tree builder asks, for every <div>, <p>, <ul>
// … start tag, whether a <p> is in button scope (HTML 13.2.4.2), walking the stack down to a
// scope marker; nested <div>s have none, so with an unbounded stack parsing was quadratic
// (30,000 levels took 5 s and 100,000 ran past the 10 s script time limit). A stack of at most
// 512 entries bounds each walk.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  const HTMLParser = impl.HTMLParser;
  const DominoStack = HTMLParser.ElementStack;
  const DominoFormattingList = HTMLParser.ActiveFormattingElements;
  const appendChild = impl.Node.prototype._appendChild;
  // Open elements (the root included) from which the parser attaches to the current node's parent.
  const MAXIMUM_DEPTH = 512;

  // The parser makes its stack and then its list of active formatting elements (HTMLParser.js,
  // `var stack = …; var afe = …;`): the list joins the stack made just before it.
  let lastStack = null;

  class ElementStack extends DominoStack {
    constructor() {
      super();
      // The open element whose insertions are capped now (see capInsertions), and this
      // parser's list of active formatting elements.
      this._advCapped = null;
      this._advFormatting = null;
      lastStack = this;
    }

    push(element) { super.push(element); capInsertions(this); }
    pop() { super.pop(); capInsertions(this); }
    popTag(tag) { super.popTag(tag); capInsertions(this); }
    popElementType(type) { super.popElementType(type); capInsertions(this); }
    popElement(element) { super.popElement(element); capInsertions(this); }
    removeElement(element) { super.removeElement(element); capInsertions(this); }
    clearToContext(set) { super.clearToContext(set); capInsertions(this); }
    generateImpliedEndTags(butnot, thorough) { super.generateImpliedEndTags(butnot, thorough); capInsertions(this); }
  }

  class ActiveFormattingElements extends DominoFormattingList {
    constructor() {
      super();
      // The adoption agency's bookmark while it is in the list (domino uses insertAfter for
      // nothing else): the agency's own appends, the furthest block's among them, are not capped.
      this._advBookmark = null;
      if (lastStack) lastStack._advFormatting = this;
      lastStack = null;
    }

    insertAfter(element, bookmark) {
      this._advBookmark = bookmark;
      super.insertAfter(element, bookmark);
    }

    _advInAdoptionAgency() {
      if (this._advBookmark === null) return false;
      if (this.list.lastIndexOf(this._advBookmark) !== -1) return true;
      this._advBookmark = null;
      return false;
    }
  }

  // Gives the current node, while the stack is at the cap, an own `_appendChild` that attaches
  // the elements and comments the parser inserts to the current node's parent and closes the
  // current node; takes it back from the node that had it. Its conditions are checked again at
  // each call, as domino also changes the stack's array directly.
  function capInsertions(stack) {
    const top = stack.elements.length >= MAXIMUM_DEPTH ? stack.top : null;
    const capped = stack._advCapped;
    if (top === capped) return;
    if (capped) {
      delete capped._appendChild;
      const content = templateContent(capped);
      if (content) delete content._appendChild;
    }
    stack._advCapped = top;
    if (!top) return;
    const redirect = function _appendChild(child) {
      const parent = top.parentNode;
      const type = child && child.nodeType;
      const formatting = stack._advFormatting;
      if (!parent || (type !== 1 && type !== 8) || stack.top !== top || stack.elements.length < MAXIMUM_DEPTH
        || (formatting && formatting._advInAdoptionAgency())) {
        return appendChild.call(this, child);
      }
      // An element made for a <template>'s content belongs to the content's document.
      if (child.ownerDocument !== parent.ownerDocument) parent.ownerDocument.adoptNode(child);
      appendChild.call(parent, child);
      stack.pop();
    };
    Object.defineProperty(top, "_appendChild", { value: redirect, configurable: true, writable: true });
    const content = templateContent(top);
    if (content) Object.defineProperty(content, "_appendChild", { value: redirect, configurable: true, writable: true });
  }

  function templateContent(element) {
    return element instanceof impl.HTMLTemplateElement ? element.content : null;
  }

  HTMLParser.ElementStack = ElementStack;
  HTMLParser.ActiveFormattingElements = ActiveFormattingElements;
})
