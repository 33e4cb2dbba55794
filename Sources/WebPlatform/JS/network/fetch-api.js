// layer: network/fetch-api
// order: 130
// provides: makeFetchResponse, parseHeaderText, fetchHeaderText
// requires: encodeUTF8, decodeUTF8
//
// Fetch's classes (Fetch standard 5, File API 3): Headers, Request, Response and Blob, with the
// body methods text(), json(), arrayBuffer(), blob() and bytes(). fetch() (engine.js) answers
// with a Response from here. Bodies are bytes (UTF-8 for text); `body` streams are not
// simulated (`response.body` is null), nor is FormData. Network responses carry no headers: the
// network model has none. Each page has its own Request constructor (same prototype), so that a
// relative URL resolves against that page's address.
(function (ctx) {
  "use strict";

  // MARK: - Bytes

  // UTF-8 is encoding.js's (text bodies and blob parts).
  const utf8Encode = (text) => ctx.encodeUTF8(String(text));
  const utf8Decode = ctx.decodeUTF8;
  // The bytes of a body or blob part (BufferSource, Blob, or anything else as a string).
  function bytesOf(part) {
    if (part instanceof Blob) return blobs.get(part).bytes;
    if (part instanceof ArrayBuffer || Object.prototype.toString.call(part) === "[object ArrayBuffer]") return new Uint8Array(part.slice(0));
    if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
    return utf8Encode(part);
  }
  function concat(chunks) {
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const chunk of chunks) { out.set(chunk, at); at += chunk.length; }
    return out;
  }

  // MARK: - Blob

  const blobs = ctx.internalSlots("Blob");   // blob -> { bytes, type }
  function Blob(parts, options) {
    if (!new.target) throw new TypeError("Failed to construct 'Blob': Please use the 'new' operator.");
    if (parts !== undefined && (parts === null || typeof parts !== "object" || typeof parts[Symbol.iterator] !== "function")) {
      throw new TypeError("Failed to construct 'Blob': The provided value cannot be converted to a sequence.");
    }
    const chunks = parts === undefined ? [] : Array.from(parts, bytesOf);
    const type = options && options.type !== undefined ? String(options.type) : "";
    blobs.set(this, { bytes: concat(chunks), type: /[^\x20-\x7E]/.test(type) ? "" : type.toLowerCase() });
  }
  function makeBlob(bytes, type) {
    const blob = Object.create(Blob.prototype);
    blobs.set(blob, { bytes, type });
    return blob;
  }
  ctx.defineMembers(Blob.prototype, {
    size: { get() { return blobs.of(this).bytes.length; } },
    type: { get() { return blobs.of(this).type; } },
    text: { value: function text() { return Promise.resolve(utf8Decode(blobs.of(this).bytes)); } },
    arrayBuffer: { value: function arrayBuffer() { return Promise.resolve(blobs.of(this).bytes.slice().buffer); } },
    bytes: { value: function bytes() { return Promise.resolve(blobs.of(this).bytes.slice()); } },
    slice: {
      value: function slice(start, end, contentType) {
        const bytes = blobs.of(this).bytes;
        const clamp = (value, fallback) => {
          if (value === undefined) return fallback;
          const n = Math.trunc(Number(value)) || 0;
          return n < 0 ? Math.max(bytes.length + n, 0) : Math.min(n, bytes.length);
        };
        const from = clamp(start, 0), to = clamp(end, bytes.length);
        return makeBlob(bytes.slice(from, Math.max(from, to)), contentType === undefined ? "" : String(contentType).toLowerCase());
      },
    },
  }, "Blob");

  // MARK: - Headers

  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const headerLists = ctx.internalSlots("Headers");   // headers -> { list: [[name, value]], guard }
  function normalizeValue(value) { return String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, ""); }
  function checkName(name) {
    const text = String(name);
    if (!TOKEN.test(text)) throw new TypeError("Invalid header name: '" + text + "'");
    return text.toLowerCase();
  }
  function checkValue(value) {
    const text = normalizeValue(value);
    if (/[\0\r\n]/.test(text)) throw new TypeError("Invalid header value: '" + text + "'");
    return text;
  }
  function mutable(state) {
    if (state.guard === "immutable") throw new TypeError("Headers are immutable");
  }
  function fill(headers, init) {
    if (init === undefined || init === null) return;
    if (typeof init !== "object") throw new TypeError("Failed to construct 'Headers': The provided value is not of type '(record<ByteString, ByteString> or sequence<sequence<ByteString>>)'.");
    if (typeof init[Symbol.iterator] === "function") {
      for (const pair of init) {
        const entry = Array.from(pair);
        if (entry.length !== 2) throw new TypeError("Failed to construct 'Headers': Header pairs must contain exactly two items.");
        headers.append(entry[0], entry[1]);
      }
    } else {
      for (const key of Object.keys(init)) headers.append(key, init[key]);
    }
  }
  function Headers(init) {
    if (!new.target) throw new TypeError("Failed to construct 'Headers': Please use the 'new' operator.");
    headerLists.set(this, { list: [], guard: "none" });
    fill(this, init);
  }
  function makeHeaders(pairs, guard) {
    const headers = Object.create(Headers.prototype);
    headerLists.set(headers, { list: pairs.map(([n, v]) => [n.toLowerCase(), v]), guard });
    return headers;
  }
  // Sorted by name, values of one name combined with ", " (set-cookie kept apart).
  function sortedPairs(state) {
    const names = Array.from(new Set(state.list.map(([n]) => n))).sort();
    const out = [];
    for (const name of names) {
      const values = state.list.filter(([n]) => n === name).map(([, v]) => v);
      if (name === "set-cookie") for (const value of values) out.push([name, value]);
      else out.push([name, values.join(", ")]);
    }
    return out;
  }
  ctx.defineMembers(Headers.prototype, {
    append: { value: function append(name, value) { const state = headerLists.of(this); const n = checkName(name), v = checkValue(value); mutable(state); state.list.push([n, v]); } },
    delete: { value: function (name) { const state = headerLists.of(this); const n = checkName(name); mutable(state); state.list = state.list.filter(([k]) => k !== n); } },
    get: {
      value: function get(name) {
        const n = checkName(name);
        const values = headerLists.of(this).list.filter(([k]) => k === n).map(([, v]) => v);
        return values.length ? values.join(", ") : null;
      },
    },
    getSetCookie: { value: function getSetCookie() { return headerLists.of(this).list.filter(([k]) => k === "set-cookie").map(([, v]) => v); } },
    has: { value: function has(name) { const n = checkName(name); return headerLists.of(this).list.some(([k]) => k === n); } },
    set: {
      value: function set(name, value) {
        const state = headerLists.of(this);
        const n = checkName(name), v = checkValue(value);
        mutable(state);
        // The first entry of the name takes the value; the others go (Fetch "set").
        let seen = false;
        state.list = state.list.filter((entry) => {
          if (entry[0] !== n) return true;
          if (seen) return false;
          seen = true;
          entry[1] = v;
          return true;
        });
        if (!seen) state.list.push([n, v]);
      },
    },
    forEach: { value: function forEach(callback, thisArg) { for (const [n, v] of sortedPairs(headerLists.of(this))) callback.call(thisArg, v, n, this); } },
    entries: { value: function entries() { return sortedPairs(headerLists.of(this))[Symbol.iterator](); } },
    keys: { value: function keys() { return sortedPairs(headerLists.of(this)).map(([n]) => n)[Symbol.iterator](); } },
    values: { value: function values() { return sortedPairs(headerLists.of(this)).map(([, v]) => v)[Symbol.iterator](); } },
  }, "Headers");
  Object.defineProperty(Headers.prototype.delete, "name", { value: "delete" });
  Object.defineProperty(Headers.prototype, Symbol.iterator, { value: Headers.prototype.entries, writable: true, configurable: true });

  // MARK: - Body

  const bodies = new WeakMap();   // Request/Response -> { bytes (or null), used, type }
  function consume(owner) {
    const body = bodies.get(owner);
    if (!body) return Promise.reject(new TypeError("Illegal invocation"));
    if (body.used) return Promise.reject(new TypeError("Body is disturbed or locked"));
    // A fetch aborted after its answer came leaves a body that cannot be read.
    if (body.signal && body.signal.aborted) return Promise.reject(body.signal.reason);
    if (body.bytes !== null) body.used = true;
    return Promise.resolve(body.bytes || new Uint8Array(0));
  }
  const bodyMembers = {
    bodyUsed: { get() { const body = bodies.get(this); return !!(body && body.used); } },
    body: { get() { return null; } },
    text: { value: function text() { return consume(this).then(utf8Decode); } },
    json: { value: function json() { return consume(this).then((bytes) => JSON.parse(utf8Decode(bytes))); } },
    arrayBuffer: { value: function arrayBuffer() { return consume(this).then((bytes) => bytes.buffer); } },
    bytes: { value: function bytes() { return consume(this).then((bytes) => bytes); } },
    blob: {
      value: function blob() {
        const type = (this.headers && this.headers.get("content-type")) || "";
        return consume(this).then((bytes) => makeBlob(bytes, type.toLowerCase()));
      },
    },
    formData: { value: function formData() { return Promise.reject(new TypeError("formData() is not simulated in the harness")); } },
  };
  // A body and the content-type it implies (Fetch 5.2 "extract a body").
  function extract(body) {
    if (body === undefined || body === null) return { bytes: null, type: null };
    if (body instanceof Blob) return { bytes: blobs.get(body).bytes, type: blobs.get(body).type || null };
    if (body instanceof ctx.domGlobals.URLSearchParams) return { bytes: utf8Encode(body.toString()), type: "application/x-www-form-urlencoded;charset=UTF-8" };
    if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return { bytes: bytesOf(body), type: null };
    return { bytes: utf8Encode(body), type: "text/plain;charset=UTF-8" };
  }

  // MARK: - Response

  const responses = ctx.internalSlots("Response");   // response -> { status, statusText, headers, url, type, redirected }
  function Response(body, init) {
    if (!new.target) throw new TypeError("Failed to construct 'Response': Please use the 'new' operator.");
    init = init || {};
    const status = init.status === undefined ? 200 : Number(init.status);
    if (!(status >= 200 && status <= 599) || status !== Math.trunc(status)) throw new RangeError("Failed to construct 'Response': The status provided (" + init.status + ") is outside the range [200, 599].");
    const statusText = init.statusText === undefined ? "" : String(init.statusText);
    const headers = new Headers(init.headers);
    const extracted = extract(body);
    if (extracted.bytes !== null && (status === 101 || status === 204 || status === 205 || status === 304)) {
      throw new TypeError("Failed to construct 'Response': Response with null body status cannot have body");
    }
    if (extracted.type && !headers.has("content-type")) headers.append("content-type", extracted.type);
    headerLists.get(headers).guard = "response";
    responses.set(this, { status, statusText, headers, url: "", type: "default", redirected: false });
    bodies.set(this, { bytes: extracted.bytes, used: false });
  }
  function makeResponse(state, bytes) {
    const response = Object.create(Response.prototype);
    responses.set(response, state);
    bodies.set(response, { bytes, used: false });
    return response;
  }
  // Read-only attributes that answer a field of the object's state.
  function fields(slots, names) {
    const out = {};
    for (const name of names) out[name] = { get() { return slots.of(this)[name]; } };
    return out;
  }
  ctx.defineMembers(Response.prototype, Object.assign(fields(responses, ["status", "statusText", "headers", "url", "type", "redirected"]), {
    ok: { get() { const s = responses.of(this).status; return s >= 200 && s < 300; } },
    clone: {
      value: function clone() {
        const state = responses.of(this);
        if (bodies.get(this).used) throw new TypeError("Failed to execute 'clone' on 'Response': Response body is already used");
        const headers = makeHeaders(headerLists.get(state.headers).list, headerLists.get(state.headers).guard);
        return makeResponse(Object.assign({}, state, { headers }), bodies.get(this).bytes);
      },
    },
  }, bodyMembers), "Response");
  Object.defineProperties(Response, {
    error: { value: function error() { return makeResponse({ status: 0, statusText: "", headers: makeHeaders([], "immutable"), url: "", type: "error", redirected: false }, null); }, writable: true, configurable: true },
    json: {
      value: function json(data, init) {
        const text = JSON.stringify(data);
        if (text === undefined) throw new TypeError("Failed to execute 'json' on 'Response': The data is not JSON serializable");
        const response = new Response(text, init);
        const headers = responses.of(response).headers;
        headerLists.get(headers).list = headerLists.get(headers).list.filter(([n]) => n !== "content-type").concat([["content-type", "application/json"]]);
        return response;
      },
      writable: true, configurable: true,
    },
    redirect: {
      value: function redirect(url, status) {
        const code = status === undefined ? 302 : Number(status);
        if (![301, 302, 303, 307, 308].includes(code)) throw new RangeError("Failed to execute 'redirect' on 'Response': Invalid status code");
        const location = new ctx.domGlobals.URL(String(url)).href;
        return makeResponse({ status: code, statusText: "", headers: makeHeaders([["location", location]], "immutable"), url: "", type: "default", redirected: false }, null);
      },
      writable: true, configurable: true,
    },
  });

  // MARK: - Request

  const requests = ctx.internalSlots("Request");   // request -> { url, method, headers, mode, credentials, signal }
  const METHOD = /^(delete|get|head|options|post|put)$/i;
  function Request(input, init) {
    if (!new.target) throw new TypeError("Failed to construct 'Request': Please use the 'new' operator.");
    if (arguments.length === 0) throw new TypeError("Not enough arguments");
    init = init || {};
    const from = input instanceof Request ? requests.of(input) : null;
    let url;
    if (from) url = from.url;
    else {
      try { url = new ctx.domGlobals.URL(String(input), requestBase).href; } catch (error) {
        throw new TypeError("Failed to construct 'Request': Invalid URL '" + String(input) + "'");
      }
    }
    let method = init.method !== undefined ? String(init.method) : from ? from.method : "GET";
    if (!TOKEN.test(method)) throw new TypeError("Failed to construct 'Request': '" + method + "' is not a valid HTTP method.");
    if (/^(connect|trace|track)$/i.test(method)) throw new TypeError("Failed to construct 'Request': '" + method + "' HTTP method is unsupported.");
    if (METHOD.test(method)) method = method.toUpperCase();
    const headers = new Headers(init.headers !== undefined ? init.headers : from ? from.headers : undefined);
    const extracted = extract(init.body);
    if (extracted.bytes !== null && (method === "GET" || method === "HEAD")) throw new TypeError("Failed to construct 'Request': Request with GET/HEAD method cannot have body.");
    if (extracted.type && !headers.has("content-type")) headers.append("content-type", extracted.type);
    requests.set(this, { url, method, headers, mode: init.mode || (from ? from.mode : "cors"), credentials: init.credentials || (from ? from.credentials : "same-origin"),
                         signal: init.signal !== undefined ? init.signal : from ? from.signal : null });
    bodies.set(this, { bytes: extracted.bytes !== null ? extracted.bytes : from ? bodies.get(input).bytes : null, used: false });
  }
  ctx.defineMembers(Request.prototype, Object.assign(fields(requests, ["url", "method", "headers", "mode", "credentials", "signal"]), {
    clone: {
      value: function clone() {
        const state = requests.of(this);
        if (bodies.get(this).used) throw new TypeError("Failed to execute 'clone' on 'Request': Request body is already used");
        const copy = Object.create(Request.prototype);
        requests.set(copy, Object.assign({}, state, { headers: makeHeaders(headerLists.get(state.headers).list, "request") }));
        bodies.set(copy, { bytes: bodies.get(this).bytes, used: false });
        return copy;
      },
    },
  }, bodyMembers), "Request");

  // The Response fetch() answers with: a network response of the page's request.
  // `headerText` is the browser's `name: value` lines (after any header rules).
  ctx.makeFetchResponse = (url, status, text, signal, headerText, redirected) => {
    const response = makeResponse({
      status, statusText: status === 200 ? "OK" : status === 404 ? "Not Found" : "", url, type: "basic", redirected: !!redirected,
      headers: makeHeaders(ctx.parseHeaderText(headerText), "immutable"),
    }, utf8Encode(text));
    if (signal) bodies.get(response).signal = signal;
    return response;
  };
  ctx.parseHeaderText = (text) => {
    const pairs = [];
    for (const line of String(text || "").split("\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) pairs.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
    }
    return pairs;
  };
  // The headers a fetch(input, init) sends, as `name: value` lines for the browser.
  ctx.fetchHeaderText = (input, init) => {
    let source = init && init.headers !== undefined ? init.headers : input instanceof Request ? input.headers : undefined;
    if (source === undefined || source === null) return "";
    const headers = source instanceof Headers ? source : new Headers(source);
    return sortedPairs(headerLists.of(headers)).map(([n, v]) => n + ": " + v).join("\n");
  };
  // A page's Request: the same interface, resolving relative URLs against the page's address.
  let requestBase;
  function pageRequest(document) {
    function Request(input, init) {
      if (!new.target) throw new TypeError("Failed to construct 'Request': Please use the 'new' operator.");
      const outer = requestBase;
      requestBase = document.baseURI;
      try { return Reflect.construct(BaseRequest, arguments, new.target === Request ? BaseRequest : new.target); } finally { requestBase = outer; }
    }
    Request.prototype = BaseRequest.prototype;
    return Request;
  }
  const BaseRequest = Request;
  Object.assign(ctx.domGlobals, { Blob, Headers, Request, Response });

  return {
    name: "fetchAPI",
    page(p) { ctx.lazyGlobal(p.shared, "Request", () => pageRequest(p.document), false); },
  };
})
