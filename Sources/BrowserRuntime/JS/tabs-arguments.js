// tabs.* arguments, checked in the caller before anything crosses to the browser, in each
// profile's words. Safari: WebKit's generated bindings and WebExtensionAPITabsCocoa.mm
// (parseTabQueryOptions, parseTabUpdateOptions, parseTabCreateOptions, parseTabDuplicateOptions,
// parseCaptureVisibleTabOptions) throw "Invalid call to tabs.query(). The 'status' value is
// invalid, because it must specify either 'loading' or 'complete'." Chrome: its bindings match
// the call against tabs.json's signature (extensions/renderer/bindings/api_signature.cc,
// argument_spec.cc) and throw a TypeError, "Error in invocation of tabs.get(integer tabId,
// optional function callback): Error at parameter 'tabId': Invalid type: expected integer,
// found string." The checks throw and never change the arguments: what is sent (and traced)
// is what the extension passed. What a value means (does the tab exist) is the browser's.
//
// `helpers` are browser-api.js's: callError, dictionaryProblem, provided, isOfType, and
// isMatchPattern (the browser's own parse of a match pattern).
(function () {
  "use strict";
  return function tabChecks(helpers) {
    const { callError, dictionaryProblem, provided, isOfType, isMatchPattern } = helpers;

    // MARK: Safari
    const isTabIdentifier = (n) => Number.isInteger(n) && n >= 0;
    const isWindowIdentifier = (n) => (Number.isInteger(n) && n >= 0) || n === -2;
    const absent = (value) => value === undefined || value === null;

    function safari(method, own) {
      const fail = (problem) => callError("tabs." + method + "()", problem, own);
      const invalid = (key, because) => fail("The '" + key + "' value is invalid, because " + because);
      return {
        fail,
        // A `double tabId` parameter: the bindings want a number, then a tab identifier.
        tabId(value, optional) {
          if (optional && absent(value)) return;
          if (typeof value !== "number") throw invalid("tabId", "a number is expected");
          if (!isTabIdentifier(value)) throw invalid("tabId", "it is not a tab identifier");
        },
        dictionary(value, source, types) {
          const problem = dictionaryProblem(value, source, [], types);
          if (problem) throw fail(problem);
        },
        openerAndWindow(properties) {
          if (properties.openerTabId !== undefined && !isTabIdentifier(properties.openerTabId)) {
            throw invalid("openerTabId", "'" + properties.openerTabId + "' is not a tab identifier");
          }
          if (properties.windowId !== undefined && !isWindowIdentifier(properties.windowId)) {
            throw invalid("windowId", "'" + properties.windowId + "' is not a window identifier");
          }
        },
        // NSOrderedSet<NSString, @[NSString]>: a string or an array of strings.
        stringOrStrings(value, key, source) {
          if (value === undefined || typeof value === "string") return;
          const wrong = !Array.isArray(value) ? provided(value) : value.some((item) => typeof item !== "string") ? "an array of other values" : null;
          if (wrong) throw invalid(source, "'" + key + "' is expected to be a string or an array of strings, but " + wrong + " was provided");
        },
        unknownArgument() { return fail("An unknown argument was provided"); },
      };
    }
    const updateTypes = { active: "boolean", highlighted: "boolean", muted: "boolean", openerTabId: "number", pinned: "boolean", selected: "boolean", url: "string" };
    const createTypes = Object.assign({ index: "number", openInReaderMode: "boolean", title: "string", windowId: "number" }, updateTypes);
    const queryTypes = {
      active: "boolean", audible: "boolean", currentWindow: "boolean", hidden: "boolean", highlighted: "boolean", index: "number",
      lastFocusedWindow: "boolean", muted: "boolean", pinned: "boolean", selected: "boolean", status: "string", title: "string",
      url: "any", windowId: "number", windowType: "string",
    };

    // [tabId] then nothing else: goBack, goForward, getZoom, detectLanguage, toggleReaderMode.
    const optionalTab = (method) => (args, own) => { safari(method, own).tabId(args[0], true); return args; };

    const safariChecks = {
      get(args, own) { safari("get", own).tabId(args[0], false); return args; },
      duplicate(args, own) {
        const s = safari("duplicate", own);
        s.tabId(args[0], false);
        if (!absent(args[1])) s.dictionary(args[1], "properties", { active: "boolean", index: "number" });
        return args;
      },
      update(args, own) {
        const s = safari("update", own);
        const leading = typeof args[0] === "number" || (args.length > 1 && absent(args[0]));
        if (leading) s.tabId(args[0], true);
        const properties = leading ? args[1] : args[0];
        s.dictionary(properties, "properties", updateTypes);
        s.openerAndWindow(properties);
        return args;
      },
      create(args, own) {
        const s = safari("create", own);
        s.dictionary(args[0], "properties", createTypes);
        s.openerAndWindow(args[0]);
        return args;
      },
      remove(args, own) {
        const s = safari("remove", own);
        const ids = args[0];
        const wrong = typeof ids === "number" ? null : !Array.isArray(ids) ? provided(ids) : ids.some((id) => typeof id !== "number") ? "an array of other values" : null;
        if (wrong) throw s.fail("The 'tabIDs' value is invalid, because a number or an array of numbers is expected, but " + wrong + " was provided");
        for (const id of [].concat(ids)) {
          if (!isTabIdentifier(id)) throw s.fail("The 'tabIDs' value is invalid, because '" + id + "' is not a tab identifier");
        }
        return args;
      },
      reload(args, own) {
        const s = safari("reload", own);
        // ([Optional] double tabId, [Optional, NSDictionary] properties): each argument is
        // read by its type, and anything else is unknown.
        let rest = args;
        if (typeof rest[0] === "number" || absent(rest[0])) { s.tabId(rest[0], true); rest = rest.slice(1); }
        if (rest.length && !absent(rest[0])) {
          if (!isOfType(rest[0], "object")) throw s.unknownArgument();
          s.dictionary(rest[0], "properties", { bypassCache: "boolean" });
        }
        if (rest.length > 1) throw s.unknownArgument();
        return args;
      },
      goBack: optionalTab("goBack"),
      goForward: optionalTab("goForward"),
      getZoom: optionalTab("getZoom"),
      detectLanguage: optionalTab("detectLanguage"),
      toggleReaderMode: optionalTab("toggleReaderMode"),
      setZoom(args, own) {
        const s = safari("setZoom", own);
        const factor = args.length >= 2 ? args[1] : args[0];
        if (args.length >= 2) s.tabId(args[0], true);
        if (typeof factor !== "number") throw s.fail("The 'zoomFactor' value is invalid, because a number is expected");
        return args;
      },
      query(args, own) {
        const s = safari("query", own);
        const info = args[0];
        s.dictionary(info, "info", queryTypes);
        s.stringOrStrings(info.url, "url", "info");
        if (info.windowId !== undefined && !isWindowIdentifier(info.windowId)) {
          throw s.fail("The 'windowId' value is invalid, because '" + info.windowId + "' is not a window identifier");
        }
        if (info.windowType !== undefined && info.windowType !== "normal" && info.windowType !== "popup") {
          throw s.fail("The 'windowType' value is invalid, because it must specify either 'normal' or 'popup'");
        }
        if (info.status !== undefined && info.status !== "loading" && info.status !== "complete") {
          throw s.fail("The 'status' value is invalid, because it must specify either 'loading' or 'complete'");
        }
        for (const pattern of info.url === undefined ? [] : [].concat(info.url)) {
          if (!isMatchPattern(pattern)) throw s.fail("The 'url' value is invalid, because '" + pattern + "' is not a valid pattern");
        }
        return args;
      },
      captureVisibleTab(args, own) {
        const s = safari("captureVisibleTab", own);
        let rest = args;
        if (typeof rest[0] === "number" || absent(rest[0])) rest = rest.slice(1);
        if (rest.length && !absent(rest[0])) {
          if (!isOfType(rest[0], "object")) throw s.unknownArgument();
          s.dictionary(rest[0], "options", { format: "string", quality: "number" });
          const { format, quality } = rest[0];
          if (format !== undefined && format !== "png" && format !== "jpeg") throw s.fail("The 'format' value is invalid, because it must specify either 'png' or 'jpeg'");
          if (quality !== undefined && !(quality >= 0 && quality <= 100)) throw s.fail("The 'quality' value is invalid, because it must specify a value between 0 and 100");
        }
        if (rest.length > 1) throw s.unknownArgument();
        return args;
      },
    };

    // MARK: Chrome
    // A spec: {type: "integer" | "number" | "boolean" | "string" | "object" | "array", minimum,
    // maximum, enum, items, properties (name -> spec, `optional` on each), choices}.
    const found = (v) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v);
    const typeMatches = (value, spec) => {
      if (spec.choices) return spec.choices.some((choice) => typeMatches(value, choice));
      switch (spec.type) {
        case "integer": return Number.isInteger(value);
        case "number": return typeof value === "number" && Number.isFinite(value);
        case "boolean": return typeof value === "boolean";
        case "string": return typeof value === "string";
        case "array": return Array.isArray(value);
        case "object": return value !== null && typeof value === "object" && !Array.isArray(value);
        default: return true;
      }
    };
    // The reason `value` does not fit `spec`, in argument_spec.cc's words, or null.
    function specProblem(value, spec) {
      if (spec.choices) return spec.choices.some((choice) => specProblem(value, choice) === null) ? null : "Value did not match any choice.";
      if (!typeMatches(value, spec)) return "Invalid type: expected " + spec.type + ", found " + found(value) + ".";
      if (spec.minimum !== undefined && value < spec.minimum) return "Value must be at least " + spec.minimum + ".";
      if (spec.maximum !== undefined && value > spec.maximum) return "Value must be at most " + spec.maximum + ".";
      if (spec.enum && !spec.enum.includes(value)) return "Value must be one of " + spec.enum.slice().sort().join(", ") + ".";
      if (spec.type === "array" && spec.items) {
        for (let i = 0; i < value.length; i++) {
          const problem = specProblem(value[i], spec.items);
          if (problem) return "Error at index " + i + ": " + problem;
        }
      }
      if (spec.type === "object" && spec.properties) {
        for (const key of Object.keys(value)) {
          if (!(key in spec.properties)) return "Unexpected property: '" + key + "'.";
        }
        for (const key of Object.keys(spec.properties)) {
          const property = spec.properties[key];
          if (value[key] === undefined || value[key] === null) {
            if (!property.optional) return "Missing required property '" + key + "'.";
            continue;
          }
          const problem = specProblem(value[key], property);
          if (problem) return "Error at property '" + key + "': " + problem;
        }
      }
      return null;
    }
    const optional = (spec) => Object.assign({ optional: true }, spec);
    const integer = (minimum) => ({ type: "integer", minimum });
    const boolean = { type: "boolean" };
    const tabIds = { choices: [integer(0), { type: "array", items: integer(0) }] };
    // Matches `args` to `params` ({name, typeName, spec, optional}) as the bindings do
    // (api_signature.cc, ResolveArguments): each argument is given to a parameter of its basic
    // type, an optional parameter may be skipped (and null or undefined leaves it out), and a
    // call no assignment fits matches no signature. Then each argument is parsed against its
    // parameter's whole spec, and the first that fails names its problem.
    function chromeSignature(method, params) {
      const text = params.map((p) => (p.optional ? "optional " : "") + p.typeName + " " + p.name).concat(["optional function callback"]).join(", ");
      const prefix = "Error in invocation of tabs." + method + "(" + text + "): ";
      // The parameter index each argument goes to, or null when none fits.
      function resolve(args, a, p) {
        if (a === args.length) return params.slice(p).every((param) => param.optional) ? [] : null;
        if (p === params.length) return null;
        const param = params[p], value = args[a];
        if (param.optional && absent(value)) {
          const rest = resolve(args, a + 1, p + 1);
          if (rest) return [p].concat(rest);
        } else if (typeMatches(value, param.spec)) {
          const rest = resolve(args, a + 1, p + 1);
          if (rest) return [p].concat(rest);
        }
        return param.optional ? resolve(args, a, p + 1) : null;
      }
      return (args, own) => {
        const assigned = resolve(args, 0, 0);
        if (!assigned) throw new own.TypeError(prefix + "No matching signature.");
        assigned.forEach((p, a) => {
          if (absent(args[a])) return;
          const problem = specProblem(args[a], params[p].spec);
          if (problem) throw new own.TypeError(prefix + "Error at parameter '" + params[p].name + "': " + problem);
        });
        return args;
      };
    }
    const param = (name, typeName, spec, isOptional) => ({ name, typeName, spec, optional: !!isOptional });
    const tabIdParam = (isOptional) => param("tabId", "integer", integer(0), isOptional);
    const object = (properties) => ({ type: "object", properties });
    // tabs.json (Chromium's chrome/common/extensions/api/tabs.json).
    const queryInfo = object({
      active: optional(boolean), pinned: optional(boolean), audible: optional(boolean), muted: optional(boolean), highlighted: optional(boolean),
      discarded: optional(boolean), autoDiscardable: optional(boolean), currentWindow: optional(boolean), lastFocusedWindow: optional(boolean),
      frozen: optional(boolean), status: optional({ type: "string", enum: ["unloaded", "loading", "complete"] }), title: optional({ type: "string" }),
      url: optional({ choices: [{ type: "string" }, { type: "array", items: { type: "string" } }] }), groupId: optional(integer(-1)),
      splitViewId: optional(integer(-1)), windowId: optional(integer(-2)),
      windowType: optional({ type: "string", enum: ["normal", "popup", "panel", "app", "devtools"] }), index: optional(integer(0)),
    });
    const createProperties = object({
      windowId: optional(integer(-2)), index: optional(integer(0)), url: optional({ type: "string" }), active: optional(boolean),
      selected: optional(boolean), pinned: optional(boolean), openerTabId: optional(integer(0)),
    });
    const updateProperties = object({
      url: optional({ type: "string" }), active: optional(boolean), highlighted: optional(boolean), selected: optional(boolean),
      pinned: optional(boolean), muted: optional(boolean), openerTabId: optional(integer(0)), autoDiscardable: optional(boolean),
    });
    const chromeChecks = {
      get: chromeSignature("get", [tabIdParam(false)]),
      query: chromeSignature("query", [param("queryInfo", "object", queryInfo)]),
      create: chromeSignature("create", [param("createProperties", "object", createProperties)]),
      duplicate: chromeSignature("duplicate", [tabIdParam(false)]),
      update: chromeSignature("update", [tabIdParam(true), param("updateProperties", "object", updateProperties)]),
      move: chromeSignature("move", [param("tabIds", "[integer|array]", tabIds), param("moveProperties", "object", object({ windowId: optional(integer(-2)), index: integer(-1) }))]),
      reload: chromeSignature("reload", [tabIdParam(true), param("reloadProperties", "object", object({ bypassCache: optional(boolean) }), true)]),
      remove: chromeSignature("remove", [param("tabIds", "[integer|array]", tabIds)]),
      group: chromeSignature("group", [param("options", "object", object({
        tabIds, groupId: optional(integer(0)), createProperties: optional(object({ windowId: optional(integer(-2)) })),
      }))]),
      ungroup: chromeSignature("ungroup", [param("tabIds", "[integer|array]", tabIds)]),
      highlight: chromeSignature("highlight", [param("highlightInfo", "object", object({
        windowId: optional(integer(-2)), tabs: { choices: [integer(0), { type: "array", items: integer(0) }] },
      }))]),
      discard: chromeSignature("discard", [tabIdParam(true)]),
      goBack: chromeSignature("goBack", [tabIdParam(true)]),
      goForward: chromeSignature("goForward", [tabIdParam(true)]),
      detectLanguage: chromeSignature("detectLanguage", [tabIdParam(true)]),
      getZoom: chromeSignature("getZoom", [tabIdParam(true)]),
      setZoom: chromeSignature("setZoom", [tabIdParam(true), param("zoomFactor", "number", { type: "number" })]),
      getZoomSettings: chromeSignature("getZoomSettings", [tabIdParam(true)]),
      captureVisibleTab: chromeSignature("captureVisibleTab", [param("windowId", "integer", integer(-2), true),
        param("options", "extensionTypes.ImageDetails", object({ format: optional({ type: "string", enum: ["jpeg", "png"] }), quality: optional({ type: "integer", minimum: 0, maximum: 100 }) }), true)]),
    };
    // One check per method: the profile's.
    const checks = {};
    for (const method of new Set(Object.keys(safariChecks).concat(Object.keys(chromeChecks)))) {
      checks["tabs." + method] = (args, own, profile) => {
        const check = profile === "chromium" ? chromeChecks[method] : safariChecks[method];
        return check ? check(args, own) : args;
      };
    }
    return checks;
  };
})
