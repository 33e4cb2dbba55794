// Hosts that delivered a picked element: image, frame and media URLs and CSS background
// images, on the element and inside it. Link targets (<a href>) are deliberately left out: an
// advertiser's landing page says where a click goes, not which server serves the ad.
"use strict";

var ADVSourceHosts = (() => {
  const MAX_NODES = 500;
  const URL_ATTRIBUTES = {
    img: ["src", "srcset"],
    source: ["src", "srcset"],
    iframe: ["src"],
    frame: ["src"],
    video: ["src", "poster"],
    audio: ["src"],
    track: ["src"],
    embed: ["src"],
    object: ["data"],
    input: ["src"],
  };

  /** The document's base URL (a <base href> counts); the page address where that is unknown. */
  function baseURL() {
    try {
      return document.baseURI || location.href;
    } catch (error) {
      return location.href;
    }
  }

  function hostOf(raw) {
    try {
      const url = new URL(String(raw).trim(), baseURL());
      return url.protocol === "http:" || url.protocol === "https:" ? url.hostname.toLowerCase() : null;
    } catch (error) {
      return null;
    }
  }

  /** URLs of one srcset ("a.png 1x, b.png 2x"): the first word of each candidate. */
  function srcsetURLs(value) {
    return String(value).split(",").map((candidate) => candidate.trim().split(/\s+/)[0]).filter(Boolean);
  }

  /** url(...) references in a background-image value. */
  function cssURLs(value) {
    const found = [];
    const pattern = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)/g;
    let match;
    while ((match = pattern.exec(String(value || ""))) !== null) found.push(match[1] || match[2] || match[3]);
    return found.filter(Boolean);
  }

  function attributeURLs(element) {
    const names = URL_ATTRIBUTES[element.localName] || [];
    const urls = [];
    for (const name of names) {
      const value = element.getAttribute(name);
      if (!value) continue;
      if (name === "srcset") urls.push(...srcsetURLs(value));
      else urls.push(value);
    }
    return urls;
  }

  /** Background images: the computed value, and the inline declaration when none is computed. */
  function backgroundURLs(element) {
    let computed = "";
    try { computed = getComputedStyle(element).getPropertyValue("background-image"); } catch (error) { computed = ""; }
    const inline = element.style ? element.style.getPropertyValue("background-image") : "";
    return cssURLs(computed && computed !== "none" ? computed : inline);
  }

  /** Sorted distinct http(s) hosts serving `elements` and their contents. */
  function collect(elements) {
    const hosts = new Set();
    let visited = 0;
    for (const root of elements) {
      const nodes = [root, ...root.querySelectorAll("*")];
      for (const node of nodes) {
        if (++visited > MAX_NODES) break;
        for (const url of attributeURLs(node).concat(backgroundURLs(node))) {
          const host = hostOf(url);
          if (host) hosts.add(host);
        }
      }
    }
    return [...hosts].sort();
  }

  return { collect };
})();
