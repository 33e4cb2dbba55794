// Check existing filters: the same deterministic diagnostics as the Swift module RuleAssistance
// (Sources/RuleAssistance), over the same table (fixtures/rule-assistance/check-cases.json):
// invalid syntax, duplicates of the same hostname, likely generated names, positional selectors,
// and, with a page, no matches there and page-local overlap of matched elements. Validity comes
// from ADVSelectorValidation (ADV's own refusals, then the engine's querySelector); matches come
// from the page's own querySelectorAll. At most 80 rules a check (the spec's limit): more is an
// error, not a silent cut, since duplicates and overlaps with the rules left out would be missed.
"use strict";

var ADVRuleAssistance = (() => {
  const MAX_RULES = 80;
  const KINDS = ["invalid-syntax", "duplicate", "likely-generated", "positional", "no-matches", "overlap"];
  const PAGE_CAVEAT = "One page does not prove global redundancy: other pages of the site, or content that loads later, may differ.";
  const SPACE = /[ \t\n\r\f]/;

  /**
   * The text duplicates are compared in (SelectorText.normalized in Swift): trimmed, whitespace
   * runs outside strings made one space, none after ( or [, before ) or ], around > + ~ , =, or
   * before ^= $= *= |=. Case, quotes and escapes stay as written.
   */
  function normalized(selector) {
    const text = String(selector).replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, "");
    const tight = ">+~,=";
    let out = "";
    let quote = null;
    let pendingSpace = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quote) {
        out += c;
        if (c === "\\" && i + 1 < text.length) { out += text[++i]; continue; }
        if (c === quote) quote = null;
        continue;
      }
      if (SPACE.test(c)) { pendingSpace = true; continue; }
      if (pendingSpace) {
        pendingSpace = false;
        const before = out[out.length - 1];
        const operatorAhead = "^$*|".includes(c) && text[i + 1] === "=";
        const dropped = before === undefined || before === "(" || before === "[" || tight.includes(before) ||
          c === ")" || c === "]" || tight.includes(c) || operatorAhead;
        if (!dropped) out += " ";
      }
      out += c;
      if (c === "\\" && i + 1 < text.length) { out += text[++i]; continue; }
      if (c === '"' || c === "'") quote = c;
    }
    return out;
  }

  // MARK: - Likely generated names (GeneratedNames in Swift: the same five rules)

  const HASH_PREFIXES = ["sc-", "css-", "jsx-", "emotion-", "svelte-"];
  const isDigit = (c) => c >= "0" && c <= "9";
  const isLetter = (c) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");

  function withoutSizes(part) {
    return part.replace(/\d+[xX]\d+/g, "");
  }

  function transitions(part) {
    let count = 0;
    let last = null;
    for (const c of part) {
      if (!isDigit(c) && !isLetter(c)) continue;
      const digit = isDigit(c);
      if (last !== null && last !== digit) count++;
      last = digit;
    }
    return count;
  }

  function caseChanges(part) {
    let count = 0;
    let last = null;
    for (const c of part) {
      const upper = c !== c.toLowerCase();
      if (last !== null && last !== upper) count++;
      last = upper;
    }
    return count;
  }

  function partReason(part, afterDoubleUnderscore) {
    const letters = [...part].filter(isLetter).length;
    const digits = [...part].filter(isDigit).length;
    if (digits === part.length && digits >= 6) return "a long number, which usually changes per item or page view";
    const bare = withoutSizes(part);
    if (bare.length >= 5 && transitions(bare) >= 3) return "letters and digits mixed like a hash";
    if (afterDoubleUnderscore && part.length >= 5 && letters > 0 && digits > 0 && !/^[A-Za-z]+[0-9]+$/.test(part)) {
      return "a CSS Modules hash after '__'";
    }
    if (digits === 0 && letters === part.length && part.length >= 6) {
      const vowels = [...part.toLowerCase()].filter((c) => "aeiou".includes(c)).length;
      if (vowels * 5 < part.length && caseChanges(part) >= 2) return "a random-looking run of letters";
    }
    return null;
  }

  /** Why an id or class name looks generated, or null. */
  function generatedReason(name) {
    const lower = name.toLowerCase();
    const prefix = HASH_PREFIXES.find((p) => lower.startsWith(p));
    if (prefix) {
      const rest = name.slice(prefix.length);
      if (/[0-9]/.test(rest) || (/[A-Z]/.test(rest) && /[a-z]/.test(rest))) return "'" + prefix + "' and a hash, as a build tool generates";
    }
    const parts = [];
    let part = "";
    let separator = "";
    let previous = "";
    for (const c of name) {
      if (c === "-" || c === "_") {
        if (part) { parts.push([part, previous]); part = ""; separator = ""; }
        separator += c;
        previous = separator;
      } else {
        part += c;
      }
    }
    if (part) parts.push([part, previous]);
    for (const [text, after] of parts) {
      const why = partReason(text, after.startsWith("__"));
      if (why) return why;
    }
    return null;
  }

  // MARK: - A scan of a valid selector's text: names, position conditions, child chains

  /** Reads an identifier with CSS escapes from `i`; returns [name, next index]. */
  function readIdent(text, i) {
    let name = "";
    while (i < text.length) {
      const c = text[i];
      if (c === "\\" && i + 1 < text.length) {
        const hex = /^[0-9a-fA-F]{1,6}/.exec(text.slice(i + 1));
        if (hex) {
          const code = parseInt(hex[0], 16);
          name += code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? "\ufffd" : String.fromCodePoint(code);
          i += 1 + hex[0].length;
          if (SPACE.test(text[i] || "")) i++;
        } else {
          name += text[i + 1];
          i += 2;
        }
      } else if (isLetter(c) || isDigit(c) || c === "-" || c === "_" || c.charCodeAt(0) >= 0x80) {
        name += c;
        i++;
      } else {
        break;
      }
    }
    return [name, i];
  }

  /** [a, b] of an An+B argument (the part before ' of '), or null. */
  function anPlusB(argument) {
    const text = argument.replace(/[ \t\n\r\f]+/g, "").toLowerCase();
    if (text === "odd") return [2, 1];
    if (text === "even") return [2, 0];
    if (/^[+-]?\d+$/.test(text)) return [0, parseInt(text, 10)];
    const m = /^([+-]?\d*)n([+-]\d+)?$/.exec(text);
    if (!m) return null;
    const a = m[1] === "" || m[1] === "+" ? 1 : m[1] === "-" ? -1 : parseInt(m[1], 10);
    return [a, m[2] ? parseInt(m[2], 10) : 0];
  }

  function anPlusBText(a, b) {
    if (a === 0) return String(b);
    const coefficient = a === 1 ? "" : a === -1 ? "-" : String(a);
    if (b === 0) return coefficient + "n";
    return coefficient + "n" + (b > 0 ? "+" + b : String(b));
  }

  /** { names: [id and class names in order], nth: [{ name, a }], childChain: longest run of '>' at the top level }. */
  function scan(selector) {
    const text = String(selector);
    const names = [];
    const nth = [];
    let depth = 0;
    let quote = null;
    let bracket = 0;
    let run = 0;
    let childChain = 0;
    let afterCombinator = true; // at the start of a complex selector
    let sawSpace = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quote) { if (c === "\\") i++; else if (c === quote) quote = null; continue; }
      if (c === '"' || c === "'") { quote = c; continue; }
      if (bracket) { if (c === "]") bracket--; else if (c === "\\") i++; continue; }
      if (c === "[") { bracket++; markCompound(); continue; }
      if (SPACE.test(c)) { sawSpace = true; continue; }
      if (depth === 0 && (c === ">" || c === "+" || c === "~")) {
        run = c === ">" ? run + 1 : 0;
        childChain = Math.max(childChain, run);
        afterCombinator = true;
        sawSpace = false;
        continue;
      }
      if (depth === 0 && c === ",") { run = 0; afterCombinator = true; sawSpace = false; continue; }
      if (c === "(") { depth++; continue; }
      if (c === ")") { depth--; markCompound(); continue; }
      markCompound();
      if ((c === "#" || c === ".") && i + 1 < text.length) {
        const [name, next] = readIdent(text, i + 1);
        if (name) { names.push(name); i = next - 1; }
        continue;
      }
      if (c === ":") {
        const match = /^:(nth-child|nth-last-child|nth-of-type|nth-last-of-type)\(/i.exec(text.slice(i));
        if (match) {
          const close = closing(text, i + match[0].length);
          const argument = text.slice(i + match[0].length, close).split(/[ \t\n\r\f]of[ \t\n\r\f]/i)[0];
          const ab = anPlusB(argument);
          if (ab) nth.push({ name: ":" + match[1].toLowerCase() + "(" + anPlusBText(ab[0], ab[1]) + ")", a: ab[0] });
          depth++;
          i += match[0].length - 1;
        }
        continue;
      }
      if (c === "\\") { i++; continue; }
    }
    return { names, nth, childChain };

    // A compound starts: a space since the last one, with no combinator between, is a descendant combinator.
    function markCompound() {
      if (depth === 0 && sawSpace && !afterCombinator) run = 0;
      afterCombinator = false;
      sawSpace = false;
    }
  }

  /** Index of the ')' closing the parenthesis opened just before `start`. */
  function closing(text, start) {
    let depth = 1;
    let quote = null;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (quote) { if (c === "\\") i++; else if (c === quote) quote = null; continue; }
      if (c === "\\") { i++; continue; }
      if (c === '"' || c === "'") quote = c;
      else if (c === "(") depth++;
      else if (c === ")" && --depth === 0) return i;
    }
    return text.length;
  }

  function positional(scanned) {
    if (scanned.nth.length >= 2) {
      return ["nth-chain", "it chains " + scanned.nth.length + " position conditions (" + scanned.nth.map((n) => n.name).join(", ") + ")"];
    }
    const fixed = scanned.nth.find((n) => n.a === 0);
    if (fixed) return ["fixed-position", "'" + fixed.name + "' picks one position among its siblings"];
    if (scanned.childChain >= 3) return ["child-chain", "it follows " + scanned.childChain + " parent > child steps in a row"];
    return null;
  }

  // MARK: - The check

  const ruleName = (rule) => "rule " + rule.id + " on " + rule.hostname;
  const count = (n) => (n === 1 ? "1 element" : n + " elements");

  /**
   * { ok: true, findings } for up to 80 rules ({ id, hostname, selector }), or { ok: false, error }.
   * `page` ({ document, name, hostname }) adds the page-based findings for the rules of its
   * hostname (every rule when it names none). Findings come in the order of the rules, then of
   * KINDS, then of the other rule.
   */
  function check(rules, page) {
    if (!Array.isArray(rules)) return { ok: false, error: "rules must be a list" };
    if (rules.length > MAX_RULES) {
      return { ok: false, error: rules.length + " rules given; a check takes at most " + MAX_RULES + " rules at a time (check one hostname, or fewer rules)" };
    }
    const lists = rules.map(() => []);
    const firstOfText = new Map();
    const duplicateOf = new Map();
    rules.forEach((rule, index) => {
      const key = rule.hostname + "\n" + normalized(rule.selector);
      if (firstOfText.has(key)) duplicateOf.set(index, firstOfText.get(key)); else firstOfText.set(key, index);
    });
    const matched = new Map();
    const finding = (kind, rule, message, extra) => Object.assign({ kind, rule: { id: rule.id, hostname: rule.hostname, selector: rule.selector }, message }, extra);
    rules.forEach((rule, index) => {
      const name = ruleName(rule);
      const validity = ADVSelectorValidation.validate(rule.selector);
      if (validity.error) {
        lists[index].push(finding("invalid-syntax", rule, name + ": '" + rule.selector + "' is not a valid selector: " + validity.error + ". ADV never applies it; correct or remove it."));
      }
      if (duplicateOf.has(index)) {
        const other = rules[duplicateOf.get(index)];
        lists[index].push(finding("duplicate", rule, name + ": '" + rule.selector + "' is the same selector as rule " + other.id + " ('" + other.selector + "') on the same hostname; one of them can be removed.", { other: other.id }));
      }
      if (validity.error) return;
      const scanned = scan(rule.selector);
      for (const token of scanned.names) {
        const why = generatedReason(token);
        if (!why) continue;
        lists[index].push(finding("likely-generated", rule, name + ": '" + rule.selector + "' relies on '" + token + "', which looks generated (" + why + "); such names often change with the site's next build or visit. Prefer a stable class, attribute or ancestor.", { detail: token }));
        break;
      }
      const where = positional(scanned);
      if (where) {
        lists[index].push(finding("positional", rule, name + ": '" + rule.selector + "' selects by position: " + where[1] + ". It can hide other content when the page's layout changes.", { detail: where[0] }));
      }
      if (page && (!page.hostname || page.hostname === rule.hostname)) {
        const elements = new Set(page.document.querySelectorAll(rule.selector));
        matched.set(index, elements);
        if (elements.size === 0) lists[index].push(finding("no-matches", rule, name + ": '" + rule.selector + "' matches nothing on " + page.name + ". " + PAGE_CAVEAT));
      }
    });
    if (page) {
      rules.forEach((rule, later) => {
        const mine = matched.get(later);
        if (!mine || mine.size === 0) return;
        for (let earlier = 0; earlier < later; earlier++) {
          const other = rules[earlier];
          const theirs = matched.get(earlier);
          if (other.hostname !== rule.hostname || duplicateOf.get(later) === earlier || !theirs || theirs.size === 0) continue;
          const shared = [...mine].filter((element) => theirs.has(element)).length;
          let relation = null;
          let what = "";
          if (shared === mine.size && shared === theirs.size) {
            relation = "same-elements"; what = "matches the same " + count(mine.size) + " as rule " + other.id + " ('" + other.selector + "')";
          } else if (shared === theirs.size) {
            relation = "contains"; what = "matches everything rule " + other.id + " ('" + other.selector + "') matches (" + count(theirs.size) + ") and " + (mine.size - theirs.size) + " more";
          } else if (shared === mine.size) {
            relation = "contained-in"; what = "matches only elements rule " + other.id + " ('" + other.selector + "') also matches (" + mine.size + " of its " + theirs.size + ")";
          } else {
            continue;
          }
          lists[later].push(finding("overlap", rule, ruleName(rule) + ": on " + page.name + ", '" + rule.selector + "' " + what + ". " + PAGE_CAVEAT, { other: other.id, relation }));
        }
      });
    }
    const rank = (f) => KINDS.indexOf(f.kind);
    const findings = [];
    for (const list of lists) {
      findings.push(...list.map((f, i) => [f, i]).sort((x, y) => rank(x[0]) - rank(y[0]) || x[1] - y[1]).map((pair) => pair[0]));
    }
    return { ok: true, findings };
  }

  return { check, normalized, generatedReason, scan, MAX_RULES, PAGE_CAVEAT, KINDS };
})();
