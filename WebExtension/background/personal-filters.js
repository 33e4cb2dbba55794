// Personal filters: exact-hostname CSS selectors in the personal-rules document shared with the
// native rule store (fixtures/rules/README.md): records with a stable id, hostname, selector,
// modification time and deletion marker; never page URLs.
//
// Two homes: browser.storage.local (no App Group), or — when the native app answers — the
// locked App Group file it shares with the app, reached through runtime.sendNativeMessage.
// On first access in App Group mode the browser-local rules, deletion markers included, are
// migrated into the shared file; the app records the migration, so it happens exactly once.
"use strict";

var ADVPersonalFilters = (() => {
  const STORAGE_KEY = "personalRules";
  const MAX_BATCH = 1000;
  const NATIVE_APP = "tools.ars.browser.adv";
  let backendChoice = null;
  const serialize = ADVSerialQueue.make();


  function emptyDocument() {
    return { format: "adv-personal-rules", version: 1, rules: [] };
  }

  async function load() {
    const stored = (await browser.storage.local.get(STORAGE_KEY))[STORAGE_KEY];
    if (!stored || stored.format !== "adv-personal-rules" || !Array.isArray(stored.rules)) return emptyDocument();
    return stored;
  }

  // Every page load asks for its host's filters. Reading the whole document from storage for
  // each (every host's filters, parsed again per frame) is kept to once per background life:
  // the live filters are indexed by host in memory. This background is the only writer of the
  // document (content scripts, the popup and the picker change filters through its messages),
  // so its own writes are what makes the index stale: while one is under way reads go to
  // storage, each drops the index when it ends (written, failed or rolled back), and a read
  // that began before a write started or ended is not kept.
  let liveByHost = null;
  let generation = 0;
  let writes = 0;
  async function writing(body) {
    writes++;
    generation++;
    try {
      return await body();
    } finally {
      writes--;
      generation++;
      liveByHost = null;
    }
  }
  async function localLiveFilters(host) {
    let index = writes === 0 ? liveByHost : null;
    if (!index) {
      const started = generation;
      index = new Map();
      for (const rule of (await load()).rules) {
        if (!rule || rule.deleted) continue;
        let entry = index.get(rule.hostname);
        if (!entry) index.set(rule.hostname, entry = []);
        entry.push(rule);
      }
      for (const [hostname, rules] of index) index.set(hostname, sortOut(rules));
      if (writes === 0 && started === generation) liveByHost = index;
    }
    return index.get(host) || { filters: [], skipped: [] };
  }

  /** A selector list and nothing else, or { error } (shared/selector-validation.js). */
  function validate(text) {
    return ADVSelectorValidation.validate(text);
  }

  /**
   * One host's live records as { filters: [{ id, selector }], skipped: [{ id, selector, error }] }.
   * Stored selectors pass the popup's validation again here, wherever they come from: storage an
   * older ADV wrote (it let '{', '}' and at-rules through), the App Group file the native app
   * writes (its store checks only length and control characters), an import. Those that fail
   * are never served to a page; the popup lists them once each as diagnostics.
   */
  function sortOut(rules) {
    const filters = [];
    const skipped = [];
    for (const rule of rules) {
      const checked = validate(rule.selector);
      if (checked.error) skipped.push({ id: rule.id, selector: String(rule.selector), error: checked.error });
      else filters.push({ id: rule.id, selector: checked.selector });
    }
    return { filters, skipped };
  }

  async function native(message) {
    const reply = await browser.runtime.sendNativeMessage(NATIVE_APP, message);
    if (!reply || !reply.ok) throw new Error(reply && reply.error ? reply.error.message : "the ADV app did not answer");
    return reply;
  }

  /** "native" when the app's shared rule file is usable (migrating browser-local rules into it), else "local". */
  function backend() {
    if (!backendChoice) {
      backendChoice = (async () => {
        if (typeof browser.runtime.sendNativeMessage !== "function") return "local";
        try {
          const state = (await native({ type: "state" })).state;
          if (state.status !== "ok" && state.status !== "missing") return "local";
          const local = await load();
          if (local.rules.length) await native({ type: "migrate", document: local });
          return "native";
        } catch (error) {
          return "local";
        }
      })();
    }
    return backendChoice;
  }

  /** Tells every open tab that the filters changed (content scripts listen to storage). */
  function announce(revision) {
    return browser.storage.local.set({ personalRulesRevision: String(revision) });
  }

  function stamp(previous) {
    return Math.max(Date.now(), previous === undefined ? 0 : previous + 1);
  }

  /**
   * Adds the selectors of `text` (one per line) for `hostname`. Blank lines are ignored,
   * duplicates skipped; any invalid line cancels the whole batch and names its line number.
   */
  function add(hostname, text) {
    return serialize(async () => {
      // The same hostname policy as source blocks and the native rule store: a filter that one
      // of them would refuse (an IP address, localhost, a public suffix) is refused here too.
      const checked = ADVHostnames.normalize(hostname, "personal filters");
      if (checked.error) throw new Error(checked.error);
      const host = checked.host;
      const lines = String(text).split(/\r\n|\r|\n/);
      const selectors = [];
      lines.forEach((line, index) => {
        if (line.trim() === "") return;
        const result = validate(line);
        if (result.error) throw new Error("line " + (index + 1) + ": " + result.error + " — nothing was saved");
        selectors.push(result.selector);
      });
      if (selectors.length === 0) throw new Error("no selectors to add");
      if (selectors.length > MAX_BATCH) throw new Error("at most " + MAX_BATCH + " selectors per submission (got " + selectors.length + ") — nothing was saved");
      if ((await backend()) === "native") {
        const unique = [...new Set(selectors)];
        const existing = new Set((await native({ type: "list", hostname: host })).rules.map((r) => r.selector));
        const fresh = unique.filter((selector) => !existing.has(selector));
        let added = [];
        if (fresh.length) {
          const reply = await native({ type: "saveBatch", rules: fresh.map((selector) => ({ id: crypto.randomUUID(), hostname: host, selector })) });
          added = reply.saved.map((r) => ({ id: r.id, selector: r.selector }));
          await announce(reply.revision);
        }
        return { added, skipped: selectors.length - added.length };
      }
      const doc = await load();
      const existing = new Set(doc.rules.filter((r) => !r.deleted && r.hostname === host).map((r) => r.selector));
      const added = [];
      let skipped = 0;
      for (const selector of selectors) {
        if (existing.has(selector)) { skipped++; continue; }
        existing.add(selector);
        const rule = { id: crypto.randomUUID(), hostname: host, selector, modifiedAt: stamp(), deleted: false };
        doc.rules.push(rule);
        added.push(rule);
      }
      if (added.length) await writing(() => browser.storage.local.set({ [STORAGE_KEY]: doc }));
      return { added: added.map((r) => ({ id: r.id, selector: r.selector })), skipped };
    });
  }

  /** Removes a filter, keeping a deletion marker so another device cannot bring it back. */
  function remove(id) {
    return serialize(async () => {
      if ((await backend()) === "native") {
        const reply = await native({ type: "delete", ids: [id] });
        if (!reply.deleted.includes(id)) throw new Error("no filter with id " + id);
        await announce(reply.revision);
        return { removed: id };
      }
      const doc = await load();
      const rule = doc.rules.find((r) => r.id === id && !r.deleted);
      if (!rule) throw new Error("no filter with id " + id);
      rule.deleted = true;
      rule.modifiedAt = stamp(rule.modifiedAt);
      await writing(() => browser.storage.local.set({ [STORAGE_KEY]: doc }));
      return { removed: id };
    });
  }

  // MARK: - Editing one saved filter (the popup's Edit)

  /**
   * One live rule as { id, hostname, selector, modifiedAt }: what Edit loads. `modifiedAt` is
   * the rule's revision; the edit hands it back, and update refuses it once the rule has changed.
   */
  async function get(id) {
    const rules = (await backend()) === "native"
      ? (await native({ type: "list" })).rules
      : (await load()).rules;
    const rule = rules.find((r) => r && r.id === id && !r.deleted);
    if (!rule) throw new Error("no saved filter with id " + id + ": it was removed");
    return { id: rule.id, hostname: rule.hostname, selector: String(rule.selector), modifiedAt: rule.modifiedAt };
  }

  /**
   * Replaces the selector of rule `id`, keeping its id (its identity: sync, deletion markers and
   * the App Group file follow the id), if the rule is still at revision `expectedModifiedAt`, the
   * one its editor loaded. A rule changed since (another popup or workspace saved it first, the
   * native app or another device synced a change) or removed since is refused, and nothing is
   * written: the later save must not silently undo the earlier one. One selector only; a
   * selector another live rule of the host already has is refused too (it would be a duplicate).
   * In App Group mode the check and the write are two messages to the app (list, then saveBatch
   * with the same id, which updates the record in place): a change the app makes between them
   * is not caught, unlike a change of another ADV window, which this queue orders.
   */
  function update(id, text, expectedModifiedAt) {
    return serialize(async () => {
      const lines = String(text).split(/\r\n|\r|\n/).filter((line) => line.trim() !== "");
      if (lines.length !== 1) throw new Error("an edit holds exactly one selector (got " + lines.length + ") — nothing was saved");
      const checked = validate(lines[0]);
      if (checked.error) throw new Error(checked.error + " — nothing was saved");
      const selector = checked.selector;
      const shared = (await backend()) === "native";
      const doc = shared ? null : await load();
      const rules = shared ? (await native({ type: "list" })).rules : doc.rules;
      const rule = rules.find((r) => r && r.id === id && !r.deleted);
      if (!rule) throw new Error("this filter was removed after you loaded it for editing — nothing was saved");
      if (rule.modifiedAt !== expectedModifiedAt) {
        const error = new Error("this filter changed after you loaded it for editing (it is now " + rule.selector +
          ", saved from another ADV window or device) — nothing was saved: choose Edit again to load the current version");
        error.stale = true;
        throw error;
      }
      if (selector === rule.selector) return { id, selector, modifiedAt: rule.modifiedAt, changed: false };
      if (rules.some((r) => r && !r.deleted && r.id !== id && r.hostname === rule.hostname && r.selector === selector)) {
        throw new Error(selector + " is already saved for " + rule.hostname + " — nothing was saved");
      }
      if (shared) {
        const reply = await native({ type: "saveBatch", rules: [{ id, hostname: rule.hostname, selector }] });
        const saved = reply.saved.find((r) => r.id === id);
        if (!saved) throw new Error(selector + " is already saved for " + rule.hostname + " — nothing was saved");
        await announce(reply.revision);
        return { id, selector: saved.selector, modifiedAt: saved.modifiedAt, changed: true };
      }
      rule.selector = selector;
      rule.modifiedAt = stamp(rule.modifiedAt);
      await writing(() => browser.storage.local.set({ [STORAGE_KEY]: doc }));
      return { id, selector, modifiedAt: rule.modifiedAt, changed: true };
    });
  }

  /**
   * The live filters of exactly `hostname` (not its subdomains, not its parent), sorted out:
   * { filters } that pass validation, { skipped } that do not (sortOut).
   */
  async function listHost(hostname) {
    const host = String(hostname || "").toLowerCase();
    if ((await backend()) === "native") return sortOut((await native({ type: "list", hostname: host })).rules);
    return localLiveFilters(host);
  }

  /** The filters a page of exactly `hostname` applies: live ones that pass validation. */
  async function forHost(hostname) {
    return (await listHost(hostname)).filters.map((f) => ({ id: f.id, selector: f.selector }));
  }

  // MARK: - Moving rules to another ADV (background/rule-transfer.js validates the document)

  function byId(a, b) {
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  }

  /** Every live filter as a full record, in the rule store's key order, sorted by id as it sorts. */
  async function records() {
    const rules = (await backend()) === "native"
      ? (await native({ type: "list" })).rules
      : (await load()).rules.filter((r) => !r.deleted);
    return rules.map((r) => ({ id: r.id, hostname: r.hostname, selector: r.selector, modifiedAt: r.modifiedAt, deleted: false })).sort(byId);
  }

  /**
   * Which incoming records to add to `existing` (all stored records, deletion markers included).
   * Existing records are never changed. A selector already live for its host is a duplicate
   * (skipped); an id already used by any stored record (another rule, or a deletion marker,
   * which must keep protecting against stale copies) gets a fresh id and a fresh stamp.
   */
  function planImport(existing, incoming) {
    const key = (r) => r.hostname + "\u0000" + r.selector;
    const ids = new Set(existing.map((r) => r.id).concat(incoming.map((r) => r.id)));
    const taken = new Set(existing.map((r) => r.id));
    const live = new Set(existing.filter((r) => !r.deleted).map(key));
    const added = [];
    let skipped = 0;
    let renamed = 0;
    for (const rule of incoming) {
      if (live.has(key(rule))) { skipped++; continue; }
      live.add(key(rule));
      const record = { id: rule.id, hostname: rule.hostname, selector: rule.selector, modifiedAt: rule.modifiedAt, deleted: false };
      if (taken.has(rule.id)) {
        do record.id = crypto.randomUUID(); while (ids.has(record.id));
        record.modifiedAt = stamp();
        renamed++;
      }
      ids.add(record.id);
      taken.add(record.id);
      added.push(record);
    }
    return { added, skipped, renamed };
  }

  /**
   * Adds validated records (live, normalized) and blocks `sourceHosts` as one change. Locally the
   * filters are written in the same storage.set as the source hosts, after their DNR rules, so
   * ADVSourceBlocks' rollback covers both: all lands or nothing does. With the App Group store the
   * sources are blocked first and unblocked again if the app refuses the filters; the app stamps
   * the filters' modification times itself (its saveBatch takes none).
   */
  function importRecords(incoming, sourceHosts) {
    return serialize(async () => {
      if ((await backend()) === "native") {
        const plan = planImport((await native({ type: "list", includeDeleted: true })).rules, incoming);
        const sources = await ADVSourceBlocks.block(sourceHosts);
        let skipped = plan.skipped;
        if (plan.added.length) {
          let reply;
          try {
            reply = await native({ type: "saveBatch", rules: plan.added.map((r) => ({ id: r.id, hostname: r.hostname, selector: r.selector })) });
          } catch (error) {
            if (sources.added.length) {
              try {
                await ADVSourceBlocks.unblockAll(sources.added);
              } catch (rollback) {
                const partial = new Error(error.message + "; the filters were not imported, but the source hosts " + sources.added.join(", ") + " stay blocked (" + rollback.message + ")");
                partial.partial = true;
                if (rollback.repair) partial.repair = rollback.repair;
                throw partial;
              }
            }
            throw error;
          }
          skipped += reply.skipped.length;
          plan.added = plan.added.filter((r) => !reply.skipped.includes(r.id));
          await announce(reply.revision);
        }
        return { plan: { ...plan, skipped }, sources };
      }
      const doc = await load();
      const plan = planImport(doc.rules, incoming);
      doc.rules.push(...plan.added);
      const sources = await writing(() => ADVSourceBlocks.block(sourceHosts, { saveWith: plan.added.length ? { [STORAGE_KEY]: doc } : null }));
      return { plan, sources };
    });
  }

  return { add, remove, get, update, forHost, listHost, backend, validate, records, importRecords, STORAGE_KEY, MAX_BATCH };
})();
