/// Punycode (RFC 3492), the ASCII-compatible encoding of Unicode IDNA labels.
///
/// Written from the algorithm in RFC 3492 sections 5-6.3; the parameter values
/// are the ones section 5 fixes for IDNA.
public enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128
    /// Code points and intermediate values stay far below this; larger means hostile input.
    private static let limit = Int(Int32.max)

    /// Encodes one label's scalars (without the `xn--` prefix); nil on overflow.
    public static func encode(_ input: String) -> String? {
        let scalars = input.unicodeScalars.map { Int($0.value) }
        var output = scalars.filter { $0 < 0x80 }.map { Character(Unicode.Scalar(UInt8($0))) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < scalars.count {
            guard let m = scalars.filter({ $0 >= n }).min() else { return nil }
            let (step, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta + step < limit else { return nil }
            delta += step
            n = m
            for c in scalars {
                if c < n {
                    delta += 1
                    guard delta < limit else { return nil }
                }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = threshold(k, bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, firstTime: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    /// Decodes one label (without the `xn--` prefix); nil when it is not valid Punycode.
    public static func decode(_ input: String) -> String? {
        let chars = Array(input.unicodeScalars)
        var output: [Int] = []
        var start = 0
        if let lastDelimiter = chars.lastIndex(of: "-") {
            for c in chars[..<lastDelimiter] {
                guard c.isASCII else { return nil }
                output.append(Int(c.value))
            }
            start = lastDelimiter + 1
        }
        var n = initialN
        var i = 0
        var bias = initialBias
        var position = start
        while position < chars.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard position < chars.count, let d = digitValue(chars[position]) else { return nil }
                position += 1
                let (product, overflow) = d.multipliedReportingOverflow(by: w)
                guard !overflow, i + product < limit else { return nil }
                i += product
                let t = threshold(k, bias)
                if d < t { break }
                let (nextW, overflowW) = w.multipliedReportingOverflow(by: base - t)
                guard !overflowW, nextW < limit else { return nil }
                w = nextW
                k += base
            }
            let count = output.count + 1
            bias = adapt(i - oldI, count, firstTime: oldI == 0)
            n += i / count
            guard n < 0x110000 else { return nil }
            i %= count
            output.insert(n, at: i)
            i += 1
        }
        var result = String.UnicodeScalarView()
        for value in output {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
            result.append(scalar)
        }
        return String(result)
    }

    private static func threshold(_ k: Int, _ bias: Int) -> Int {
        if k <= bias { return tMin }
        if k >= bias + tMax { return tMax }
        return k - bias
    }

    private static func adapt(_ delta: Int, _ numPoints: Int, firstTime: Bool) -> Int {
        var delta = firstTime ? delta / damp : delta / 2
        delta += delta / numPoints
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ value: Int) -> Character {
        // 0-25 are a-z, 26-35 are 0-9 (RFC 3492 section 5); lowercase output.
        let scalar = value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
        return Character(Unicode.Scalar(scalar))
    }

    private static func digitValue(_ c: Unicode.Scalar) -> Int? {
        switch c.value {
        case 0x30...0x39: return Int(c.value) - 0x30 + 26
        case 0x41...0x5A: return Int(c.value) - 0x41
        case 0x61...0x7A: return Int(c.value) - 0x61
        default: return nil
        }
    }
}
