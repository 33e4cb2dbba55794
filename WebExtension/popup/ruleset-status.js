// The popup's network-filter status: whether the static advertising ruleset (the manifest's
// declarative_net_request rule_resources, networkRules.json) is enabled. The popup is the
// source of this status (the native app sees only whether the extension is enabled). A
// ruleset the manifest enables can be switched off (declarativeNetRequest.updateEnabledRulesets),
// so the browser is asked rather than the manifest believed. A failed question is "unknown",
// never "disabled".
"use strict";

(async () => {
  const line = document.getElementById("ruleset-status");
  const show = (state, text) => {
    line.dataset.state = state;
    line.textContent = "Static advertising ruleset: " + text;
  };
  const declared = ((browser.runtime.getManifest().declarative_net_request || {}).rule_resources || []).map((ruleset) => ruleset.id);
  try {
    const enabled = await browser.declarativeNetRequest.getEnabledRulesets();
    if (declared.length > 0 && declared.every((id) => enabled.includes(id))) show("enabled", "enabled");
    else show("disabled", "disabled · built-in network blocking is off");
  } catch (error) {
    show("unknown", "unknown (" + error.message + ")");
  }
})();
