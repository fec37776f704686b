internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GFM strikethrough (`strikethrough`: `~~text~~`, `~text~` as `<del>`), made on text nodes
/// as `cmark-gfm -e strikethrough` makes it.
struct StrikethroughExtension: MarkdownExtension {
    var name: String { "strikethrough" }

    func prepared(for source: SourceLines) -> StrikethroughExtension? {
        source.bytes.firstIndex(ofByte: UInt8(ascii: "~")) != nil ? self : nil
    }

    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        guard text.firstIndex(ofByte: UInt8(ascii: "~")) != nil else { return }
        // The parents of text with tildes.
        var containers: [OpaquePointer] = []
        MarkdownTree.walk(under: block) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(node),
                let parent = cmark_node_parent(node), containers.last != parent, strchr(literal, 0x7E) != nil
            else { return }
            containers.append(parent)
        }
        for container in containers { strikethrough(in: container, tree: tree) }
    }

    /// A run of one or two tildes in a text node that may open or close a strikethrough.
    struct TildeRun {
        let node: OpaquePointer
        let offset: Int
        let length: Int
        let canOpen: Bool
        let canClose: Bool
    }

    /// Pairs the tilde runs among `container`'s children as cmark-gfm does (a closer takes
    /// the nearest opener of the same length; the runs between are then spent) and wraps
    /// what each pair encloses in `<del>`.
    private func strikethrough(in container: OpaquePointer, tree: MarkdownTree) {
        var runs: [TildeRun] = []
        var child = cmark_node_first_child(container)
        while let node = child {
            if cmark_node_get_type(node) == CMARK_NODE_TEXT { runs += tildeRuns(in: node, source: tree.source) }
            child = cmark_node_next(node)
        }
        guard runs.count > 1 else { return }
        // The openers of each length, in order: the nearest of a length is the last.
        var openers: [[Int]] = [[], []]
        var pairs: [(Int, Int)] = []
        for (index, run) in runs.enumerated() {
            let same = run.length - 1
            if run.canClose, let opener = openers[same].popLast() {
                pairs.append((opener, index))
                while let last = openers[1 - same].last, last > opener { openers[1 - same].removeLast() }
                continue
            }
            if run.canOpen { openers[same].append(index) }
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
            guard let open = runNodes[opener], let close = runNodes[closer],
                let del = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: "<del>", exit: "</del>")
            else { continue }
            cmark_node_insert_before(open, del)
            var next = cmark_node_next(open)
            while let node = next, node != close {
                next = cmark_node_next(node)
                cmark_node_append_child(del, node)
            }
            cmark_node_free(open)
            cmark_node_free(close)
        }
    }

    /// The tilde runs of a text node: only tildes written as such in the source count (an
    /// escaped `\~` or `&#126;` does not), and whether each may open or close depends on the
    /// characters around it in the source, as for emphasis.
    private func tildeRuns(in node: OpaquePointer, source: SourceLines) -> [TildeRun] {
        let literal = CommonMarkDocument.literalBytes(node)
        let positions = literal.indices.filter { literal[$0] == UInt8(ascii: "~") }
        guard !positions.isEmpty, let raw = source.slice(of: node) else { return [] }
        // The source's tildes in order, each with its place if written plainly (nil if escaped
        // or a character reference), to be paired with the text's tildes in order.
        var written: [Int?] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == .backslash, index + 1 < raw.endIndex, raw[index + 1].isASCIIPunctuation {
                if raw[index + 1] == UInt8(ascii: "~") { written.append(nil) }
                index += 2
            } else if byte == UInt8(ascii: "&"), let (length, text) = CharacterReference.decode(raw[index...]) {
                if text == "~" { written.append(nil) }
                index += length
            } else {
                if byte == UInt8(ascii: "~") { written.append(index) }
                index += 1
            }
        }
        guard written.count == positions.count else { return [] }
        var runs: [TildeRun] = []
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
            guard length <= 2 else { continue }
            let atLineStart = start == raw.startIndex && source.startsLine(node)
            let before: Unicode.Scalar = atLineStart ? "\n" : source.scalar(before: start, in: source.bytes)
            let after = source.scalar(at: start + length, in: source.bytes, lineEnd: source.lineEnd(containing: start))
            let (left, right) = Flanking.of(before: before, after: after)
            guard left || right else { continue }
            runs.append(TildeRun(node: node, offset: positions[k], length: length, canOpen: left, canClose: right))
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
