// The content scripts' one way to reach the background: request/response with promises.
"use strict";

var ADVMessaging = (() => {
  async function request(type, payload) {
    try {
      return await browser.runtime.sendMessage({ type, ...payload });
    } catch (error) {
      // The background may be restarting; callers treat a missing answer as "not now".
      return undefined;
    }
  }
  return { request };
})();
