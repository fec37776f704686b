/// Why a document could not be read, converted or written. Every case names a place.
public enum ConversionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not well-formed for their format (XML syntax, UTF-8, NUL bytes, …).
    case malformed(SourceLocation, String)
    /// Well-formed, but not an outline of the format (a wrong type, an unknown element, …).
    case invalid(SourceLocation, String)
    /// Refused for safety: entity declarations, external entities, nesting past the limit.
    case refused(SourceLocation, String)
    /// A file could not be read or written.
    case io(path: String, String)

    /// Where the problem is.
    public var location: SourceLocation {
        switch self {
        case .malformed(let l, _), .invalid(let l, _), .refused(let l, _): return l
        case .io(let path, _): return SourceLocation(file: path)
        }
    }

    /// The one-sentence reason, without the location.
    public var reason: String {
        switch self {
        case .malformed(_, let r), .invalid(_, let r), .refused(_, let r), .io(_, let r): return r
        }
    }

    /// `path:line:column: error: reason`, as compilers print it.
    public var description: String { "\(location): error: \(reason)" }
}

extension ConversionError {
    /// `error` as a `ConversionError`: itself if it is one, else an I/O error at `file`
    /// that names it (no error leaves the tool unreported).
    package static func unexpected(_ error: any Error, file: String) -> ConversionError {
        error as? ConversionError ?? .io(path: file, String(describing: error))
    }
}
