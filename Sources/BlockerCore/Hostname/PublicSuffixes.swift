/// A small, embedded subset of the Public Suffix List (ICANN section only).
///
/// Scope, on purpose: every single label counts as a public suffix (all
/// top-level domains are), plus the multi-label suffixes below, which are the
/// common second-level registries of the largest country-code domains. The full
/// list (publicsuffix.org, ~10,000 entries, private section included) is not
/// embedded: ADV only needs it to refuse bare suffixes such as `co.uk` as a
/// block target and to approximate "registrable domain" for DNR `domainType`.
/// A suffix missing here means `example.xx.yy` is treated as registrable at
/// `xx.yy`, which can make DNR first/third-party decisions too lenient for that
/// one registry; it never makes a hostname unblockable.
enum PublicSuffixes {
    /// Multi-label public suffixes (lowercase ASCII).
    static let multiLabel: Set<String> = [
        // United Kingdom
        "co.uk", "org.uk", "me.uk", "ltd.uk", "plc.uk", "net.uk", "ac.uk", "gov.uk", "sch.uk", "nhs.uk", "police.uk",
        // Australia, New Zealand
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "asn.au", "id.au",
        "co.nz", "net.nz", "org.nz", "ac.nz", "govt.nz", "geek.nz", "school.nz",
        // Japan
        "co.jp", "ne.jp", "or.jp", "ac.jp", "ad.jp", "ed.jp", "go.jp", "gr.jp", "lg.jp",
        // Korea, China, Hong Kong, Taiwan, Singapore, Malaysia, Indonesia, Thailand, Vietnam, Philippines, India
        "co.kr", "or.kr", "ne.kr", "go.kr", "ac.kr",
        "com.cn", "net.cn", "org.cn", "gov.cn", "edu.cn",
        "com.hk", "net.hk", "org.hk", "edu.hk", "gov.hk",
        "com.tw", "net.tw", "org.tw", "edu.tw", "gov.tw",
        "com.sg", "net.sg", "org.sg", "edu.sg", "gov.sg",
        "com.my", "net.my", "org.my", "gov.my",
        "co.id", "or.id", "ac.id", "go.id", "web.id",
        "co.th", "in.th", "ac.th", "go.th", "or.th",
        "com.vn", "net.vn", "org.vn", "gov.vn",
        "com.ph", "net.ph", "org.ph", "gov.ph",
        "co.in", "net.in", "org.in", "firm.in", "gen.in", "ind.in", "ac.in", "gov.in",
        // Americas
        "com.br", "net.br", "org.br", "gov.br", "edu.br",
        "com.mx", "org.mx", "gob.mx", "edu.mx", "net.mx",
        "com.ar", "org.ar", "net.ar", "gob.ar",
        "com.co", "net.co", "org.co", "gov.co",
        "com.pe", "org.pe", "gob.pe",
        "co.ve", "com.ve",
        // Europe, Middle East, Africa
        "com.tr", "org.tr", "net.tr", "gov.tr", "edu.tr",
        "co.il", "org.il", "ac.il", "gov.il",
        "com.ua", "org.ua", "net.ua",
        "com.pl", "net.pl", "org.pl",
        "co.at", "or.at",
        "com.gr", "com.cy", "com.mt",
        "co.za", "org.za", "gov.za", "ac.za", "net.za",
        "com.eg", "com.ng", "co.ke", "or.ke",
        "com.sa", "com.pk", "com.bd",
    ]

    /// True when `host` (normalized) is a public suffix by the policy above.
    static func isPublicSuffix(_ host: String) -> Bool {
        !host.contains(".") || multiLabel.contains(host)
    }

    /// The public suffix of `host`: the longest listed multi-label suffix, else the last label.
    static func suffix(of host: String) -> Substring {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count >= 3 {
            let lastTwo = host[labels[labels.count - 2].startIndex...]
            if multiLabel.contains(String(lastTwo)) { return lastTwo }
        } else if labels.count == 2, multiLabel.contains(host) {
            return host[...]
        }
        return labels.last ?? host[...]
    }
}
