import StrictJSON

/// StrictJSON's `JSONValue`, also under the name BlockerCore has always exported it, so
/// code that says `BlockerCore.JSONValue` (or imports only BlockerCore) keeps compiling.
public typealias JSONValue = StrictJSON.JSONValue
