/// A warning met while converting: the document still converts.
public struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    /// `path:line:column: warning: message`.
    public var description: String { "\(location): warning: \(message)" }
}
