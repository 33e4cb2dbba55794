import WebRuntime

extension Browser {
    /// The permission names Safari knows (WebKit's WebExtension::supportedPermissions); others
    /// are refused as invalid.
    static let safariPermissionNames: Set<String> = [
        "activeTab", "alarms", "clipboardWrite", "contextMenus", "cookies", "declarativeNetRequest", "declarativeNetRequestFeedback",
        "declarativeNetRequestWithHostAccess", "menus", "nativeMessaging", "notifications", "scripting", "storage", "tabs",
        "unlimitedStorage", "webNavigation", "webRequest",
    ]
    /// API permissions Chrome recognizes (developer.chrome.com, "Permissions list"); another name
    /// is "'x' is not a recognized permission.".
    static let chromePermissionNames: Set<String> = safariPermissionNames.subtracting(["menus"]).union([
        "background", "bookmarks", "browsingData", "certificateProvider", "clipboardRead", "contentSettings", "debugger",
        "declarativeContent", "desktopCapture", "documentScan", "downloads", "downloads.open", "downloads.ui", "enterprise.deviceAttributes",
        "enterprise.hardwarePlatform", "enterprise.networkingAttributes", "enterprise.platformKeys", "favicon", "fileBrowserHandler",
        "fileSystemProvider", "fontSettings", "gcm", "geolocation", "history", "identity", "identity.email", "idle", "loginState",
        "management", "offscreen", "pageCapture", "platformKeys", "power", "printerProvider", "printing", "printingMetrics", "privacy",
        "processes", "proxy", "readingList", "runtime", "search", "sessions", "sidePanel", "system.cpu", "system.display",
        "system.memory", "system.storage", "tabCapture", "tabGroups", "topSites", "tts", "ttsEngine", "userScripts", "vpnProvider",
        "wallpaper", "webAuthenticationProxy", "webRequestBlocking",
    ])

    func handlePermissions(_ call: APICall) -> APIResult {
        let host = call.context.host
        let chromium = options.profile == .chromium
        let api = "permissions.\(call.method)()"
        let fields = JSONText.fields(call.argument(0))
        let names = fields["permissions"].map { JSONText.elements($0).map(JSONText.decodeString) } ?? []
        let origins = fields["origins"].map { JSONText.elements($0).map(JSONText.decodeString) } ?? []
        /// Safari's form: "Invalid call to permissions.request(). The 'origins' value is invalid, because …."
        func safari(_ key: String, _ because: String) -> APIResult { .error("Invalid call to \(api). The '\(key)' value is invalid, because \(because).") }
        if call.method == "getAll" { return .json(permissionsJSON(grantedNames(host), grantedOrigins(host))) }

        // Names and patterns must be ones the browser knows. (Safari's bindings throw these for
        // contains(); here every method rejects.)
        let known = chromium ? Self.chromePermissionNames : Self.safariPermissionNames
        if chromium, call.method == "request", !(inUserGesture || hasActivation(call.context)) {
            // Chrome checks the gesture before anything else (permissions_api.cc).
            return .error("This function must be called during a user gesture")
        }
        if let unknown = names.first(where: { !known.contains($0) }) {
            return chromium ? .error("'\(unknown)' is not a recognized permission.") : safari("permissions", "'\(unknown)' is not a valid permission")
        }
        for origin in origins {
            do { _ = try MatchPattern(origin) } catch let error as MatchPatternError {
                return chromium ? .error("Invalid value for origin pattern \(origin): \(error.reason)") : safari("origins", "'\(origin)' is not a valid pattern")
            } catch {}
        }
        let manifest = host.bundle.manifest
        let listedNames = manifest.permissions.union(manifest.optionalPermissions)
        let listedPatterns = manifest.hostPermissions + manifest.optionalHostPermissions + manifest.contentScripts.flatMap(\.matches)
        let unlistedName = names.first { !listedNames.contains($0) }
        let unlistedOrigin = origins.first { origin in !listedPatterns.contains { $0.covers(origin) } }

        switch call.method {
        case "contains":
            if unlistedName != nil || unlistedOrigin != nil { return .json("false") }
            let held = Set(grantedNames(host))
            let heldPatterns = heldOriginPatterns(host)
            let all = names.allSatisfy(held.contains) && origins.allSatisfy { origin in heldPatterns.contains { $0.covers(origin) } }
            return .json(all ? "true" : "false")
        case "request":
            if !chromium, !(inUserGesture || hasActivation(call.context)) { return .error("Invalid call to permissions.request(). Must be called during a user gesture.") }
            if unlistedName != nil || unlistedOrigin != nil {
                return chromium ? .error("Only permissions specified in the manifest may be requested.")
                    : safari(unlistedName == nil ? "origins" : "permissions", "only permissions specified in the manifest may be requested")
            }
            let held = Set(grantedNames(host))
            let heldPatterns = heldOriginPatterns(host)
            let newNames = names.filter { !held.contains($0) }
            let newOrigins = origins.filter { origin in !heldPatterns.contains { $0.covers(origin) } }
            guard !newNames.isEmpty || !newOrigins.isEmpty else { return .json("true") }
            let accepted = permissionPrompt?(host, newNames, newOrigins) ?? false
            trace.record(.api, at: "browser", "permission prompt for \(host.bundle.manifest.name): \(permissionsJSON(newNames, newOrigins)) \(accepted ? "accepted" : "declined")")
            guard accepted else { return .json("false") }
            host.grantedPermissions.formUnion(newNames)
            // Each was parsed above; a granted pattern is kept parsed (mayAccess reads it).
            host.grantedOrigins += newOrigins.compactMap { try? MatchPattern($0) }
            permissionsChanged(host, event: "permissions.onAdded", names: newNames, origins: newOrigins)
            return .json("true")
        case "remove":
            let requiredName = names.first { manifest.permissions.contains($0) }
            let requiredOrigin = origins.first { origin in manifest.hostPermissions.contains { $0.covers(origin) } }
            if chromium {
                if unlistedName != nil || unlistedOrigin != nil { return .error("Only permissions specified in the manifest may be requested.") }
                if requiredName != nil || requiredOrigin != nil { return .error("You cannot remove required permissions.") }
            } else {
                if requiredName != nil || requiredOrigin != nil { return safari(requiredName == nil ? "origins" : "permissions", "required permissions cannot be removed") }
                if unlistedName != nil || unlistedOrigin != nil { return safari(unlistedName == nil ? "origins" : "permissions", "only permissions specified in the manifest may be removed") }
            }
            let removedNames = names.filter { host.grantedPermissions.contains($0) }
            let removedOrigins = origins.filter { origin in host.grantedOrigins.contains { $0.text == origin } }
            host.grantedPermissions.subtract(removedNames)
            host.grantedOrigins.removeAll { removedOrigins.contains($0.text) }
            if !removedNames.isEmpty || !removedOrigins.isEmpty {
                permissionsChanged(host, event: "permissions.onRemoved", names: removedNames, origins: removedOrigins)
            }
            return .json("true")
        default:
            return .error("permissions.\(call.method) is not available")
        }
    }

    /// True while `context` has transient activation (a popup just opened by a click).
    func hasActivation(_ context: ExtensionContext) -> Bool {
        context.activationExpiry.map { loop.now < $0 } ?? false
    }

    /// The API permissions `host` holds.
    func grantedNames(_ host: ExtensionHost) -> [String] { host.permissions.sorted() }

    /// The host patterns `host` holds: Chrome's effective hosts (its host permissions and its
    /// content scripts' matches, granted at install) and those granted since; in Safari the
    /// requested patterns hold only where the user allowed the site, and every site when the
    /// user allowed all ("<all_urls>" when the manifest asked for no all-hosts pattern).
    func grantedOrigins(_ host: ExtensionHost) -> [String] {
        let manifest = host.bundle.manifest
        var held: [String] = []
        let requested = manifest.hostPermissions + manifest.contentScripts.flatMap(\.matches)
        if options.profile == .chromium {
            held = requested.map(\.text)
        } else if sitePermissions["*"]?.grants == true {
            let allHosts = manifest.hostPermissions.filter { $0.text == "<all_urls>" || $0.text.hasPrefix("*://*/") }.map(\.text)
            held = allHosts.isEmpty ? ["<all_urls>"] : allHosts
        } else {
            for site in sitePermissions.keys.sorted() where sitePermissions[site]?.grants == true && site != "*" {
                if requested.contains(where: { $0.matches("https://\(site)/") }) { held.append("*://\(site)/*") }
            }
        }
        for origin in host.grantedOrigins.map(\.text) where !held.contains(origin) { held.append(origin) }
        var seen = Set<String>()
        return held.filter { seen.insert($0).inserted }
    }

    /// ``grantedOrigins(_:)`` parsed, once per call that compares against them.
    func heldOriginPatterns(_ host: ExtensionHost) -> [MatchPattern] {
        grantedOrigins(host).compactMap { try? MatchPattern($0) }
    }

    /// `permissions.Permissions`.
    func permissionsJSON(_ names: [String], _ origins: [String]) -> String {
        JSONText.object([("origins", JSONText.array(origins.map(JSONText.string))), ("permissions", JSONText.array(names.map(JSONText.string)))])
    }

    /// A grant or removal: the extension's surfaces are made again for the contexts that come
    /// next (a namespace an optional permission gives appears in pages made after the grant),
    /// and onAdded/onRemoved fire in its extension pages.
    func permissionsChanged(_ host: ExtensionHost, event: String, names: [String], origins: [String]) {
        host.apiSurfaces = [:]
        trace.record(.api, at: "browser", "\(event == "permissions.onAdded" ? "granted" : "removed") \(permissionsJSON(names, origins)) for \(host.bundle.manifest.name)")
        broadcast(event, json: [permissionsJSON(names, origins)], to: host)
    }
}
