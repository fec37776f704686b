internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The collapsible and callout blocks that bodies hold, made on cmark's tree as custom
/// nodes (docs/formats.md): mkdocs' `!!!` / `???` / `===` blocks (see `MkDocsBlocks`),
/// GitHub's alerts (`> [!NOTE]`), and `<details>` / `<summary>` written as HTML, paired
/// within their container (an unpaired tag is dropped, so no tag can change the nesting of
/// sections). Each renders as `<details>` (collapsible) or a `<div role="note">` (callout).
struct CollapsibleBlocks {
    /// A block made: what the plain-text writer shows, and how its opening tag is written
    /// (so that `--expand-all` / `--collapse-all` can set its state when a page is written).
    struct Block {
        let title: String
        /// A `<details>` (else a callout, always shown).
        let collapsible: Bool
        let open: Bool
        /// The opening tag before and after ` name=…` and ` open`.
        let tagStart: String
        let tagEnd: String
        /// For a tab: its group's node (the group is named when the page is written, so that
        /// names are unique in the page, whatever format carried the body).
        var group: OpaquePointer? = nil

        func openingTag(open: Bool, name: String? = nil) -> String {
            tagStart + (name.map { " name=\"\($0)\"" } ?? "") + (collapsible && open ? " open" : "") + tagEnd
        }
    }

    /// By the custom block node that renders it.
    private(set) var blocks: [OpaquePointer: Block] = [:]
    /// The top-level blocks that hold one (the only ones walked when a state is forced).
    private(set) var holders: Set<OpaquePointer> = []
    private let memory: UnsafeMutablePointer<cmark_mem>

    init(memory: UnsafeMutablePointer<cmark_mem>) {
        self.memory = memory
    }

    var isEmpty: Bool { blocks.isEmpty }

    // MARK: - mkdocs

    /// Builds the blocks that `mkdocs` marked in the tree under `root`: each marker comment
    /// becomes its block, holding the siblings after it that start on its content's lines;
    /// tabs next to each other become one group.
    mutating func make(_ mkdocs: MkDocsBlocks, under root: OpaquePointer) {
        var markers: [(node: OpaquePointer, block: MkDocsBlocks.Block)] = []
        CommonMarkDocument.walk(root) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK,
                let block = mkdocs.block(ofMarker: CommonMarkDocument.literalBytes(node))
            else { return }
            markers.append((node, block))
        }
        // In document order: an outer block takes its content, inner markers with it.
        var tabs: [(node: OpaquePointer, startsGroup: Bool)] = []
        for (marker, found) in markers {
            let header = found.header
            let type = header.classes.first ?? ""
            let title = header.title ?? Self.titleCased(type)
            let made: OpaquePointer?
            switch header.kind {
            case .callout:
                made = callout(classes: header.classes, title: title)
            case .details(let open):
                made = details(classes: ["outline-callout"] + header.classes.map { "outline-callout-" + $0 }, title: title, open: open)
            case .tab(let selected, let startsGroup):
                // (Its group's name and which tab is open are settled with the group.)
                made = details(classes: ["outline-tab"], title: title, open: selected)
                if let made { tabs.append((made, startsGroup)) }
            }
            guard let made else { continue }
            cmark_node_insert_before(marker, made)
            var next = found.lastLine > found.line ? cmark_node_next(marker) : nil
            while let sibling = next, ((found.line + 1)...found.lastLine).contains(Int(cmark_node_get_start_line(sibling))) {
                next = cmark_node_next(sibling)
                cmark_node_append_child(made, sibling)
            }
            cmark_node_free(marker)
        }
        groupTabs(tabs)
        noteHolders(under: root)
    }

    /// Tabs that follow each other (with nothing between, and not started anew by `===!`)
    /// are one group: exclusive (`<details name>`), the selected one open, else the first.
    private mutating func groupTabs(_ tabs: [(node: OpaquePointer, startsGroup: Bool)]) {
        var groups: [[OpaquePointer]] = []
        for (node, startsGroup) in tabs {
            if !startsGroup, let last = groups.last?.last, cmark_node_next(last) == node {
                groups[groups.count - 1].append(node)
            } else {
                groups.append([node])
            }
        }
        for group in groups {
            guard let first = group.first, let wrapper = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, memory) else { continue }
            cmark_node_set_on_enter(wrapper, "<div class=\"outline-tabs\">")
            cmark_node_set_on_exit(wrapper, "</div>")
            cmark_node_insert_before(first, wrapper)
            let selected = group.firstIndex { blocks[$0]?.open == true } ?? 0
            for (index, tab) in group.enumerated() {
                cmark_node_append_child(wrapper, tab)
                guard let block = blocks[tab] else { continue }
                var member = Block(title: block.title, collapsible: true, open: index == selected, tagStart: block.tagStart, tagEnd: block.tagEnd)
                member.group = wrapper
                blocks[tab] = member
                cmark_node_set_on_enter(tab, member.openingTag(open: member.open))
            }
        }
    }

    // MARK: - GitHub's alerts

    /// Makes each block quote under `root` whose first line is `[!NOTE]`, `[!TIP]`,
    /// `[!IMPORTANT]`, `[!WARNING]` or `[!CAUTION]` (any case) and that holds more a callout.
    mutating func makeAlerts(under root: OpaquePointer) {
        var quotes: [(OpaquePointer, String)] = []
        CommonMarkDocument.walk(root) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_BLOCK_QUOTE,
                let paragraph = cmark_node_first_child(node), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH,
                let text = cmark_node_first_child(paragraph), cmark_node_get_type(text) == CMARK_NODE_TEXT
            else { return }
            let literal = String(decoding: CommonMarkDocument.literalBytes(text), as: UTF8.self)
            guard literal.hasPrefix("[!"), literal.hasSuffix("]") else { return }
            let type = literal.dropFirst(2).dropLast().lowercased()
            guard ["note", "tip", "important", "warning", "caution"].contains(type) else { return }
            // The marker alone on the first line, and something after it.
            let after = cmark_node_next(text)
            guard after == nil || cmark_node_get_type(after) == CMARK_NODE_SOFTBREAK || cmark_node_get_type(after) == CMARK_NODE_LINEBREAK,
                cmark_node_next(paragraph) != nil || after.flatMap(cmark_node_next) != nil
            else { return }
            quotes.append((node, type))
        }
        for (quote, type) in quotes {
            guard let made = callout(classes: [type], title: Self.titleCased(type)),
                let paragraph = cmark_node_first_child(quote), let marker = cmark_node_first_child(paragraph)
            else { continue }
            if let lineBreak = cmark_node_next(marker) { cmark_node_free(lineBreak) }
            cmark_node_free(marker)
            if cmark_node_first_child(paragraph) == nil { cmark_node_free(paragraph) }
            cmark_node_insert_before(quote, made)
            while let child = cmark_node_first_child(quote) { cmark_node_append_child(made, child) }
            cmark_node_free(quote)
        }
        noteHolders(under: root)
    }

    // MARK: - HTML details

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
    @discardableResult
    mutating func pairDetails(in containers: [OpaquePointer], root: OpaquePointer) -> [OpaquePointer] {
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
                    guard let made = details(classes: ["outline-block"], title: "Details", open: open) else { continue }
                    cmark_node_append_child(target, made)
                    targets.append(made)
                    pendingTitle = made
                    used = true
                case .close where paired.contains(index):
                    if targets.count > 1 { targets.removeLast() }
                    pendingTitle = nil
                    used = true
                case .summary(let title):
                    if let made = pendingTitle, let block = blocks[made] {
                        retitle(made, block, title)
                        used = true
                    }
                    pendingTitle = nil
                case .html(let bytes):
                    appendHTML(bytes, to: target)
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
                    if !used { appendHTML([], to: target) }
                    used = false
                default:
                    break  // an unpaired tag: dropped
                }
            }
        }
        noteHolders(under: root)
        return movedHeadings
    }

    private func appendHTML(_ bytes: [UInt8], to target: OpaquePointer) {
        guard let node = cmark_node_new_with_mem(CMARK_NODE_HTML_BLOCK, memory) else { return }
        GitHubExtensions.setLiteral(node, bytes)
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
    static func mayHoldDetails(_ text: ArraySlice<UInt8>) -> Bool {
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
    static func detailsContainers(of html: [OpaquePointer]) -> [OpaquePointer] {
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
                GitHubExtensions.setLiteral(node, escaped)
            } else if let parent = cmark_node_parent(node), containers.last != parent, !containers.contains(parent) {
                containers.append(parent)
            }
        }
        return containers
    }

    /// What raw HTML holds when it may hold a details tag (without its first letter: any case).
    private static let tagNames: [String] = ["etails", "ETAILS", "ummary", "UMMARY"]

    // MARK: - Nodes

    private mutating func callout(classes: [String], title: String) -> OpaquePointer? {
        guard let node = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, memory) else { return nil }
        let type = classes.first ?? "note"
        let start = "<div class=\"" + (["outline-callout"] + classes.map { "outline-callout-" + $0 }).joined(separator: " ") + "\" role=\"note\""
        let end = ">" + (title.isEmpty ? "" : "\n<p class=\"outline-callout-title\">" + Self.icon + Self.escaped(title) + "</p>")
        let block = Block(title: title.isEmpty ? Self.titleCased(type) : title, collapsible: false, open: true, tagStart: start, tagEnd: end)
        blocks[node] = block
        cmark_node_set_on_enter(node, block.openingTag(open: true))
        cmark_node_set_on_exit(node, "</div>")
        NodeTag.block.set(on: node)
        return node
    }

    private mutating func details(classes: [String], title: String, open: Bool) -> OpaquePointer? {
        guard let node = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, memory) else { return nil }
        let icon = classes.first == "outline-callout" ? Self.icon : ""
        let block = Block(
            title: title, collapsible: true, open: open,
            tagStart: "<details class=\"" + classes.joined(separator: " ") + "\"",
            tagEnd: "><summary>" + icon + Self.escaped(title.isEmpty ? "Details" : title) + "</summary>")
        blocks[node] = block
        cmark_node_set_on_enter(node, block.openingTag(open: open))
        cmark_node_set_on_exit(node, "</details>")
        NodeTag.block.set(on: node)
        return node
    }

    private mutating func retitle(_ node: OpaquePointer, _ block: Block, _ title: String) {
        guard !title.isEmpty else { return }
        let named = Block(
            title: title, collapsible: true, open: block.open, tagStart: block.tagStart,
            tagEnd: "><summary>" + Self.escaped(title) + "</summary>")
        blocks[node] = named
        cmark_node_set_on_enter(node, named.openingTag(open: named.open))
    }

    /// The top-level block of each block made.
    private mutating func noteHolders(under root: OpaquePointer) {
        for node in blocks.keys {
            var top = node
            while let parent = cmark_node_parent(top), parent != root { top = parent }
            if cmark_node_parent(top) == root { holders.insert(top) }
        }
    }

    /// The blocks of `node` (a top-level block, or the grouping container of several), in order.
    func blocks(in node: OpaquePointer) -> [OpaquePointer] {
        BodyHeadings.nodes(in: node, holders: holders) { blocks[$0] != nil }
    }

    /// A callout's icon: its glyph comes from the page's style, by the callout's type, so
    /// that the type shows by a shape as well as a colour.
    private static let icon = "<span class=\"outline-callout-icon\" aria-hidden=\"true\"></span>"

    static func titleCased(_ type: String) -> String {
        type.prefix(1).uppercased() + type.dropFirst()
    }

    static func escaped(_ text: String) -> String {
        var buffer = ByteBuffer()
        buffer.write(escaping: text)
        return String(decoding: buffer.finish(), as: UTF8.self)
    }
}
