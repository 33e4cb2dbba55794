// layer: media/media
// order: 80
// provides:
// requires: DOMException, onMutation
//
// HTMLMediaElement (HTML 4.8.11) on the virtual clock, with a simulated media source.
//
// A resource's duration comes from the harness (`declare(url, duration)`) or from a
// `duration=<seconds>` parameter in its URL's query or fragment; any other URL fails to load
// (MEDIA_ERR_SRC_NOT_SUPPORTED), as an unknown resource would. Every step the spec runs "as a
// task" is a zero-delay task on the page's event loop, so events interleave with timers as in a
// browser. Playback position = start + elapsed virtual time × playbackRate; `timeupdate` fires
// every 250 ms while playing (WebKit: HTMLMediaElement's maxTimeupdateEventFrequency).
//
// Choices where WebKit's behaviour is the reference:
// - volume outside [0, 1] throws IndexSizeError (WebKit HTMLMediaElement::setVolume).
// - playbackRate and defaultPlaybackRate are WebIDL `double`: NaN and ±Infinity throw TypeError;
//   every finite value is accepted (WebKit sets it and reports the rate it can play), negative
//   rates play as paused here (no reverse playback).
// - play() with no autoplay policy restrictions: the harness is a user who allowed playback.
(function (ctx) {
  "use strict";
  const impl = ctx.impl;
  // The engine realm has no WHATWG URL (JavaScriptCore does not provide one); domino's resolver
  // implements RFC 3986 reference resolution, which is what relative hrefs and srcs need.
  const DominoURL = ctx.require("domino/lib/URL");
  const resolveURL = (relative, base) => new DominoURL(base).resolve(String(relative));
  const Media = impl.HTMLMediaElement.prototype;
  const TIMEUPDATE_MS = 250;
  const HAVE_NOTHING = 0, HAVE_METADATA = 1, HAVE_CURRENT_DATA = 2, HAVE_FUTURE_DATA = 3, HAVE_ENOUGH_DATA = 4;
  const NETWORK_EMPTY = 0, NETWORK_IDLE = 1, NETWORK_LOADING = 2, NETWORK_NO_SOURCE = 3;

  function state(element) {
    if (!element._advMedia) {
      Object.defineProperty(element, "_advMedia", { value: {
        readyState: HAVE_NOTHING, networkState: NETWORK_EMPTY, paused: true, ended: false, seeking: false,
        duration: NaN, position: 0, playStart: null, rate: 1, defaultRate: 1, volume: 1, muted: null,
        currentSrc: "", error: null, pendingPlay: [], timer: 0, loadGeneration: 0, seekTarget: null,
      } });
    }
    return element._advMedia;
  }
  function pageId(element) { return element.ownerDocument && element.ownerDocument._advPageId; }
  function queueTask(element, body) {
    const id = pageId(element);
    if (id === undefined) return;
    ctx.host.setTimer(id, body, 0, false, [], "media task");
  }
  function fire(element, type) {
    element._dispatchEvent(new impl.Event(type), true);
  }
  function fireTask(element, type, generation) {
    queueTask(element, () => { if (generation === undefined || state(element).loadGeneration === generation) fire(element, type); });
  }
  const clock = () => ctx.host.now();

  // MARK: - Position

  function livePosition(s) {
    if (s.playStart === null) return s.position;
    const elapsed = (clock() - s.playStart.time) / 1000;
    const rate = s.rate > 0 ? s.rate : 0;
    let position = s.playStart.position + elapsed * rate;
    if (!isNaN(s.duration)) position = Math.min(position, s.duration);
    return position;
  }
  function freeze(s) {
    s.position = livePosition(s);
    s.playStart = null;
  }
  function potentiallyPlaying(s) {
    return !s.paused && !s.ended && s.readyState >= HAVE_FUTURE_DATA && s.error === null;
  }

  function startClock(element) {
    const s = state(element);
    if (s.playStart !== null || !potentiallyPlaying(s)) return;
    s.playStart = { time: clock(), position: s.position };
    scheduleTick(element);
  }
  function stopClock(element) {
    const s = state(element);
    if (s.timer) { ctx.host.clearTimer(pageId(element), s.timer); s.timer = 0; }
    freeze(s);
  }
  function scheduleTick(element) {
    const s = state(element);
    if (s.timer) ctx.host.clearTimer(pageId(element), s.timer);
    // Wake at the next timeupdate or at the end, whichever is first.
    let wait = TIMEUPDATE_MS;
    if (!isNaN(s.duration) && s.rate > 0) {
      const toEnd = (s.duration - livePosition(s)) * 1000 / s.rate;
      if (toEnd < wait) wait = Math.max(0, Math.ceil(toEnd));
    }
    const generation = s.loadGeneration;
    s.timer = ctx.host.setTimer(pageId(element), () => {
      s.timer = 0;
      if (s.loadGeneration !== generation || s.playStart === null) return;
      if (!isNaN(s.duration) && livePosition(s) >= s.duration) { reachEnd(element); return; }
      fire(element, "timeupdate");
      scheduleTick(element);
    }, wait, false, [], "media playback");
  }
  // HTML 4.8.11.8 "reaches the end": loop seeks to the start; otherwise timeupdate, pause, ended.
  function reachEnd(element) {
    const s = state(element);
    if (element.hasAttribute("loop")) {
      stopClock(element);
      seek(element, 0);
      return;
    }
    stopClock(element);
    s.position = s.duration;
    s.ended = true;
    fire(element, "timeupdate");
    if (!s.paused) {
      s.paused = true;
      fire(element, "pause");
    }
    fire(element, "ended");
  }

  // MARK: - Load algorithm (HTML 4.8.11.5)

  function resolve(element, src) {
    try { return resolveURL(src, element.ownerDocument.URL); } catch (e) { return src; }
  }
  function durationFor(doc, url) {
    const declared = doc._advMediaResources && doc._advMediaResources[url];
    if (declared !== undefined) return declared;
    const m = /[?#&]duration=([0-9.]+|inf)/.exec(url);
    if (!m) return null;
    return m[1] === "inf" ? Infinity : parseFloat(m[1]);
  }

  function load(element) {
    const s = state(element);
    s.loadGeneration++;
    const generation = s.loadGeneration;
    for (const pending of s.pendingPlay.splice(0)) pending.reject(new ctx.DOMException("The operation was aborted.", "AbortError"));
    if (s.networkState === NETWORK_LOADING || s.networkState === NETWORK_IDLE) fireTask(element, "abort", generation);
    if (s.networkState !== NETWORK_EMPTY) {
      fireTask(element, "emptied", generation);
      stopClock(element);
      s.networkState = NETWORK_EMPTY;
      s.readyState = HAVE_NOTHING;
      if (!s.paused) s.paused = true;
      s.seeking = false;
      s.position = 0;
      if (!isNaN(s.duration)) { s.duration = NaN; fireTask(element, "durationchange", generation); }
    }
    s.rate = s.defaultRate;
    s.error = null;
    s.ended = false;
    s.currentSrc = "";
    // HTML 4.8.11.5 resource selection: the src attribute, else the first <source> child with
    // a src (types are not checked: every declared resource is playable here).
    let src = element.getAttribute("src");
    if (src === null) {
      for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
        if (child.localName === "source" && child.hasAttribute("src")) { src = child.getAttribute("src"); break; }
      }
    }
    if (src === null) { s.networkState = NETWORK_EMPTY; return; }
    s.networkState = NETWORK_LOADING;
    s.currentSrc = src === "" ? "" : resolve(element, src);
    fireTask(element, "loadstart", generation);
    queueTask(element, () => {
      if (s.loadGeneration !== generation) return;
      const duration = src === "" ? null : durationFor(element.ownerDocument, s.currentSrc);
      if (duration === null) {
        // "dedicated media source failure steps": MEDIA_ERR_SRC_NOT_SUPPORTED, error event.
        s.error = { code: 4, message: "" };
        s.networkState = NETWORK_NO_SOURCE;
        fire(element, "error");
        for (const pending of s.pendingPlay.splice(0)) pending.reject(new ctx.DOMException("The operation is not supported.", "NotSupportedError"));
        return;
      }
      s.duration = duration;
      fire(element, "durationchange");
      s.readyState = HAVE_METADATA;
      if (s.seekTarget !== null) { s.position = clamp(s.seekTarget, s); s.seekTarget = null; }
      fire(element, "loadedmetadata");
      s.readyState = HAVE_CURRENT_DATA;
      fire(element, "loadeddata");
      s.readyState = HAVE_FUTURE_DATA;
      fire(element, "canplay");
      if (!s.paused) { fire(element, "playing"); resolvePlay(s); }
      s.readyState = HAVE_ENOUGH_DATA;
      s.networkState = NETWORK_IDLE;
      fire(element, "canplaythrough");
      if (s.paused && element.hasAttribute("autoplay") && !s.autoplayed) {
        s.autoplayed = true;
        s.paused = false;
        fire(element, "play");
        fire(element, "playing");
      }
      startClock(element);
    });
  }
  function resolvePlay(s) {
    for (const pending of s.pendingPlay.splice(0)) pending.resolve(undefined);
  }
  function clamp(time, s) {
    let t = Math.max(0, time);
    if (!isNaN(s.duration)) t = Math.min(t, s.duration);
    return t;
  }

  // MARK: - Seeking (HTML 4.8.11.9)

  function seek(element, time) {
    const s = state(element);
    if (s.readyState === HAVE_NOTHING) { s.seekTarget = time; return; }
    const wasRunning = s.playStart !== null;
    stopClock(element);
    s.position = clamp(time, s);
    s.ended = false;
    s.seeking = true;
    const generation = s.loadGeneration;
    fireTask(element, "seeking", generation);
    queueTask(element, () => {
      if (s.loadGeneration !== generation) return;
      s.seeking = false;
      fire(element, "timeupdate");
      fire(element, "seeked");
      if (wasRunning || potentiallyPlaying(s)) startClock(element);
    });
  }

  // MARK: - Playing and pausing (HTML 4.8.11.8)

  function play(element) {
    const s = state(element);
    let settle;
    // The promise is the page world's (so `instanceof Promise` holds for page script).
    const PagePromise = Promise;
    const promise = new PagePromise((resolve, reject) => { settle = { resolve, reject }; });
    if (s.error && s.error.code === 4) {
      settle.reject(new ctx.DOMException("The operation is not supported.", "NotSupportedError"));
      return promise;
    }
    if (s.networkState === NETWORK_EMPTY) load(element);
    if (s.ended || (!isNaN(s.duration) && s.position >= s.duration && s.duration > 0)) { s.ended = false; seek(element, 0); }
    s.pendingPlay.push(settle);
    if (s.paused) {
      s.paused = false;
      fireTask(element, "play", s.loadGeneration);
      if (s.readyState >= HAVE_FUTURE_DATA) {
        const generation = s.loadGeneration;
        queueTask(element, () => { if (s.loadGeneration === generation && !s.paused) { fire(element, "playing"); resolvePlay(s); } });
      } else if (s.readyState <= HAVE_CURRENT_DATA && s.networkState !== NETWORK_LOADING) {
        fireTask(element, "waiting", s.loadGeneration);
      }
    } else if (s.readyState >= HAVE_FUTURE_DATA) {
      const generation = s.loadGeneration;
      queueTask(element, () => { if (s.loadGeneration === generation) resolvePlay(s); });
    }
    startClock(element);
    return promise;
  }
  function pause(element) {
    const s = state(element);
    if (s.networkState === NETWORK_EMPTY) load(element);
    if (!s.paused) {
      stopClock(element);
      s.paused = true;
      const generation = s.loadGeneration;
      const pending = s.pendingPlay.splice(0);
      queueTask(element, () => {
        if (s.loadGeneration !== generation) return;
        fire(element, "timeupdate");
        fire(element, "pause");
        for (const p of pending) p.reject(new ctx.DOMException("The play() request was interrupted by a call to pause().", "AbortError"));
      });
    }
  }

  // MARK: - The element's interface

  function finiteDouble(value, what) {
    const n = Number(value);
    if (!Number.isFinite(n)) throw new TypeError("The provided value is non-finite");
    return n;
  }
  const accessors = {
    currentTime: {
      get() { const s = state(this); return s.readyState === HAVE_NOTHING && s.seekTarget !== null ? s.seekTarget : livePosition(s); },
      // WebKit accepts a non-finite currentTime without throwing and ignores it.
      set(value) { const n = Number(value); if (Number.isFinite(n)) seek(this, n); },
    },
    duration: { get() { return state(this).duration; } },
    paused: { get() { return state(this).paused; } },
    ended: { get() { const s = state(this); return s.ended; } },
    seeking: { get() { return state(this).seeking; } },
    readyState: { get() { return state(this).readyState; } },
    networkState: { get() { return state(this).networkState; } },
    currentSrc: { get() { return state(this).currentSrc; } },
    error: { get() { const e = state(this).error; return e ? { code: e.code, message: e.message, MEDIA_ERR_SRC_NOT_SUPPORTED: 4 } : null; } },
    muted: {
      get() { const s = state(this); return s.muted === null ? this.hasAttribute("muted") : s.muted; },
      set(value) {
        const s = state(this);
        const next = !!value;
        const before = this.muted;
        s.muted = next;
        if (before !== next) fireTask(this, "volumechange");
      },
    },
    volume: {
      get() { return state(this).volume; },
      set(value) {
        const n = finiteDouble(value, "volume");
        if (n < 0 || n > 1) throw new ctx.DOMException("The index is not in the allowed range.", "IndexSizeError");
        const s = state(this);
        if (s.volume !== n) { s.volume = n; fireTask(this, "volumechange"); }
      },
    },
    playbackRate: {
      get() { return state(this).rate; },
      set(value) {
        const n = finiteDouble(value, "playbackRate");
        const s = state(this);
        if (s.rate === n) return;
        const running = s.playStart !== null;
        if (running) stopClock(this);
        s.rate = n;
        fireTask(this, "ratechange");
        if (running || potentiallyPlaying(s)) startClock(this);
      },
    },
    defaultPlaybackRate: {
      get() { return state(this).defaultRate; },
      set(value) {
        const n = finiteDouble(value, "defaultPlaybackRate");
        const s = state(this);
        if (s.defaultRate === n) return;
        s.defaultRate = n;
        fireTask(this, "ratechange");
      },
    },
    buffered: { get() { return timeRanges(this, false); } },
    seekable: { get() { return timeRanges(this, true); } },
    played: { get() { return timeRanges(this, false); } },
  };
  function timeRanges(element, seekable) {
    const s = state(element);
    const ranges = s.readyState >= HAVE_METADATA && !isNaN(s.duration) ? [[0, s.duration]] : [];
    void seekable;
    return {
      length: ranges.length,
      start(i) { if (!ranges[i]) throw new ctx.DOMException("The index is not in the allowed range.", "IndexSizeError"); return ranges[i][0]; },
      end(i) { if (!ranges[i]) throw new ctx.DOMException("The index is not in the allowed range.", "IndexSizeError"); return ranges[i][1]; },
    };
  }
  // Changes scripts make (property sets and play/pause/load/fastSeek calls) are offered to the
  // engine's traceHooks.mediaChange, which dom-trace.js sets to trace the extension's own (a
  // no-op until then).
  function reportChange(element, text) {
    ctx.traceHooks.mediaChange(element, text);
  }
  for (const name of ["currentTime", "muted", "volume", "playbackRate", "defaultPlaybackRate"]) {
    const set = accessors[name].set;
    accessors[name].set = function (value) {
      set.call(this, value);
      reportChange(this, () => "set " + name + "=" + JSON.stringify(value) + " (now " + JSON.stringify(this[name]) + ")");
    };
  }
  for (const [name, descriptor] of Object.entries(accessors)) {
    Object.defineProperty(Media, name, Object.assign({ configurable: true, enumerable: true }, descriptor));
  }
  const methods = {
    play() { return play(this); },
    pause() { pause(this); },
    load() { load(this); },
    canPlayType(type) {
      const t = String(type).toLowerCase();
      return /^(video|audio)\/(mp4|webm|ogg|mpeg|x-m4a|mp3|aac|quicktime)/.test(t) ? "maybe" : "";
    },
    fastSeek(time) { seek(this, finiteDouble(time, "time")); },
  };
  for (const name of ["play", "pause", "load", "fastSeek"]) {
    const call = methods[name];
    methods[name] = function (...args) {
      reportChange(this, () => "call " + name + "(" + args.map((a) => JSON.stringify(a)).join(", ") + ")");
      return call.apply(this, args);
    };
  }
  for (const [name, value] of Object.entries(methods)) {
    Object.defineProperty(Media, name, { configurable: true, writable: true, value });
  }
  const CONSTANTS = { NETWORK_EMPTY, NETWORK_IDLE, NETWORK_LOADING, NETWORK_NO_SOURCE, HAVE_NOTHING, HAVE_METADATA, HAVE_CURRENT_DATA, HAVE_FUTURE_DATA, HAVE_ENOUGH_DATA };
  for (const [name, value] of Object.entries(CONSTANTS)) {
    for (const target of [Media, impl.HTMLMediaElement]) {
      if (!Object.prototype.hasOwnProperty.call(target, name)) Object.defineProperty(target, name, { value, enumerable: true });
    }
  }

  // Setting or changing src (the attribute, or the reflected property) runs the load algorithm.
  ctx.onMutation((record) => {
    const target = record.target;
    if (target.nodeType !== 1 || (target.localName !== "video" && target.localName !== "audio")) return;
    if (record.type === "attributes" && record.attributeName === "src") { load(target); return; }
    // A <source> inserted into a media element with no src and nothing loaded starts selection.
    if (record.type === "childList" && !target.hasAttribute("src") && state(target).networkState === NETWORK_EMPTY &&
        record.addedNodes.some((node) => node.localName === "source")) load(target);
  });

  return {
    name: "media",
    page(p) {
      Object.defineProperty(p.document, "_advMediaResources", { value: Object.create(null) });
    },
    world(global, document, isPageWorld) {
      void global; void document; void isPageWorld;
    },
    // Harness side (Page+Media.swift).
    declare(doc, url, duration) { doc._advMediaResources[resolveURL(String(url), doc.URL)] = duration; },
    play(element) { play(element).catch(() => {}); },
    pause(element) { pause(element); },
    seek(element, time) { seek(element, time); },
    setMuted(element, muted) { element.muted = muted; },
    setRate(element, rate) { element.playbackRate = rate; },
    snapshot(element) {
      const s = state(element);
      return { currentTime: livePosition(s), duration: s.duration, paused: s.paused, ended: s.ended, readyState: s.readyState,
               muted: element.muted, volume: s.volume, playbackRate: s.rate, currentSrc: s.currentSrc, seeking: s.seeking };
    },
  };
})
