/// Lines and columns of byte offsets, for every reader and every message, with one rule:
/// LF, CRLF and a lone CR each end a line (as XML and CommonMark count them), and columns
/// count characters (Unicode scalars) from 1. Offsets asked for in increasing order are
/// counted on from the last one (going back starts over): a whole file's positions in
/// one pass, however long its lines are.
struct LineCounter {
    private var counted = 0
    private var line = 1
    private var lineStart = 0
    private var last = (offset: 0, column: 1)

    /// The 1-based line and column of `offset` in `bytes`.
    mutating func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        bytes.withUnsafeBufferPointer { position(of: offset, in: $0) }
    }

    /// The 1-based line and column of `offset` in `bytes`.
    mutating func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let offset = min(offset, bytes.count)
        if offset < counted { self = LineCounter() }
        if counted < offset {
            // A plain count vectorizes; only the last line break's place is looked for. A
            // carriage return sends the range the long way.
            var newlines = 0
            var returns = 0
            for index in counted..<offset {
                newlines &+= bytes[index] == UInt8.lineFeed ? 1 : 0
                returns &+= bytes[index] == UInt8.carriageReturn ? 1 : 0
            }
            if returns > 0 {
                for index in counted..<offset where Self.endsLine(at: index, in: bytes) {
                    line += 1
                    lineStart = index + 1
                }
            } else if newlines > 0 {
                line += newlines
                var index = offset - 1
                while bytes[index] != UInt8.lineFeed { index -= 1 }
                lineStart = index + 1
            }
            counted = offset
        }
        let from: (offset: Int, column: Int) = last.offset >= lineStart && last.offset <= offset ? last : (lineStart, 1)
        last = (offset, from.column + UnsafeBufferPointer(rebasing: bytes[from.offset..<offset]).characterCount)
        return (line, last.column)
    }

    /// Whether the byte at `index` ends a line: a line feed, or a carriage return that no
    /// line feed follows.
    private static func endsLine(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch bytes[index] {
        case UInt8.lineFeed: true
        case UInt8.carriageReturn: index + 1 >= bytes.count || bytes[index + 1] != UInt8.lineFeed
        default: false
        }
    }
}
