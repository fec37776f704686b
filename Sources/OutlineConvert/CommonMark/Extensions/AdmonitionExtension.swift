internal import CCmark

/// mkdocs' indented blocks (`admonition`, with pymdown-extensions' `details` and
/// `tabbed`): `!!!` admonitions, `???` / `???+` collapsible blocks and `===` content tabs,
/// found by rewriting the text (`MkDocsBlocks`) and made collapsible and callout blocks
/// (`CollapsibleBlocks`). In mkdocs' dialect, also pymdownx.blocks' fenced blocks
/// (`/// note | Title` … `///`, `FencedBlocks`). They hold headings, so they are made when
/// only sections are read too.
struct AdmonitionExtension: MarkdownExtension {
    /// The names of the fenced blocks read; nil when they are not (outside mkdocs' dialect).
    var fenced: FencedBlocks.Names? = nil

    var name: String { fenced == nil ? "admonition" : "admonition+blocks" }

    /// cmark's tree of `bytes`, read once with the blocks `MkDocsBlocks.predict` places
    /// rewritten (a page of blocks is not read once more per level of nesting): the text
    /// read, its tree, and those blocks. Where cmark does not read their markers where the
    /// lines said, or there are none, it is the text as it was, and no blocks. Nil only when
    /// cmark is out of memory.
    func tree(of bytes: ArraySlice<UInt8>, memory: UnsafeMutablePointer<cmark_mem>, smart: Bool) -> (
        text: ArraySlice<UInt8>, root: OpaquePointer, blocks: MkDocsBlocks?
    )? {
        var mkdocs = MkDocsBlocks(fenced: fenced)
        if MkDocsBlocks.mayHold(bytes), let rewritten = mkdocs.predict(bytes),
            let root = CommonMarkDocument.tree(of: rewritten[...], memory: memory, smart: smart)
        {
            if mkdocs.isPlaced(in: root) { return (rewritten[...], root, mkdocs) }
            cmark_node_free(root)
        }
        return CommonMarkDocument.tree(of: bytes, memory: memory, smart: smart).map { (bytes, $0, nil) }
    }

    func rewriteSource(of tree: MarkdownTree) {
        // (Rounds read what the prediction before the parse left: more levels of nesting,
        // blocks in containers, fenced blocks.)
        let predicted = tree.predictedBlocks
        guard predicted != nil || MkDocsBlocks.mayHold(tree.source.bytes, fenced: fenced != nil) else { return }
        var mkdocs = predicted ?? MkDocsBlocks(fenced: fenced)
        var text = tree.source.bytes
        for _ in mkdocs.roundsRead..<MkDocsBlocks.maxRounds {
            guard let rewritten = mkdocs.rewrite(text, root: tree.root),
                let again = CommonMarkDocument.tree(of: rewritten[...], memory: tree.memory, smart: tree.flavor.smartPunctuation)
            else { break }
            text = rewritten[...]
            tree.replace(source: text, root: again)
        }
        if !mkdocs.blocks.isEmpty { make(mkdocs, in: tree) }
    }

    /// Builds the blocks that `mkdocs` marked in the tree: each marker comment becomes its
    /// block, holding the siblings after it that start on its content's lines; tabs next to
    /// each other become one group.
    private func make(_ mkdocs: MkDocsBlocks, in tree: MarkdownTree) {
        var markers: [(node: OpaquePointer, block: MkDocsBlocks.Block)] = []
        var ends: [OpaquePointer] = []
        CommonMarkDocument.walk(tree.root) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK else { return }
            let literal = CommonMarkDocument.literalBytes(node)
            if let block = mkdocs.block(ofMarker: literal) {
                markers.append((node, block))
            } else if FencedBlocks.isEnd(literal) {
                ends.append(node)
            }
        }
        // (A fenced block's end marks nothing once its block knows its lines; tabs are told
        // apart from their neighbours without it.)
        ends.forEach { cmark_node_free($0) }
        // In document order: an outer block takes its content, inner markers with it.
        var tabs: [(node: OpaquePointer, startsGroup: Bool)] = []
        for (marker, found) in markers {
            let header = found.header
            let type = header.classes.first ?? ""
            let title = header.title ?? CollapsibleBlocks.titleCased(type)
            let html = header.title.flatMap { tree.titleHTML($0) }
            let made: OpaquePointer?
            switch header.kind {
            case .callout:
                made = tree.blocks.callout(classes: header.classes, title: title, titleHTML: html)
            case .details(let open):
                made = tree.blocks.details(
                    classes: ["outline-callout"] + header.classes.map { "outline-callout-" + $0 }, title: title, titleHTML: html, open: open)
            case .tab(let selected, let startsGroup):
                // (Its group's name and which tab is open are settled with the group.)
                made = tree.blocks.details(classes: ["outline-tab"], title: title, titleHTML: html, open: selected)
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
        groupTabs(tabs, in: tree)
        tree.blocks.noteHolders(under: tree.root)
    }

    /// Tabs that follow each other (with nothing between, and not started anew by `===!`)
    /// are one group: exclusive (`<details name>`), the selected one open, else the first.
    private func groupTabs(_ tabs: [(node: OpaquePointer, startsGroup: Bool)], in tree: MarkdownTree) {
        var groups: [[OpaquePointer]] = []
        for (node, startsGroup) in tabs {
            if !startsGroup, let last = groups.last?.last, cmark_node_next(last) == node {
                groups[groups.count - 1].append(node)
            } else {
                groups.append([node])
            }
        }
        for group in groups {
            guard let first = group.first, let wrapper = tree.newNode(CMARK_NODE_CUSTOM_BLOCK, enter: "<div class=\"outline-tabs\">", exit: "</div>")
            else { continue }
            cmark_node_insert_before(first, wrapper)
            let selected = group.firstIndex { tree.blocks.blocks[$0]?.open == true } ?? 0
            for (index, tab) in group.enumerated() {
                cmark_node_append_child(wrapper, tab)
                tree.blocks.join(tab, group: wrapper, open: index == selected)
            }
        }
    }
}

/// The indented blocks of mkdocs' Markdown (pymdown-extensions and Python-Markdown):
/// admonitions `!!! type "Title"`, collapsible blocks `??? type "Title"` (`???+` open) and
/// content tabs `=== "Title"`, each followed by its content indented four columns.
///
/// cmark reads such a block as a paragraph and an indented code block. So the text is
/// rewritten before cmark reads it again, one line for one line (line numbers, and so
/// bodies and messages, stay those of the source): the header line becomes an HTML
/// comment that marks the block, and the content loses four columns of indent, so cmark
/// reads it as Markdown. A header is rewritten only where cmark read a paragraph (never in
/// code), so blocks nested in blocks take one more round each.
struct MkDocsBlocks {
    /// What a header says.
    struct Header: Equatable {
        enum Kind: Equatable {
            /// `!!!`: always shown.
            case callout
            /// `???` (closed) or `???+` (open).
            case details(open: Bool)
            /// `===` (`===+` selected; `===!` starts a new group).
            case tab(selected: Bool, startsGroup: Bool)
        }

        let kind: Kind
        /// The type and any further classes (`note`, `inline end`); none for a tab.
        let classes: [String]
        /// The title as written; nil when none was given (the type's name is shown), empty
        /// for `""` (no title bar).
        let title: String?
    }

    /// A block found: its header, and the lines of the (rewritten) text it spans.
    struct Block {
        let header: Header
        let line: Int
        /// The last line of its content (its header's line when it has none).
        let lastLine: Int
    }

    /// The blocks, by the number in their marker.
    private(set) var blocks: [Block] = []
    /// The names of pymdownx.blocks' fenced blocks, when they are read.
    let fenced: FencedBlocks.Names?

    init(fenced: FencedBlocks.Names? = nil) {
        self.fenced = fenced
    }

    /// How many rounds (levels of nesting) are read at most.
    static let maxRounds = 16
    /// How many levels of nesting `predict` read (the rounds after it read the rest).
    var roundsRead = 0

    /// The marker that stands for block `number` in the rewritten text.
    static func marker(_ number: Int) -> [UInt8] { Array("<!--outline-block:\(number)-->".utf8) }

    /// The block a marker comment (an HTML block's text) stands for.
    func block(ofMarker html: [UInt8]) -> Block? {
        markerNumber(html).map { blocks[$0] }
    }

    /// The number of the block a marker comment stands for.
    func markerNumber(_ html: [UInt8]) -> Int? {
        // (An HTML block keeps the indent it has past its container's.)
        let literal = html.drop { $0 == .space || $0 == .tab }
        let prefix = Array("<!--outline-block:".utf8)
        guard literal.starts(with: prefix) else { return nil }
        let digits = literal.dropFirst(prefix.count).prefix { $0.isASCIIDigit }
        guard let number = Int(String(decoding: digits, as: UTF8.self)), number < blocks.count,
            literal.dropFirst(prefix.count + digits.count).starts(with: Array("-->".utf8))
        else { return nil }
        return number
    }

    /// Whether the text may hold a header at all (a line starting, after spaces, `>` and
    /// list markers, with `!!!`, `???` or `===`, or `///` when fenced blocks are read): most documents do
    /// not, and are read once.
    static func mayHold(_ bytes: ArraySlice<UInt8>, fenced: Bool = false) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            for mark in [UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: "=")] + (fenced ? [UInt8(ascii: "/")] : []) {
                var from = 0
                while let found = buffer.firstIndex(ofByte: mark, from: from) {
                    from = found + 1
                    guard found + 2 < buffer.count, buffer[found + 1] == mark, buffer[found + 2] == mark else { continue }
                    var start = found
                    while start > 0, Self.mayPrecede(buffer[start - 1]) { start -= 1 }
                    if start == 0 || buffer[start - 1] == .lineFeed { return true }
                    from = found + 3
                }
            }
            return false
        }
    }

    /// Whether `byte` may come before a header on its line: indent, a block quote's `>`, a
    /// list item's marker (`-`, `1.`), or a definition's `:`.
    private static func mayPrecede(_ byte: UInt8) -> Bool {
        switch byte {
        case .space, .tab, UInt8(ascii: ">"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: ")"), UInt8(ascii: ":"):
            true
        default: byte.isASCIIDigit
        }
    }

    /// Rewrites `text` for each header that starts a paragraph of `root` (cmark's tree of
    /// `text`) and was not rewritten before; nil when there is none.
    mutating func rewrite(_ text: ArraySlice<UInt8>, root: OpaquePointer) -> [UInt8]? {
        let source = SourceLines(text)
        var found: [(line: Int, start: Int, header: Header)] = []
        var fencedLines: [FencedBlocks.Candidate] = []
        CommonMarkDocument.walk(root) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH else { return }
            let number = Int(cmark_node_get_start_line(node))
            if fenced != nil {
                let lines = ParagraphLines(
                    first: number, last: Int(cmark_node_get_end_line(node)), column: Int(cmark_node_get_start_column(node)))
                fencedLines += FencedBlocks.candidates(in: lines, source: source)
            }
            let line = source.line(number)
            let start = line.startIndex + Int(cmark_node_get_start_column(node)) - 1
            guard start >= line.startIndex, start + 3 <= line.endIndex,
                [UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: "=")].contains(line[start]),
                line[start + 1] == line[start], line[start + 2] == line[start], let header = Self.header(line[start...])
            else { return }
            found.append((number, start - line.startIndex, header))
        }
        guard !found.isEmpty || !fencedLines.isEmpty else { return nil }
        // (Slices of the text: only the lines rewritten are copies.)
        var lines = (1...source.count).map { source.line($0) }
        if let fenced {
            let made = FencedBlocks.read(fencedLines.sorted { $0.line < $1.line }, names: fenced, lines: &lines, firstNumber: blocks.count)
            if made.isEmpty && found.isEmpty { return nil }
            blocks += made
        }
        for (number, start, header) in found { rewriteBlock(header, line: number, start: start, in: &lines) }
        return lines.joinedLines()
    }

    /// Rewrites the block whose header starts at byte `start` of line `number` of `lines`:
    /// the header becomes its marker, its content loses four columns of indent.
    mutating func rewriteBlock(_ header: Header, line number: Int, start: Int, in lines: inout [ArraySlice<UInt8>]) {
        let column = Self.column(of: start, in: lines[number - 1])
        let quotes = lines[number - 1].prefix(start).filter { $0 == UInt8(ascii: ">") }.count
        lines[number - 1] = (Array(lines[number - 1].prefix(start)) + Self.marker(blocks.count))[...]
        var last = number
        var next = number + 1
        while next <= lines.count {
            let line = lines[next - 1]
            if line.allSatisfy({ $0 == .space || $0 == .tab || $0 == UInt8(ascii: ">") }) {
                next += 1
                continue
            }
            let indent = line.prefix { $0 == .space || $0 == .tab || $0 == UInt8(ascii: ">") }
            if column == 0, quotes == 0, indent.count >= 4, indent.allSatisfy({ $0 == .space }) {
                // (The usual case, at the top level: what `dedenting` makes, without a copy.)
                lines[next - 1] = line.dropFirst(4)
            } else {
                guard let dedented = Self.dedenting(Array(line), at: column, quotes: quotes) else { break }
                lines[next - 1] = dedented[...]
            }
            last = next
            next += 1
        }
        // (Blank lines inside the content keep their indent: it does not matter there.)
        blocks.append(Block(header: header, line: number, lastLine: last))
    }

    /// The line without four columns of indent past `column`, when it is indented so far
    /// after the same number of block quote markers; nil when it is not content. (Its
    /// indent becomes spaces.)
    private static func dedenting(_ line: [UInt8], at column: Int, quotes: Int) -> [UInt8]? {
        var index = 0
        var at = 0
        var seenQuotes = 0
        var markersEnd = (index: 0, column: 0)
        while index < line.count {
            switch line[index] {
            case UInt8(ascii: ">"):
                seenQuotes += 1
                at += 1
                markersEnd = (index + 1, at)
            case .space: at += 1
            case .tab: at += 4 - at % 4
            default: break
            }
            guard line[index] == .space || line[index] == .tab || line[index] == UInt8(ascii: ">") else { break }
            index += 1
        }
        guard seenQuotes == quotes, at >= column + 4 else { return nil }
        return Array(line[..<markersEnd.index]) + Array(repeating: .space, count: at - 4 - markersEnd.column) + line[index...]
    }

    /// The column of `index` in `line`, tabs reaching the next multiple of four.
    private static func column(of index: Int, in line: ArraySlice<UInt8>) -> Int {
        var column = 0
        for byte in line[line.startIndex..<(line.startIndex + index)] { column = byte == .tab ? column + 4 - column % 4 : column + 1 }
        return column
    }

    /// The header a line starts with, if any: `!!! type [more classes] ["Title"]`,
    /// `??? …`, `???+ …`, `=== "Title"`, `===+ "Title"`, `===! "Title"`.
    static func header(_ line: ArraySlice<UInt8>) -> Header? {
        var text = Substring(String(decoding: line, as: UTF8.self))
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        let kind: Header.Kind
        if text.hasPrefix("!!!") {
            kind = .callout
            text = text.dropFirst(3)
        } else if text.hasPrefix("???") {
            text = text.dropFirst(3)
            let open = text.first == "+"
            if open { text = text.dropFirst() }
            kind = .details(open: open)
        } else if text.hasPrefix("===") {
            text = text.dropFirst(3)
            let startsGroup = text.first == "!"
            if startsGroup { text = text.dropFirst() }
            let selected = text.first == "+"
            if selected { text = text.dropFirst() }
            kind = .tab(selected: selected, startsGroup: startsGroup)
        } else {
            return nil
        }
        // A tab's title is required and quoted; a block's type is required (a word of
        // letters, digits, `_` or `-`), more classes and a quoted title optional.
        var classes: [String] = []
        var title: String?
        if case .tab = kind {
            guard text.first == " " else { return nil }
            text = text.drop { $0 == " " }
        } else {
            text = text.drop { $0 == " " }
            while let word = text.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }).nilIfEmpty {
                classes.append(String(word))
                text = text.dropFirst(word.count)
                guard text.first == " " || text.isEmpty else { return nil }
                text = text.drop { $0 == " " }
            }
            guard !classes.isEmpty else { return nil }
        }
        if text.first == "\"" {
            guard text.count >= 2, text.last == "\"" else { return nil }
            title = String(text.dropFirst().dropLast())
            text = ""
        }
        guard text.isEmpty else { return nil }
        if case .tab = kind, title == nil { return nil }
        return Header(kind: kind, classes: classes, title: title)
    }
}

extension Substring {
    fileprivate var nilIfEmpty: Substring? { isEmpty ? nil : self }
}
