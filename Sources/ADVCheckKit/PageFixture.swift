import BlockerCore
import Foundation

/// A fixture page (fixtures/pages/*.html) and the subresource requests it makes.
///
/// The page names its own address in `<meta name="adv-page-url" content="...">`;
/// subresources are the `src`/`href` of script, img, iframe, video, audio, source,
/// embed and `link rel=stylesheet` elements, resolved against that address. This is
/// a tag scan for counting requests, not an HTML parser.
struct PageFixture {
    struct Subresource {
        let url: String
        let type: DNRResourceType
    }

    let path: String
    let pageURL: String
    let subresources: [Subresource]

    /// Loads a page.
    /// - Throws: `InputError` naming the file and line of the problem.
    static func load(_ path: String) throws -> PageFixture {
        let text = String(decoding: try FileHandleWriter.read(path), as: UTF8.self)
        guard let pageURL = firstAttribute(in: text, tag: "meta", where: ("name", "adv-page-url"), attribute: "content"),
            let base = URL(string: pageURL), base.scheme != nil
        else {
            throw InputError(file: path, position: "line 1",
                             message: "missing <meta name=\"adv-page-url\" content=\"https://...\">; the page must name its address")
        }
        var subresources: [Subresource] = []
        let tagPattern = try NSRegularExpression(pattern: "<(script|img|iframe|video|audio|source|embed|link)\\b([^>]*)>", options: [.caseInsensitive])
        let range = NSRange(text.startIndex..., in: text)
        for match in tagPattern.matches(in: text, range: range) {
            guard let tagRange = Range(match.range(at: 1), in: text), let attributesRange = Range(match.range(at: 2), in: text) else { continue }
            let tag = text[tagRange].lowercased()
            let attributes = String(text[attributesRange])
            let type: DNRResourceType
            let key: String
            switch tag {
            case "script": (type, key) = (.script, "src")
            case "img": (type, key) = (.image, "src")
            case "iframe": (type, key) = (.subFrame, "src")
            case "video", "audio", "source": (type, key) = (.media, "src")
            case "embed": (type, key) = (.object, "src")
            default:
                guard attribute("rel", in: attributes)?.lowercased() == "stylesheet" else { continue }
                (type, key) = (.stylesheet, "href")
            }
            guard let value = attribute(key, in: attributes) else { continue }
            guard let resolved = URL(string: value, relativeTo: base)?.absoluteString else {
                let line = text[..<tagRange.lowerBound].filter { $0 == "\n" }.count + 1
                throw InputError(file: path, position: "line \(line)", message: "cannot resolve url '\(value)'")
            }
            subresources.append(Subresource(url: resolved, type: type))
        }
        return PageFixture(path: path, pageURL: pageURL, subresources: subresources)
    }

    static func attribute(_ name: String, in attributes: String) -> String? {
        let pattern = "\\b\(name)\\s*=\\s*(\"([^\"]*)\"|'([^']*)')"
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
            let match = regex.firstMatch(in: attributes, range: NSRange(attributes.startIndex..., in: attributes))
        else { return nil }
        for group in [2, 3] {
            if let range = Range(match.range(at: group), in: attributes) { return String(attributes[range]) }
        }
        return nil
    }

    private static func firstAttribute(in text: String, tag: String, where condition: (String, String), attribute name: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: "<\(tag)\\b([^>]*)>", options: [.caseInsensitive]) else { return nil }
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range(at: 1), in: text) else { continue }
            let attributes = String(text[range])
            if attribute(condition.0, in: attributes) == condition.1 { return attribute(name, in: attributes) }
        }
        return nil
    }
}
