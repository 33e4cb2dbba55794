// Moving rules to another ADV. Safari treats an extension with a new identifier (local.adv →
// tools.ars.browser.adv.safari) as a different extension with its own storage, so the seed's
// "record the old rules before switching and register them again in the new extension" is
// done with one document: exported here, pasted into the other ADV's popup, imported there.
//
// The document (format "adv-rules-transfer", version 1):
//   { "format": "adv-rules-transfer", "version": 1, "exportedAt": <ms>,
//     "personalRules": <the rule store's personal-rules document (fixtures/rules/README.md):
//                       { "format": "adv-personal-rules", "version": 1, "rules": [live records] }>,
//     "sourceHosts": ["ads.example", …] }
// `personalRules` is exactly what the native rule store reads (e.g. its `migrate` message), so
// the app can take it as is. A bare personal-rules document (the App Group file) imports too.
//
// Export only reads. Import validates the whole document before anything is written; one bad
// entry cancels it and the message names the entry. Limits: one import is one submission, so at
// most 1,000 filters in the document (counted over all its hostnames, like Add in bulk and the
// rule store's saveBatch) and at most 1,000 source hosts saved afterwards; a larger export is
// split by hostname into several documents.
"use strict";

var ADVRuleTransfer = (() => {
  const FORMAT = "adv-rules-transfer";
  const VERSION = 1;
  const RULES_FORMAT = "adv-personal-rules";
  const RULES_VERSION = 1;
  const ID = /^[A-Za-z0-9._:-]{1,128}$/;

  /**
   * The export as text (two-space indented JSON) with its counts. Text, not an object, crosses to
   * the popup so the records keep the rule store's key order (id, hostname, selector, …).
   */
  async function exportText() {
    const doc = await exportDocument();
    return { text: JSON.stringify(doc, null, 2), filters: doc.personalRules.rules.length, sourceHosts: doc.sourceHosts.length };
  }

  /** The export document: every live personal filter and every global source host. */
  async function exportDocument() {
    const [rules, sourceHosts] = await Promise.all([ADVPersonalFilters.records(), ADVSourceBlocks.list()]);
    return {
      format: FORMAT,
      version: VERSION,
      exportedAt: Date.now(),
      personalRules: { format: RULES_FORMAT, version: RULES_VERSION, rules },
      sourceHosts,
    };
  }

  function fail(where, reason) {
    throw new Error((where ? where + ": " : "") + reason + " — nothing was imported");
  }

  function at(path, key) {
    return path ? path + "." + key : key;
  }

  function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  /** Checks a personal-rules document; returns its live records. Deletion markers are checked, then left out. */
  function readPersonalRules(doc, path) {
    if (!isObject(doc)) fail(path, "expected a personal-rules object");
    if (doc.format !== RULES_FORMAT) fail(at(path, "format"), "expected '" + RULES_FORMAT + "'");
    if (doc.version !== RULES_VERSION) fail(at(path, "version"), "version " + JSON.stringify(doc.version) + " is not supported; this ADV reads version " + RULES_VERSION);
    if (!Array.isArray(doc.rules)) fail(at(path, "rules"), "expected an array of rules");
    const firstIndex = new Map();
    const live = [];
    doc.rules.forEach((rule, index) => {
      let where = at(path, "rules[" + index + "]");
      if (!isObject(rule)) fail(where, "expected a rule object");
      for (const key of ["id", "hostname", "selector", "modifiedAt", "deleted"]) {
        if (!(key in rule)) fail(where, "missing key '" + key + "'");
      }
      if (typeof rule.hostname !== "string") fail(where + ".hostname", "expected a string");
      const host = ADVHostnames.normalize(rule.hostname, "personal filters");
      if (host.error) fail(where + ".hostname", host.error);
      if (host.host !== rule.hostname) fail(where + ".hostname", "hostname '" + rule.hostname + "' is not normalized; write '" + host.host + "'");
      // From here on the message names the host as well as the index.
      where += " (" + rule.hostname + ")";
      if (typeof rule.id !== "string" || !ID.test(rule.id)) fail(where + ".id", "id " + JSON.stringify(rule.id) + " must be 1 to 128 characters of A-Z a-z 0-9 . _ : -");
      if (firstIndex.has(rule.id)) fail(where + ".id", "duplicate id '" + rule.id + "' (first at rules[" + firstIndex.get(rule.id) + "])");
      firstIndex.set(rule.id, index);
      if (typeof rule.selector !== "string") fail(where + ".selector", "expected a string");
      // The same check as Add in bulk: a selector list and nothing that could close ADV's CSS rule.
      const selector = ADVPersonalFilters.validate(rule.selector);
      if (selector.error) fail(where + ".selector", selector.error);
      if (!Number.isSafeInteger(rule.modifiedAt) || rule.modifiedAt < 0) fail(where + ".modifiedAt", JSON.stringify(rule.modifiedAt) + " is not a time in milliseconds (0 … " + Number.MAX_SAFE_INTEGER + ")");
      if (typeof rule.deleted !== "boolean") fail(where + ".deleted", "expected true or false");
      if (!rule.deleted) live.push({ id: rule.id, hostname: host.host, selector: selector.selector, modifiedAt: rule.modifiedAt });
    });
    return live;
  }

  /** Checks source hosts as sources.block does (ADVHostnames.normalize); returns them normalized, in order. */
  function readSourceHosts(list) {
    if (!Array.isArray(list)) fail("sourceHosts", "expected an array of hostnames");
    if (list.length > ADVSourceBlocks.MAX_HOSTS) fail("sourceHosts", "at most " + ADVSourceBlocks.MAX_HOSTS + " source hosts can be blocked (the document has " + list.length + ")");
    return list.map((entry, index) => {
      if (typeof entry !== "string") fail("sourceHosts[" + index + "]", "expected a hostname string");
      const result = ADVHostnames.normalize(entry);
      if (result.error) fail("sourceHosts[" + index + "]", result.error);
      return result.host;
    });
  }

  /** Parses and validates pasted text completely; returns { rules, sourceHosts } or throws naming the entry. */
  function read(text) {
    if (typeof text !== "string" || text.trim() === "") fail("", "paste a document exported by ADV first");
    let doc;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      fail("", "not valid JSON (" + error.message + ")");
    }
    if (!isObject(doc)) fail("", "expected a JSON object exported by ADV");
    let rules;
    let sourceHosts = [];
    if (doc.format === FORMAT) {
      if (doc.version !== VERSION) fail("version", "version " + JSON.stringify(doc.version) + " is not supported; this ADV reads version " + VERSION);
      if (!("personalRules" in doc)) fail("", "missing key 'personalRules'");
      if (!("sourceHosts" in doc)) fail("", "missing key 'sourceHosts'");
      rules = readPersonalRules(doc.personalRules, "personalRules");
      sourceHosts = readSourceHosts(doc.sourceHosts);
    } else if (doc.format === RULES_FORMAT) {
      rules = readPersonalRules(doc, "");
    } else {
      fail("format", "unknown format " + JSON.stringify(doc.format) + "; expected '" + FORMAT + "' (an ADV export) or '" + RULES_FORMAT + "'");
    }
    if (rules.length > ADVPersonalFilters.MAX_BATCH) {
      fail("personalRules", "at most " + ADVPersonalFilters.MAX_BATCH + " filters per import, counted over all hostnames (the document has " + rules.length + "); split it by hostname into several imports");
    }
    if (rules.length === 0 && sourceHosts.length === 0) fail("", "the document holds no filters and no source hosts");
    return { rules, sourceHosts };
  }

  /**
   * Imports pasted `text`: validates everything, then adds the filters (keeping existing ones,
   * skipping duplicates) and blocks the source hosts through ADVSourceBlocks as one change.
   */
  async function importText(text) {
    const { rules, sourceHosts } = read(text);
    let result;
    try {
      result = await ADVPersonalFilters.importRecords(rules, sourceHosts);
    } catch (error) {
      // A failure that left the saved sources and the installed rules disagreeing says so itself.
      if (error.partial || error.repair || /nothing was (changed|imported)$/.test(error.message)) throw error;
      throw new Error(error.message + " — nothing was imported");
    }
    const { plan, sources } = result;
    const reply = {
      filters: { added: plan.added.length, skipped: plan.skipped, renamed: plan.renamed },
      hostnames: [...new Set(plan.added.map((r) => r.hostname))].sort(),
      sources: { added: sources.added, skipped: sources.skipped.length },
    };
    // The import also ended a pending disagreement of saved sources and installed rules.
    return sources.repaired ? { ...reply, repaired: sources.repaired } : reply;
  }

  return { exportText, exportDocument, importText, read, FORMAT, VERSION };
})();
