// Built-in cosmetic filters: common ad slots, reviewed for false positives (each selector names
// an ad container by an attribute or class that ad servers and CMS ad plugins set themselves).
// content/cosmetic.css holds the same list as a user stylesheet; a test keeps them equal
// (Tests/BlockerCoreTests/CosmeticSelectorsFileTests.swift).
"use strict";

var ADVCosmeticSelectors = [
  "ins.adsbygoogle",
  "[id^=\"div-gpt-ad\"]",
  "[data-ad-slot]",
  "[data-ad-unit]",
  "[data-google-query-id]",
  ".ad-slot",
  ".ad-banner",
  ".advertisement",
  ".sponsored-ad",
  "amp-ad",
  "iframe[src*=\"doubleclick.net\"]",
  "iframe[src*=\"googlesyndication.com\"]",
  "div[aria-label=\"Advertisement\"]",
];
