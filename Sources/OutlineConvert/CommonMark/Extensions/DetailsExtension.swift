internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `<details>` / `<summary>` written as HTML (`details`), as GitHub shows them: paired within
/// their container, each pair becomes a collapsible block (`CollapsibleBlocks`) whose
/// `<summary>` is its title. An unpaired tag is dropped, so that no tag can change the
/// nesting of sections; the blocks hold headings, so they are made when only sections are
/// read too.
struct DetailsExtension: MarkdownExtension {
    var name: String { "details" }

    func prepared(for source: SourceLines) -> DetailsExtension? {
        Self.mayHoldDetails(source.bytes) ? self : nil
    }

    var collects: [cmark_node_type] { [CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE] }

    func makeBlocks(of tree: MarkdownTree) {
        tree.addHeadings(pair(in: tree))
    }

    func shapeSections(of tree: MarkdownTree) {
        _ = pair(in: tree)
    }

    /// Pairs the tags of the tree's raw HTML; returns the top-level headings moved into a block.
    private func pair(in tree: MarkdownTree) -> [OpaquePointer] {
        // (Raw HTML blocks first, then inline HTML: only the blocks' containers are paired.)
        let containers = Self.detailsContainers(of: tree.nodes(CMARK_NODE_HTML_BLOCK) + tree.nodes(CMARK_NODE_HTML_INLINE))
        guard !containers.isEmpty else { return [] }
        return pairDetails(in: containers, tree: tree)
    }

    /// A piece of an HTML block that holds details tags.
    private enum Piece {
        case open(Bool)
        case close
        case summary(String)
        case html([UInt8])
        case block(OpaquePointer)
        /// The end of an HTML block's pieces (from the index given).
        case end(from: Int)
    }

    /// Pairs the `<details>` and `</details>` of the HTML blocks that are children of each
    /// of `containers`, and builds a block of each pair: its `<summary>` is its title, the
    /// blocks between are its content (a heading there too, as on GitHub: it is then a
    /// heading of the body, not a section). Unpaired tags are dropped, so that they change
    /// nothing; the rest of those HTML blocks stays raw HTML. Returns the headings moved
    /// into a block.
    private func pairDetails(in containers: [OpaquePointer], tree: MarkdownTree) -> [OpaquePointer] {
        let root = tree.root
        var movedHeadings: [OpaquePointer] = []
        for container in containers {
            var pieces: [Piece] = []
            var children: [OpaquePointer] = []
            var child = cmark_node_first_child(container)
            while let node = child {
                child = cmark_node_next(node)
                children.append(node)
                if cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK {
                    let start = pieces.count
                    pieces += Self.pieces(of: CommonMarkDocument.literalBytes(node))
                    pieces.append(.end(from: start))
                    cmark_node_unlink(node)
                    cmark_node_free(node)
                } else {
                    pieces.append(.block(node))
                    cmark_node_unlink(node)
                }
            }
            // Pair, as brackets.
            var paired: Set<Int> = []
            var stack: [Int] = []
            for (index, piece) in pieces.enumerated() {
                switch piece {
                case .open: stack.append(index)
                case .close:
                    if let open = stack.popLast() { paired.formUnion([open, index]) }
                default: break
                }
            }
            var targets = [container]
            var pendingTitle: OpaquePointer?
            var used = false  // whether the current HTML block's pieces made anything
            for (index, piece) in pieces.enumerated() {
                let target = targets[targets.count - 1]
                switch piece {
                case .open(let open) where paired.contains(index):
                    guard let made = tree.blocks.details(classes: ["outline-block"], title: "Details", open: open) else { continue }
                    cmark_node_append_child(target, made)
                    targets.append(made)
                    pendingTitle = made
                    used = true
                case .close where paired.contains(index):
                    if targets.count > 1 { targets.removeLast() }
                    pendingTitle = nil
                    used = true
                case .summary(let title):
                    if let made = pendingTitle, let block = tree.blocks.blocks[made] {
                        tree.blocks.retitle(made, block, title)
                        used = true
                    }
                    pendingTitle = nil
                case .html(let bytes):
                    appendHTML(bytes, to: target, tree: tree)
                    used = true
                case .block(let node):
                    cmark_node_append_child(target, node)
                    if target != container && container == root && cmark_node_get_type(node) == CMARK_NODE_HEADING {
                        movedHeadings.append(node)
                    }
                    pendingTitle = nil
                case .end:
                    // An HTML block of unpaired tags only: in their place, raw HTML of nothing
                    // (shown as omitted, as cmark shows the block, and as nothing with --unsafe).
                    if !used { appendHTML([], to: target, tree: tree) }
                    used = false
                default:
                    break  // an unpaired tag: dropped
                }
            }
        }
        tree.blocks.noteHolders(under: root)
        return movedHeadings
    }

    private func appendHTML(_ bytes: [UInt8], to target: OpaquePointer, tree: MarkdownTree) {
        guard let node = tree.newNode(CMARK_NODE_HTML_BLOCK) else { return }
        MarkdownTree.setLiteral(node, bytes)
        cmark_node_append_child(target, node)
    }

    /// The details tags, summaries and the HTML between them, of an HTML block's text.
    private static func pieces(of html: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var rest = html[...]
        var text: [UInt8] = []
        func flush() {
            if text.contains(where: { $0 != .space && $0 != .tab && $0 != .lineFeed }) { pieces.append(.html(text)) }
            text = []
        }
        while let first = rest.first {
            guard first == UInt8(ascii: "<"), let (piece, length) = tag(rest) else {
                text.append(first)
                rest = rest.dropFirst()
                continue
            }
            flush()
            pieces.append(piece)
            rest = rest.dropFirst(length)
        }
        flush()
        return pieces
    }

    /// The details tag or summary element `text` starts with, and its length in bytes.
    private static func tag(_ text: ArraySlice<UInt8>) -> (Piece, Int)? {
        func named(_ name: String, closing: Bool) -> Int? {
            let prefix = Array(((closing ? "</" : "<") + name).utf8)
            guard text.count > prefix.count, zip(text, prefix).allSatisfy({ $0 | ($1.isASCIILetter ? 0x20 : 0) == $1 }) else { return nil }
            let next = text[text.startIndex + prefix.count]
            guard next == UInt8(ascii: ">") || next == .space || next == .tab || next == .lineFeed || next == UInt8(ascii: "/") else { return nil }
            guard let end = text.firstIndex(of: UInt8(ascii: ">")) else { return nil }
            return end - text.startIndex + 1
        }
        if let length = named("details", closing: false) {
            let attributes = String(decoding: text.prefix(length).dropFirst(8).dropLast(), as: UTF8.self).lowercased()
            let open = attributes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "/" }).contains {
                $0 == "open" || $0.hasPrefix("open=")
            }
            return (.open(open), length)
        }
        if let length = named("details", closing: true) { return (.close, length) }
        if let length = named("summary", closing: false) {
            let inner = text.dropFirst(length)
            guard let close = inner.firstRange(of: Array("</summary>".utf8)) ?? inner.firstRange(of: Array("</SUMMARY>".utf8)) else {
                return (.summary(TitleText.normalized(plainText(ofHTML: inner))), text.count)
            }
            return (.summary(TitleText.normalized(plainText(ofHTML: inner[..<close.lowerBound]))), close.upperBound - text.startIndex)
        }
        if let length = named("summary", closing: true) { return (.summary(""), length) }
        return nil
    }

    /// The text of some HTML: its tags left out, its character references read.
    private static func plainText(ofHTML html: ArraySlice<UInt8>) -> String {
        var text = ""
        var rest = html
        while let first = rest.first {
            if first == UInt8(ascii: "<"), let end = rest.firstIndex(of: UInt8(ascii: ">")) {
                rest = rest[(end + 1)...]
            } else if first == UInt8(ascii: "&"), let (length, decoded) = CharacterReference.decode(rest) {
                text += decoded
                rest = rest.dropFirst(length)
            } else {
                let run = rest.prefix { $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: "&") }
                text += String(decoding: run.isEmpty ? rest.prefix(1) : run, as: UTF8.self)
                rest = rest.dropFirst(max(run.count, 1))
            }
        }
        return text
    }

    /// Whether `text` may hold a details or summary tag (`<details`, `</summary`, in any
    /// case): most documents then skip collecting their raw HTML.
    private static func mayHoldDetails(_ text: ArraySlice<UInt8>) -> Bool {
        let names = [Array("details".utf8), Array("summary".utf8)]
        return text.withUnsafeBufferPointer { buffer in
            var start = 0
            while let found = buffer.firstIndex(ofByte: UInt8(ascii: "<"), from: start) {
                start = found + 1
                let name = found + (found + 1 < buffer.count && buffer[found + 1] == UInt8(ascii: "/") ? 2 : 1)
                guard name + 7 <= buffer.count else { return false }
                // (ASCII letters: setting bit 5 lowers them.)
                if names.contains(where: { tag in tag.indices.allSatisfy { buffer[name + $0] | 0x20 == tag[$0] } }) { return true }
            }
            return false
        }
    }

    /// The containers of the HTML blocks among `html` (raw HTML nodes, in document order)
    /// that hold a details tag; and in raw inline HTML (shown with `--unsafe`), details and
    /// summary tags are escaped, so that none can change the nesting of sections.
    private static func detailsContainers(of html: [OpaquePointer]) -> [OpaquePointer] {
        var containers: [OpaquePointer] = []
        for node in html {
            // (Looked at through cmark's own text first: most raw HTML is anchors and comments.)
            guard let text = cmark_node_get_literal(node), Self.tagNames.contains(where: { strstr(text, $0) != nil }) else { continue }
            let literal = CommonMarkDocument.literalBytes(node)[...]
            if cmark_node_get_type(node) == CMARK_NODE_HTML_INLINE {
                let lowered = literal.map { $0.isASCIILetter ? $0 | 0x20 : $0 }
                var escaped: [UInt8] = []
                for (index, byte) in literal.enumerated() {
                    let rest = lowered[index...]
                    if byte == UInt8(ascii: "<"), ["<details", "</details", "<summary", "</summary"].contains(where: { rest.starts(with: $0.utf8) }) {
                        escaped += "&lt;".utf8
                    } else {
                        escaped.append(byte)
                    }
                }
                MarkdownTree.setLiteral(node, escaped)
            } else if let parent = cmark_node_parent(node), containers.last != parent, !containers.contains(parent) {
                containers.append(parent)
            }
        }
        return containers
    }

    /// What raw HTML holds when it may hold a details tag (without its first letter: any case).
    private static let tagNames: [String] = ["etails", "ETAILS", "ummary", "UMMARY"]
}
