import BrowserRuntime
import Foundation
import WebRuntime

/// JUnit XML for CI systems: one testsuite per scenario suite, one testcase per scenario.
public enum JUnitReport {
    /// One finished scenario as the report needs it.
    public struct Case: Sendable {
        public let suite: String
        public let name: String
        public let seconds: Double
        public let failure: String?
        public init(suite: String, name: String, seconds: Double, failure: String?) {
            self.suite = suite
            self.name = name
            self.seconds = seconds
            self.failure = failure
        }
    }

    /// The XML document.
    public static func xml(_ cases: [Case]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = cases.filter { $0.failure != nil }.count
        out += "<testsuites name=\"adv-harness\" tests=\"\(cases.count)\" failures=\"\(failures)\">\n"
        let bySuite = Dictionary(grouping: cases, by: \.suite)
        for suite in bySuite.keys.sorted() {
            let list = bySuite[suite] ?? []
            let time = list.reduce(0) { $0 + $1.seconds }
            out += "  <testsuite name=\"\(escape(suite))\" tests=\"\(list.count)\" failures=\"\(list.filter { $0.failure != nil }.count)\" time=\"\(String(format: "%.3f", time))\">\n"
            for item in list {
                out += "    <testcase classname=\"\(escape(suite))\" name=\"\(escape(item.name))\" time=\"\(String(format: "%.3f", item.seconds))\""
                if let failure = item.failure {
                    let first = failure.split(separator: "\n").first.map(String.init) ?? failure
                    out += ">\n      <failure message=\"\(escape(first))\">\(escape(failure))</failure>\n    </testcase>\n"
                } else {
                    out += "/>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                // XML 1.0 forbids most control characters even when escaped.
                if scalar.value < 0x20, scalar != "\n", scalar != "\t", scalar != "\r" { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
