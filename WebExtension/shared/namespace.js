// ADV's scripts name the extension API `browser`, as Safari does (Safari gives the same namespace
// both names). Chrome has only `chrome`: there, this gives it the name ADV uses. Loaded first in
// every context (background, content scripts, popup), so the chromium profile of the harness can
// run ADV for comparison.
globalThis.browser ??= globalThis.chrome;
