/// The keys of every DNR object (Chromium's IDL), for refusing misspelled keys.
public enum DNRKeySchema {
    static let headerInfo = KeySchema(allowed: ["header", "values", "excludedValues"])
    static let modifyHeader = KeySchema(allowed: ["header", "operation", "value"])
    static let condition = KeySchema(
        allowed: [
            "urlFilter", "regexFilter", "isUrlFilterCaseSensitive", "initiatorDomains", "excludedInitiatorDomains",
            "requestDomains", "excludedRequestDomains", "topDomains", "excludedTopDomains", "domains", "excludedDomains", "resourceTypes",
            "excludedResourceTypes", "requestMethods", "excludedRequestMethods", "domainType", "tabIds",
            "excludedTabIds", "responseHeaders", "excludedResponseHeaders",
        ],
        children: ["responseHeaders": .list(headerInfo), "excludedResponseHeaders": .list(headerInfo)])
    static let queryTransform = KeySchema(
        allowed: ["removeParams", "addOrReplaceParams"],
        children: ["addOrReplaceParams": .list(KeySchema(allowed: ["key", "value", "replaceOnly"]))])
    static let transform = KeySchema(
        allowed: ["scheme", "host", "port", "path", "query", "queryTransform", "fragment", "username", "password"],
        children: ["queryTransform": queryTransform])
    static let redirect = KeySchema(
        allowed: ["extensionPath", "transform", "url", "regexSubstitution"], children: ["transform": transform])
    static let action = KeySchema(
        allowed: ["type", "redirect", "requestHeaders", "responseHeaders"],
        children: ["redirect": redirect, "requestHeaders": .list(modifyHeader), "responseHeaders": .list(modifyHeader)])
    /// A DNR rule object.
    public static let rule = KeySchema(
        allowed: ["id", "priority", "condition", "action"], children: ["condition": condition, "action": action])
}
