// Check existing filters, page side (top frame only): the popup sends the site's saved filters
// and this checks them against the page's own DOM with ADVRuleAssistance, whose match sets come
// from querySelectorAll here, so "no matches" and "overlap" describe this page as it is now.
"use strict";

(() => {
  if (globalThis.__advFilterCheck) return;
  globalThis.__advFilterCheck = true;

  browser.runtime.onMessage.addListener((message) => {
    if (!message || message.type !== "filters.check") return undefined;
    const rules = Array.isArray(message.rules) ? message.rules : [];
    return Promise.resolve(ADVRuleAssistance.check(rules, { document, name: "this page", hostname: location.hostname }));
  });
})();
