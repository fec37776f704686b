/// A place in an input file: path plus 1-based line and column (0 when not known).
public struct SourceLocation: Equatable, Sendable, CustomStringConvertible {
    /// The path as the user named it, or `<stdin>`.
    public var file: String
    /// 1-based line, 0 when not known.
    public var line: Int
    /// 1-based column in characters, 0 when not known.
    public var column: Int

    /// A location; line and column default to unknown.
    public init(file: String, line: Int = 0, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:column` (GCC style), leaving out what is not known.
    public var description: String {
        guard line > 0 else { return file }
        return column > 0 ? "\(file):\(line):\(column)" : "\(file):\(line)"
    }
}
