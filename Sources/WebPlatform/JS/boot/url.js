// URL and URLSearchParams (WHATWG URL Standard), which every Safari world has and bare
// JavaScriptCore lacks. Relative resolution reuses domino's RFC 3986 resolver; on top of it this
// layer applies the WHATWG rules for special schemes that scripts observe: lowercase host,
// default ports dropped, "/" path for an empty path, dot segments removed, `origin`, and a live
// `searchParams`. Not covered (documented): IDNA host mapping, IPv6 canonicalization,
// percent-encoding of every code point set the standard lists.
(function (DominoURL) {
  "use strict";
  const SPECIAL = { "http:": "80", "https:": "443", "ws:": "80", "wss:": "443", "ftp:": "21", "file:": "" };

  function parse(input) {
    const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):(\/\/([^\/?#]*))?([^?#]*)(\?[^#]*)?(#.*)?$/.exec(input);
    if (!match) return null;
    const protocol = match[1].toLowerCase() + ":";
    let authority = match[3], username = "", password = "", hostname = "", port = "";
    if (authority !== undefined) {
      const at = authority.lastIndexOf("@");
      if (at >= 0) {
        const info = authority.slice(0, at);
        authority = authority.slice(at + 1);
        const colon = info.indexOf(":");
        username = colon >= 0 ? info.slice(0, colon) : info;
        password = colon >= 0 ? info.slice(colon + 1) : "";
      }
      const portMatch = /:(\d*)$/.exec(authority);
      hostname = portMatch ? authority.slice(0, portMatch.index) : authority;
      port = portMatch ? portMatch[1] : "";
      // A port is at most 65535 (URL Standard 4.4, port state).
      if (port !== "" && Number(port) > 65535) return null;
      if (protocol in SPECIAL) {
        hostname = hostname.toLowerCase();
        if (port !== "" && String(Number(port)) === port && SPECIAL[protocol] === port) port = "";
        if (port !== "") port = String(Number(port));
        if (protocol !== "file:" && hostname === "") return null;
        // An IPv6 address stays in its brackets; any other host may not hold a forbidden host
        // code point (URL Standard 3.5), ":" and "[" among them.
        if (hostname[0] === "[") {
          if (!/^\[[0-9a-f:.]+\]$/.test(hostname)) return null;
        } else if (/[\s<>^|%\\#/?@[\]:]/.test(hostname)) {
          return null;
        }
      }
    } else if (protocol in SPECIAL) {
      return null;
    }
    let pathname = match[4] || "";
    if (protocol in SPECIAL || authority !== undefined) {
      pathname = removeDots(pathname === "" ? "/" : pathname);
    }
    return { protocol, username, password, hostname, port, pathname, search: match[5] && match[5] !== "?" ? match[5] : "", hash: match[6] && match[6] !== "#" ? match[6] : "", opaque: authority === undefined };
  }

  function removeDots(path) {
    const out = [];
    const parts = path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (part === "..") { if (out.length > 1) out.pop(); if (i === parts.length - 1) out.push(""); }
      else if (part === ".") { if (i === parts.length - 1) out.push(""); }
      else out.push(part);
    }
    const joined = out.join("/");
    return joined.startsWith("/") ? joined : "/" + joined;
  }

  const records = new WeakMap();

  class URLSearchParams {
    constructor(init) {
      records.set(this, { list: [], url: null });
      if (init === undefined || init === null) return;
      if (typeof init === "object") {
        const entries = typeof init[Symbol.iterator] === "function" ? Array.from(init) : Object.entries(init);
        for (const pair of entries) {
          if (pair.length !== 2) throw new TypeError("Each query pair must be an iterable [name, value] tuple");
          records.get(this).list.push([String(pair[0]), String(pair[1])]);
        }
        return;
      }
      let text = String(init);
      if (text.startsWith("?")) text = text.slice(1);
      records.get(this).list = parseQuery(text);
    }
    append(name, value) { this._list().push([String(name), String(value)]); this._update(); }
    delete(name) { const r = records.get(this); r.list = r.list.filter(([n]) => n !== String(name)); this._update(); }
    get(name) { const found = this._list().find(([n]) => n === String(name)); return found ? found[1] : null; }
    getAll(name) { return this._list().filter(([n]) => n === String(name)).map(([, v]) => v); }
    has(name) { return this._list().some(([n]) => n === String(name)); }
    set(name, value) {
      const r = records.get(this); name = String(name); value = String(value);
      const index = r.list.findIndex(([n]) => n === name);
      if (index < 0) r.list.push([name, value]);
      else { r.list[index][1] = value; r.list = r.list.filter(([n], i) => n !== name || i === index); }
      this._update();
    }
    sort() { const r = records.get(this); r.list = r.list.map((p, i) => [p, i]).sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1])).map(([p]) => p); this._update(); }
    forEach(callback, thisArg) { for (const [n, v] of this._list()) callback.call(thisArg, v, n, this); }
    keys() { return this._list().map(([n]) => n)[Symbol.iterator](); }
    values() { return this._list().map(([, v]) => v)[Symbol.iterator](); }
    entries() { return this._list().map((p) => [p[0], p[1]])[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    get size() { return this._list().length; }
    toString() { return this._list().map(([n, v]) => encodeForm(n) + "=" + encodeForm(v)).join("&"); }
    _list() { return records.get(this).list; }
    _update() {
      const url = records.get(this).url;
      if (url) { const text = this.toString(); url._parts.search = text ? "?" + text : ""; }
    }
  }

  function parseQuery(text) {
    if (!text) return [];
    return text.split("&").filter((s) => s.length > 0).map((piece) => {
      const eq = piece.indexOf("=");
      const name = eq >= 0 ? piece.slice(0, eq) : piece;
      const value = eq >= 0 ? piece.slice(eq + 1) : "";
      return [decodeForm(name), decodeForm(value)];
    });
  }
  function decodeForm(s) { try { return decodeURIComponent(s.replace(/\+/g, " ")); } catch (e) { return s; } }
  function encodeForm(s) { return encodeURIComponent(s).replace(/%20/g, "+").replace(/[!'()~]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()); }

  class URL {
    constructor(url, base) {
      let input = String(url).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
      let parts = parse(input);
      if (!parts) {
        if (base === undefined) throw new TypeError("\"" + url + "\" cannot be parsed as a URL.");
        const baseParts = parse(String(base instanceof URL ? base.href : base));
        if (!baseParts || baseParts.opaque) throw new TypeError("\"" + url + "\" cannot be parsed as a URL against \"" + base + "\".");
        const resolved = new DominoURL(serialize(baseParts)).resolve(input);
        parts = parse(resolved);
        if (!parts) throw new TypeError("\"" + url + "\" cannot be parsed as a URL.");
      }
      Object.defineProperty(this, "_parts", { value: parts });
      const params = new URLSearchParams(parts.search);
      records.get(params).url = this;
      Object.defineProperty(this, "_params", { value: params });
    }
    get href() { return serialize(this._parts); }
    set href(value) { const next = new URL(value); Object.assign(this._parts, next._parts); this._syncParams(); }
    get protocol() { return this._parts.protocol; }
    get username() { return this._parts.username; }
    get password() { return this._parts.password; }
    get host() { return this._parts.hostname + (this._parts.port ? ":" + this._parts.port : ""); }
    get hostname() { return this._parts.hostname; }
    set hostname(value) { this._parts.hostname = String(value).toLowerCase(); }
    get port() { return this._parts.port; }
    set port(value) { this._parts.port = SPECIAL[this._parts.protocol] === String(value) ? "" : String(value); }
    get pathname() { return this._parts.pathname; }
    set pathname(value) { let p = String(value); if (!p.startsWith("/")) p = "/" + p; this._parts.pathname = removeDots(p); }
    get search() { return this._parts.search; }
    set search(value) { let s = String(value); if (s.startsWith("?")) s = s.slice(1); this._parts.search = s ? "?" + s : ""; this._syncParams(); }
    get hash() { return this._parts.hash; }
    set hash(value) { let s = String(value); if (s.startsWith("#")) s = s.slice(1); this._parts.hash = s ? "#" + s : ""; }
    get searchParams() { return this._params; }
    get origin() {
      const p = this._parts;
      if (!(p.protocol in SPECIAL) || p.protocol === "file:") return "null";
      return p.protocol + "//" + this.host;
    }
    toString() { return this.href; }
    toJSON() { return this.href; }
    _syncParams() { records.get(this._params).list = parseQuery(this._parts.search.slice(1)); }
    static canParse(url, base) { try { new URL(url, base); return true; } catch (e) { return false; } }
  }

  function serialize(p) {
    let out = p.protocol;
    if (!p.opaque) {
      out += "//";
      if (p.username || p.password) out += p.username + (p.password ? ":" + p.password : "") + "@";
      out += p.hostname + (p.port ? ":" + p.port : "");
    }
    return out + p.pathname + p.search + p.hash;
  }

  return { URL, URLSearchParams };
})
