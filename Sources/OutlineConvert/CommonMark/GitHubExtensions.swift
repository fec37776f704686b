internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GitHub's extensions, made on the tree cmark parsed (cmark-gfm cannot be linked beside
/// cmark: the two libraries define the same symbols). What cmark read as a paragraph of
/// pipes becomes a table; `~~text~~` in a text node becomes `<del>`; `www.`, `http://` and
/// e-mail addresses in text become links; `[ ]` / `[x]` starting a list item becomes a
/// checkbox; raw HTML of the tags GitHub filters is escaped. The result renders as
/// `cmark-gfm -e table -e strikethrough -e autolink -e tasklist` renders the same text
/// (docs/formats.md lists the few shapes where it does not).
///
/// Table cells are parsed by cmark as paragraphs of a second document (with the first
/// one's link reference definitions), whose nodes are then moved into the table.
struct GitHubExtensions {
    /// The parsed text (the tree's source positions are into it).
    let source: SourceLines
    private let memory: UnsafeMutablePointer<cmark_mem>
    /// Whether the source holds a tilde, and what may start an autolink: most documents
    /// skip a walk of their text.
    private let tildes: Bool
    private let links: Autolinks.Triggers
    /// Which of them are made.
    private let flavor: MarkdownFlavor

    init(source bytes: ArraySlice<UInt8>, flavor: MarkdownFlavor, memory: UnsafeMutablePointer<cmark_mem>) {
        self.init(source: SourceLines(bytes), flavor: flavor, memory: memory)
    }

    private init(source: SourceLines, flavor: MarkdownFlavor, memory: UnsafeMutablePointer<cmark_mem>) {
        self.source = source
        self.memory = memory
        tildes = flavor.has(.strikethrough) && source.bytes.firstIndex(ofByte: UInt8(ascii: "~")) != nil
        links = flavor.has(.autolinks) ? Autolinks.Triggers(source.bytes) : .none
        self.flavor = flavor
    }

    /// Applies the extensions that decide the tree's blocks to the tree under `root`: tables
    /// and task items (strikethrough and autolinks wait for `applyInlines`, and GitHub's tag
    /// filter for a body written with `--unsafe`: see `TagFilter`). Returns, for the nodes
    /// that came from the cells' documents, where each line of each is in the source (see
    /// `NodeTag.level`); the headings met, in order, but for top-level ones unless
    /// `topLevelHeadings` (see `BodyHeadings`); and, when `keepsHTML`, the raw HTML nodes.
    func apply(to root: OpaquePointer, topLevelHeadings: Bool, keepsHTML: Bool) -> (
        moved: [[LineOrigin]], headings: [OpaquePointer], html: [OpaquePointer]
    ) {
        var origins: [[LineOrigin]] = []
        if flavor.has(.tables) && source.mayHoldTables { origins = makeTables(under: root, depth: 0) }
        let found = collectBlocks(under: root, skipsMoved: !origins.isEmpty, topLevelHeadings: topLevelHeadings, keepsHTML: keepsHTML)
        for item in found.items { makeTask(item) }
        return (origins, found.headings, found.html)
    }

    /// Strikethrough and autolinks under `node` (a top-level block: done just before it is
    /// written, while its nodes are in the cache anyway, rather than in one more walk of the
    /// whole tree). Tables and blocks moved in from a cells' document have them already.
    func applyInlines(under node: OpaquePointer) {
        applyInlineExtensions(under: node, skipsMoved: true)
    }

    /// Makes each setext heading that holds a table (a table directly followed by `---`,
    /// which cmark takes for its underline) no heading, as `apply` would, without making
    /// the table: for reading the sections only.
    func unmakeHeadingsOfTables(under root: OpaquePointer) {
        guard flavor.has(.tables) && source.mayHoldTables else { return }
        var found: [OpaquePointer] = []
        var child = cmark_node_first_child(root)
        while let node = child {
            child = cmark_node_next(node)
            guard cmark_node_get_type(node) == CMARK_NODE_HEADING else { continue }
            let start = Int(cmark_node_get_start_line(node))
            guard let underline = source.setextUnderline(after: start, through: Int(cmark_node_get_end_line(node))),
                underline > start, source.hasDelimiterRow(in: (start + 1)...underline),
                TableSource(block: node, lastLine: underline, source: source) != nil
            else { continue }
            found.append(node)
        }
        for heading in found {
            guard let block = newNode(CMARK_NODE_CUSTOM_BLOCK) else { continue }
            cmark_node_insert_before(heading, block)
            cmark_node_free(heading)
        }
    }

    /// How deep tables are looked for in the lines after a table (each depth is one more
    /// parse of what is left of a paragraph).
    private static let maxTableDepth = 8

    // MARK: - Inline extensions

    /// Strikethrough and autolinks on the tree under `root` whose source positions are into
    /// the source. Tables and blocks moved in from a cells' document have been through this
    /// already.
    private func applyInlineExtensions(under root: OpaquePointer, skipsMoved: Bool) {
        guard tildes || links.any else { return }
        var found = collectInlines(under: root, tildes: tildes, links: links, skipsMoved: skipsMoved)
        var struck = false
        for container in found.containers { struck = strikethrough(in: container) || struck }
        // (Strikethrough replaced text nodes: find the autolinks' again.)
        if struck && links.any {
            found.texts = collectInlines(under: root, tildes: false, links: links, skipsMoved: skipsMoved).texts
        }
        for text in found.texts { makeAutolinks(in: text) }
    }

    /// Calls `visit` for each node under `root` in document order, entering and leaving (a
    /// leaf only entering), but for what lies under a table or a block moved in from a
    /// cells' document when `skipsMoved`, and for inline content unless `inlines` (a walk of
    /// the blocks only: it never reads the inline nodes, most of a tree).
    private static func walk(
        under root: OpaquePointer, skipsMoved: Bool, inlines: Bool = true, _ visit: (OpaquePointer, Bool) -> Void
    ) {
        var current = root
        var entering = true
        while true {
            if !entering {
                visit(current, false)
            } else if !(skipsMoved && NodeTag(of: current)?.level != nil) {
                visit(current, true)
                if !CommonMarkDocument.isLeaf(current) && (inlines || !CommonMarkDocument.holdsInlines(current)) {
                    if let child = cmark_node_first_child(current) {
                        current = child
                        continue
                    }
                    visit(current, false)
                }
            }
            if current == root { return }
            if let next = cmark_node_next(current) {
                current = next
                entering = true
            } else {
                guard let parent = cmark_node_parent(current) else { return }
                current = parent
                entering = false
            }
        }
    }

    /// The list items (when the source may hold a task), the headings and, when
    /// `keepsHTML`, the raw HTML (inline too: the walk then takes in inline content).
    private func collectBlocks(
        under root: OpaquePointer, skipsMoved: Bool, topLevelHeadings: Bool, keepsHTML: Bool
    ) -> (items: [OpaquePointer], headings: [OpaquePointer], html: [OpaquePointer]) {
        let tasks = flavor.has(.taskLists) && source.bytes.firstIndex(ofByte: UInt8(ascii: "]")) != nil
        var items: [OpaquePointer] = []
        var headings: [OpaquePointer] = []
        var html: [OpaquePointer] = []
        Self.walk(under: root, skipsMoved: skipsMoved, inlines: keepsHTML) { node, entering in
            guard entering else { return }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_ITEM:
                if tasks { items.append(node) }
            case CMARK_NODE_HEADING:
                if topLevelHeadings || cmark_node_parent(node) != root { headings.append(node) }
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                if keepsHTML { html.append(node) }
            default:
                break
            }
        }
        return (items, headings, html)
    }

    /// The parents of text with tildes, and text that may hold an autolink (outside links).
    private func collectInlines(
        under root: OpaquePointer, tildes: Bool, links: Autolinks.Triggers, skipsMoved: Bool
    ) -> (containers: [OpaquePointer], texts: [OpaquePointer]) {
        var containers: [OpaquePointer] = []
        var texts: [OpaquePointer] = []
        var linkDepth = 0
        Self.walk(under: root, skipsMoved: skipsMoved) { node, entering in
            switch cmark_node_get_type(node) {
            case CMARK_NODE_TEXT:
                guard let literal = cmark_node_get_literal(node) else { return }
                if tildes, let parent = cmark_node_parent(node), containers.last != parent, strchr(literal, 0x7E) != nil {
                    containers.append(parent)
                }
                if linkDepth == 0 && links.mayHold(literal) { texts.append(node) }
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                linkDepth += entering ? 1 : -1
            default:
                break
            }
        }
        return (containers, texts)
    }

    // MARK: - Task list items

    /// Makes `item` a task item when its line starts with a list marker and `[ ]`, `[x]` or
    /// `[X]` followed by a space or tab (read from the line's start, as cmark-gfm does: so not
    /// inside a block quote), and its first paragraph starts with it.
    private func makeTask(_ item: OpaquePointer) {
        let line = source.line(Int(cmark_node_get_start_line(item)))
        guard let marker = Self.taskMarker(line),
            let paragraph = cmark_node_first_child(item), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH,
            let text = cmark_node_first_child(paragraph), cmark_node_get_type(text) == CMARK_NODE_TEXT
        else { return }
        var literal = CommonMarkDocument.literalBytes(text)
        guard literal.count >= 3, literal[0] == UInt8(ascii: "["), literal[2] == UInt8(ascii: "]"),
            literal[1] == marker
        else { return }
        literal.removeFirst(3)
        while let first = literal.first, first == .space || first == .tab { literal.removeFirst() }
        // cmark-gfm marks an item done when its line holds `[x]` or `[X]` anywhere.
        let done = line.firstRange(of: Array("[x]".utf8)) != nil || line.firstRange(of: Array("[X]".utf8)) != nil
        let box = done ? "<input type=\"checkbox\" checked=\"\" disabled=\"\" /> " : "<input type=\"checkbox\" disabled=\"\" /> "
        guard let checkbox = newNode(CMARK_NODE_CUSTOM_INLINE, enter: box, exit: "", tag: done ? .taskDone : .taskOpen)
        else { return }
        if literal.isEmpty {
            cmark_node_insert_before(text, checkbox)
            cmark_node_free(text)
        } else {
            Self.setLiteral(text, literal)
            cmark_node_insert_before(text, checkbox)
        }
    }

    /// The character between the brackets of a task item's line (`^[ \t]*([-+*]|[0-9]+[.)])[ \t]+\[[ xX]\][ \t]`).
    static func taskMarker(_ line: ArraySlice<UInt8>) -> UInt8? {
        var index = line.startIndex
        func skipBlanks() -> Int {
            let start = index
            while index < line.endIndex, line[index] == .space || line[index] == .tab { index += 1 }
            return index - start
        }
        _ = skipBlanks()
        guard index < line.endIndex else { return nil }
        if line[index] == UInt8(ascii: "-") || line[index] == UInt8(ascii: "+") || line[index] == UInt8(ascii: "*") {
            index += 1
        } else {
            let digits = index
            while index < line.endIndex, line[index].isASCIIDigit { index += 1 }
            guard index > digits, index < line.endIndex, line[index] == UInt8(ascii: ".") || line[index] == UInt8(ascii: ")")
            else { return nil }
            index += 1
        }
        guard skipBlanks() > 0, index + 3 < line.endIndex, line[index] == UInt8(ascii: "["),
            line[index + 2] == UInt8(ascii: "]"), line[index + 3] == .space || line[index + 3] == .tab
        else { return nil }
        let mark = line[index + 1]
        return mark == .space || mark == UInt8(ascii: "x") || mark == UInt8(ascii: "X") ? mark : nil
    }

    // MARK: - Autolinks

    /// Links `www.` addresses, `http://`, `https://` and `ftp://` URLs and e-mail addresses
    /// in a text node (one not inside a link).
    private func makeAutolinks(in text: OpaquePointer) {
        let literal = CommonMarkDocument.literalBytes(text)
        let links = Autolinks.find(in: literal, startsAfterBoundary: Self.followsBoundary(text))
        guard !links.isEmpty else { return }
        for (index, piece) in split(text, at: links.map { ($0.range.lowerBound, $0.range.count) }) {
            guard let node = newNode(CMARK_NODE_LINK) else { continue }
            cmark_node_set_url(node, links[index].url)
            cmark_node_insert_before(piece, node)
            cmark_node_append_child(node, piece)
        }
    }

    /// Whether the text node starts where `www.` may start a link: at the start of a line,
    /// or after emphasis or strikethrough (whose delimiters `*`, `_`, `~` allow it).
    private static func followsBoundary(_ text: OpaquePointer) -> Bool {
        guard let previous = cmark_node_previous(text) else { return true }
        switch cmark_node_get_type(previous) {
        case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK, CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_CUSTOM_INLINE:
            return true
        default:
            return false
        }
    }

    // MARK: - Tables

    /// Turns each paragraph that holds a GFM table into the paragraph before it (if any),
    /// the table, and the blocks after it (lines a table cannot hold). A setext heading whose
    /// text holds a table is one too: its underline is a line after the table.
    private func makeTables(under root: OpaquePointer, depth: Int) -> [[LineOrigin]] {
        var found: [(paragraph: OpaquePointer, table: TableSource)] = []
        var skipping: OpaquePointer?
        CommonMarkDocument.walk(root) { node, entering in
            if let skipped = skipping {
                if skipped == node && !entering { skipping = nil }
                return
            }
            let type = cmark_node_get_type(node)
            // (Inline content holds no paragraph.)
            guard entering, type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING else { return }
            skipping = node
            let start = Int(cmark_node_get_start_line(node))
            var end = Int(cmark_node_get_end_line(node))
            if type == CMARK_NODE_HEADING {
                guard let underline = source.setextUnderline(after: start, through: end) else { return }
                end = underline
            }
            guard end > start, source.hasDelimiterRow(in: (start + 1)...end),
                let table = TableSource(block: node, lastLine: end, source: source)
            else { return }
            found.append((node, table))
        }
        guard !found.isEmpty else { return [] }

        // One document holds every cell (and the text around the tables) as a block quote of
        // its own, then the source's link reference definitions.
        var cells = CellDocument()
        for (_, table) in found { cells.add(table) }
        cells.addDefinitions(source.referenceDefinitionLines())
        guard let document = cells.parse(memory: memory) else { return [] }
        defer { cmark_node_free(document) }
        var fragments: [OpaquePointer] = []
        var next = cmark_node_first_child(document)
        while let block = next, cmark_node_get_type(block) == CMARK_NODE_BLOCK_QUOTE {
            fragments.append(block)
            next = cmark_node_next(block)
        }
        guard fragments.count >= cells.fragmentIsCell.count else { return [] }
        // The lines after a table are a paragraph again there, which may hold a table.
        let cellsSource = SourceLines(cells.text[...])
        let cellsExtensions = GitHubExtensions(source: cellsSource, flavor: flavor, memory: memory)
        var levels = [cells.origins]
        if depth < Self.maxTableDepth, found.contains(where: { $0.table.after != nil }), cellsSource.mayHoldTables {
            let inner = cellsExtensions.makeTables(under: document, depth: depth + 1)
            levels += inner.map { $0.map { $0.through(cells.origins) } }
        }
        for (quote, isCell) in zip(fragments, cells.fragmentIsCell) where isCell { CellDocument.removeCellPrefix(from: quote) }
        cellsExtensions.applyInlineExtensions(under: document, skipsMoved: levels.count > 1)
        let items = cellsExtensions.collectBlocks(under: document, skipsMoved: levels.count > 1, topLevelHeadings: false, keepsHTML: false).items
        for item in items { cellsExtensions.makeTask(item) }

        var fragment = fragments.makeIterator()
        for (paragraph, table) in found {
            if table.before != nil, let quote = fragment.next() { moveBlocks(of: quote, before: paragraph, depth: depth) }
            if let built = buildTable(table, cells: &fragment, depth: depth) { cmark_node_insert_before(paragraph, built) }
            if table.after != nil, let quote = fragment.next() { moveBlocks(of: quote, before: paragraph, depth: depth) }
            cmark_node_free(paragraph)
        }
        return levels
    }

    /// Moves the blocks of a fragment of the cells' document before `anchor`. (A block
    /// already moved in from a deeper one keeps its own tag.)
    private func moveBlocks(of quote: OpaquePointer, before anchor: OpaquePointer, depth: Int) {
        while let block = cmark_node_first_child(quote) {
            cmark_node_insert_before(anchor, block)
            if NodeTag(of: block) == nil { NodeTag.moved(level: depth).set(on: block) }
        }
    }

    /// The table's nodes, its cells' inline content taken from the next fragments.
    private func buildTable(_ table: TableSource, cells fragment: inout IndexingIterator<[OpaquePointer]>, depth: Int) -> OpaquePointer? {
        guard let node = newNode(CMARK_NODE_CUSTOM_BLOCK, enter: "<table>", exit: "</table>", tag: .table(level: depth)) else { return nil }
        func section(_ rows: [[TableSource.Cell]], header: Bool) {
            guard !rows.isEmpty,
                let part = newNode(CMARK_NODE_CUSTOM_BLOCK, enter: header ? "<thead>" : "<tbody>", exit: header ? "</thead>" : "</tbody>")
            else { return }
            cmark_node_append_child(node, part)
            for row in rows {
                guard let rowNode = newNode(CMARK_NODE_CUSTOM_BLOCK, enter: "<tr>", exit: "</tr>", tag: header ? .headerRow : .row)
                else { continue }
                cmark_node_append_child(part, rowNode)
                for column in 0..<table.alignments.count {
                    let alignment = table.alignments[column]
                    let name = header ? "th" : "td"
                    let open = "<\(name)\(alignment.map { " align=\"\($0.rawValue)\"" } ?? "")>"
                    guard let block = newNode(CMARK_NODE_CUSTOM_BLOCK, enter: "", exit: ""),
                        let cell = newNode(CMARK_NODE_CUSTOM_INLINE, enter: open, exit: "</\(name)>", tag: .cell(alignment))
                    else { continue }
                    cmark_node_append_child(rowNode, block)
                    cmark_node_append_child(block, cell)
                    guard column < row.count, let quote = fragment.next(), let paragraph = cmark_node_first_child(quote) else { continue }
                    while let inline = cmark_node_first_child(paragraph) { cmark_node_append_child(cell, inline) }
                }
            }
        }
        section([table.header], header: true)
        section(table.rows, header: false)
        return node
    }

    // MARK: - Nodes

    func newNode(_ type: cmark_node_type, enter: String = "", exit: String = "", tag: NodeTag? = nil) -> OpaquePointer? {
        guard let node = cmark_node_new_with_mem(type, memory) else { return nil }
        if type == CMARK_NODE_CUSTOM_BLOCK || type == CMARK_NODE_CUSTOM_INLINE {
            cmark_node_set_on_enter(node, enter)
            cmark_node_set_on_exit(node, exit)
        }
        tag?.set(on: node)
        return node
    }

    /// Splits a text node so that each of `pieces` (offset and length in its text, in any
    /// order, not overlapping) is a text node of its own; returns each piece's index in
    /// `pieces` and its node.
    func split(_ node: OpaquePointer, at pieces: [(Int, Int)]) -> [(Int, OpaquePointer)] {
        let literal = CommonMarkDocument.literalBytes(node)
        var result: [(Int, OpaquePointer)] = []
        var position = 0
        func add(_ range: Range<Int>) -> OpaquePointer? {
            guard !range.isEmpty, let piece = newNode(CMARK_NODE_TEXT) else { return nil }
            Self.setLiteral(piece, literal[range])
            cmark_node_insert_before(node, piece)
            return piece
        }
        // (Cut in the text's order; each piece keeps its index in `pieces`.)
        for (index, (offset, length)) in pieces.enumerated().sorted(by: { $0.element.0 < $1.element.0 }) {
            _ = add(position..<offset)
            if let piece = add(offset..<offset + length) { result.append((index, piece)) }
            position = offset + length
        }
        _ = add(position..<literal.count)
        cmark_node_free(node)
        return result
    }

    static func setLiteral(_ node: OpaquePointer, _ bytes: some Collection<UInt8>) {
        var text = Array(bytes)
        text.append(0)
        text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = cmark_node_set_literal(node, $0.baseAddress) }
        }
    }
}
