// Global source blocks: hosts saved in storage.local, each installed as one dynamic DNR rule
// that blocks the host and its subdomains for every resource type except main_frame (top-level
// navigation to the provider stays allowed).
//
// Consistency rule: storage.local is the source of truth, and every change ends with the source
// rules blocking exactly the saved hosts. A change updates the DNR rules first, then storage; if
// the DNR update fails nothing was written; if the storage write fails the DNR change is undone.
// A background that stops between the two (Safari may suspend or restart it) reconciles at its
// next start: the dynamic rules are rebuilt from the saved hosts.
//
// When the undo fails too, or the check at start cannot run, the two disagree. That is a pending
// repair, kept here and in storage.session with its reason: the caller is told both errors and
// that they disagree, sources.list reports it (with the hosts whose rule is active although they
// are not saved: they are blocked all the same, so Unblock takes them), and the next change
// (block, unblock, import) or background start makes the rules match storage again.
"use strict";

var ADVSourceBlocks = (() => {
  const STORAGE_KEY = "sourceBlocks";
  const REPAIR_KEY = "sourceBlocksRepair";
  const MAX_HOSTS = 1000;
  const FIRST_RULE_ID = 1000;
  const REPAIRS_LATER = "ADV repairs them at the next change or start";
  const serialize = ADVSerialQueue.make();

  // The pending repair, or null: { reason, activeNotSaved: [hosts], savedNotActive: [hosts] }
  // (both empty when the rules could not be read).
  let repair = null;
  // A session record whose removal failed: removed again when the next change ends consistent.
  let recordLeft = false;

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

  function hostOf(rule) {
    return rule.condition.requestDomains[0];
  }

  function freeIds(used, count) {
    const ids = [];
    for (let id = FIRST_RULE_ID; ids.length < count; id++) if (!used.has(id)) ids.push(id);
    return ids;
  }

  /**
   * What makes the source rules among `rules` block exactly the hosts of `hosts`: { remove, add,
   * after }. Rules of other hosts (and a second rule of one host) are removed; a wanted host
   * without a rule gets its rule from `earlier` when that id is free (an undo puts back the very
   * rule it removed), else a new rule with the lowest free id.
   */
  function plan(rules, hosts, earlier = []) {
    const want = new Set(hosts);
    const wanted = [...want]; // each host once, in order
    const kept = new Set();
    const remove = [];
    for (const rule of rules) {
      if (!isSourceRule(rule)) continue;
      if (want.has(hostOf(rule)) && !kept.has(hostOf(rule))) kept.add(hostOf(rule));
      else remove.push(rule);
    }
    const staying = rules.filter((rule) => !remove.includes(rule));
    const used = new Set(staying.map((rule) => rule.id));
    const missing = wanted.filter((host) => !kept.has(host));
    const reused = new Map();
    for (const host of missing) {
      const before = earlier.find((rule) => isSourceRule(rule) && hostOf(rule) === host && !used.has(rule.id));
      if (before) { reused.set(host, before); used.add(before.id); }
    }
    const ids = freeIds(used, missing.length - reused.size);
    const add = missing.map((host) => reused.get(host) || ruleFor(host, ids.shift()));
    return { remove, add, after: staying.concat(add) };
  }

  function changes(step) {
    return step.remove.length > 0 || step.add.length > 0;
  }

  /** One updateDynamicRules call for `step`, naming only what it changes. */
  function install(step) {
    const update = {};
    if (step.remove.length) update.removeRuleIds = step.remove.map((rule) => rule.id);
    if (step.add.length) update.addRules = step.add;
    return browser.declarativeNetRequest.updateDynamicRules(update);
  }

  // MARK: - Pending repair

  function disagreement(hosts, rules) {
    const saved = hosts.map((entry) => entry.host);
    const active = rules.filter(isSourceRule).map(hostOf);
    return { activeNotSaved: active.filter((host) => !saved.includes(host)), savedNotActive: saved.filter((host) => !active.includes(host)) };
  }

  /**
   * The session copy of the pending repair (it outlives a suspended background, for inspection):
   * best effort, as storage.session is Safari 16.4+ and may fail like storage.local. The copy in
   * memory drives the reports and the repair.
   */
  async function keepRecord(record) {
    if (!browser.storage.session) return;
    try {
      if (record) await browser.storage.session.set({ [REPAIR_KEY]: record });
      else await browser.storage.session.remove(REPAIR_KEY);
      recordLeft = false;
    } catch (error) {
      if (!record) recordLeft = true;
    }
  }

  /** Records that the saved `hosts` and the `rules` disagree (either may be unknown: null) and why. */
  async function pend(reason, hosts, rules) {
    repair = { reason, ...(hosts && rules ? disagreement(hosts, rules) : { activeNotSaved: [], savedNotActive: [] }) };
    await keepRecord(repair);
  }

  /** The rules match storage again: drops the pending repair and returns it (null if there was none). */
  async function agreed() {
    const done = repair;
    repair = null;
    if (done || recordLeft) await keepRecord(null);
    return done;
  }

  function disagreeing(message, record) {
    const error = new Error(message);
    error.repair = { ...record };
    return error;
  }

  /** Runs one change in turn; a change that fails while a repair is pending says they still disagree. */
  function change(task) {
    return serialize(async () => {
      try {
        return await task();
      } catch (error) {
        if (!repair || error.repair) throw error;
        throw disagreeing(error.message + "; the saved sources and the installed rules still disagree: " + REPAIRS_LATER, repair);
      }
    });
  }

  function withRepaired(result, repaired) {
    return repaired ? { ...result, repaired } : result;
  }

  /**
   * The two steps of every change, from the saved `hosts` and the dynamic `rules`: the rules are
   * made to block exactly `wanted` (which also repairs a pending disagreement), then `items()` is
   * written to storage.local when it gives anything (called after the DNR update, so a new host's
   * addedAt is when its rule went in). If the write fails the rules go back to blocking exactly
   * the saved `hosts`; if that fails too, the repair is pending and the error names both causes.
   * `failure` words the error: { what: "could not save …", kept: "nothing was changed" }.
   * Returns the repair this change completed, or null.
   */
  async function commit({ hosts, rules, wanted, items, failure }) {
    const step = plan(rules, wanted);
    if (changes(step)) await install(step);
    const write = items();
    if (write) {
      try {
        await browser.storage.local.set(write);
      } catch (error) {
        const undo = plan(step.after, hosts.map((entry) => entry.host), step.remove);
        try {
          if (changes(undo)) await install(undo);
        } catch (undoError) {
          const reason = failure.what + " (" + error.message + "), and undoing the rule change failed too (" + undoError.message + ")";
          await pend(reason, hosts, step.after);
          throw disagreeing(reason + ": the saved sources and the installed rules disagree; " + REPAIRS_LATER, repair);
        }
        await agreed();
        throw new Error(failure.what + " (" + error.message + "); " + failure.kept);
      }
    }
    return agreed();
  }

  // MARK: - Changes

  /**
   * Blocks `inputs` (hostnames). Returns { added, skipped: [{ host, reason }] } (and `repaired`
   * when it also ended a pending repair) or throws with the reason when nothing can be saved.
   * Duplicates and invalid hosts are reported, not saved.
   *
   * `saveWith` (optional) holds more storage.local items to write in the same storage.set as the
   * hosts, so a caller's own change (an import's personal filters) lands together with the
   * hosts or, after the same DNR rollback, not at all.
   */
  function block(inputs, { saveWith = null } = {}) {
    return change(async () => {
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
      if (added.length === 0 && !repair) {
        if (saveWith) await browser.storage.local.set(saveWith);
        return { added, skipped };
      }
      if (hosts.length + added.length > MAX_HOSTS) {
        throw new Error("at most " + MAX_HOSTS + " source hosts can be blocked (" + hosts.length + " are saved)");
      }
      const rules = await browser.declarativeNetRequest.getDynamicRules();
      const repaired = await commit({
        hosts,
        rules,
        wanted: hosts.map((entry) => entry.host).concat(added),
        items: () => {
          if (added.length === 0) return saveWith;
          const now = Date.now();
          return { ...saveWith, [STORAGE_KEY]: hosts.concat(added.map((host) => ({ host, addedAt: now }))) };
        },
        failure: { what: "could not save the blocked sources", kept: "nothing was changed" },
      });
      return withRepaired({ added, skipped }, repaired);
    });
  }

  /** Unblocks `host`: removes its rule and its saved entry, with the same rollback. */
  function unblock(host) {
    return change(() => removeHosts([host], { removed: host }));
  }

  /** Unblocks every host of `list` (all blocked) in one DNR update and one storage write. */
  function unblockAll(list) {
    return change(() => removeHosts(list, { removed: list }));
  }

  async function removeHosts(list, result) {
    const gone = new Set(list);
    const hosts = await savedHosts();
    const rules = await browser.declarativeNetRequest.getDynamicRules();
    // A host is blocked while it is saved or while its rule is active: an undo that failed can
    // leave a rule without its saved host, and Unblock must take that rule away too.
    const active = new Set(rules.filter(isSourceRule).map(hostOf));
    const missing = list.find((host) => !active.has(host) && !hosts.some((entry) => entry.host === host));
    if (missing !== undefined) throw new Error("'" + missing + "' is not blocked");
    const remaining = hosts.filter((entry) => !gone.has(entry.host));
    const repaired = await commit({
      hosts,
      rules,
      wanted: remaining.map((entry) => entry.host),
      items: () => (remaining.length === hosts.length ? null : { [STORAGE_KEY]: remaining }),
      failure: { what: "could not save the change", kept: "'" + list.join("', '") + "' stays blocked" },
    });
    return withRepaired(result, repaired);
  }

  /**
   * Makes the dynamic source rules match the saved hosts exactly (at every background start). When
   * it cannot, the repair is pending until the next change or start.
   */
  function restore() {
    return serialize(async () => {
      let hosts = null;
      let rules = null;
      try {
        hosts = await savedHosts();
        rules = await browser.declarativeNetRequest.getDynamicRules();
      } catch (error) {
        await pend("could not check the source rules at start (" + error.message + ")", null, null);
        throw error;
      }
      const step = plan(rules, hosts.map((entry) => entry.host));
      if (!changes(step)) return { restored: 0, removed: 0 };
      try {
        await browser.declarativeNetRequest.updateDynamicRules({ removeRuleIds: step.remove.map((rule) => rule.id), addRules: step.add });
      } catch (error) {
        await pend("could not repair the source rules at start (" + error.message + ")", hosts, rules);
        throw error;
      }
      // A record an earlier background life left in storage.session is settled now.
      repair = null;
      await keepRecord(null);
      return { restored: step.add.length, removed: step.remove.length };
    });
  }

  async function list() {
    return (await savedHosts()).map((entry) => entry.host);
  }

  /** The pending repair ({ reason, activeNotSaved, savedNotActive }), or null when storage and the rules agree. */
  function pendingRepair() {
    return repair ? { ...repair } : null;
  }

  return { block, unblock, unblockAll, restore, list, pendingRepair, STORAGE_KEY, MAX_HOSTS };
})();
