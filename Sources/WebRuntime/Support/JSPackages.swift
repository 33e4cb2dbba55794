import Foundation

/// A Debian-packaged pure-JavaScript library the runtime loads into JavaScriptCore.
public struct JSPackage: Sendable {
    /// The name scripts `require` it by (`domino`).
    public let name: String
    /// The Debian package that ships it (`node-domino`).
    public let debianPackage: String
    /// The package folder (`/usr/share/nodejs/domino`).
    public let root: String
    /// The file `require(name)` loads.
    public let main: String
}

/// The runtime could not find a Debian package it needs.
public struct MissingPackageError: Error, CustomStringConvertible {
    /// The Debian package to install.
    public let debianPackage: String
    /// The file that was looked for.
    public let expectedFile: String

    public var description: String {
        "missing Debian package '\(debianPackage)' (looked for '\(expectedFile)'); "
            + "install it with: sudo apt-get install -y \(debianPackage) "
            + "(or point ADV_NODEJS_PATH at a folder holding its files)"
    }
}

/// Finds the JavaScript packages the runtime is built on.
///
/// They live under `/usr/share/nodejs` (Debian's layout), or under the folder named by the
/// `ADV_NODEJS_PATH` environment variable.
public enum JSPackages {
    /// The folder searched for packages.
    public static var searchRoot: String {
        ProcessInfo.processInfo.environment["ADV_NODEJS_PATH"] ?? "/usr/share/nodejs"
    }

    /// Mozilla's domino: the DOM.
    /// - Throws: ``MissingPackageError`` when node-domino is not installed.
    public static func domino(searchRoot root: String = searchRoot) throws -> JSPackage {
        try locate(name: "domino", debianPackage: "node-domino", main: "lib/index.js", root: root)
    }

    /// NV's CSSOM: the CSS object model.
    /// - Throws: ``MissingPackageError`` when node-cssom is not installed.
    public static func cssom(searchRoot root: String = searchRoot) throws -> JSPackage {
        try locate(name: "cssom", debianPackage: "node-cssom", main: "lib/index.js", root: root)
    }

    /// fb55's css-select (a Selectors 4 compiler) with the modules it requires: css-what (the
    /// selector parser), nth-check and boolbase, all from node-css-select's dependencies.
    /// - Throws: ``MissingPackageError`` when node-css-select is not installed.
    public static func selectorEngine(searchRoot root: String = searchRoot) throws -> [JSPackage] {
        [
            try locate(name: "css-select", debianPackage: "node-css-select", main: "lib/index.js", root: root),
            try locate(name: "css-what", debianPackage: "node-css-what", main: "lib/commonjs/index.js", root: root),
            try locate(name: "nth-check", debianPackage: "node-nth-check", main: "lib/index.js", root: root),
            try locate(name: "boolbase", debianPackage: "node-boolbase", main: "index.js", root: root),
        ]
    }

    /// Acorn, the ECMAScript parser the module loader rewrites modules with
    /// (JS/scripting/module-syntax.js).
    /// - Throws: ``MissingPackageError`` when node-acorn is not installed.
    public static func acorn(searchRoot root: String = searchRoot) throws -> JSPackage {
        try locate(name: "acorn", debianPackage: "node-acorn", main: "dist/acorn.js", root: root)
    }

    static func locate(name: String, debianPackage: String, main: String, root searchRoot: String) throws -> JSPackage {
        let root = searchRoot + "/" + name
        let mainFile = root + "/" + main
        guard FileManager.default.fileExists(atPath: mainFile) else {
            throw MissingPackageError(debianPackage: debianPackage, expectedFile: mainFile)
        }
        return JSPackage(name: name, debianPackage: debianPackage, root: root, main: mainFile)
    }
}
