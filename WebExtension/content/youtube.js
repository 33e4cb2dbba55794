// Experimental YouTube ad handling. Acts only when BOTH an ad-state class is on the player
// (ad-showing / ad-interrupting) AND visible ad UI is present, and only on the media source
// that was playing when that ad state appeared: stale ad UI left in the DOM after the source
// changed is never acted on, and content playback is never touched without an ad.
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
  const AD_CLASSES = ["ad-showing", "ad-interrupting"];
  const AD_UI = ".ytp-ad-player-overlay, .ytp-ad-player-overlay-layout, .ytp-ad-skip-button, .ytp-ad-skip-button-modern, .ytp-skip-ad-button, .ytp-ad-preview-text, .ytp-preview-ad__text";
  const SKIP = ".ytp-skip-ad-button, .ytp-ad-skip-button-modern, .ytp-ad-skip-button";
  let session = null;   // { user: { muted, volume, rate }, adSource, handled: Set<source> }
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

  function adState(root) {
    if (!root || !AD_CLASSES.some((name) => root.classList.contains(name))) return false;
    return Array.prototype.some.call(root.querySelectorAll(AD_UI), visible);
  }

  // Ads handled on the page at this address (YouTube moves between videos without a load, and the
  // toolbar shows the current page's activity only).
  function report() {
    const page = location.href.split("#")[0];
    const handled = globalThis.__advYouTubeHandled;
    globalThis.__advYouTubeHandled = { page, count: handled && handled.page === page ? handled.count + 1 : 1 };
    if (typeof globalThis.__advActivityNotify === "function") globalThis.__advActivityNotify();
  }

  function handle(video, root) {
    const source = video.currentSrc;
    if (!session) {
      const user = lastUserSettings || { muted: video.muted, volume: video.volume, rate: video.playbackRate };
      session = { user, handled: new Set(), adSource: source };
    }
    session.adSource = source;
    if (!video.muted) video.muted = true;
    const skip = Array.prototype.find.call(root.querySelectorAll(SKIP), visible);
    if (skip && !session.handled.has(source + "#skip")) {
      session.handled.add(source + "#skip");
      skip.click();
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

  function restore(video) {
    const user = session.user;
    session = null;
    lastUserSettings = user;
    if (video.muted !== user.muted) video.muted = user.muted;
    if (video.volume !== user.volume) video.volume = user.volume;
    if (video.playbackRate !== user.rate) video.playbackRate = user.rate;
  }

  function check() {
    scheduled = false;
    const root = player();
    const video = root && root.querySelector("video");
    if (!video) return;
    if (adState(root)) {
      handle(video, root);
      return;
    }
    // The ad is over when its UI is gone and either the class went too or the element plays
    // another source (a lingering ad-showing class alone is not an ad).
    if (session && (!root.classList.contains("ad-showing") || video.currentSrc !== session.adSource)) {
      restore(video);
      // The page may reset rate or mute right after the ad (as YouTube does): check once more.
      const user = { muted: video.muted, volume: video.volume, rate: video.playbackRate };
      setTimeout(() => {
        if (session || adState(root)) return;
        if (video.muted !== user.muted) video.muted = user.muted;
        if (video.playbackRate !== user.rate) video.playbackRate = user.rate;
        if (video.volume !== user.volume) video.volume = user.volume;
      }, 50);
    }
  }

  function remember(event) {
    const video = event && event.target;
    if (!video || video.tagName !== "VIDEO" || session) return;
    const root = player();
    if (!root || !root.contains(video) || AD_CLASSES.some((name) => root.classList.contains(name))) return;
    lastUserSettings = { muted: video.muted, volume: video.volume, rate: video.playbackRate };
  }

  function schedule() {
    if (!scheduled) { scheduled = true; queueMicrotask(check); }
  }

  const observer = new MutationObserver(schedule);
  observer.observe(document.documentElement || document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class", "hidden", "style"] });
  document.addEventListener("ratechange", remember, true);
  document.addEventListener("volumechange", remember, true);
  document.addEventListener("loadedmetadata", schedule, true);
  document.addEventListener("durationchange", schedule, true);
  document.addEventListener("playing", schedule, true);
  window.addEventListener("pagehide", () => observer.disconnect());
  schedule();
})();
