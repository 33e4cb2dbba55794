import Foundation

/// Where the web platform layers' JavaScript lives in the build products.
package enum WebPlatform {
    /// The bundle that holds `JS/`.
    package static let bundle = Bundle.module
}
