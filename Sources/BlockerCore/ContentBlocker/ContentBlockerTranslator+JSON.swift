import Foundation

extension ContentBlockerTranslator {
    /// Any Encodable as a JSONValue (nil when absent).
    static func encodeJSON<T: Encodable>(_ value: T?) -> JSONValue? {
        guard let value, let data = try? JSONEncoder().encode(value) else { return nil }
        return try? JSONValue.parse(data)
    }

    /// WebKit's spelling of a DNR redirect: `extension-path`, `regex-substitution`,
    /// `transform.query-transform.{add-or-replace-parameters, remove-parameters}`, `replace-only`.
    static func webKitRedirect(_ redirect: DNRRedirect) -> JSONValue {
        var output: [String: JSONValue] = [:]
        if let url = redirect.url { output["url"] = .string(url) }
        if let substitution = redirect.regexSubstitution { output["regex-substitution"] = .string(substitution) }
        if let path = redirect.extensionPath { output["extension-path"] = .string(path) }
        if let transform = redirect.transform {
            var object: [String: JSONValue] = [:]
            let strings: [(String, String?)] = [
                ("scheme", transform.scheme), ("host", transform.host), ("port", transform.port), ("path", transform.path),
                ("query", transform.query), ("fragment", transform.fragment), ("username", transform.username),
                ("password", transform.password),
            ]
            for (key, value) in strings { if let value { object[key] = .string(value) } }
            if let query = transform.queryTransform {
                var queryObject: [String: JSONValue] = [:]
                if let remove = query.removeParams { queryObject["remove-parameters"] = .array(remove.map(JSONValue.string)) }
                if let add = query.addOrReplaceParams {
                    queryObject["add-or-replace-parameters"] = .array(add.map { item in
                        var entry: [String: JSONValue] = ["key": .string(item.key), "value": .string(item.value)]
                        if let replaceOnly = item.replaceOnly { entry["replace-only"] = .bool(replaceOnly) }
                        return .object(entry)
                    })
                }
                object["query-transform"] = .object(queryObject)
            }
            output["transform"] = .object(object)
        }
        return .object(output)
    }
}
