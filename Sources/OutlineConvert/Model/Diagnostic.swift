/// A warning met while converting: the document still converts.
public struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// One sentence, without the location.
    public var message: String

    /// A warning at `location`.
    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    /// `path:line:column: warning: message`.
    public var description: String { "\(location): warning: \(message)" }
}
