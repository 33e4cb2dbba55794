import Foundation
import JSKit
import WebRuntime

/// `cookies` over the browser's own jar (JS/storage/cookies.js, the one `document.cookie`
/// reads): the default store "0" and the private one "1"; an extension sees and changes only
/// the cookies of sites it may access, and `cookies.onChanged` tells it of every change there,
/// a page's document.cookie writes included.
extension Browser {
    var cookieLayer: JSValue { session.realm.engine["web"]["cookies"]["api"] }

    /// hooks.cookieChanged(cookieJSON, removed, cause) from the jar: cookies.onChanged for the
    /// extensions with the permission and access to the cookie's site.
    func installCookieHook() throws {
        let realm = session.realm.context
        try session.realm.engine.property("hooks").set("cookieChanged", realm.function("cookieChanged", length: 3) { [weak self] call in
            guard let self else { return nil }
            let cookie = try call.argument(0).toString()
            let removed = call.argument(1).toBool
            let cause = try call.argument(2).toString()
            let listening = self.extensions.filter { $0.permissions.contains("cookies") }
            guard !listening.isEmpty, let url = Self.cookieURL(JSONText.fields(cookie)) else { return nil }
            let info = JSONText.object([("cause", JSONText.string(cause)), ("cookie", cookie), ("removed", removed ? "true" : "false")])
            for host in listening where self.mayAccessCookies(host, url: url) {
                self.wakeIfNeeded(host, for: "cookies.onChanged")
                for context in self.liveContexts(of: host) where context.kind.isPrivileged { context.dispatch("cookies.onChanged", json: [info]) }
            }
            return nil
        })
    }

    /// A URL of the site a cookie (as JSON fields) belongs to.
    static func cookieURL(_ fields: [String: String]) -> String? {
        guard var domain = fields["domain"].map(JSONText.decodeString) else { return nil }
        if domain.hasPrefix(".") { domain.removeFirst() }
        let path = fields["path"].map(JSONText.decodeString) ?? "/"
        return "https://" + domain + path
    }

    /// Whether `host` may see the cookies of the site `url` names: access to it by http or
    /// https (a cookie belongs to the host, whichever scheme set it).
    func mayAccessCookies(_ host: ExtensionHost, url: String) -> Bool {
        guard var parts = URLComponents(string: url) else { return false }
        parts.scheme = "https"
        let secure = parts.string ?? url
        parts.scheme = "http"
        return mayAccess(host, url: secure, tab: nil) || mayAccess(host, url: parts.string ?? url, tab: nil)
    }

    func handleCookies(_ call: APICall) -> APIResult {
        let host = call.context.host
        let chromium = options.profile == .chromium
        let details = JSONText.fields(call.argument(0))
        let storeID = details["storeId"].map(JSONText.decodeString) ?? "0"
        guard storeID == "0" || storeID == "1" else { return .error(chromium ? "Invalid cookie store id: \"\(storeID)\"." : "Invalid call to cookies.\(call.method)(). The 'storeId' value is invalid, because '\(storeID)' is not a cookie store.") }
        /// The store's cookies the extension may see.
        func visible() -> [String] {
            let list = (try? cookieLayer.invoke("all", [session.realm.context.string(storeID)]).stringValue) ?? "[]"
            return JSONText.elements(list ?? "[]").filter { cookie in Self.cookieURL(JSONText.fields(cookie)).map { mayAccessCookies(host, url: $0) } ?? false }
        }
        /// Cookies that a request to `url` would send, longest path first (RFC 6265bis 5.8.3).
        func sent(to url: String, named name: String?) -> [String] {
            guard let parts = URLComponents(string: url), let hostname = parts.host?.lowercased() else { return [] }
            let path = parts.path.isEmpty ? "/" : parts.path
            return visible().filter { cookie in
                let fields = JSONText.fields(cookie)
                let domain = fields["domain"].map(JSONText.decodeString) ?? ""
                let cookiePath = fields["path"].map(JSONText.decodeString) ?? "/"
                let hostOK = fields["hostOnly"] == "true" ? hostname == domain : (hostname == String(domain.dropFirst()) || hostname.hasSuffix(domain))
                let pathOK = path == cookiePath || (path.hasPrefix(cookiePath) && (cookiePath.hasSuffix("/") || path.dropFirst(cookiePath.count).hasPrefix("/")))
                let secureOK = fields["secure"] != "true" || parts.scheme == "https"
                return hostOK && pathOK && secureOK && (name == nil || fields["name"].map(JSONText.decodeString) == name)
            }.sorted { (JSONText.fields($0)["path"]?.count ?? 0) > (JSONText.fields($1)["path"]?.count ?? 0) }
        }
        let url = details["url"].map(JSONText.decodeString)
        let noAccess = { (url: String) -> APIResult in
            chromium ? .error("No host permissions for cookies at url: \"\(url)\".") : .error("Invalid call to cookies.\(call.method)(). The extension does not have access to '\(url)'.")
        }
        switch call.method {
        case "get":
            guard let url, let name = details["name"].map(JSONText.decodeString) else { return .json("null") }
            guard mayAccessCookies(host, url: url) else { return chromium ? .json("null") : noAccess(url) }
            return .json(sent(to: url, named: name).first ?? "null")
        case "getAll":
            var list = url.map { sent(to: $0, named: nil) } ?? visible()
            for key in ["name", "path", "secure", "session"] {
                guard let wanted = details[key] else { continue }
                list = list.filter { JSONText.fields($0)[key] == wanted }
            }
            if let domain = details["domain"].map(JSONText.decodeString)?.lowercased() {
                list = list.filter { cookie in
                    let own = (JSONText.fields(cookie)["domain"].map(JSONText.decodeString) ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "."))
                    return own == domain || own.hasSuffix("." + domain)
                }
            }
            return .json(JSONText.array(list))
        case "set":
            guard let url, let parts = URLComponents(string: url), let hostname = parts.host?.lowercased(), parts.scheme == "http" || parts.scheme == "https" else {
                return .error(chromium ? "Invalid url: \"\(url ?? "")\"." : "Invalid call to cookies.set(). The 'url' value is invalid, because '\(url ?? "")' is not a valid URL.")
            }
            guard mayAccessCookies(host, url: url) else { return noAccess(url) }
            var domain = hostname
            var hostOnly = true
            if let given = details["domain"].map(JSONText.decodeString), !given.isEmpty {
                domain = given.hasPrefix(".") ? String(given.dropFirst()) : given
                hostOnly = false
            }
            var made: [(String, String)] = [
                ("domain", JSONText.string(domain)), ("hostOnly", hostOnly ? "true" : "false"), ("httpOnly", details["httpOnly"] == "true" ? "true" : "false"),
                ("name", details["name"] ?? "\"\""), ("path", details["path"] ?? JSONText.string(parts.path.isEmpty ? "/" : parts.path)),
                ("sameSite", details["sameSite"] ?? "\"unspecified\""), ("secure", details["secure"] == "true" ? "true" : "false"),
                ("storeId", JSONText.string(storeID)), ("value", details["value"] ?? "\"\""),
            ]
            if let expires = details["expirationDate"] { made.append(("expirationDate", expires)) }
            let answer = (try? cookieLayer.invoke("put", [session.realm.context.string(JSONText.object(made))]).stringValue) ?? "null"
            return .json(answer ?? "null")
        case "remove":
            guard let url, let name = details["name"].map(JSONText.decodeString) else { return .json("null") }
            guard mayAccessCookies(host, url: url) else { return chromium ? .json("null") : noAccess(url) }
            guard let cookie = sent(to: url, named: name).first else { return .json("null") }
            let fields = JSONText.fields(cookie)
            let context = session.realm.context
            let domain = (fields["domain"].map(JSONText.decodeString) ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "."))
            _ = try? cookieLayer.invoke("remove", [context.string(storeID), context.string(name), context.string(domain),
                                                   context.string(fields["path"].map(JSONText.decodeString) ?? "/")])
            return .json(JSONText.object([("name", JSONText.string(name)), ("storeId", JSONText.string(storeID)), ("url", JSONText.string(url))]))
        case "getAllCookieStores":
            let stores = [("0", tabs.filter { !$0.isPrivate }), ("1", tabs.filter(\.isPrivate))].filter { $0.0 == "0" || !$0.1.isEmpty }
            return .json(JSONText.array(stores.map { JSONText.object([("id", JSONText.string($0.0)), ("tabIds", JSONText.array($0.1.map { "\($0.id)" }))]) }))
        default:
            return .error("cookies.\(call.method) is not available")
        }
    }
}
