// Selectors for picked elements. Preference order, most durable first: ad attributes (ids,
// classes and attributes that name ads or sponsors), then stable ids, classes and attributes,
// then a path through stable ancestors; :nth-of-type() only when nothing else singles the
// element out. Tokens that look machine-generated (hashed class names, rotating ids) are
// skipped: they change between page loads, so a filter built on them stops working.
// Every candidate is checked with querySelectorAll against the live page before it is used.
"use strict";

var ADVSelectorGenerator = (() => {
  const AD_WORDS = new Set(["ad", "ads", "adslot", "adunit", "adbox", "advert", "adverts", "advertisement", "advertisements", "advertising", "sponsor", "sponsors", "sponsored", "sponsorship"]);
  // Attributes worth keeping in a selector besides id and class (data-* are judged separately).
  const STABLE_ATTRIBUTES = ["name", "role", "aria-label", "itemtype", "title"];
  const MAX_VALUE = 64;
  const MAX_DEPTH = 12;

  // MARK: - Judging tokens

  /** Word pieces of an id, class or attribute name: split at '-', '_', ':' and camelCase. */
  function words(text) {
    return String(text).replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  }

  function namesAd(text) {
    return words(text).some((word) => AD_WORDS.has(word) || word.startsWith("advert") || word.startsWith("sponsor"));
  }

  /** Shannon entropy in bits per character. */
  function entropy(text) {
    const counts = new Map();
    for (const ch of text) counts.set(ch, (counts.get(ch) || 0) + 1);
    let bits = 0;
    for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
    return bits;
  }

  /**
   * True when one piece (between separators) looks generated: long numbers, hex runs, letters
   * and digits mixed (x7Kq9zP2, 1q2w3e4), case flipping inside a word (bdVaJa), or a long run
   * with nearly every character different.
   */
  function looksRandomPiece(piece) {
    if (piece.length < 4) return false;
    const digits = (piece.match(/[0-9]/g) || []).length;
    const letters = piece.length - digits;
    if (digits === piece.length) return piece.length >= 5;
    if (/^[0-9a-f]{8,}$/i.test(piece) && digits >= 2) return true;
    if (digits >= 2 && letters >= 2 && piece.length >= 5) return true;
    const caseFlips = (piece.match(/[a-z][A-Z]|[A-Z][a-z](?=[A-Z])/g) || []).length;
    if (caseFlips >= 2 && piece.length >= 5) return true;
    return piece.length >= 10 && entropy(piece) >= 3.3 && digits > 0;
  }

  function looksGenerated(value) {
    return String(value).split(/[-_:.\s]+/).some(looksRandomPiece);
  }

  /** Usable as written in a selector without escaping, short, and not machine-made. */
  function isStableName(value) {
    return typeof value === "string" && value.length > 0 && value.length <= MAX_VALUE && /^-?[A-Za-z_][A-Za-z0-9_-]*$/.test(value) && !looksGenerated(value);
  }

  /**
   * The stable start of a generated id ("ad-slot-" of "ad-slot-x7Kq9zP2"): the pieces before
   * the first random-looking one, when at least one real word remains.
   */
  function stablePrefix(value) {
    const pieces = String(value).split(/([-_])/);
    let prefix = "";
    for (let i = 0; i < pieces.length; i += 2) {
      if (looksRandomPiece(pieces[i])) break;
      prefix += pieces[i] + (pieces[i + 1] || "");
    }
    if (prefix === value || !/[-_]$/.test(prefix) || !/[a-z]{2}/i.test(prefix)) return null;
    return /^[A-Za-z0-9_-]+$/.test(prefix) ? prefix : null;
  }

  function quote(value) {
    return "\"" + String(value).replace(/\\/g, "\\\\").replace(/"/g, "\\\"") + "\"";
  }

  // MARK: - Candidates for one element

  function ownAttributes(element) {
    return Array.from(element.attributes).filter((attribute) => !attribute.name.startsWith("data-adv-"));
  }

  /**
   * Compound selectors naming `element` alone (no position), best first. `reusable` asks for
   * class/tag/attribute-presence forms that also fit the element's look-alikes, never its id.
   */
  function candidates(element, reusable) {
    const tag = element.localName;
    const id = element.getAttribute("id");
    const classes = Array.from(element.classList).filter(isStableName);
    const adClasses = classes.filter(namesAd);
    const plainClasses = classes.filter((name) => !namesAd(name));
    const attributes = ownAttributes(element);
    const adAttributes = attributes.filter((a) => a.name !== "id" && a.name !== "class" && a.name !== "style" && (namesAd(a.name) || (a.name === "aria-label" && namesAd(a.value))));
    const prefix = id && !isStableName(id) ? stablePrefix(id) : null;
    const list = [];

    if (!reusable && id && isStableName(id) && namesAd(id)) list.push("#" + id);
    for (const a of adAttributes) {
      const stableValue = a.value && a.value.length <= MAX_VALUE && !looksGenerated(a.value);
      if (reusable || !stableValue) list.push(tag + "[" + a.name + "]");
      else list.push(tag + "[" + a.name + "=" + quote(a.value) + "]");
    }
    for (const name of adClasses) list.push(reusable ? "." + name : tag + "." + name);
    if (prefix && namesAd(prefix)) list.push(tag + "[id^=" + quote(prefix) + "]");
    if (!reusable && id && isStableName(id)) list.push("#" + id);
    if (plainClasses.length) {
      list.push(tag + "." + plainClasses[0]);
      if (plainClasses.length > 1) list.push(tag + "." + plainClasses.slice(0, 2).join("."));
    }
    if (prefix && !namesAd(prefix)) list.push(tag + "[id^=" + quote(prefix) + "]");
    for (const a of attributes) {
      const stableData = a.name.startsWith("data-") && !namesAd(a.name) && a.value && a.value.length <= MAX_VALUE && !looksGenerated(a.value);
      if (!stableData && !STABLE_ATTRIBUTES.includes(a.name)) continue;
      if (!a.value || a.value.length > MAX_VALUE || looksGenerated(a.value)) continue;
      list.push(tag + "[" + a.name + "=" + quote(a.value) + "]");
    }
    list.push(tag);
    return [...new Set(list)];
  }

  // MARK: - Checking against the page

  function matches(selector) {
    return ADVPageOutlines.matching(selector);
  }

  function singlesOut(selector, element) {
    const found = matches(selector);
    return found.length === 1 && found[0] === element;
  }

  function covers(selector, element) {
    return matches(selector).includes(element);
  }

  function nthOfType(element) {
    let n = 1;
    for (let sibling = element.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
      if (sibling.localName === element.localName) n++;
    }
    return ":nth-of-type(" + n + ")";
  }

  /** Ancestors from the parent up to (not including) <html>, nearest first. */
  function ancestorsOf(element) {
    const list = [];
    for (let node = element.parentElement; node && node !== document.documentElement && list.length < MAX_DEPTH; node = node.parentElement) list.push(node);
    return list;
  }

  // MARK: - Selectors

  /** A selector that matches `element` and nothing else on the page. */
  function specific(element) {
    const own = candidates(element, false);
    for (const candidate of own) if (candidate !== element.localName && singlesOut(candidate, element)) return candidate;

    // A path of child steps through ancestors, stopping at the first ancestor that is unique
    // by itself (an anchor); positions are added from the element upwards only if needed.
    const steps = [{ element, part: own[0] }];
    for (const ancestor of ancestorsOf(element)) {
      const options = candidates(ancestor, false);
      const anchor = options.find((candidate) => singlesOut(candidate, ancestor));
      steps.unshift({ element: ancestor, part: anchor || options[0] });
      const path = steps.map((step) => step.part).join(" > ");
      if (singlesOut(path, element)) return path;
      if (anchor) break;
    }
    // One position is often enough (the element's, or one ancestor's); if not, positions
    // accumulate from the element upwards, which always ends unique under the anchor.
    const withPosition = (indexes) => steps.map((step, i) => indexes.includes(i) ? step.part + nthOfType(step.element) : step.part).join(" > ");
    for (let i = steps.length - 1; i >= 0; i--) {
      const path = withPosition([i]);
      if (singlesOut(path, element)) return path;
    }
    const used = [];
    for (let i = steps.length - 1; i >= 0; i--) {
      used.push(i);
      const path = withPosition(used);
      if (singlesOut(path, element)) return path;
    }
    return null;
  }

  /**
   * A reusable class/tag selector for `element` and its look-alikes (repeated ad slots): no id,
   * no position. A bare tag is only used under a stable ancestor, never alone.
   */
  function similar(element) {
    for (const candidate of candidates(element, true)) {
      if (candidate !== element.localName && covers(candidate, element)) return candidate;
    }
    for (const ancestor of ancestorsOf(element)) {
      const context = candidates(ancestor, true).find((candidate) => candidate !== ancestor.localName);
      if (!context) continue;
      const selector = context + " " + element.localName;
      if (covers(selector, element)) return selector;
    }
    return specific(element);
  }

  /** The selector for a picked element: reusable when asked, else element-specific. */
  function generate(element, { reusable }) {
    return reusable ? similar(element) : specific(element);
  }

  return { generate, looksGenerated, namesAd, stablePrefix };
})();
