// Hostname rules shared by the background and the popup: the same policy as BlockerCore's
// Hostname module (Sources/BlockerCore/README.md): lowercase, trailing dot removed, IDNA through
// the URL parser, no scheme/path/port/wildcard, no IP literals, no bare public suffix.
"use strict";

var ADVHostnames = (() => {
  // Multi-label public suffixes a user might type by mistake (the ICANN ones most often met);
  // any single label ("com", "uk") is refused as well.
  const PUBLIC_SUFFIXES = new Set([
    "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "ltd.uk", "plc.uk", "com.au", "net.au", "org.au", "edu.au", "gov.au",
    "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp", "co.nz", "org.nz", "co.za", "com.br", "com.cn", "com.mx", "com.tr",
    "co.in", "co.kr", "com.sg", "com.hk", "com.tw", "co.il", "com.ar", "co.id",
  ]);

  /** Normalizes `input` or returns { error } with the reason; `purpose` names what needs it. */
  function normalize(input, purpose) {
    const what = purpose || "source blocks";
    let text = String(input == null ? "" : input).trim();
    if (text === "") return { error: "enter a hostname such as ads.example.com" };
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { error: "'" + text + "' has a scheme; enter only the hostname" };
    if (/[\/?#@\s]/.test(text)) return { error: "'" + text + "' contains a path or other characters; enter only the hostname" };
    if (text.includes("*")) return { error: "'" + text + "' has a wildcard; subdomains are always included" };
    if (/:\d*$/.test(text)) return { error: "'" + text + "' has a port; enter only the hostname" };
    if (text.endsWith(".")) text = text.slice(0, -1);
    let host;
    try {
      host = new URL("http://" + text + "/").hostname;
    } catch (e) {
      return { error: "'" + text + "' is not a valid hostname" };
    }
    if (host.startsWith("[") || /^\d+(\.\d+){3}$/.test(host)) return { error: "'" + text + "' is an IP address; " + what + " take hostnames" };
    const labels = host.split(".");
    if (labels.length < 2 || labels.some((label) => label === "" || label.length > 63 || !/^[a-z0-9-]+$/.test(label) || label.startsWith("-") || label.endsWith("-"))) {
      return { error: "'" + text + "' is not a valid hostname" };
    }
    if (PUBLIC_SUFFIXES.has(host)) return { error: "'" + host + "' is a public suffix; enter a site's own hostname" };
    return { host };
  }

  /** True when `host` equals `parent` or is a subdomain of it on a label boundary. */
  function isSameOrSubdomain(host, parent) {
    return host === parent || host.endsWith("." + parent);
  }

  return { normalize, isSameOrSubdomain };
})();
