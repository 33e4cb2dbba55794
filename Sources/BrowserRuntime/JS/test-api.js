// The test APIs an extension under test gets (Browser.Options.testAPI), as browsers expose
// them only in test builds: `browser.test` as WebKit implements it (Safari profile), and
// `chrome.test` with the names and the framework of Chromium's extension API tests (chromium
// profile). Each reports to the browser through host.testRecord: the kind, whether it held,
// the message, expected and actual text, and the caller's `url:line:column`.
(function (host) {
  "use strict";

  const isRegExp = (value) => Object.prototype.toString.call(value) === "[object RegExp]";

  // What both share: values shown as WebKit shows them (a function or regular expression by its
  // source, undefined as "undefined", anything else as JSON with sorted keys), and the caller's
  // place: the first stack frame outside the runtime's own scripts.
  function common(own, canonical) {
    const show = (value) => {
      if (typeof value === "function" || isRegExp(value)) return String(value);
      const json = canonical(value);
      return json === undefined ? "undefined" : json;
    };
    const location = () => {
      const lines = String(new own.Error().stack || "").split("\n");
      for (const line of lines) {
        const at = line.lastIndexOf("@");
        const where = at >= 0 ? line.slice(at + 1) : line;
        if (where && !where.startsWith("adv-runtime:") && where !== "[native code]") return where;
      }
      return "unknown";
    };
    return { show, location };
  }

  // MARK: browser.test (WebKit's WebExtensionAPITest, WebExtensionAPITestCocoa.mm)
  //
  // Every assertion reports, passed or not. assertEq is strict equality (an equal-looking other
  // object gets " (different)"); assertDeepEq also accepts equal JSON.
  function webkit(contextId, own, canonical) {
    const { show, location } = common(own, canonical);
    const combine = (a, b) => (a && b ? a + "\n" + b : a || b || "");
    const text = (message) => (message === undefined || message === null ? "" : String(message));
    // A failed check's message is the caller's followed by WebKit's detail ("Function did not
    // throw an exception"); a passed one keeps only the caller's. `where` is taken when the
    // check is called (a promise's check reports later, from no script frame).
    const report = (kind, passed, message, detail, expected, actual, where) =>
      host.testRecord(contextId, kind, passed, passed ? text(message) : combine(text(message), detail),
        expected === undefined ? null : expected, actual === undefined ? null : actual, where || location());
    const record = (kind, passed, message, expected, actual) => report(kind, passed, message, "", expected, actual);
    const messageOf = (error) => (error !== null && typeof error === "object" && "message" in error ? error.message : error);
    function matches(expected, value) {
      if (isRegExp(expected)) return expected.test(String(value));
      // WebKit compares with type coercion (isEqualWithTypeCoercionToObject).
      return expected == value; // eslint-disable-line eqeqeq
    }
    const anyOr = (expected, any) => (expected === undefined ? any : show(expected));
    const test = {
      notifyPass(message) { record("pass", true, message); },
      notifyFail(message) { record("fail", false, message); },
      log(value) { record("log", true, show(value)); },
      sendMessage(message, argument) { record("message", true, message, undefined, canonical(argument) ?? "null"); },
      fail(message) { record("assert", false, message); },
      succeed(message) { record("assert", true, message); },
      assertTrue(value, message) { record("assert", !!value, message); },
      assertFalse(value, message) { record("assert", !value, message); },
      assertEq(actual, expected, message) {
        const strict = actual === expected || (Number.isNaN(actual) && Number.isNaN(expected));
        let shown = show(actual);
        if (!strict && shown === show(expected)) shown += " (different)";
        record("equal", strict, message, show(expected), shown);
      },
      assertDeepEq(actual, expected, message) {
        const equal = actual === expected || show(actual) === show(expected);
        record("equal", equal, message, show(expected), show(actual));
      },
      assertThrows(fn, expected, message) {
        let threw = false, error;
        try { fn(); } catch (e) { threw = true; error = e; }
        if (!threw) { report("equal", false, message, "Function did not throw an exception", anyOr(expected, "(any exception)"), "(no exception)"); return; }
        const value = messageOf(error);
        if (expected === undefined) { report("equal", true, message, "", "(any exception)", show(value)); return; }
        report("equal", matches(expected, value), message, isRegExp(expected)
          ? "Function threw an exception that didn't match the regular expression" : "Function threw an exception that didn't equal", show(expected), show(value));
      },
      assertRejects(promise, expected, message) {
        const where = location();
        return own.Promise.resolve(promise).then(
          (result) => { report("equal", false, message, "Promise did not reject with an error", anyOr(expected, "(any error)"), show(result), where); },
          (error) => {
            const value = messageOf(error);
            if (expected === undefined) { report("equal", true, message, "", "(any error)", show(value), where); return; }
            report("equal", matches(expected, value), message, isRegExp(expected)
              ? "Promise rejected with an error that didn't match the regular expression" : "Promise rejected with an error that didn't equal", show(expected), show(value), where);
          });
      },
      assertResolves(promise, message) {
        const where = location();
        return own.Promise.resolve(promise).then(
          (result) => { report("assert", true, message, "", undefined, undefined, where); return result; },
          (error) => { report("assert", false, message, "Promise rejected with an error: " + show(messageOf(error)), undefined, undefined, where); return undefined; });
      },
      assertSafe(fn, message) {
        try {
          const result = fn();
          record("assert", true, message);
          return result;
        } catch (error) {
          report("assert", false, message, "Function threw an exception: " + show(messageOf(error)));
          return undefined;
        }
      },
      assertSafeResolve(fn, message) {
        const result = test.assertSafe(fn, message);
        return result && typeof result.then === "function" ? test.assertResolves(result, message) : result;
      },
      runWithUserGesture(fn) {
        host.testGesture(contextId, true);
        try { return fn(); } finally { host.testGesture(contextId, false); }
      },
      isProcessingUserGesture() { return host.testGesture(contextId, null) === true; },
    };
    return test;
  }

  // MARK: chrome.test (Chromium's extensions/common/api/test.json and its renderer framework)
  //
  // Chromium's framework, not WebKit's: a passing assertion says nothing; a failing one calls
  // fail(), which logs, counts the test failed, schedules the next test and throws the string
  // "chrome.test.failure" to stop the rest of the test (the framework swallows it wherever it
  // catches: callbacks it wraps, tests it runs, API callbacks). runTests(tests) runs the tests
  // one after another, each ended by succeed() or fail() (callbackPass and friends call
  // succeed() once every callback they made has run), then says notifyPass, or notifyFail with
  // "Failed N of M tests". succeed() or fail() outside runTests ends a run of one test.
  // assertEq(expected, actual) is Chromium's deep equality (see `deepEqual`).
  // `lastError()` reads chrome.runtime.lastError; `reportUncaught(contextId, error)` is the
  // context's uncaught-error report.
  function chromium(contextId, own, canonical, lastError, reportUncaught) {
    const { location } = common(own, canonical);
    const failure = "chrome.test.failure";
    const record = (kind, passed, message, expected, actual) =>
      host.testRecord(contextId, kind, passed, message === undefined || message === null ? "" : String(message),
        expected === undefined ? null : expected, actual === undefined ? null : actual, location());
    // JSON.stringify, or the value as a string where JSON has no text for it (the failure
    // messages of Chromium's assertEq).
    const text = (value) => {
      let json;
      try { json = JSON.stringify(value); } catch (error) { json = undefined; }
      return json || "" + value;
    };
    const console = () => own.global.console;

    let tests = [];
    let current = null;
    let failed = 0;
    let count = 1;
    let pendingCallbacks = 0;
    let pendingRejections = 0;
    let running = null; // { resolve, reject } while runTests runs
    let handler = null; // the exception handler set for the running test, or by setExceptionHandler

    const nameOf = (fn) => (fn ? fn.name || fn.generatedName || "(anonymous)" : "(no test)");
    // An exception the framework caught: to the handler, or reported as uncaught.
    // The handler runs as from the browser's side: what it throws (the framework's stop, when
    // it fails the test) goes no further.
    function handle(message, error) {
      if (!handler) { reportUncaught(contextId, error); return; }
      try {
        handler(message || "Unknown error", error);
      } catch (thrown) {
        if (thrown !== failure) reportUncaught(contextId, thrown);
      }
    }
    // Calls `fn` with a promise's value, as an API callback: the framework's stop ends there.
    function whenSettled(promise, fn) {
      promise.then((value) => {
        try { apply(fn, [value]); } catch (error) { if (error !== failure) throw error; }
      });
    }
    function apply(fn, args) {
      try {
        if (fn) return fn.apply(undefined, args);
      } catch (error) {
        if (error === failure) throw error;
        handle(error && error.message, error);
      }
      return undefined;
    }
    // A test ends: the next one runs in a later task, as Chromium's setTimeout(runNextTest, 0).
    const done = () => own.global.setTimeout(next, 0);
    function next() {
      pendingCallbacks = 0;
      pendingRejections = 0;
      current = tests.shift() || null;
      if (!current) { finish(); return; }
      try {
        test.log("( RUN      ) " + nameOf(current));
        handler = (message, error) => { if (error !== failure) test.fail("uncaught exception: " + message); };
        const result = current.call(undefined);
        if (result && typeof result.then === "function") {
          result.then(undefined, (error) => handle(error && error.message, error));
        }
      } catch (error) {
        handle(error && error.message, error);
      }
    }
    function finish() {
      const settle = running;
      const message = failed > 0 ? "Failed " + failed + " of " + count + " tests" : null;
      tests = []; current = null; failed = 0; count = 1; pendingCallbacks = 0; pendingRejections = 0; running = null;
      if (message === null) {
        test.notifyPass();
        if (settle) settle.resolve();
      } else {
        test.notifyFail(message);
        if (settle) settle.reject(new own.Error(message));
      }
    }
    // A failed check: recorded (with expected and actual text where there are two values), the
    // test counted failed and ended, the rest of it stopped.
    function fail(message, expected, actual) {
      test.log("(  FAILED  ) " + nameOf(current));
      const description = message || "FAIL (no message)";
      const log = console();
      if (log && typeof log.log === "function") log.log("[FAIL] " + nameOf(current) + ": " + description);
      record(expected === undefined ? "assert" : "equal", false, description, expected, actual);
      record("result", false, nameOf(current));
      failed++;
      done();
      throw failure;
    }
    const prefix = (message) => "API Test Error in " + nameOf(current) + (message ? ": " + message : "");

    // Chromium's deep equality for assertEq/assertNe/checkDeepEq: strict equality, NaN equal to
    // NaN, functions by source, Dates by time, primitive wrappers by value and prototype,
    // ArrayBuffers by bytes, Maps and Sets by contents in any order, and objects and arrays by
    // the same own keys with deep-equal values.
    function deepEqual(expected, actual) {
      if ((expected === null) !== (actual === null)) return false;
      if (expected === actual) return true;
      if (Number.isNaN(expected) && Number.isNaN(actual)) return true;
      if (typeof expected !== typeof actual) return false;
      if (typeof expected === "function") return String(expected) === String(actual);
      if (typeof expected !== "object") return false;
      if (Array.isArray(expected) !== Array.isArray(actual)) return false;
      if (Array.isArray(expected) && expected.length !== actual.length) return false;
      const isBuffer = (value) => value instanceof own.global.ArrayBuffer || value instanceof ArrayBuffer;
      if (isBuffer(expected) !== isBuffer(actual)) return false;
      if (isBuffer(expected)) {
        const a = new Uint8Array(expected), b = new Uint8Array(actual);
        return a.length === b.length && a.every((byte, index) => byte === b[index]);
      }
      const tag = (value) => Object.prototype.toString.call(value);
      if (tag(expected) === "[object Date]") {
        if (tag(actual) !== "[object Date]") return false;
        const a = expected.getTime(), b = actual.getTime();
        return a === b || (Number.isNaN(a) && Number.isNaN(b));
      }
      if (["[object String]", "[object Number]", "[object Boolean]"].includes(tag(expected))) {
        if (Object.getPrototypeOf(expected) !== Object.getPrototypeOf(actual)) return false;
        const a = expected.valueOf(), b = actual.valueOf();
        return a === b || (Number.isNaN(a) && Number.isNaN(b));
      }
      if (tag(expected) === "[object Map]" || tag(expected) === "[object Set]") {
        if (tag(actual) !== tag(expected) || expected.size !== actual.size) return false;
        const isMap = tag(expected) === "[object Map]";
        const remaining = Array.from(isMap ? actual.entries() : actual.values());
        for (const item of isMap ? expected.entries() : expected.values()) {
          const index = remaining.findIndex((other) => isMap
            ? deepEqual(item[0], other[0]) && deepEqual(item[1], other[1]) : deepEqual(item, other));
          if (index < 0) return false;
          remaining.splice(index, 1);
        }
        return true;
      }
      const own_ = (value, key) => Object.prototype.hasOwnProperty.call(value, key);
      for (const key in actual) if (own_(actual, key) && !own_(expected, key)) return false;
      for (const key in expected) if (own_(expected, key) && !own_(actual, key)) return false;
      for (const key in expected) if (!deepEqual(expected[key], actual[key])) return false;
      return true;
    }

    // One more callback the running test waits for; the function it returns marks it run (the
    // test succeeds once none is left). A second run fails the test.
    function callbackAdded() {
      pendingCallbacks++;
      let first = null;
      return function completed() {
        if (first !== null) fail("Callback has already been run. First call:\n" + first + "\nSecond call:\n" + location());
        first = location();
        pendingCallbacks--;
        if (pendingCallbacks === 0) test.succeed();
      };
    }
    function callback(fn, expectedError) {
      if (fn) test.assertEq(typeof fn, "function");
      const completed = callbackAdded();
      return function (...args) {
        if (expectedError === undefined || expectedError === null) test.assertNoLastError();
        else test.assertLastError(expectedError);
        const result = fn ? apply(fn, args) : undefined;
        completed();
        return result;
      };
    }

    const test = {
      notifyPass(message) { record("pass", true, message); },
      notifyFail(message) { record("fail", false, message); },
      log(message) { record("log", true, String(message)); },
      // Chromium answers with "" when no listener on the browser side will reply
      // (extensions/browser/api/test/test_api.cc, TestSendMessageFunction::Run); nothing here does.
      sendMessage(message, reply) {
        record("message", true, String(message), undefined, "null");
        const answered = own.Promise.resolve("");
        if (typeof reply !== "function") return answered;
        whenSettled(answered, reply);
        return undefined;
      },
      // Resolves with `message` once a message has been to the browser and back.
      waitForRoundTrip(message, reply) {
        const back = new own.Promise((resolve) => own.global.setTimeout(() => resolve(message), 0));
        if (typeof reply !== "function") return back;
        whenSettled(back, reply);
        return undefined;
      },
      getConfig(reply) {
        const config = JSON.parse(host.testConfig(contextId));
        if (typeof reply !== "function") return own.Promise.resolve(config);
        whenSettled(own.Promise.resolve(config), reply);
        return undefined;
      },
      sendScriptResult(result) { record("message", true, "(script result)", undefined, canonical(result) ?? "null"); },
      fail(message) { fail(message); },
      succeed() {
        test.assertEq(0, pendingRejections, "Test had pending promise rejections. This is likely the result of not waiting " +
          "for the promise returned by `assertPromiseRejects()` to resolve. Instead, use `await assertPromiseRejects(...)` " +
          "or `assertPromiseRejects(...).then(...).`.");
        const log = console();
        if (log && typeof log.log === "function") log.log("[SUCCESS] " + nameOf(current));
        test.log("(  SUCCESS )");
        record("result", true, nameOf(current));
        done();
      },
      assertTrue(value, message) {
        if (typeof value !== "boolean") fail(prefix("assertTrue and assertFalse require a boolean condition."));
        if (value !== true) fail(message);
      },
      assertFalse(value, message) {
        if (typeof value !== "boolean") fail(prefix("assertTrue and assertFalse require a boolean condition."));
        if (value !== false) fail(message);
      },
      checkDeepEq(expected, actual) { return deepEqual(expected, actual); },
      assertEq(expected, actual, message) {
        if (deepEqual(expected, actual)) return;
        let detail;
        if (typeof expected === "object" || typeof actual === "object") detail = text(expected) + " did not deep-equal " + text(actual);
        else {
          detail = expected + " did not deep-equal " + actual;
          if (typeof expected !== typeof actual) detail += " (type mismatch)\nType: " + typeof expected + "\nOther Type:" + typeof actual;
        }
        fail(prefix(message) + "\n" + detail, text(expected), text(actual));
      },
      assertNe(expected, actual, message) {
        if (!deepEqual(expected, actual)) return;
        fail(prefix(message) + "\nExpected unequal values, but both are " + JSON.stringify(expected));
      },
      assertNoLastError() {
        const error = lastError();
        if (error !== undefined && error !== null) fail("lastError.message == " + error.message);
      },
      assertLastError(expected) {
        test.assertEq(typeof expected, "string");
        const error = lastError();
        test.assertTrue(error !== undefined && error !== null, "No lastError, but expected " + expected);
        test.assertEq(expected, error.message);
      },
      // assertThrows(fn, self, args, message): a failure inside (no exception at all) is caught
      // by the framework's own catch, as in Chromium, so the test body goes on.
      assertThrows(fn, self, args, message) {
        test.assertTrue(typeof fn === "function");
        try {
          fn.apply(self, args);
          fail("Did not throw error: " + fn);
        } catch (error) {
          if (error === failure || message === undefined) return;
          if (isRegExp(message)) test.assertTrue(message.test(error.message), error.message + " should match " + message);
          else test.assertEq(message, error.message);
        }
      },
      // Compared with String(error) ("Error: message"), as Chromium does.
      assertPromiseRejects(promise, expected) {
        pendingRejections++;
        return promise.then(
          () => { pendingRejections--; fail("Promise did not reject. Expected error: " + expected); },
          (error) => {
            pendingRejections--;
            if (isRegExp(expected)) test.assertTrue(expected.test(String(error)), "'" + (error && error.message) + "' should match '" + expected + "'");
            else {
              test.assertEq("string", typeof expected);
              test.assertEq(expected, String(error));
            }
          });
      },
      callbackAdded,
      callback,
      callbackPass(fn) { return callback(fn); },
      callbackFail(expectedError, fn) { return callback(fn, expectedError); },
      listenOnce(event, fn) {
        if (fn) {
          const completed = callbackAdded();
          const listener = (...args) => { event.removeListener(listener); apply(fn, args); completed(); };
          event.addListener(listener);
          return undefined;
        }
        return new own.Promise((resolve) => {
          const listener = (...args) => { event.removeListener(listener); resolve(args.length === 1 ? args[0] : args); };
          event.addListener(listener);
        });
      },
      listenForever(event, fn) {
        const completed = callbackAdded();
        const listener = (...args) => { apply(fn, args); };
        event.addListener(listener);
        return () => { event.removeListener(listener); completed(); };
      },
      runTests(list) {
        if (running) throw new own.Error("chrome.test.runTests is already running.");
        tests = Array.from(list);
        count = tests.length;
        return new own.Promise((resolve, reject) => { running = { resolve, reject }; next(); });
      },
      // Loads a script: with importScripts in a worker, with a <script> element in a page.
      loadScript(url) {
        const global = own.global;
        const failed = () => new own.Error("Unable to load script: \"" + url + "\"");
        if (typeof global.importScripts === "function" && !global.document) {
          try { global.importScripts(url); } catch (error) { return own.Promise.reject(failed()); }
          return own.Promise.resolve();
        }
        const script = global.document.createElement("script");
        const loaded = new own.Promise((resolve, reject) => { script.onload = resolve; script.onerror = () => reject(failed()); });
        script.src = url;
        global.document.body.appendChild(script);
        return loaded;
      },
      runWithUserGesture(fn) {
        test.assertEq(typeof fn, "function");
        host.testGesture(contextId, true);
        try { return fn(); } finally { host.testGesture(contextId, false); }
      },
      isProcessingUserGesture() { return host.testGesture(contextId, null) === true; },
      setExceptionHandler(fn) {
        test.assertEq(typeof fn, "function");
        handler = fn;
      },
    };
    // The framework's own stop ("chrome.test.failure") is control flow: never an uncaught error.
    const isControlFlow = (error) => error === failure;
    // An exception in an API callback goes to the running test's handler, as Chromium's
    // bindings route it (bindingUtil.handleException).
    const callbackThrew = (error) => { if (error !== failure) handle(error && error.message, error); };
    return { test, isControlFlow, callbackThrew };
  }

  return { webkit, chromium };
})
