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

  function send(force) {
    pending = false;
    const cosmetic = count();
    if (!force && cosmetic === last) return;
    last = cosmetic;
    ADVMessaging.request("activity", { cosmetic, youtube: (globalThis.__advYouTubeHandled || 0) });
  }

  send(true);
  if (typeof MutationObserver === "function") {
    const observer = new MutationObserver(() => {
      if (!pending) { pending = true; setTimeout(() => send(false), 250); }
    });
    observer.observe(document.documentElement || document, { childList: true, subtree: true });
    window.addEventListener("pagehide", () => observer.disconnect());
  }
  // A heartbeat keeps the frame's report from expiring while it stays on screen.
  const heartbeat = setInterval(() => send(true), 10000);
  window.addEventListener("pagehide", () => clearInterval(heartbeat));
})();
