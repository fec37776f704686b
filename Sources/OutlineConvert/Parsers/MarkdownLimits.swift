/// Shapes of Markdown that would make cmark 0.30 exhaust the machine's memory or take
/// quadratic time, refused before parsing with the place where they start. One pass over
/// the bytes; each limit is far beyond what a real document needs (README "Safety"):
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

    init(maxInputSize: Int = Files.defaultMaxInputSize) {
        maxElements = max(maxInputSize / 32, 1 << 16)
    }

    /// Throws a located `.refused` error at the first shape past a limit.
    func check(_ bytes: [UInt8], file: String) throws {
        try bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer, limits: self)
            if let (offset, reason) = scanner.firstViolation() {
                throw ConversionError.refused(SourceText.location(of: offset, in: bytes[...], file: file), reason)
            }
        }
    }

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

        /// The offset and reason of the first violation, or nil.
        mutating func firstViolation() -> (Int, String)? {
            var index = 0
            while index < bytes.count {
                let contentStart: Int
                switch prefix(at: index) {
                case .tooDeep(let offset):
                    return (offset, "block quotes and list items nest deeper than \(MarkdownLimits.maxNesting) levels, the limit for Markdown inputs")
                case .content(let start):
                    contentStart = start
                }
                // `prefix` stepped over the white space at the start: nothing else means blank.
                let blank = contentStart == bytes.count || bytes[contentStart] == 10
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
                case 32: columns += 1
                case 9: columns += 4
                case UInt8(ascii: ">"):
                    levels += 1
                    if index + 1 < bytes.count && bytes[index + 1] == 32 { index += 1 }
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
            while end < bytes.count, end - index < 4, bytes[end] == 32 { end += 1 }
            return end
        }

        private func followedBySpace(_ index: Int) -> Bool {
            index + 1 >= bytes.count || bytes[index + 1] == 32 || bytes[index + 1] == 9 || bytes[index + 1] == 10
        }

        /// Whether `scanLine` only steps over `byte`: all but line feed and the characters it
        /// counts. Those are all below 0x61, so most bytes (letters, UTF-8) pass the first
        /// test. A switch, not a table: a global table is a lazy global, looked up for every
        /// byte in a debug build.
        private static func isPlain(_ byte: UInt8) -> Bool {
            if byte > UInt8(ascii: "`") { return true }
            switch byte {
            case 10, UInt8(ascii: "["), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "<"), UInt8(ascii: ">"),
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
                if byte == 10 { break }
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
