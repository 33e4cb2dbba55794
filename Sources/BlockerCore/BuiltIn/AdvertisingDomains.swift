/// The built-in advertising domains: the one source of truth for ADV's static DNR
/// ruleset (`WebExtension/networkRules.json` is generated from it by `adv-check export`).
///
/// Each entry blocks that host and every subdomain for subresource loads, never
/// for top-level navigation. Order is the rule-id order and must only be appended
/// to, so rule ids stay stable across releases.
public enum AdvertisingDomains {
    /// Well-known ad-serving and ad-measurement hosts, in rule-id order (id = index + 1).
    public static let all: [String] = [
        "doubleclick.net",  // Google Ad Manager / DV360 serving
        "googlesyndication.com",  // AdSense creatives and scripts
        "googleadservices.com",  // Google Ads conversion and click tracking
        "adservice.google.com",  // Google ad service endpoints (not google.com itself)
        "amazon-adsystem.com",  // Amazon Publisher Services
        "adnxs.com",  // Xandr (AppNexus) exchange
        "criteo.com",  // Criteo retargeting
        "taboola.com",  // Taboola sponsored content
        "outbrain.com",  // Outbrain sponsored content
        "pubmatic.com",  // PubMatic SSP
        "rubiconproject.com",  // Magnite (Rubicon) SSP
        "openx.net",  // OpenX exchange
        "moatads.com",  // Oracle Moat ad verification
        "scorecardresearch.com",  // Comscore ad measurement beacons
    ]
}
