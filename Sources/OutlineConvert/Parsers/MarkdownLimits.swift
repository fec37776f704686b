#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shapes of Markdown that would make cmark 0.30 exhaust the machine's memory or take
/// quadratic time, refused before parsing with the place where they start. Linear, and
/// bytes are walked one by one only where a limit may be passed (a file with more bytes
/// than the element budget, a paragraph long enough for the image-link product); each
/// limit is far beyond what a real document needs (README "Safety"):
///
/// - **Nesting**: a line may put its content at most `maxNesting` (256) block quotes and
///   list items deep. Counted on lines that open a container (`>`, `-`, `+`, `*`, `1.`,
///   `1)`): each `>` and each list marker is a level, and so are every two columns of
///   white space among them (the least a list item's content is indented). cmark's
///   emphasis handling costs depth × delimiters, and browsers stop nesting at 512.
/// - **Elements**: at most `maxElements` characters that can each become a cmark node
///   (`[ ] ! * _ < > ` & \` and line breaks). cmark holds about 200 bytes per node and
///   aborts the process when one buffer passes 1 GiB; `[` × 12 MB alone needs 2.4 GB.
/// - **Images and links in one paragraph**: cmark 0.30.2 scans every open `![` for each
///   link it closes (`![[]()` repeated 50,000 times takes 12 s), so the product of `![`
///   and `](` counts in one paragraph is at most `maxImageLinkProduct`.
struct MarkdownLimits: Sendable {
    static let maxNesting = 256
    static let maxImageLinkProduct = 50_000_000
    /// The element budget: one per 32 bytes of `--max-input-size` (8 Mi at 256 MiB).
    let maxElements: Int

    init(maxInputSize: Int = ConversionOptions.defaultMaxInputSize) {
        maxElements = max(maxInputSize / 32, 1 << 16)
    }

    /// Throws a located `.refused` error at the first shape past a limit. `lineStarts`: the
    /// offset of every line's first byte (`Lines.lineStarts`).
    func check(_ bytes: [UInt8], lineStarts: [UInt32], file: String) throws {
        if let (offset, reason) = firstViolation(bytes, lineStarts: lineStarts) {
            throw ConversionError.refused(SourceText.location(of: offset, in: bytes[...], file: file), reason)
        }
    }

    /// The offset and reason of the first shape past a limit, or nil. `exact` walks every
    /// byte; otherwise the walk is taken only where a limit can be passed (the same answer:
    /// `MarkdownLimitsTests` compares the two). `lineStarts` as for `check`; found when nil.
    func firstViolation(_ bytes: [UInt8], lineStarts: [UInt32]? = nil, exact: Bool = false) -> (Int, String)? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer, limits: self)
            return exact || Self.mayHaveTooManyElements(buffer, limit: maxElements)
                ? scanner.firstViolation() : scanner.firstNestingOrImageLinkViolation(lineStarts: lineStarts ?? Lines.lineStarts(bytes))
        }
    }

    /// The characters that can become cmark nodes, and line feeds (each line is one).
    private static let elementBytes: [UInt8] = Array("\n[]!*_<>`&\\".utf8)

    /// Whether the element budget can be passed: more bytes than elements allowed, and
    /// more element characters (and lines) than that. An upper bound of what the exact walk
    /// counts (it skips container markers): past it, the exact walk decides.
    private static func mayHaveTooManyElements(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
        guard bytes.count + 1 > limit, let base = bytes.baseAddress else { return false }
        var isElement = [UInt8](repeating: 0, count: 256)
        for byte in elementBytes { isElement[Int(byte)] = 1 }
        // Counted two bytes at a time, from a table of the element count of every pair.
        var pairs = [UInt8](repeating: 0, count: 1 << 16)
        for pair in pairs.indices { pairs[pair] = isElement[pair & 0xFF] + isElement[pair >> 8] }
        return pairs.withUnsafeBufferPointer { table in
            var count = 1  // the last line, when it has no line feed
            var index = 0
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                count &+= Int(table[Int(truncatingIfNeeded: word & 0xFFFF)])
                count &+= Int(table[Int(truncatingIfNeeded: (word &>> 16) & 0xFFFF)])
                count &+= Int(table[Int(truncatingIfNeeded: (word &>> 32) & 0xFFFF)])
                count &+= Int(table[Int(truncatingIfNeeded: word &>> 48)])
                index &+= 8
            }
            while index < bytes.count {
                count &+= Int(isElement[Int(bytes[index])])
                index &+= 1
            }
            return count > limit
        }
    }

    private static let tooDeep = "block quotes and list items nest deeper than \(maxNesting) levels, the limit for Markdown inputs"

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let limits: MarkdownLimits
        var elements = 0
        var images = 0
        var links = 0
        var paragraphStart = 0

        init(bytes: UnsafeBufferPointer<UInt8>, limits: MarkdownLimits) {
            self.bytes = bytes
            self.limits = limits
        }

        /// A paragraph shorter than this cannot pass `maxImageLinkProduct`: `![` and `](`
        /// take two bytes each, so a paragraph of n bytes holds at most (n/4)² pairs of them
        /// (27,000 bytes: 45.6 million, with room for the pair that ends past the line).
        static let shortParagraph = 27_000

        /// `firstViolation` when the element budget cannot be passed: every line's
        /// container prefix is checked, and only the lines of long paragraphs are walked
        /// byte by byte (the rest of a line is stepped over: its end is the next line's start).
        mutating func firstNestingOrImageLinkViolation(lineStarts: [UInt32]) -> (Int, String)? {
            var index = 0
            var line = 0  // (0-based: `lineStarts[line]` is `index`)
            var exactSince: Int?  // the paragraph start from which lines are walked
            while index < bytes.count {
                var contentStart = index
                // Containers and indentation start with one of ` \t*+-0123456789>`.
                if bytes[index] <= UInt8(ascii: ">") {
                    switch prefix(at: index) {
                    case .tooDeep(let offset): return (offset, MarkdownLimits.tooDeep)
                    case .content(let start): contentStart = start
                    }
                }
                let blank = contentStart == bytes.count || bytes[contentStart] == .lineFeed
                line += 1
                let lineEnd = line < lineStarts.count ? Int(lineStarts[line]) - 1 : bytes.count
                if blank {
                    images = 0
                    links = 0
                    paragraphStart = lineEnd + 1
                    exactSince = nil
                } else if lineEnd - paragraphStart > Self.shortParagraph {
                    if exactSince != paragraphStart {
                        // The paragraph has just become long: count what it opened so far.
                        countImagesAndLinks(from: paragraphStart, to: index)
                        exactSince = paragraphStart
                    }
                    if let violation = scanLine(from: contentStart).violation { return violation }
                }
                index = lineEnd + 1
            }
            return nil
        }

        /// Counts `![` and `](` in `start..<end` (fewer than `shortParagraph` bytes: no limit
        /// can be passed there).
        private mutating func countImagesAndLinks(from start: Int, to end: Int) {
            var index = start
            while index < end {
                if bytes[index] == UInt8(ascii: "!"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") { images += 1 }
                if bytes[index] == UInt8(ascii: "]"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "(") { links += 1 }
                index += 1
            }
        }

        /// The offset and reason of the first violation, or nil: every byte walked.
        mutating func firstViolation() -> (Int, String)? {
            var index = 0
            while index < bytes.count {
                let contentStart: Int
                switch prefix(at: index) {
                case .tooDeep(let offset):
                    return (offset, MarkdownLimits.tooDeep)
                case .content(let start):
                    contentStart = start
                }
                // `prefix` stepped over the white space at the start: nothing else means blank.
                let blank = contentStart == bytes.count || bytes[contentStart] == .lineFeed
                let (lineEnd, violation) = scanLine(from: contentStart)
                if let violation { return violation }
                if blank {
                    // A paragraph ends here: cmark parses each paragraph's inlines alone.
                    images = 0
                    links = 0
                    paragraphStart = lineEnd + 1
                }
                elements += 1  // the line break
                index = lineEnd + 1
            }
            return nil
        }

        private enum Prefix {
            case content(Int)
            case tooDeep(Int)
        }

        /// Steps over a line's container markers and white space. The space after `>` and the
        /// spaces after a list marker belong to the marker; other white space is indentation.
        private func prefix(at start: Int) -> Prefix {
            var index = start
            var levels = 0
            var columns = 0
            while index < bytes.count {
                let byte = bytes[index]
                let markerStart = index
                switch byte {
                case .space: columns += 1
                case .tab: columns += 4
                case UInt8(ascii: ">"):
                    levels += 1
                    if index + 1 < bytes.count && bytes[index + 1] == .space { index += 1 }
                case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"):
                    guard followedBySpace(index) else { return .content(index) }
                    levels += 1
                    index = afterMarkerSpaces(index + 1) - 1
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    var end = index
                    while end < bytes.count, end - index < 10, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                    guard end < bytes.count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ")"),
                        followedBySpace(end)
                    else { return .content(index) }
                    levels += 1
                    index = afterMarkerSpaces(end + 1) - 1
                default:
                    return .content(index)
                }
                if levels > 0 && levels + columns / 2 > MarkdownLimits.maxNesting { return .tooDeep(markerStart) }
                index += 1
            }
            return .content(index)
        }

        /// Past up to four spaces that follow a list marker.
        private func afterMarkerSpaces(_ index: Int) -> Int {
            var end = index
            while end < bytes.count, end - index < 4, bytes[end] == .space { end += 1 }
            return end
        }

        private func followedBySpace(_ index: Int) -> Bool {
            index + 1 >= bytes.count || bytes[index + 1] == .space || bytes[index + 1] == .tab || bytes[index + 1] == .lineFeed
        }

        /// Whether `scanLine` only steps over `byte`: all but line feed and the characters it
        /// counts. Those are all below 0x61, so most bytes (letters, UTF-8) pass the first
        /// test. A switch, not a table: a global table is a lazy global, looked up for every
        /// byte in a debug build.
        private static func isPlain(_ byte: UInt8) -> Bool {
            if byte > UInt8(ascii: "`") { return true }
            switch byte {
            case .lineFeed, UInt8(ascii: "["), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "<"), UInt8(ascii: ">"),
                UInt8(ascii: "`"), UInt8(ascii: "&"), UInt8(ascii: "\\"), UInt8(ascii: "!"), UInt8(ascii: "]"):
                return false
            default: return true
            }
        }

        /// Walks one line from `start` to its end: counts the characters that can become
        /// nodes, and `![` and `](` pairs; returns where the line ends and the first limit
        /// passed.
        private mutating func scanLine(from start: Int) -> (end: Int, violation: (Int, String)?) {
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if Self.isPlain(byte) {  // most bytes
                    index += 1
                    continue
                }
                if byte == .lineFeed { break }
                defer { index += 1 }
                switch byte {
                case UInt8(ascii: "["), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "<"), UInt8(ascii: ">"),
                    UInt8(ascii: "`"), UInt8(ascii: "&"), UInt8(ascii: "\\"):
                    elements += 1
                case UInt8(ascii: "!"):
                    elements += 1
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") { images += 1 }
                case UInt8(ascii: "]"):
                    elements += 1
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "(") {
                        links += 1
                        if images.multipliedReportingOverflow(by: links).partialValue > MarkdownLimits.maxImageLinkProduct {
                            return (
                                index,
                                (
                                    paragraphStart,
                                    "this paragraph opens \(images) images (`![`) and \(links) links (`](`); cmark takes time that grows with their product (limit \(MarkdownLimits.maxImageLinkProduct)): split it into paragraphs"
                                )
                            )
                        }
                    }
                default:
                    continue
                }
                if elements > limits.maxElements {
                    return (
                        index,
                        (
                            index,
                            "more than \(limits.maxElements) Markdown elements (`[`, `*`, `<`, `>`, line breaks, …); cmark needs about 200 bytes of memory for each. Split the file, or raise --max-input-size (the limit is 1 per 32 bytes of it)"
                        )
                    )
                }
            }
            return (index, nil)
        }
    }
}
