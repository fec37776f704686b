internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Spans between runs of a mark, made on text nodes: GFM's strikethrough (`~~text~~` and
/// `~text~` as `<del>`, as `cmark-gfm -e strikethrough` makes it), and in mkdocs' dialect
/// pymdownx's `mark` (`==text==` as `<mark>`), `caret` (`^^text^^` as `<ins>`, `^text^` as
/// `<sup>`) and `tilde` (`~~text~~` as `<del>`, `~text~` as `<sub>`), as pymdownx's
/// delimiter processor reads them. The marks of one flavour are paired in one pass (as
/// pymdownx pairs them), so that their spans nest and each run is found in the source.
struct DelimiterExtension: MarkdownExtension {
    /// What runs of one mark make.
    struct Span: Sendable {
        let name: String
        /// The mark (`~`, `=`, `^`).
        let mark: UInt8
        /// The element a pair of runs of one mark makes, and of two; nil: such runs are text.
        let one: String?
        let two: String?
        /// pymdownx's rules rather than CommonMark's: a run of `~` or `^` opens when no space
        /// follows it and closes when none comes before it, and a span of one mark holds no
        /// space (`H~2~O`, but `a ~b c~` stays text).
        let pymdownx: Bool

        /// GFM's strikethrough.
        static let strikethrough = Span(name: "strikethrough", mark: UInt8(ascii: "~"), one: "del", two: "del", pymdownx: false)
        /// pymdownx.mark.
        static let mark = Span(name: "pymdownx.mark", mark: UInt8(ascii: "="), one: nil, two: "mark", pymdownx: true)
        /// pymdownx.caret.
        static let caret = Span(name: "pymdownx.caret", mark: UInt8(ascii: "^"), one: "sup", two: "ins", pymdownx: true)
        /// pymdownx.tilde.
        static let tilde = Span(name: "pymdownx.tilde", mark: UInt8(ascii: "~"), one: "sub", two: "del", pymdownx: true)
    }

    let spans: [Span]
    var name: String { spans.map(\.name).joined(separator: "+") }

    /// GFM's strikethrough alone.
    static let strikethrough = DelimiterExtension(spans: [.strikethrough])

    func prepared(for source: SourceLines) -> DelimiterExtension? {
        spans.contains { source.bytes.firstIndex(ofByte: $0.mark) != nil } ? self : nil
    }

    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        guard spans.contains(where: { text.firstIndex(ofByte: $0.mark) != nil }) else { return }
        // The parents of text with marks.
        var containers: [OpaquePointer] = []
        MarkdownTree.walk(under: block) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(node),
                let parent = cmark_node_parent(node), containers.last != parent,
                spans.contains(where: { strchr(literal, Int32($0.mark)) != nil })
            else { return }
            containers.append(parent)
        }
        for container in containers { pair(in: container, tree: tree) }
    }

    /// A run of one or two marks in a text node that may open or close a span.
    struct Run {
        let node: OpaquePointer
        let offset: Int
        let length: Int
        let canOpen: Bool
        let canClose: Bool
        /// Where it starts in the source.
        let start: Int
        /// Its span's index in `spans`.
        let span: Int
        /// Its stack of openers: its span's, of its length.
        var stack: Int { span * 2 + length - 1 }
    }

    /// Pairs the runs among `container`'s children as cmark-gfm does (a closer takes the
    /// nearest opener of its mark and length; the runs between are then spent) and wraps
    /// what each pair encloses in its element.
    private func pair(in container: OpaquePointer, tree: MarkdownTree) {
        var runs: [Run] = []
        var child = cmark_node_first_child(container)
        while let node = child {
            if cmark_node_get_type(node) == CMARK_NODE_TEXT {
                for index in spans.indices { runs += self.runs(of: index, in: node, source: tree.source) }
            }
            child = cmark_node_next(node)
        }
        guard runs.count > 1 else { return }
        runs.sort { ($0.start, $0.offset) < ($1.start, $1.offset) }
        // The openers of each mark and length, in order: the nearest of one is the last.
        var openers = [[Int]](repeating: [], count: spans.count * 2)
        var pairs: [(Int, Int)] = []
        for (index, run) in runs.enumerated() {
            if run.canClose, let opener = openers[run.stack].last, holds(from: runs[opener], to: run, in: tree.source.bytes) {
                pairs.append((opener, index))
                for stack in openers.indices {
                    while let last = openers[stack].last, last >= opener { openers[stack].removeLast() }
                }
                continue
            }
            if run.canOpen { openers[run.stack].append(index) }
        }
        guard !pairs.isEmpty else { return }
        // Each paired run becomes a text node of its own, then each pair (inner ones first:
        // they close first) wraps the nodes between its two.
        var cuts: [OpaquePointer: [(offset: Int, length: Int, run: Int)]] = [:]
        for (opener, closer) in pairs {
            for index in [opener, closer] {
                cuts[runs[index].node, default: []].append((runs[index].offset, runs[index].length, index))
            }
        }
        var runNodes: [Int: OpaquePointer] = [:]
        for (node, pieces) in cuts {
            for (run, piece) in tree.split(node, at: pieces.map { ($0.offset, $0.length) }) { runNodes[pieces[run].run] = piece }
        }
        for (opener, closer) in pairs {
            let span = spans[runs[opener].span]
            guard let tag = runs[opener].length == 1 ? span.one : span.two, let open = runNodes[opener], let close = runNodes[closer],
                let element = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: "<\(tag)>", exit: "</\(tag)>")
            else { continue }
            cmark_node_insert_before(open, element)
            var next = cmark_node_next(open)
            while let node = next, node != close {
                next = cmark_node_next(node)
                cmark_node_append_child(element, node)
                // (pymdownx's span of one mark holds spaces escaped: `H~2\ 3~O`.)
                if span.pymdownx, runs[opener].length == 1, cmark_node_get_type(node) == CMARK_NODE_TEXT {
                    let literal = CommonMarkDocument.literalBytes(node)
                    if literal.contains(.backslash) { MarkdownTree.setLiteral(node, Self.unescapingSpaces(literal)) }
                }
            }
            cmark_node_free(open)
            cmark_node_free(close)
        }
    }

    /// `text` with each `\ ` a space.
    private static func unescapingSpaces(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < text.count {
            if text[index] == .backslash, index + 1 < text.count, text[index + 1] == .space { index += 1 }
            out.append(text[index])
            index += 1
        }
        return out
    }

    /// Whether the text between `opener` and `closer` may be their span: pymdownx's span of
    /// one mark holds no space (an escaped one aside).
    private func holds(from opener: Run, to closer: Run, in bytes: ArraySlice<UInt8>) -> Bool {
        guard spans[opener.span].pymdownx, opener.length == 1 else { return true }
        var index = opener.start + 1
        while index < closer.start {
            if bytes[index] == .backslash { index += 2; continue }
            if bytes[index] == .space || bytes[index] == .tab || bytes[index] == .lineFeed || bytes[index] == .carriageReturn { return false }
            index += 1
        }
        return true
    }

    /// The runs of a text node: only marks written as such in the source count (an escaped
    /// `\~` or `&#126;` does not), and whether each may open or close depends on the
    /// characters around it in the source, as for emphasis.
    private func runs(of span: Int, in node: OpaquePointer, source: SourceLines) -> [Run] {
        let (mark, one, two, pymdownx) = (spans[span].mark, spans[span].one, spans[span].two, spans[span].pymdownx)
        let literal = CommonMarkDocument.literalBytes(node)
        let positions = literal.indices.filter { literal[$0] == mark }
        guard !positions.isEmpty, let raw = source.slice(of: node) else { return [] }
        // The source's marks in order, each with its place if written plainly (nil if escaped
        // or a character reference), to be paired with the text's marks in order.
        var written: [Int?] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == .backslash, index + 1 < raw.endIndex, raw[index + 1].isASCIIPunctuation {
                if raw[index + 1] == mark { written.append(nil) }
                index += 2
            } else if byte == UInt8(ascii: "&"), let (length, text) = CharacterReference.decode(raw[index...]) {
                if text.utf8.elementsEqual([mark]) { written.append(nil) }
                index += length
            } else {
                if byte == mark { written.append(index) }
                index += 1
            }
        }
        guard written.count == positions.count else { return [] }
        var runs: [Run] = []
        var k = 0
        while k < positions.count {
            guard let start = written[k] else {
                k += 1
                continue
            }
            var length = 1
            while k + length < positions.count, positions[k + length] == positions[k] + length,
                written[k + length] == start + length
            {
                length += 1
            }
            defer { k += length }
            guard length <= 2, (length == 1 ? one : two) != nil else { continue }
            let atLineStart = start == raw.startIndex && source.startsLine(node)
            let before: Unicode.Scalar = atLineStart ? "\n" : source.scalar(before: start, in: source.bytes)
            let after = source.scalar(at: start + length, in: source.bytes, lineEnd: source.lineEnd(containing: start))
            let (left, right) =
                pymdownx && mark != UInt8(ascii: "=")
                ? (!Flanking.isSpace(after), !Flanking.isSpace(before)) : Flanking.of(before: before, after: after)
            guard left || right else { continue }
            runs.append(Run(node: node, offset: positions[k], length: length, canOpen: left, canClose: right, start: start, span: span))
        }
        return runs
    }
}

// MARK: - Flanking

/// CommonMark's flanking rules for a delimiter run, from the characters around it.
enum Flanking {
    static func of(before: Unicode.Scalar, after: Unicode.Scalar) -> (left: Bool, right: Bool) {
        let left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before))
        let right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after))
        return (left, right)
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20: return true
        default: return scalar.properties.generalCategory == .spaceSeparator
        }
    }

    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return UInt8(scalar.value).isASCIIPunctuation }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .closePunctuation, .finalPunctuation, .initialPunctuation,
            .otherPunctuation, .openPunctuation:
            return true
        default:
            return false
        }
    }
}
