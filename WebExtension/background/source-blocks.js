// Global source blocks: hosts saved in storage.local, each installed as one dynamic DNR rule
// that blocks the host and its subdomains for every resource type except main_frame (top-level
// navigation to the provider stays allowed).
//
// Consistency rule: storage.local is the source of truth. A change updates the DNR rules
// first, then storage; if the DNR update fails nothing was written; if the storage write fails
// the DNR change is undone. A background that stops between the two (Safari may suspend or
// restart it) reconciles at its next start: the dynamic rules are rebuilt from the saved hosts.
"use strict";

var ADVSourceBlocks = (() => {
  const STORAGE_KEY = "sourceBlocks";
  const MAX_HOSTS = 1000;
  const FIRST_RULE_ID = 1000;
  const serialize = ADVSerialQueue.make();


  async function savedHosts() {
    const stored = await browser.storage.local.get({ [STORAGE_KEY]: [] });
    return Array.isArray(stored[STORAGE_KEY]) ? stored[STORAGE_KEY] : [];
  }

  function ruleFor(host, id) {
    return { id, priority: 1, action: { type: "block" }, condition: { requestDomains: [host], excludedResourceTypes: ["main_frame"] } };
  }

  function isSourceRule(rule) {
    return rule.id >= FIRST_RULE_ID && rule.condition && Array.isArray(rule.condition.requestDomains) && rule.condition.requestDomains.length === 1;
  }

  function freeIds(rules, count) {
    const used = new Set(rules.map((rule) => rule.id));
    const ids = [];
    for (let id = FIRST_RULE_ID; ids.length < count; id++) if (!used.has(id)) ids.push(id);
    return ids;
  }

  /**
   * Blocks `inputs` (hostnames). Returns { added, skipped: [{ host, reason }] } or throws with
   * the reason when nothing can be saved. Duplicates and invalid hosts are reported, not saved.
   *
   * `saveWith` (optional) holds more storage.local items to write in the same storage.set as the
   * hosts, so a caller's own change (an import's personal filters) lands together with the
   * hosts or, after the same DNR rollback, not at all.
   */
  function block(inputs, { saveWith = null } = {}) {
    return serialize(async () => {
      const hosts = await savedHosts();
      const known = new Set(hosts.map((entry) => entry.host));
      const added = [];
      const skipped = [];
      for (const input of inputs) {
        const result = ADVHostnames.normalize(input);
        if (result.error) { skipped.push({ host: String(input), reason: result.error }); continue; }
        if (known.has(result.host)) { skipped.push({ host: result.host, reason: "already blocked" }); continue; }
        known.add(result.host);
        added.push(result.host);
      }
      if (added.length === 0) {
        if (saveWith) await browser.storage.local.set(saveWith);
        return { added, skipped };
      }
      if (hosts.length + added.length > MAX_HOSTS) {
        throw new Error("at most " + MAX_HOSTS + " source hosts can be blocked (" + hosts.length + " are saved)");
      }
      const rules = await browser.declarativeNetRequest.getDynamicRules();
      const ids = freeIds(rules, added.length);
      const addRules = added.map((host, index) => ruleFor(host, ids[index]));
      await browser.declarativeNetRequest.updateDynamicRules({ addRules });
      const now = Date.now();
      try {
        await browser.storage.local.set({ ...saveWith, [STORAGE_KEY]: hosts.concat(added.map((host) => ({ host, addedAt: now }))) });
      } catch (error) {
        await browser.declarativeNetRequest.updateDynamicRules({ removeRuleIds: addRules.map((rule) => rule.id) });
        throw new Error("could not save the blocked sources (" + error.message + "); nothing was changed");
      }
      return { added, skipped };
    });
  }

  /** Unblocks `host`: removes its rule and its saved entry, with the same rollback. */
  function unblock(host) {
    return serialize(() => removeHosts([host], { removed: host }));
  }

  /** Unblocks every host of `list` (all saved) in one DNR update and one storage write. */
  function unblockAll(list) {
    return serialize(() => removeHosts(list, { removed: list }));
  }

  async function removeHosts(list, result) {
    const gone = new Set(list);
    const hosts = await savedHosts();
    const missing = list.find((host) => !hosts.some((entry) => entry.host === host));
    if (missing !== undefined) throw new Error("'" + missing + "' is not blocked");
    const remaining = hosts.filter((entry) => !gone.has(entry.host));
    const rules = (await browser.declarativeNetRequest.getDynamicRules()).filter((rule) => isSourceRule(rule) && gone.has(rule.condition.requestDomains[0]));
    await browser.declarativeNetRequest.updateDynamicRules({ removeRuleIds: rules.map((rule) => rule.id) });
    try {
      await browser.storage.local.set({ [STORAGE_KEY]: remaining });
    } catch (error) {
      await browser.declarativeNetRequest.updateDynamicRules({ addRules: rules });
      throw new Error("could not save the change (" + error.message + "); '" + list.join("', '") + "' stays blocked");
    }
    return result;
  }

  /** Makes the dynamic source rules match the saved hosts exactly (at every background start). */
  function restore() {
    return serialize(async () => {
      const hosts = (await savedHosts()).map((entry) => entry.host);
      const wanted = new Set(hosts);
      const rules = await browser.declarativeNetRequest.getDynamicRules();
      const sourceRules = rules.filter(isSourceRule);
      const stale = sourceRules.filter((rule) => !wanted.has(rule.condition.requestDomains[0]));
      const present = new Set(sourceRules.map((rule) => rule.condition.requestDomains[0]));
      const missing = hosts.filter((host) => !present.has(host));
      if (stale.length === 0 && missing.length === 0) return { restored: 0, removed: 0 };
      const ids = freeIds(rules.filter((rule) => !stale.includes(rule)), missing.length);
      await browser.declarativeNetRequest.updateDynamicRules({
        removeRuleIds: stale.map((rule) => rule.id),
        addRules: missing.map((host, index) => ruleFor(host, ids[index])),
      });
      return { restored: missing.length, removed: stale.length };
    });
  }

  async function list() {
    return (await savedHosts()).map((entry) => entry.host);
  }

  return { block, unblock, unblockAll, restore, list, STORAGE_KEY, MAX_HOSTS };
})();
