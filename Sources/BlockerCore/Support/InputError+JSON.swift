import StrictJSON

extension InputError {
    /// The error StrictJSON found reading `file`: syntax errors say `invalid json:`.
    public init(_ error: JSONInputError, file: String?) {
        let message = error.kind == .syntax ? "invalid json: " + error.message : error.message
        self.init(file: file ?? error.file, line: error.line, column: error.column,
                  path: error.path.isEmpty ? nil : error.path, message: message)
    }

    /// The same error with the line and column of its key path in `bytes` (the document
    /// `file` holds); unchanged when it has a line already or its path is not a JSON path.
    ///
    /// Re-scans the document, so it is for errors, found after parsing, that should still
    /// say where they are.
    public func located(in bytes: [UInt8]) -> InputError {
        guard line == nil, let path else { return self }
        guard let jsonPath = path == JSONInput.topLevel ? JSONPath.root : JSONPath(rendered: path),
              let location = JSONLocator.locate(jsonPath, in: bytes) else { return self }
        return InputError(file: file, line: location.line, column: location.column, path: path, message: message)
    }
}
