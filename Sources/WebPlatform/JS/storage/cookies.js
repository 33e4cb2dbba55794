// layer: storage/cookies
// order: 190
// provides:
// requires: DOMException, originOf, storageScopeOf
//
// document.cookie (HTML 3.1.3 and RFC 6265bis "cookie-string" and storage model), which domino
// leaves unimplemented (it threw on any use). One cookie jar per browser session (private tabs
// have their own), shared by every document and kept across navigations; a browser restart keeps
// the cookies that have an expiry and drops the session ones (and the private jar). Times come
// from the virtual clock. Only http(s) documents have cookies; an opaque origin throws
// SecurityError, as WebKit's Document::cookie does. Requests carry no Cookie header: the network
// model has no headers.
(function (ctx) {
  "use strict";
  const host = ctx.host;
  const URLClass = ctx.urlClasses.URL;
  const MAX_COOKIE_BYTES = 4096;   // RFC 6265bis 5.6: name plus value
  const jars = new Map();          // "default" | "private" -> Map(key -> cookie)
  let created = 0;

  function jarOf(document) {
    const scope = ctx.storageScopeOf(document);
    const name = scope.isPrivate ? "private" : "default";
    let jar = jars.get(name);
    if (!jar) jars.set(name, jar = new Map());
    return jar;
  }

  // The document's URL when it may have cookies, else null (cookie-averse: not http(s)).
  // An opaque origin (data:, a sandbox) is a SecurityError; a custom scheme with a host has a
  // tuple origin (frames.js, as in WebKit) and simply no cookies.
  function cookieURL(document) {
    if (ctx.originOf(document) === "null") throw new ctx.DOMException("The operation is insecure.", "SecurityError");
    const url = new URLClass(document.URL);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  }

  // RFC 6265bis 5.1.3 domain-match and 5.1.4 path-match.
  function domainMatches(hostname, domain) {
    return hostname === domain || (hostname.endsWith("." + domain) && !/^[\d.]+$/.test(hostname));
  }
  function pathMatches(path, cookiePath) {
    if (path === cookiePath) return true;
    return path.startsWith(cookiePath) && (cookiePath.endsWith("/") || path[cookiePath.length] === "/");
  }
  function defaultPath(path) {
    if (!path.startsWith("/")) return "/";
    const slash = path.lastIndexOf("/");
    return slash <= 0 ? "/" : path.slice(0, slash);
  }

  function expired(cookie, now) { return cookie.expires !== null && cookie.expires <= now; }

  function read(document) {
    const url = cookieURL(document);
    if (!url) return "";
    const jar = jarOf(document);
    const now = host.now();
    const found = [];
    for (const [key, cookie] of jar) {
      if (expired(cookie, now)) { jar.delete(key); continue; }
      if (cookie.hostOnly ? url.hostname !== cookie.domain : !domainMatches(url.hostname, cookie.domain)) continue;
      if (!pathMatches(url.pathname, cookie.path)) continue;
      if (cookie.secure && url.protocol !== "https:") continue;
      found.push(cookie);
    }
    // Longer paths first (RFC 6265bis 5.8.3 step 2); then, as WebKit's cookie jar lists them
    // (recorded from WebKitGTK), host-only cookies, then domain cookies from the closest domain
    // up; then creation order.
    const labels = url.hostname.split(".").length;
    const rank = (c) => (c.hostOnly ? 0 : 1 + labels - c.domain.split(".").length);
    found.sort((a, b) => b.path.length - a.path.length || rank(a) - rank(b) || a.created - b.created);
    return found.map((c) => (c.name === "" ? c.value : c.name + "=" + c.value)).join("; ");
  }

  // RFC 6265bis 5.6 (parsing) and 5.7 (storage), for a script's cookie-string.
  function write(document, text) {
    const url = cookieURL(document);
    if (!url) return;
    const parts = String(text).split(";");
    const pair = parts.shift();
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(pair)) return;
    const eq = pair.indexOf("=");
    const name = (eq < 0 ? "" : pair.slice(0, eq)).trim();
    const value = (eq < 0 ? pair : pair.slice(eq + 1)).trim();
    if (name === "" && value === "") return;
    if (name.length + value.length > MAX_COOKIE_BYTES) return;
    const cookie = { name, value, domain: url.hostname, hostOnly: true, path: defaultPath(url.pathname), expires: null, secure: false, sameSite: "default" };
    const now = host.now();
    let maxAge = null, expires = null, domainGiven = null, httpOnly = false;
    for (const part of parts) {
      const at = part.indexOf("=");
      const key = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase();
      const attribute = (at < 0 ? "" : part.slice(at + 1)).trim();
      if (key === "expires") {
        const time = Date.parse(attribute);
        if (!Number.isNaN(time)) expires = time;
      } else if (key === "max-age") {
        if (/^-?\d+$/.test(attribute)) maxAge = Number(attribute);
      } else if (key === "domain") {
        if (attribute !== "") domainGiven = attribute.replace(/^\./, "").toLowerCase();
      } else if (key === "path") {
        cookie.path = attribute.startsWith("/") ? attribute : defaultPath(url.pathname);
      } else if (key === "secure") {
        cookie.secure = true;
      } else if (key === "httponly") {
        httpOnly = true;
      } else if (key === "samesite") {
        const lower = attribute.toLowerCase();
        cookie.sameSite = lower === "strict" || lower === "lax" || lower === "none" ? lower : "default";
      }
    }
    // Max-Age wins over Expires; zero or less expires it at once.
    if (maxAge !== null) cookie.expires = maxAge <= 0 ? -Infinity : now + maxAge * 1000;
    else if (expires !== null) cookie.expires = expires;
    // A script cannot set an HttpOnly cookie, nor replace one (5.7 steps 10 and 18).
    if (httpOnly) return;
    if (domainGiven !== null) {
      if (!domainMatches(url.hostname, domainGiven)) return;
      cookie.domain = domainGiven;
      cookie.hostOnly = false;
    }
    // A Secure cookie needs a secure page, and so does replacing one (5.7 steps 7 and 16).
    if (cookie.secure && url.protocol !== "https:") return;
    // Cookie prefixes (RFC 6265bis 4.1.3).
    if (name.startsWith("__Secure-") && !cookie.secure) return;
    if (name.startsWith("__Host-") && (!cookie.secure || !cookie.hostOnly || cookie.path !== "/")) return;
    const jar = jarOf(document);
    const key = name + "\u0000" + cookie.domain + "\u0000" + cookie.path;
    const old = jar.get(key);
    if (old && old.secure && url.protocol !== "https:") return;
    if (old && old.httpOnly) return;
    cookie.created = old ? old.created : ++created;
    store(jar, key, old, cookie, now);
  }

  // Puts `cookie` under `key` (replacing `old`), telling the browser layer what changed
  // (hooks.cookieChanged: cookies.onChanged): an overwrite, then the new one; an expired
  // one is only the removal.
  function store(jar, key, old, cookie, now) {
    jar.delete(key);
    const changed = ctx.hooks.cookieChanged;
    if (old && changed) changed(JSON.stringify(toAPI(old, jar)), true, expired(cookie, now) ? "expired_overwrite" : "overwrite");
    if (expired(cookie, now)) return;
    jar.set(key, cookie);
    if (changed) changed(JSON.stringify(toAPI(cookie, jar)), false, "explicit");
  }

  // A cookie as the extension API describes it (cookies.Cookie).
  function toAPI(cookie, jar) {
    const made = { domain: cookie.hostOnly ? cookie.domain : "." + cookie.domain, hostOnly: cookie.hostOnly, httpOnly: !!cookie.httpOnly,
      name: cookie.name, path: cookie.path, sameSite: cookie.sameSite === "default" ? "unspecified" : (cookie.sameSite === "none" ? "no_restriction" : cookie.sameSite),
      secure: cookie.secure, session: cookie.expires === null, storeId: jar === jars.get("private") ? "1" : "0", value: cookie.value };
    if (cookie.expires !== null) made.expirationDate = cookie.expires / 1000;
    return made;
  }

  // The extension API's view of the jars (Browser+Cookies): every live cookie of a store as
  // JSON; put one from details (the browser checked them); remove by name, domain and path.
  function apiJar(storeId) {
    const name = storeId === "1" ? "private" : "default";
    let jar = jars.get(name);
    if (!jar) jars.set(name, jar = new Map());
    return jar;
  }
  const api = {
    all(storeId) {
      const jar = apiJar(storeId), now = host.now(), list = [];
      for (const [key, cookie] of jar) { if (expired(cookie, now)) jar.delete(key); else list.push(toAPI(cookie, jar)); }
      return JSON.stringify(list);
    },
    put(detailsJSON) {
      const d = JSON.parse(detailsJSON);
      const jar = apiJar(d.storeId), now = host.now();
      const cookie = { name: d.name, value: d.value, domain: d.domain, hostOnly: d.hostOnly, path: d.path,
        expires: d.expirationDate === undefined ? null : d.expirationDate * 1000, secure: d.secure, httpOnly: d.httpOnly,
        sameSite: d.sameSite === "unspecified" ? "default" : (d.sameSite === "no_restriction" ? "none" : d.sameSite) };
      const key = cookie.name + "\u0000" + cookie.domain + "\u0000" + cookie.path;
      const old = jar.get(key);
      cookie.created = old ? old.created : ++created;
      store(jar, key, old, cookie, now);
      return expired(cookie, now) ? "null" : JSON.stringify(toAPI(cookie, jar));
    },
    remove(storeId, name, domain, path) {
      const jar = apiJar(storeId);
      const key = name + "\u0000" + domain + "\u0000" + path;
      const old = jar.get(key);
      if (!old) return false;
      jar.delete(key);
      if (ctx.hooks.cookieChanged) ctx.hooks.cookieChanged(JSON.stringify(toAPI(old, jar)), true, "explicit");
      return true;
    },
  };

  const cookie = {
    get() { return read(this); },
    set(value) { write(this, value); },
    enumerable: true, configurable: true,
  };
  Object.defineProperty(ctx.impl.Document.prototype, "cookie", cookie);

  return {
    name: "cookies",
    api,
    // A warm engine's next session starts with empty jars (SessionEngine).
    sessionEnded() { jars.clear(); created = 0; },
    // A restart keeps the cookies with an expiry; session cookies and private ones go.
    restart() {
      jars.delete("private");
      const jar = jars.get("default");
      if (jar) for (const [key, value] of jar) if (value.expires === null) jar.delete(key);
    },
  };
})
