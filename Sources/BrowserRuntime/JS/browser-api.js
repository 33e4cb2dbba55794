// The `browser` namespace an extension context sees, built from the API surface table that
// Swift passes in (namespace -> method -> [min, max] arguments). Every method validates its
// argument count the way webextension-polyfill does ("Expected at least 1 argument for
// sendMessage(), got 0") and forwards to Swift, which answers with a promise made in the
// caller's realm. Namespaces absent from the table are absent here, as in a browser that lacks them.
// `tests` is test-api.js: browser.test and chrome.test for an extension under test;
// `tabChecks` is tabs-arguments.js: the tabs methods' argument checks.
(function (host, tests, tabChecks) {
  "use strict";

  function plural(n) { return n === 1 ? "argument" : "arguments"; }

  // `own`: the calling context's Error, TypeError and Promise. What a context's `browser` throws
  // or rejects with is made in the context's realm (`e instanceof TypeError` holds there), as
  // a browser's bindings make their exceptions in the caller's global object.
  function makeEvent(qualifiedName, own) {
    const listeners = [];
    const check = (listener) => {
      if (typeof listener !== "function") throw new own.TypeError(qualifiedName + ".addListener: listener must be a function");
    };
    return {
      listeners,
      api: Object.freeze({
        addListener(listener) { check(listener); if (!listeners.includes(listener)) listeners.push(listener); },
        removeListener(listener) { const i = listeners.indexOf(listener); if (i >= 0) listeners.splice(i, 1); },
        hasListener(listener) { return listeners.includes(listener); },
        hasListeners() { return listeners.length > 0; },
      }),
    };
  }

  // A webRequest event: addListener(listener, filter, extraInfoSpec) with a RequestFilter
  // ({urls, types, tabId, windowId}); a listener hears only the requests its filter matches
  // (the browser matches `urls`, host.matchesPattern). Chrome requires `urls`.
  function makeFilteredEvent(qualifiedName, own, profile) {
    const event = makeEvent(qualifiedName, own);
    const wrappers = new Map();
    const api = Object.freeze({
      addListener(listener, filter, extraInfoSpec) {
        if (typeof listener !== "function") throw new own.TypeError(qualifiedName + ".addListener: listener must be a function");
        if (filter === undefined || filter === null || typeof filter !== "object" || !Array.isArray(filter.urls)) {
          throw new own.TypeError(profile === "chromium"
            ? "Error in invocation of webRequest.RequestFilter filter: Missing required property 'urls'."
            : "Invalid call to " + qualifiedName + ".addListener(). The 'filter' value is invalid, because it is missing required keys: 'urls'.");
        }
        // extraInfoSpec: headers only for a listener that asks for them. WebKit keeps
        // requestHeaders, responseHeaders and requestBody and drops the rest
        // (WebExtensionAPIWebRequestEventCocoa.mm, addListener); Chrome refuses blocking
        // listeners without webRequestBlocking (Manifest V3 has none) and, without
        // extraHeaders, leaves out the headers its docs name (Accept-Language, Accept-Encoding,
        // Referer and Cookie of a request; Set-Cookie of a response).
        const extra = Array.isArray(extraInfoSpec) ? extraInfoSpec.map(String) : [];
        if (profile === "chromium" && (extra.includes("blocking") || extra.includes("asyncBlocking"))) {
          throw new own.Error("You do not have permission to use blocking webRequest listeners. Be sure to declare the webRequestBlocking permission in your manifest. Note that webRequestBlocking is only allowed for policy-installed extensions.");
        }
        const hidden = profile === "chromium" && !extra.includes("extraHeaders")
          ? { requestHeaders: ["accept-language", "accept-encoding", "referer", "cookie"], responseHeaders: ["set-cookie"] } : null;
        if (wrappers.has(listener)) return;
        const urls = filter.urls.map(String), types = Array.isArray(filter.types) ? filter.types.map(String) : null;
        const wrapper = (details) => {
          if (types && !types.includes(details.type)) return undefined;
          if (typeof filter.tabId === "number" && filter.tabId !== details.tabId) return undefined;
          if (!urls.some((pattern) => host.matchesPattern(pattern, details.url))) return undefined;
          let given = details;
          for (const key of ["requestHeaders", "responseHeaders"]) {
            if (!(key in given)) continue;
            if (given === details) given = own.copy(details);
            if (!extra.includes(key)) delete given[key];
            else if (hidden) given[key] = given[key].filter((header) => !hidden[key].includes(header.name.toLowerCase()));
          }
          return listener(given);
        };
        wrappers.set(listener, wrapper);
        event.api.addListener(wrapper);
      },
      removeListener(listener) {
        const wrapper = wrappers.get(listener);
        if (!wrapper) return;
        wrappers.delete(listener);
        event.api.removeListener(wrapper);
      },
      hasListener(listener) { return wrappers.has(listener); },
      hasListeners() { return wrappers.size > 0; },
    });
    return { listeners: event.listeners, api };
  }

  function ensure(root, path) {
    let node = root;
    for (const part of path) node = node[part] || (node[part] = {});
    return node;
  }

  // MARK: Checks made in the calling process, before anything crosses to the browser
  // (WebKit's WebProcess/Extensions/API/Cocoa/WebExtensionAPIScriptingCocoa.mm, in the words of
  // validateDictionary in WebExtensionUtilities.mm): a bad argument throws an Error at once,
  // "Invalid call to scripting.insertCSS(). The 'details' value is invalid, because it must
  // specify either 'css' or 'files'.", and no call is made. A function crosses as its source
  // text and is parsed again where it runs (a value cannot cross processes).
  const typeNames = {
    boolean: ["a boolean", "booleans"], number: ["a number", "numbers"], string: ["a string", "strings"],
    object: ["an object", "objects"], array: ["an array", "arrays"], any: ["a value", "values"],
  };
  function provided(value, plural) {
    const pick = (one, many) => (plural ? many : one);
    if (value === undefined) return pick("undefined", "undefined values");
    if (value === null) return pick("null", "null values");
    if (typeof value === "number") {
      if (Number.isNaN(value)) return pick("NaN", "NaN values");
      if (!Number.isFinite(value)) return pick("Infinity", "Infinity values");
    }
    if (typeof value === "function") return pick("a function", "functions");
    if (Object.prototype.toString.call(value) === "[object RegExp]") return pick("a regular expression", "regular expressions");
    if (typeof value === "object" && typeof value.then === "function") return pick("a promise", "promises");
    if (Array.isArray(value)) return typeNames.array[plural ? 1 : 0];
    const names = typeNames[typeof value] || typeNames.object;
    return names[plural ? 1 : 0];
  }
  function isOfType(value, type) {
    switch (type) {
      case "any": return true;
      case "number": return typeof value === "number" && Number.isFinite(value);
      case "boolean": return typeof value === "boolean";
      case "string": return typeof value === "string";
      case "object": return value !== null && typeof value === "object" && !Array.isArray(value) && typeof value.then !== "function";
      default: return false;
    }
  }
  // The reason `value` (an argument named `source`) is not a dictionary with `required` keys and
  // keys of `types` ("string", "number", "boolean", "object", "any", or ["string"] for an array
  // of strings), or null when it is one. Other keys are not looked at.
  function dictionaryProblem(value, source, required, types) {
    const invalid = (because) => "The '" + source + "' value is invalid, because " + because;
    if (!isOfType(value, "object")) return invalid("an object is expected, but " + provided(value) + " was provided");
    for (const key of Object.keys(value)) {
      const type = types[key];
      if (type === undefined || value[key] === undefined) continue;
      if (Array.isArray(type)) {
        const expected = "an array of " + typeNames[type[0]][1];
        if (!Array.isArray(value[key])) return invalid("'" + key + "' is expected to be " + expected + ", but " + provided(value[key]) + " was provided");
        const wrong = value[key].find((element) => !isOfType(element, type[0]));
        if (wrong !== undefined || value[key].some((element) => element === undefined)) {
          return invalid("'" + key + "' is expected to be " + expected + ", but " + provided(wrong) + " was provided in the array");
        }
      } else if (!isOfType(value[key], type)) {
        return invalid("'" + key + "' is expected to be " + typeNames[type][0] + ", but " + provided(value[key]) + " was provided");
      }
    }
    const missing = required.filter((key) => value[key] === undefined);
    if (missing.length) {
      const list = missing.length === 1 ? "'" + missing[0] + "'"
        : missing.length === 2 ? "'" + missing[0] + "' and '" + missing[1] + "'"
          : "'" + missing.slice(0, -1).join("', '") + "', and '" + missing[missing.length - 1] + "'";
      return invalid("it is missing required keys: " + list);
    }
    return null;
  }
  // windows.create/update's properties, checked as each browser's caller does (see
  // "windows.update" below) and copied with only the keys it reads.
  const windowStates = ["normal", "minimized", "maximized", "fullscreen"];
  function windowSignature(method) {
    return method === "update"
      ? "Error in invocation of windows.update(integer windowId, windows.UpdateInfo updateInfo, optional function callback): "
      : "Error in invocation of windows.create(optional windows.CreateData createData, optional function callback): ";
  }
  function windowProperties(method, value, own, profile) {
    const keys = { state: "string", focused: "boolean", top: "number", left: "number", width: "number", height: "number" };
    if (method === "create") Object.assign(keys, { type: "string", incognito: "boolean", url: "any", tabId: "number" });
    if (profile === "chromium") {
      const signature = windowSignature(method), parameter = method === "update" ? "updateInfo" : "createData";
      if (!isOfType(value, "object")) throw new own.TypeError(signature + "No matching signature.");
      const found = (v) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v);
      const at = (key, problem) => new own.TypeError(signature + "Error at parameter '" + parameter + "': Error at property '" + key + "': " + problem);
      for (const key of ["top", "left", "width", "height"]) {
        if (value[key] !== undefined && !Number.isInteger(value[key])) throw at(key, "Invalid type: expected integer, found " + found(value[key]) + ".");
      }
      for (const key of ["focused", "drawAttention", "incognito"]) {
        if (value[key] !== undefined && typeof value[key] !== "boolean") throw at(key, "Invalid type: expected boolean, found " + found(value[key]) + ".");
      }
      // Chrome's enum error lists the values in sorted order (api_invocation_errors.cc).
      if (value.state !== undefined && !windowStates.concat(["locked-fullscreen"]).includes(value.state)) {
        throw at("state", "Value must be one of fullscreen, locked-fullscreen, maximized, minimized, normal.");
      }
      keys.drawAttention = "boolean";
    } else {
      const source = method === "update" ? "properties" : "info";
      const problem = dictionaryProblem(value, source, [], keys);
      if (problem) throw callError("windows." + method + "()", problem, own);
      if (value.state !== undefined && !windowStates.includes(value.state)) {
        throw callError("windows." + method + "()", "The 'state' value is invalid, because it must specify 'normal', 'minimized', 'maximized', or 'fullscreen'", own);
      }
      const bounded = ["top", "left", "width", "height"].some((key) => value[key] !== undefined);
      if (bounded && value.state !== undefined && value.state !== "normal") {
        throw callError("windows." + method + "()", "The '" + source + "' value is invalid, because when 'top', 'left', 'width', or 'height' are specified, 'state' must specify 'normal'", own);
      }
    }
    const copy = {};
    for (const key of Object.keys(keys)) if (value[key] !== undefined) copy[key] = value[key];
    return copy;
  }
  function callError(api, problem, own) {
    const text = problem.replace(/\.+$/, "");
    return new own.Error("Invalid call to " + api + ". " + text.charAt(0).toUpperCase() + text.slice(1) + ".");
  }
  const isIdentifier = (n) => Number.isInteger(n) && n >= 0;
  const isUUID = (text) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
  // The injection target (parseTargetInjectionOptions), copied: only the keys WebKit reads.
  function targetOf(details, fail) {
    const target = details.target;
    const problem = dictionaryProblem(target, "target", ["tabId"], { allFrames: "boolean", documentIds: ["string"], frameIds: ["number"], tabId: "number" });
    if (problem) throw fail(problem);
    const invalid = (because) => fail("The 'target' value is invalid, because " + because);
    if (target.allFrames === true && target.frameIds !== undefined) throw invalid("it cannot specify both 'allFrames' and 'frameIds'");
    if (target.frameIds !== undefined && target.documentIds !== undefined) throw invalid("it cannot specify both 'frameIds' and 'documentIds'");
    if (target.allFrames === true && target.documentIds !== undefined) throw invalid("it cannot specify both 'allFrames' and 'documentIds'");
    if (!isIdentifier(target.tabId)) throw fail("The 'tabId' value is invalid, because '" + target.tabId + "' is not a tab identifier");
    for (const id of target.documentIds || []) {
      if (!isUUID(id)) throw fail("The 'documentIds' value is invalid, because '" + id + "' is not a document identifier");
    }
    for (const id of target.frameIds || []) {
      if (!isIdentifier(id)) throw fail("The 'frameIds' value is invalid, because '" + id + "' is not a frame identifier");
    }
    const copy = { tabId: target.tabId };
    if (target.allFrames === true) copy.allFrames = true;
    if (target.frameIds !== undefined) copy.frameIds = target.frameIds.slice();
    if (target.documentIds !== undefined) copy.documentIds = target.documentIds.slice();
    return copy;
  }
  // Checks that see every argument and may reshape them: `(args, own, profile)` -> the
  // arguments sent.
  // UTF-8 bytes of a string, as browsers count storage.
  const utf8Length = (text) => unescape(encodeURIComponent(text)).length;
  const accessLevels = ["TRUSTED_CONTEXTS", "TRUSTED_AND_UNTRUSTED_CONTEXTS"];
  // permissions.contains/request/remove({permissions, origins}): the shape is checked in the
  // caller (WebExtensionAPIPermissionsCocoa.mm: "The 'permissions' value is invalid, because …";
  // Chrome's bindings: a TypeError); names and patterns are the browser's to judge.
  function permissionsArgument(method) {
    return (args, own, profile) => {
      const details = args[0];
      if (profile === "chromium") {
        const signature = "Error in invocation of permissions." + method + "(permissions.Permissions permissions, optional function callback): ";
        if (!isOfType(details, "object")) throw new own.TypeError(signature + "No matching signature.");
        for (const key of ["permissions", "origins"]) {
          const list = details[key];
          if (list !== undefined && (!Array.isArray(list) || list.some((item) => typeof item !== "string"))) {
            throw new own.TypeError(signature + "Error at parameter 'permissions': Error at property '" + key + "': Invalid type: expected array, found " + (Array.isArray(list) ? "array" : typeof list) + ".");
          }
        }
      } else {
        const problem = dictionaryProblem(details, "permissions", [], { permissions: ["string"], origins: ["string"] });
        if (problem) throw callError("permissions." + method + "()", problem, own);
      }
      const copy = {};
      if (details.permissions !== undefined) copy.permissions = details.permissions.slice();
      if (details.origins !== undefined) copy.origins = details.origins.slice();
      return [copy];
    };
  }
  // register/updateContentScripts([scripts]): Safari checks each script in the caller
  // (WebExtensionAPIScriptingCocoa.mm, parseRegisteredContentScripts) and throws in WebKit's
  // words; Chrome checks in the browser (Browser+RegisteredScripts).
  function registeredScripts(method, firstTime) {
    return (args, own, profile) => {
      const scripts = args[0];
      const api = "scripting." + method + "()";
      if (!Array.isArray(scripts)) {
        if (profile === "chromium") throw new own.TypeError("Error in invocation of scripting." + method + "(array scripts, optional function callback): No matching signature.");
        throw callError(api, "The 'scripts' value is invalid, because an array is expected, but " + provided(scripts) + " was provided", own);
      }
      if (profile !== "chromium") {
        const types = { allFrames: "boolean", css: ["string"], cssOrigin: "string", excludeMatches: ["string"], id: "string", js: ["string"],
          matches: ["string"], persistAcrossSessions: "boolean", runAt: "string", world: "string" };
        const fail = (problem) => callError(api, problem, own);
        for (const script of scripts) {
          const problem = dictionaryProblem(script, "scripts", ["id"], types);
          if (problem) throw fail(problem);
          if (!script.id.length) throw fail("The 'id' value is invalid, because it must not be empty");
          if (script.id[0] === "_") throw fail("The 'id' value is invalid, because it must not start with '_'");
          if (firstTime && !(script.matches && script.matches.length)) throw fail("The 'matches' value is invalid, because it must specify at least one match pattern for script with ID '" + script.id + "'");
          if (script.matches && !script.matches.length) throw fail("The 'matches' value is invalid, because it must not be empty");
          if (firstTime && !(script.js && script.js.length) && !(script.css && script.css.length)) throw fail("The 'details' value is invalid, because it must specify at least one 'css' or 'js' file");
          if (script.runAt !== undefined && !["document_start", "document_end", "document_idle"].includes(script.runAt)) {
            throw fail("The 'runAt' value is invalid, because it must specify either 'document_start', 'document_end', or 'document_idle'");
          }
          if (script.cssOrigin !== undefined && !["author", "user"].includes(script.cssOrigin.toLowerCase())) throw fail("The 'cssOrigin' value is invalid, because it must specify either 'author' or 'user'");
          if (script.world !== undefined && !["isolated", "main"].includes(script.world.toLowerCase())) throw fail("The 'world' value is invalid, because it must specify either 'isolated' or 'main'");
        }
      }
      return [scripts.map((script) => JSON.parse(JSON.stringify(script)))];
    };
  }
  const prepareCall = {
    "scripting.registerContentScripts": registeredScripts("registerContentScripts", true),
    "scripting.updateContentScripts": registeredScripts("updateContentScripts", false),
    "permissions.contains": permissionsArgument("contains"),
    "permissions.request": permissionsArgument("request"),
    "permissions.remove": permissionsArgument("remove"),
    // Safari refuses an oversized storage.sync item in the caller (WebExtensionAPIStorageAreaCocoa.mm,
    // anyItemsExceedQuota against QUOTA_BYTES_PER_ITEM); Chrome rejects it later, with the others.
    "storage.sync.set"(args, own, profile) {
      const items = args[0];
      if (profile === "safari" && items !== null && typeof items === "object") {
        for (const key of Object.keys(items)) {
          if (items[key] === undefined) continue;
          const json = JSON.stringify(items[key]);
          if (json !== undefined && utf8Length(key) + utf8Length(json) > 8192) {
            throw callError("storageArea.set()", "The 'items[`" + key + "`]' value is invalid, because it exceeded maximum size for a single item", own);
          }
        }
      }
      return args;
    },
    // setAccessLevel({accessLevel}): Safari's checks (WebExtensionAPIStorageAreaCocoa.mm) throw
    // in WebKit's words; Chrome's bindings refuse another value with a TypeError.
    "storage.session.setAccessLevel"(args, own, profile) {
      const options = args[0];
      if (profile === "chromium") {
        const signature = "Error in invocation of storage.setAccessLevel(object accessOptions, optional function callback): ";
        if (!isOfType(options, "object")) throw new own.TypeError(signature + "No matching signature.");
        if (options.accessLevel === undefined) throw new own.TypeError(signature + "Error at parameter 'accessOptions': Missing required property 'accessLevel'.");
        if (!accessLevels.includes(options.accessLevel)) {
          throw new own.TypeError(signature + "Error at parameter 'accessOptions': Error at property 'accessLevel': Value must be one of TRUSTED_AND_UNTRUSTED_CONTEXTS, TRUSTED_CONTEXTS.");
        }
      } else {
        const problem = dictionaryProblem(options, "accessOptions", ["accessLevel"], { accessLevel: "string" });
        if (problem) throw callError("storageArea.setAccessLevel()", problem, own);
        if (!accessLevels.includes(options.accessLevel)) {
          throw callError("storageArea.setAccessLevel()", "The 'accessLevel' value is invalid, because it must specify either 'TRUSTED_CONTEXTS' or 'TRUSTED_AND_UNTRUSTED_CONTEXTS'", own);
        }
      }
      return [{ accessLevel: options.accessLevel }];
    },
    // windows.create([info]) and windows.update(windowId, properties): Safari checks the
    // dictionary in the caller (WebExtensionAPIWindowsCocoa.mm, parseWindowUpdateOptions and
    // parseWindowCreateOptions); Chrome's bindings check the schema's types (windows.json:
    // integer bounds, the WindowState enum) and throw a TypeError. What the values mean (a
    // state with bounds, a minimized window focused) is the browser's to judge (Browser+Windows).
    "windows.create"(args, own, profile) {
      if (args[0] === undefined || args[0] === null) return [{}];
      return [windowProperties("create", args[0], own, profile)];
    },
    "windows.update"(args, own, profile) {
      const id = args[0];
      if (profile === "chromium") {
        if (!Number.isInteger(id)) throw new own.TypeError(windowSignature("update") + "No matching signature.");
      } else if (typeof id !== "number" || id === -1 || !(Number.isInteger(id) && id >= 0 || id === -2)) {
        const because = id === -1 ? "'windows.WINDOW_ID_NONE' is not allowed" : typeof id === "number" ? "'" + id + "' is not a window identifier" : "it is not a window identifier";
        throw callError("windows.update()", "The 'windowId' value is invalid, because " + because, own);
      }
      return [id, windowProperties("update", args[1], own, profile)];
    },
    // alarms.create([name], alarmInfo) -> [name, info]. Safari (WebExtensionAPIAlarmsCocoa.mm):
    // a bad name or info throws in WebKit's words, and `when` with `delayInMinutes` too. Chrome's
    // bindings refuse a call matching no signature with a TypeError
    // (extensions/renderer/bindings/api_invocation_errors.cc).
    "alarms.create"(args, own, profile) {
      const named = typeof args[0] === "string" || args.length > 1;
      const name = named ? args[0] : undefined;
      const info = named ? args[1] : args[0];
      const types = { when: "number", delayInMinutes: "number", periodInMinutes: "number" };
      if (profile === "chromium") {
        const signature = "Error in invocation of alarms.create(optional string name, alarms.AlarmCreateInfo alarmInfo, optional function callback): ";
        if ((name !== undefined && typeof name !== "string") || !isOfType(info, "object")) throw new own.TypeError(signature + "No matching signature.");
        for (const key of Object.keys(types)) {
          if (info[key] !== undefined && !isOfType(info[key], "number")) {
            throw new own.TypeError(signature + "Error at parameter 'alarmInfo': Error at property '" + key + "': Invalid type: expected number, found " + (Array.isArray(info[key]) ? "array" : info[key] === null ? "null" : typeof info[key]) + ".");
          }
        }
      } else {
        if (name !== undefined && name !== null && typeof name !== "string") {
          throw callError("alarms.create()", "The 'name' value is invalid, because a string is expected, but " + provided(name) + " was provided", own);
        }
        const problem = dictionaryProblem(info, "info", [], types);
        if (problem) throw callError("alarms.create()", problem, own);
        if (info.when !== undefined && info.delayInMinutes !== undefined) {
          throw callError("alarms.create()", "The 'info' value is invalid, because it cannot specify both 'delayInMinutes' and 'when'", own);
        }
      }
      const copy = {};
      for (const key of Object.keys(types)) if (info[key] !== undefined) copy[key] = info[key];
      return [name === undefined || name === null ? "" : name, copy];
    },
  };
  Object.assign(prepareCall, tabChecks({ callError, dictionaryProblem, provided, isOfType, isMatchPattern: (pattern) => host.isMatchPattern(pattern) }));
  const prepare = {
    "scripting.executeScript"(details, own) {
      const fail = (problem) => callError("scripting.executeScript()", problem, own);
      const problem = dictionaryProblem(details, "details", ["target"], {
        args: "any", arguments: "any", files: ["string"], func: "any", function: "any", target: "object", world: "string",
      });
      if (problem) throw fail(problem);
      for (const key of ["args", "arguments"]) {
        if (details[key] !== undefined && !Array.isArray(details[key])) {
          throw fail("The 'details' value is invalid, because '" + key + "' is expected to be an array, but " + provided(details[key]) + " was provided");
        }
      }
      const target = targetOf(details, fail);
      const invalid = (because) => fail("The 'details' value is invalid, because " + because);
      if (details.func !== undefined && details.function !== undefined) throw invalid("it cannot specify both 'func' and 'function'. Please use 'func'");
      if (details.args !== undefined && details.arguments !== undefined) throw invalid("it cannot specify both 'args' and 'arguments'. Please use 'args'");
      const functionKey = details.func !== undefined ? "func" : "function";
      const func = details[functionKey];
      if (details.files !== undefined && func !== undefined) throw invalid("it cannot specify both 'files' and 'func'");
      if (func === undefined && details.files === undefined) throw invalid("it must specify either 'func' or 'files''");
      const argumentKey = details.args !== undefined ? "args" : "arguments";
      const args = details[argumentKey];
      if (args !== undefined && func === undefined) throw invalid("it must specify both 'func' and 'args'");
      if (details.files !== undefined && details.files.length === 0) throw fail("The 'files' value is invalid, because at least one file must be specified");
      let world;
      if (details.world !== undefined) {
        world = details.world.toLowerCase();
        if (world !== "isolated" && world !== "main") throw fail("The 'world' value is invalid, because it must specify either 'isolated' or 'main'");
      }
      if (func !== undefined && typeof func !== "function") throw fail("The '" + functionKey + "' value is invalid, because it is not a function");
      let argsJSON;
      if (args !== undefined) {
        try { argsJSON = JSON.stringify(args); } catch (error) { argsJSON = undefined; }
        if (argsJSON === undefined) throw fail("The '" + argumentKey + "' value is invalid, because it is not JSON-serializable");
      }
      const prepared = { target };
      if (details.files !== undefined) prepared.files = details.files.slice();
      if (func !== undefined) prepared.func = Function.prototype.toString.call(func);
      if (argsJSON !== undefined) prepared.args = argsJSON;
      if (world !== undefined) prepared.world = world;
      return prepared;
    },
  };
  function cssDetails(api) {
    return (details, own) => {
      const fail = (problem) => callError(api, problem, own);
      const problem = dictionaryProblem(details, "details", ["target"], { css: "string", files: ["string"], origin: "string", target: "object" });
      if (problem) throw fail(problem);
      const target = targetOf(details, fail);
      const invalid = (because) => fail("The 'details' value is invalid, because " + because);
      if (details.css !== undefined && details.files !== undefined) throw invalid("it cannot specify both 'css' and 'files'");
      if (details.css === undefined && details.files === undefined) throw invalid("it must specify either 'css' or 'files'");
      let origin;
      if (details.origin !== undefined) {
        origin = details.origin.toLowerCase();
        if (origin !== "user" && origin !== "author") throw fail("The 'origin' value is invalid, because it must specify either 'author' or 'user'");
      }
      const prepared = { target };
      if (details.css !== undefined) prepared.css = details.css;
      if (details.files !== undefined) prepared.files = details.files.slice();
      if (origin !== undefined) prepared.origin = origin;
      return prepared;
    };
  }
  prepare["scripting.insertCSS"] = cssDetails("scripting.insertCSS()");
  prepare["scripting.removeCSS"] = cssDetails("scripting.removeCSS()");

  // MARK: Methods answered at once, in the caller
  //
  // i18n.getMessage and i18n.getUILanguage return their answer, not a promise: both browsers
  // answer them from catalogs the context already holds (WebKit's WebExtensionAPILocalization
  // IDL; Chromium's extensions/renderer/i18n_hooks_delegate.cc). Each checks its arguments as
  // the profile's bindings do; `(args, own, profile, contextId)` -> the value.
  const chromeType = (value) => (Array.isArray(value) ? "array" : value === null ? "null" : typeof value);
  const synchronous = {
    "i18n.getMessage"(args, own, profile, contextId) {
      const name = args[0], substitutions = args[1];
      const list = [];
      let escapeLt = false;
      if (profile === "chromium") {
        // extensions/renderer/bindings/api_signature.cc: a string, anything, then an optional
        // object (not an array or function; null and undefined count as left out).
        const signature = "Error in invocation of i18n.getMessage(string messageName, optional any substitutions, optional object options): ";
        const options = args[2];
        const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
        if (args.length > 3 || typeof name !== "string" || (options !== undefined && options !== null && !isObject(options))) {
          throw new own.TypeError(signature + "No matching signature.");
        }
        if (isObject(options)) {
          for (const key of Object.keys(options)) {
            if (key !== "escapeLt") throw new own.TypeError(signature + "Error at parameter 'options': Unexpected property: '" + key + "'.");
          }
          const value = options.escapeLt;
          if (value !== undefined && value !== null && typeof value !== "boolean") {
            throw new own.TypeError(signature + "Error at parameter 'options': Error at property 'escapeLt': Invalid type: expected boolean, found " + chromeType(value) + ".");
          }
          escapeLt = value === true;
        }
        // i18n_hooks_delegate.cc: more than nine substitutions answer undefined; each is
        // converted with ToString, and one that cannot be (a symbol, a throwing toString) is
        // left out; a string is one substitution; anything else none.
        if (Array.isArray(substitutions)) {
          if (substitutions.length > 9) return undefined;
          for (let i = 0; i < substitutions.length; i++) {
            try { list.push(`${substitutions[i]}`); } catch (error) { /* left out, as Chrome does */ }
          }
        } else if (typeof substitutions === "string") {
          list.push(substitutions);
        }
      } else {
        // WebKit's generated bindings: `[CannotBeEmpty] DOMString name, [Optional, NSObject] any
        // substitutions`; WebExtensionAPILocalizationCocoa.mm keeps the strings of an array
        // (which moves the others' positions) and takes a string as the only one.
        const api = "i18n.getMessage()";
        if (args.length === 0) throw callError(api, "A required argument is missing", own);
        if (typeof name !== "string") throw callError(api, "The 'name' value is invalid, because a string is expected", own);
        if (name === "") throw callError(api, "The 'name' value is invalid, because it cannot be empty", own);
        if (Array.isArray(substitutions)) {
          for (let i = 0; i < substitutions.length; i++) if (typeof substitutions[i] === "string") list.push(substitutions[i]);
        } else if (typeof substitutions === "string") {
          list.push(substitutions);
        }
      }
      return host.i18nMessage(contextId, name, list, escapeLt);
    },
    "i18n.getUILanguage"(args, own, profile) {
      if (profile === "chromium" && args.length > 0) throw new own.TypeError("Error in invocation of i18n.getUILanguage(): No matching signature.");
      return host.uiLanguage();
    },
  };

  // MARK: runtime.lastError
  //
  // Set only while the callback of a failed call runs (and, for a port whose connection failed,
  // while its onDisconnect listeners run), undefined otherwise. Safari (WebKit's
  // WebExtensionAPIRuntimeBase::reportError, WebExtensionAPIRuntimeCocoa.mm) makes it an Error in
  // the caller's realm and, when the callback did not read it, logs
  // `console.error(new Error("Unchecked runtime.lastError: <message>"))` through the context's
  // own console; Chrome makes it `{message}` and logs "Unchecked runtime.lastError: <message>".
  function makeLastError(runtime, profile, own) {
    let current, accessed = false;
    if (runtime) {
      Object.defineProperty(runtime, "lastError", {
        get() { accessed = true; return current; },
        enumerable: true, configurable: true,
      });
    }
    // Runs `body` with lastError set to `message`; `unchecked` says whether an unread error is
    // logged afterwards (a failed call's callback: yes).
    function during(message, body, unchecked) {
      current = profile === "chromium" ? { message } : new own.Error(message);
      accessed = false;
      try {
        body();
      } finally {
        if (unchecked && !accessed) {
          const text = "Unchecked runtime.lastError: " + message;
          const console = own.global.console;
          if (console && typeof console.error === "function") console.error(profile === "chromium" ? text : new own.Error(text));
        }
        current = undefined;
        accessed = false;
      }
    }
    return { during };
  }

  // A trailing function argument is the method's callback, as in WebKit's bindings
  // ([ReturnsPromiseWhenCallbackIsOmitted] on every extension API interface, so Safari takes
  // callbacks on `browser` and `chrome` alike) and in Chrome's `chrome` namespace: the call then
  // returns undefined, and the callback gets the result (no argument for a call that gives
  // none), or no argument with runtime.lastError set when the call failed. Without one the call
  // returns a promise. No method of the surface takes a function as its last real argument.
  function splitCallback(args) {
    if (args.length === 0 || typeof args[args.length - 1] !== "function") return [args, null];
    return [args.slice(0, -1), args[args.length - 1]];
  }

  // `canonical` is the context's own JSON serializer (JS/canonical.js, made in its realm);
  // `own` holds the context's Error, TypeError, Promise and global; `profile` is "safari" or
  // "chromium".
  function makeBrowser(contextId, surface, eventNames, properties, reportError, canonical, own, profile) {
    const browser = {};
    let lastError = null;
    for (const namespace of Object.keys(surface)) {
      const target = ensure(browser, namespace.split("."));
      const methods = surface[namespace];
      for (const method of Object.keys(methods)) {
        const [min, max] = methods[method];
        const answer = synchronous[namespace + "." + method];
        if (answer) {
          target[method] = function (...given) { return answer(given, own, profile, contextId); };
          continue;
        }
        target[method] = function (...given) {
          const [args, callback] = splitCallback(given);
          let problem = null;
          if (args.length < min) problem = "Expected at least " + min + " " + plural(min) + " for " + method + "(), got " + args.length;
          else if (args.length > max) problem = "Expected at most " + max + " " + plural(max) + " for " + method + "(), got " + args.length;
          if (problem !== null) {
            // With a callback there is no promise to reject: the bindings throw, as Chrome's do
            // for a call that matches no signature.
            if (callback) throw new own.TypeError(problem);
            return own.Promise.reject(new own.TypeError(problem));
          }
          const check = prepare[namespace + "." + method];
          const shape = prepareCall[namespace + "." + method];
          // Thrown, not rejected: WebKit's bindings raise these in the caller (see `prepare`).
          const sent = shape ? shape(args, own, profile) : check ? [check(args[0], own)] : args;
          const promise = host.apiCall(contextId, namespace, method, sent);
          if (!callback) return promise;
          const call = (values) => {
            try { callback(...values); } catch (error) { if (framework) framework.callbackThrew(error); else reportError(contextId, error); }
          };
          promise.then(
            (value) => call(value === undefined ? [] : [value]),
            (error) => lastError.during(error && error.message !== undefined ? String(error.message) : String(error), () => call([]), true));
          return undefined;
        };
      }
    }
    for (const key of Object.keys(properties)) {
      const parts = key.split(".");
      ensure(browser, parts.slice(0, -1))[parts[parts.length - 1]] = properties[key];
    }
    lastError = makeLastError(browser.runtime, profile, own);
    const events = Object.create(null);
    for (const name of eventNames) {
      const parts = name.split(".");
      const event = name.startsWith("webRequest.") ? makeFilteredEvent(name, own, profile) : makeEvent(name, own);
      ensure(browser, parts.slice(0, -1))[parts[parts.length - 1]] = event.api;
      events[name] = event;
    }
    // The test API of the profile's browser (test-api.js); under Chromium's framework an
    // exception in an API callback goes to the running test, and its own stop is no error.
    let framework = null;
    // A listener's exception is reported as uncaught, unless it is the test framework's stop.
    function uncaught(error) {
      if (!(framework && framework.isControlFlow(error))) reportError(contextId, error);
    }
    if (own.testing) {
      if (profile === "chromium") {
        framework = tests.chromium(contextId, own, canonical, () => browser.runtime && browser.runtime.lastError, reportError);
        browser.test = framework.test;
      } else {
        browser.test = tests.webkit(contextId, own, canonical);
      }
      events["test.onMessage"] = makeEvent("test.onMessage", own);
      browser.test.onMessage = events["test.onMessage"].api;
    }

    // Calls every listener of `name` with `args`; an exception in one is reported and the others
    // still run. Returns how many listeners ran.
    function dispatch(name, args) {
      const event = events[name];
      if (!event) return 0;
      const listeners = event.listeners.slice();
      for (const listener of listeners) {
        try { listener(...args); } catch (error) { uncaught(error); }
      }
      return listeners.length;
    }

    // runtime.onMessage / tabs message delivery (Chromium's messaging semantics, documented at
    // developer.chrome.com/docs/extensions/develop/concepts/messaging): the first listener that
    // calls sendResponse, or returns a promise, answers; returning `true` keeps the channel open
    // for a later sendResponse. `respond(responded, value)` is called once.
    // `payload` is [message, sender]; `token` names this delivery to the browser, which is
    // answered through host.answerMessage.
    function dispatchMessage(name, payload, token) {
      const message = payload[0], sender = payload[1];
      const respond = (kind, value) => host.answerMessage(token, kind, value);
      const event = events[name];
      const listeners = event ? event.listeners.slice() : [];
      let answered = false;
      let pending = 0;
      const answer = (value) => { if (!answered) { answered = true; respond("answer", value); } };
      for (const listener of listeners) {
        let result;
        try { result = listener(message, sender, answer); } catch (error) { uncaught(error); continue; }
        if (result === true) pending++;
        else if (result && typeof result.then === "function") {
          pending++;
          result.then(answer, (error) => {
            if (answered) return;
            answered = true;
            respond("error", error && error.message !== undefined ? String(error.message) : String(error));
          });
        }
      }
      // Nobody answered synchronously and nobody will: this receiver stays silent.
      if (!answered && pending === 0) respond("none");
      return listeners.length;
    }

    // The events that have listeners now (what a suspended background is woken for).
    function listening() {
      return Object.keys(events).filter((name) => events[name].listeners.length > 0);
    }

    // MARK: Ports (runtime.connect / tabs.connect / runtime.onConnect), Chromium's messaging
    // semantics (developer.chrome.com/docs/extensions/develop/concepts/messaging#connect):
    // messages are JSON-serialized; disconnect() fires onDisconnect on the other end only;
    // posting on a disconnected port throws.
    const ports = Object.create(null);
    function makePort(portId, name, sender) {
      const onMessage = makeEvent("Port.onMessage", own);
      const onDisconnect = makeEvent("Port.onDisconnect", own);
      const port = {
        name,
        onMessage: onMessage.api,
        onDisconnect: onDisconnect.api,
        postMessage(message) {
          if (!ports[portId]) throw new own.Error("Attempting to use a disconnected port object");
          const json = canonical(message);
          // The trace shows the canonical text; the other end gets the message as written.
          host.portPost(contextId, portId, json === undefined ? "null" : json, message === undefined ? null : message);
        },
        disconnect() {
          if (!ports[portId]) return;
          delete ports[portId];
          host.portDisconnect(contextId, portId);
        },
      };
      if (sender !== undefined) port.sender = sender;
      ports[portId] = { port, onMessage, onDisconnect };
      return port;
    }
    function connect(target, name, frameId) {
      const portId = host.portOpen(contextId, target, name === undefined ? "" : String(name), frameId === undefined ? -1 : frameId);
      return makePort(portId, name === undefined ? "" : String(name));
    }
    if (browser.runtime && surface.runtime && surface.runtime.sendMessage) {
      browser.runtime.connect = function connectRuntime(first, second) {
        const info = typeof first === "string" ? second : first;
        return connect(-1, info && info.name, -1);
      };
    }
    // runtime.connectNative(application): a port to the native app, where sendNativeMessage is
    // (the nativeMessaging permission, extension pages and the background). Each message goes
    // to the app's handler and its answer comes back on the port (Browser+Ports).
    if (browser.runtime && surface.runtime && surface.runtime.sendNativeMessage) {
      browser.runtime.connectNative = function connectNative(application) {
        if (typeof application !== "string") {
          if (profile === "chromium") throw new own.TypeError("Error in invocation of runtime.connectNative(string application): No matching signature.");
          throw callError("runtime.connectNative()", "The 'applicationId' value is invalid, because a string is expected, but " + provided(application) + " was provided", own);
        }
        const portId = host.portOpen(contextId, -2, application, -1);
        return makePort(portId, "");
      };
    }
    if (browser.tabs && surface.tabs && surface.tabs.sendMessage) {
      browser.tabs.connect = function connectTab(tabId, info) {
        if (typeof tabId !== "number") throw new own.TypeError("Error in invocation of tabs.connect(integer tabId, optional object connectInfo): No matching signature.");
        return connect(tabId, info && info.name, info && info.frameId);
      };
    }
    // Swift -> a new port end for runtime.onConnect; returns how many listeners ran.
    // `event`: runtime.onConnect, or runtime.onConnectExternal for a web page's port.
    function acceptPort(portId, name, sender, event) {
      const port = makePort(portId, name, sender);
      return dispatch(event || "runtime.onConnect", [port]);
    }
    // Swift -> an event on a port end: "message" (JSON text) or "disconnect" (error or null).
    function portEvent(portId, kind, payload) {
      const entry = ports[portId];
      if (!entry) return;
      if (kind === "message") {
        const message = JSON.parse(payload);
        for (const listener of entry.onMessage.listeners.slice()) {
          try { listener(message, entry.port); } catch (error) { uncaught(error); }
        }
        return;
      }
      delete ports[portId];
      const fire = () => {
        for (const listener of entry.onDisconnect.listeners.slice()) {
          try { listener(entry.port); } catch (error) { uncaught(error); }
        }
      };
      // runtime.lastError is set while onDisconnect runs when the connection failed.
      if (payload !== null) lastError.during(payload, fire, false); else fire();
    }

    // MARK: menus.create / contextMenus.create answer the item's id at once (both browsers'
    // bindings), checking the properties in the caller; the browser's own refusals (a
    // duplicate id, an unknown parent) come later, to the callback's runtime.lastError or, with
    // none, the console. Safari (WebExtensionAPIMenusCocoa.mm) makes an id when none is given
    // and answers a numeric-looking one as a number; Chrome's service-worker extensions must
    // give one (the browser refuses the item).
    const menuTypes = ["normal", "checkbox", "radio", "separator"];
    const menuContexts = ["action", "all", "audio", "browser_action", "editable", "frame", "image", "launcher", "link", "page", "page_action", "selection", "tab", "video"];
    const menuKeys = ["checked", "command", "contexts", "documentUrlPatterns", "enabled", "icons", "id", "onclick", "parentId", "targetUrlPatterns", "title", "type", "visible"];
    for (const namespace of ["menus", "contextMenus"]) {
      const area = browser[namespace];
      if (!area || typeof area.create !== "function") continue;
      area.create = function create(properties, callback) {
        const api = namespace + ".create()";
        if (profile === "chromium") {
          const signature = "Error in invocation of contextMenus.create(object createProperties, optional function callback): ";
          if (!isOfType(properties, "object")) throw new own.TypeError(signature + "No matching signature.");
          const fail = (detail) => new own.TypeError(signature + "Error at parameter 'createProperties': " + detail);
          for (const key of Object.keys(properties)) if (!menuKeys.includes(key)) throw fail("Unexpected property: '" + key + "'.");
          if (properties.type !== undefined && !menuTypes.includes(properties.type)) throw fail("Error at property 'type': Value must be one of checkbox, normal, radio, separator.");
          if (properties.id !== undefined && typeof properties.id !== "string") throw fail("Error at property 'id': Invalid type: expected string, found " + typeof properties.id + ".");
          (properties.contexts || []).forEach((value, index) => {
            if (!menuContexts.includes(value)) throw fail("Error at property 'contexts': Error at index " + index + ": Value must be one of " + menuContexts.join(", ") + ".");
          });
        } else {
          const problem = dictionaryProblem(properties, "properties", properties && properties.type === "separator" ? [] : ["title"],
            { title: "string", type: "string", contexts: ["string"], checked: "boolean", enabled: "boolean", visible: "boolean",
              documentUrlPatterns: ["string"], targetUrlPatterns: ["string"], command: "string" });
          if (problem) throw callError(api, problem, own);
          for (const key of ["id", "parentId"]) {
            const value = properties[key];
            if (value === undefined) continue;
            if (typeof value !== "string" && typeof value !== "number") throw callError(api, "The 'properties' value is invalid, because '" + key + "' is expected to be a string or a number, but " + provided(value) + " was provided", own);
            if (value === "") throw callError(api, "The '" + key + "' value is invalid, because it must not be empty", own);
          }
          if (properties.title === "") throw callError(api, "The 'title' value is invalid, because it must not be empty", own);
          if (properties.type !== undefined && !menuTypes.includes(properties.type)) {
            throw callError(api, "The 'type' value is invalid, because it must specify either 'normal', 'checkbox', 'radio', or 'separator'", own);
          }
          if (properties.onclick !== undefined && typeof properties.onclick !== "function") throw callError(api, "The 'onclick' value is invalid, because it must be a function", own);
        }
        const sent = {};
        for (const key of menuKeys) if (key !== "onclick" && properties[key] !== undefined) sent[key] = Array.isArray(properties[key]) ? properties[key].slice() : properties[key];
        if (sent.id === undefined && profile !== "chromium") sent.id = host.menuID(contextId);
        if (typeof sent.id === "number") sent.id = String(sent.id);
        if (typeof sent.parentId === "number") sent.parentId = String(sent.parentId);
        const promise = host.apiCall(contextId, namespace, "create", [sent]);
        const run = () => { if (typeof callback === "function") { try { callback(); } catch (error) { uncaught(error); } } };
        promise.then(run, (error) => lastError.during(error && error.message !== undefined ? String(error.message) : String(error), run, true));
        if (sent.id === undefined) return undefined;
        return profile !== "chromium" && sent.id.trim() !== "" && !Number.isNaN(Number(sent.id)) ? Number(sent.id) : sent.id;
      };
    }

    // Safari: a content script sees storage.session only while `own.sessionOpen()` says so.
    if (typeof own.sessionOpen === "function" && browser.storage && browser.storage.session) {
      const area = browser.storage.session, isOpen = own.sessionOpen;
      Object.defineProperty(browser.storage, "session", { get() { return isOpen() ? area : undefined; }, enumerable: true, configurable: true });
    }

    return { browser, dispatch, dispatchMessage, listening, acceptPort, portEvent };
  }

  return { makeBrowser };
})
