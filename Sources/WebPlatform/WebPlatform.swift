import Foundation

/// Where the web platform layers' JavaScript lives in the build products.
package enum WebPlatform {
    /// The bundle that holds `JS/`.
    package static let bundle = Bundle.module

    /// The `JS` folder of ``bundle``: `boot/` (the loader, platform fixes, URL and the engine)
    /// and the layers in a folder per concern (see ``LayerCatalog``); nil when the build
    /// products lack it.
    package static var scriptsFolder: URL? {
        bundle.url(forResource: "JS", withExtension: nil)
    }
}
