/// A Content Blocker trigger with its regexes parsed.
struct CompiledTrigger: Sendable {
    let trigger: ContentBlockerTrigger
    let urlFilter: URLFilterRegex
    let ifTopURL: [URLFilterRegex]?
    let unlessTopURL: [URLFilterRegex]?
    let ifFrameURL: [URLFilterRegex]?
    let unlessFrameURL: [URLFilterRegex]?

    init(_ trigger: ContentBlockerTrigger, index: Int) throws {
        func compile(_ source: String, _ key: String) throws -> URLFilterRegex {
            do {
                return try URLFilterRegex(source, caseSensitive: trigger.urlFilterIsCaseSensitive ?? false)
            } catch let error as URLFilterRegexError {
                throw InputError(file: nil, position: "[\(index)].trigger.\(key)", message: error.description)
            }
        }
        self.trigger = trigger
        self.urlFilter = try compile(trigger.urlFilter, "url-filter")
        self.ifTopURL = try trigger.ifTopURL?.map { try compile($0, "if-top-url") }
        self.unlessTopURL = try trigger.unlessTopURL?.map { try compile($0, "unless-top-url") }
        self.ifFrameURL = try trigger.ifFrameURL?.map { try compile($0, "if-frame-url") }
        self.unlessFrameURL = try trigger.unlessFrameURL?.map { try compile($0, "unless-frame-url") }
    }

    /// Cheap checks first, the url-filter regex last.
    func matches(_ request: ContentBlockerRequest) -> Bool {
        if let types = trigger.resourceType, !types.isEmpty, !types.contains(where: { Self.typeMatches($0, request) }) { return false }
        if let method = trigger.requestMethod, method != request.method { return false }
        if let contexts = trigger.loadContext {
            if !contexts.contains(request.isTopFrameLoad ? .topFrame : .childFrame) { return false }
        }
        if let loadTypes = trigger.loadType {
            // Third-party: a different registrable domain from the main document.
            let thirdParty = Hostname.registrableDomain(request.url.host) != Hostname.registrableDomain(request.topURL.host)
            if !loadTypes.contains(thirdParty ? .thirdParty : .firstParty) { return false }
        }
        if let domains = trigger.ifDomain, !Self.domainListMatches(domains, host: request.topURL.host) { return false }
        if let domains = trigger.unlessDomain, Self.domainListMatches(domains, host: request.topURL.host) { return false }
        if let list = ifTopURL, !list.contains(where: { $0.matches(request.topURL.string) }) { return false }
        if let list = unlessTopURL, list.contains(where: { $0.matches(request.topURL.string) }) { return false }
        if let list = ifFrameURL {
            guard let frame = request.frameURL, list.contains(where: { $0.matches(frame.string) }) else { return false }
        }
        if let list = unlessFrameURL, let frame = request.frameURL, list.contains(where: { $0.matches(frame.string) }) {
            return false
        }
        return request.url.bytes.withUnsafeBufferPointer { urlFilter.matches($0) }
    }

    /// `document` covers both frame kinds; `raw` is the older name for fetch/websocket/other loads.
    static func typeMatches(_ type: ContentBlockerResourceType, _ request: ContentBlockerRequest) -> Bool {
        switch type {
        case .topDocument: request.resourceType == .document && request.isTopFrameLoad
        case .childDocument: request.resourceType == .document && !request.isTopFrameLoad
        case .raw: [.raw, .fetch, .websocket, .other].contains(request.resourceType)
        default: type == request.resourceType
        }
    }

    /// if-domain entries: exact host, or with a `*` prefix the host and its subdomains.
    static func domainListMatches(_ domains: [String], host: String) -> Bool {
        domains.contains { entry in
            if entry.hasPrefix("*") { return Hostname.isSameOrSubdomain(host, of: String(entry.dropFirst()).lowercased()) }
            return host == entry.lowercased()
        }
    }
}
