import WebRuntime

/// The toolbar button of an extension: global values and per-tab overrides.
struct ActionState {
    /// One set of toolbar values; nil fields fall back (tab -> global -> manifest default).
    struct Values: Equatable {
        var icon: String?
        var badgeText: String?
        var badgeColor: String?
        var title: String?
        /// The popup's path in the extension ("" for none), the badge's text colour, and
        /// whether the button is enabled (action.setPopup, setBadgeTextColor, enable/disable).
        var popup: String?
        var badgeTextColor: String?
        var enabled: Bool?
    }

    var global = Values()
    var tabs: [Int: Values] = [:]
    let defaults: Values
    /// declarativeNetRequest's action count per tab, and whether it shows as the badge text
    /// (setExtensionActionOptions); text the extension set itself takes precedence.
    var actionCounts: [Int: Int] = [:]
    var showsActionCount = false

    init(manifest: Manifest) {
        let icon = manifest.action?.defaultIcon.sorted { $0.key < $1.key }.first?.value
        defaults = Values(icon: icon, badgeText: "", badgeColor: "#FF3B30", title: manifest.action?.defaultTitle ?? manifest.name,
                          popup: manifest.action?.defaultPopup ?? "", badgeTextColor: "#FFFFFF", enabled: true)
    }

    /// What the toolbar shows for `tab`.
    func effective(tab: Int) -> Values {
        let own = tabs[tab] ?? Values()
        return Values(
            icon: own.icon ?? global.icon ?? defaults.icon,
            badgeText: own.badgeText ?? global.badgeText ?? actionCountText(tab: tab) ?? defaults.badgeText,
            badgeColor: own.badgeColor ?? global.badgeColor ?? defaults.badgeColor,
            title: own.title ?? global.title ?? defaults.title,
            popup: own.popup ?? global.popup ?? defaults.popup,
            badgeTextColor: own.badgeTextColor ?? global.badgeTextColor ?? defaults.badgeTextColor,
            enabled: own.enabled ?? global.enabled ?? defaults.enabled)
    }

    /// The action count as badge text, when shown and not zero.
    private func actionCountText(tab: Int) -> String? {
        guard showsActionCount, let count = actionCounts[tab], count > 0 else { return nil }
        return String(count)
    }

    /// Trace text of a state: `icon=images/toolbar.svg badge="" title="ADV"`.
    static func describe(_ values: Values) -> String {
        "icon=\(values.icon ?? "none") badge=\(JSONText.string(values.badgeText ?? "")) title=\(JSONText.string(values.title ?? ""))"
            + (values.enabled == false ? " disabled" : "")
    }

    /// The global values with the manifest's defaults under them (a getter without a tab).
    var globalEffective: Values {
        Values(icon: global.icon ?? defaults.icon, badgeText: global.badgeText ?? defaults.badgeText, badgeColor: global.badgeColor ?? defaults.badgeColor,
               title: global.title ?? defaults.title, popup: global.popup ?? defaults.popup,
               badgeTextColor: global.badgeTextColor ?? defaults.badgeTextColor, enabled: global.enabled ?? defaults.enabled)
    }
}
