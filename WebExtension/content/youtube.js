// Experimental YouTube ad handling. Acts only when BOTH an ad-state class is on the player
// (ad-showing / ad-interrupting) AND visible ad UI is present, and only on the media source
// (and element) that was playing when that ad state was first confirmed: the ad is bound to it.
// YouTube can leave the class on, and the overlay in the DOM, for seconds after the ad while the
// user's video already plays; so when the bound source stops playing the user's settings are
// restored at once, and another source is treated as an ad only when it proves itself one again:
// the class, ad UI the player rendered after the last ad (what that ad left behind proves
// nothing) and a timeline that starts as an ad's does. Content playback is never touched
// without an ad.
//
// For an ad: mute it; click a visible, available skip control; seek a short ad to its end;
// accelerate an ad whose length is unknown or long. After the ad (or a pod of them) the user's
// muted state, volume and playback rate are restored, even if the page changed them meanwhile.
// Confirmed handling is reported for the toolbar.
"use strict";

(() => {
  if (globalThis.__advYouTube) return;
  globalThis.__advYouTube = true;
  const SHORT_AD_SECONDS = 30;
  const ACCELERATED_RATE = 16;
  // An ad's own source plays from its start; the user's video resumes where it was.
  const AD_START_SECONDS = 1;
  const AD_CLASSES = ["ad-showing", "ad-interrupting"];
  const AD_UI = ".ytp-ad-player-overlay, .ytp-ad-player-overlay-layout, .ytp-ad-skip-button, .ytp-ad-skip-button-modern, .ytp-skip-ad-button, .ytp-ad-preview-text, .ytp-preview-ad__text";
  const SKIP = ".ytp-skip-ad-button, .ytp-ad-skip-button-modern, .ytp-ad-skip-button";
  // The ad being handled: { user: { muted, volume, rate }, video, adSource (bound when the ad
  // state was confirmed), ui: Set<ad UI element> (the UI it showed), handled: Set<source> }.
  let session = null;
  // While the ad state a session ended in lingers: { ui } (that session's ad UI, which no longer
  // proves anything). Cleared when the player drops the ad-state class.
  let stale = null;
  // The source last seen playing without an ad state (the user's video: never an ad).
  let contentSource = "";
  let scheduled = false;
  // The user's settings as last seen during content playback. Loading the ad's source resets
  // playbackRate to defaultPlaybackRate (HTML media load algorithm) before the ad is even
  // detected, so settings read at detection time would already be the ad's, not the user's.
  let lastUserSettings = null;

  function player() {
    return document.querySelector("#movie_player, .html5-video-player");
  }

  function visible(element) {
    if (!element || !element.isConnected) return false;
    for (let node = element; node && node.nodeType === 1; node = node.parentNode) {
      if (node.hidden) return false;
      const style = getComputedStyle(node);
      if (style.display === "none" || style.visibility === "hidden") return false;
    }
    return true;
  }

  function adClass(root) {
    return !!root && AD_CLASSES.some((name) => root.classList.contains(name));
  }

  function adState(root) {
    return adClass(root) && Array.prototype.some.call(root.querySelectorAll(AD_UI), visible);
  }

  // Whether the source now playing, other than the one an ad was bound to, is an ad: the class,
  // visible ad UI that was not there for that ad (`seen`), and a timeline that starts as an ad's
  // (from its start, and not the user's own video).
  function provenAd(root, video, seen) {
    if (!adClass(root)) return false;
    const fresh = Array.prototype.some.call(root.querySelectorAll(AD_UI), (element) => !seen.has(element) && visible(element));
    const source = video.currentSrc;
    return fresh && source !== "" && source !== contentSource && video.currentTime <= AD_START_SECONDS;
  }

  // Ads handled on the page at this address (YouTube moves between videos without a load, and the
  // toolbar shows the current page's activity only).
  function report() {
    const page = location.href.split("#")[0];
    const handled = globalThis.__advYouTubeHandled;
    globalThis.__advYouTubeHandled = { page, count: handled && handled.page === page ? handled.count + 1 : 1 };
    if (typeof globalThis.__advActivityNotify === "function") globalThis.__advActivityNotify();
  }

  function apply(video, settings) {
    if (video.muted !== settings.muted) video.muted = settings.muted;
    if (video.volume !== settings.volume) video.volume = settings.volume;
    if (video.playbackRate !== settings.rate) video.playbackRate = settings.rate;
  }

  // Binds the ad to the source the element plays now (a new session, or the next ad of a pod).
  function bind(video) {
    if (!session) {
      const user = lastUserSettings || { muted: video.muted, volume: video.volume, rate: video.playbackRate };
      session = { user, handled: new Set(), ui: new Set() };
    } else if (session.video !== video) {
      // The next ad plays in another element: the one left behind gets the user's settings back.
      apply(session.video, session.user);
    }
    stale = null;
    session.video = video;
    session.adSource = video.currentSrc;
  }

  // Acts on the bound ad only (check() calls it while video plays session.adSource).
  function handle(video, root) {
    const source = session.adSource;
    session.ui = new Set(root.querySelectorAll(AD_UI));
    if (!video.muted) video.muted = true;
    const skip = Array.prototype.find.call(root.querySelectorAll(SKIP), visible);
    if (skip && !session.handled.has(source + "#skip")) {
      session.handled.add(source + "#skip");
      skip.click();
      // A click that ends the ad switches the element to the next source within the click (the
      // user's video or the next ad): nothing more is done to it here; check() restores the
      // user's settings at once, or binds the next ad if it proves itself one.
      if (video.currentSrc !== source) {
        if (!session.handled.has(source)) {
          session.handled.add(source);
          report();
        }
        check();
        return;
      }
    }
    const duration = video.duration;
    if (isFinite(duration) && duration > 0 && duration <= SHORT_AD_SECONDS) {
      if (video.currentTime < duration - 0.05) video.currentTime = duration;
    } else if (video.playbackRate !== ACCELERATED_RATE) {
      // Unknown (NaN, Infinity) or long: play it as fast as the element allows.
      try { video.playbackRate = ACCELERATED_RATE; } catch (error) { /* refused: muted is all we can do */ }
    }
    if (!session.handled.has(source)) {
      session.handled.add(source);
      report();
    }
  }

  // The bound ad is over: the user's settings go back onto the element it played on, at once.
  function end(root) {
    const { user, video, ui } = session;
    session = null;
    stale = adClass(root) ? { ui } : null;
    lastUserSettings = user;
    apply(video, user);
    // The page may reset rate or mute right after the ad (as YouTube does): check once more.
    // A lingering ad state does not stop this: only a confirmed ad does.
    const restored = { muted: video.muted, volume: video.volume, rate: video.playbackRate };
    setTimeout(() => {
      if (session) return;
      if (video.muted !== restored.muted) video.muted = restored.muted;
      if (video.playbackRate !== restored.rate) video.playbackRate = restored.rate;
      if (video.volume !== restored.volume) video.volume = restored.volume;
    }, 50);
  }

  function check() {
    scheduled = false;
    const root = player();
    const video = root && root.querySelector("video");
    if (!adClass(root)) stale = null;
    // The bound ad no longer plays (its element plays another source, or is gone): another
    // source is an ad only if it proves itself one; otherwise the user's settings come back now.
    if (session && (video !== session.video || video.currentSrc !== session.adSource)) {
      if (video && provenAd(root, video, session.ui)) bind(video);
      else end(root);
    }
    if (!video) return;
    if (session) {
      if (adState(root)) { handle(video, root); return; }
      // Its UI is gone: the ad is over when the class went too (a lingering ad-showing class
      // alone, on the bound source, is waited out).
      if (root.classList.contains("ad-showing")) return;
      end(root);
    }
    if (!adClass(root)) {
      if (video.currentSrc) contentSource = video.currentSrc;
      return;
    }
    // A new ad state. While the one a session ended in lingers, it must prove itself an ad as
    // any source after an ad must.
    if (adState(root) && (!stale || provenAd(root, video, stale.ui))) {
      bind(video);
      handle(video, root);
    }
  }

  function remember(event) {
    const video = event && event.target;
    if (!video || video.tagName !== "VIDEO" || session) return;
    const root = player();
    if (!root || !root.contains(video) || adClass(root)) return;
    lastUserSettings = { muted: video.muted, volume: video.volume, rate: video.playbackRate };
  }

  function schedule() {
    if (!scheduled) { scheduled = true; queueMicrotask(check); }
  }

  const observer = new MutationObserver(schedule);
  // src too: the element switching sources (the ad ending under a lingering ad state) is seen at
  // that moment, not only when the next source's metadata has loaded.
  observer.observe(document.documentElement || document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class", "hidden", "style", "src"] });
  document.addEventListener("ratechange", remember, true);
  document.addEventListener("volumechange", remember, true);
  document.addEventListener("loadedmetadata", schedule, true);
  document.addEventListener("durationchange", schedule, true);
  document.addEventListener("playing", schedule, true);
  window.addEventListener("pagehide", () => observer.disconnect());
  schedule();
})();
