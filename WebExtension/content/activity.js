// Reports what ADV hides on this frame, so the toolbar reflects blocking observed on the page.
// Idempotent on re-injection; stops when the page goes away.
"use strict";

(() => {
  if (globalThis.__advActivity) return;
  globalThis.__advActivity = true;
  const selector = ADVCosmeticSelectors.join(",");
  let last = -1;
  let pending = false;

  function count() {
    try { return document.querySelectorAll(selector).length; } catch (error) { return 0; }
  }

  // Each report names the page it is about (the address without its fragment): one that arrives
  // after the tab moved on to another address is dropped by the background.
  function send(force) {
    pending = false;
    const cosmetic = count();
    if (!force && cosmetic === last) return;
    last = cosmetic;
    const page = location.href.split("#")[0];
    const handled = globalThis.__advYouTubeHandled;
    ADVMessaging.request("activity", { cosmetic, youtube: handled && handled.page === page ? handled.count : 0, page });
  }

  // The YouTube handler calls this after each confirmed ad.
  globalThis.__advActivityNotify = () => send(true);
  send(true);
  if (typeof MutationObserver === "function") {
    const observer = new MutationObserver(() => {
      if (!pending) { pending = true; setTimeout(() => send(false), 1000); }
    });
    observer.observe(document.documentElement || document, { childList: true, subtree: true });
    window.addEventListener("pagehide", () => observer.disconnect());
  }
  // The page moved to another address without loading (the background saw the tab's URL change
  // and cleared its activity): this frame reports what it sees now, at once.
  browser.runtime.onMessage.addListener((message) => {
    if (!message || message.type !== "page.changed") return undefined;
    send(true);
    return undefined;
  });
  // A heartbeat keeps the frame's report from expiring while it stays on screen.
  const heartbeat = setInterval(() => send(true), 10000);
  window.addEventListener("pagehide", () => clearInterval(heartbeat));
})();
