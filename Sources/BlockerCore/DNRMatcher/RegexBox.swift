import Foundation

/// NSRegularExpression is immutable after creation and documented as safe to share between threads.
struct RegexBox: @unchecked Sendable {
    let regex: NSRegularExpression
}
