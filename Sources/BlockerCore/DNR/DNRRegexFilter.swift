import Foundation

/// `regexFilter` support: RE2-syntax checks and a compiled matcher.
///
/// Chromium compiles regexFilter with RE2 and a 2 KB memory cap (utils.cc,
/// CreateRE2Options). RE2 is not available here, so:
/// - syntax is checked with ICU (NSRegularExpression) after refusing the
///   constructs RE2 lacks (backreferences, lookaround, possessive quantifiers);
/// - "too large" is an estimate of RE2's program size: every atom counts one
///   instruction and counted repetitions multiply; above `maximumInstructions`
///   the rule is refused. This approximates RE2's limit, it does not reproduce it.
enum DNRRegexFilter {
    enum Verdict: Equatable { case valid, invalid, tooLarge }

    /// RE2 programs spend roughly 8 bytes an instruction; 2 KB gives about 256.
    static let maximumInstructions = DNRLimits.regexMaxMemoryBytes / 8

    static func check(_ pattern: String) -> Verdict {
        let forbidden = ["(?=", "(?!", "(?<=", "(?<!", "*+", "++", "?+", "}+"]
        if forbidden.contains(where: pattern.contains) { return .invalid }
        if pattern.range(of: #"\\[1-9]"#, options: .regularExpression) != nil { return .invalid }
        guard (try? NSRegularExpression(pattern: pattern)) != nil else { return .invalid }
        return estimatedInstructions(pattern) > maximumInstructions ? .tooLarge : .valid
    }

    /// A rough RE2 instruction count: atoms 1 each, `{n,m}` multiplies the preceding atom or group.
    static func estimatedInstructions(_ pattern: String) -> Int {
        var stack: [Int] = [0]
        var lastAtom = 0
        var chars = Array(pattern)[...]
        while let c = chars.popFirst() {
            switch c {
            case "\\":
                _ = chars.popFirst()
                lastAtom = 1
                stack[stack.count - 1] += 1
            case "[":
                while let d = chars.popFirst(), d != "]" { if d == "\\" { _ = chars.popFirst() } }
                lastAtom = 1
                stack[stack.count - 1] += 1
            case "(":
                stack.append(0)
            case ")":
                let group = (stack.popLast() ?? 0) + 2
                if stack.isEmpty { stack = [0] }
                stack[stack.count - 1] += group
                lastAtom = group
            case "{":
                var text = ""
                while let d = chars.popFirst(), d != "}" { text.append(d) }
                let bounds = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { Int($0) }
                let times = max(bounds.max() ?? 1, 1)
                stack[stack.count - 1] += lastAtom * (times - 1) + 1
            case "*", "+", "?", "|":
                stack[stack.count - 1] += 1
            default:
                lastAtom = 1
                stack[stack.count - 1] += 1
            }
        }
        return stack.reduce(0, +)
    }

    /// Compiles for matching; case-insensitive unless `caseSensitive`.
    static func compile(_ pattern: String, caseSensitive: Bool) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive])
    }
}
