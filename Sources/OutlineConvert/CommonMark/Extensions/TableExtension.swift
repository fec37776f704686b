internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GFM tables (`table`), made on the tree cmark parsed (cmark-gfm cannot be linked beside
/// cmark: the two libraries define the same symbols): what cmark read as a paragraph of
/// pipes (or as a setext heading, when `---` follows the table) becomes a table, which
/// renders as `cmark-gfm -e table` renders it and as aligned columns in plain text.
///
/// Table cells are parsed by cmark as paragraphs of a second document (with the first
/// one's link reference definitions: `CellDocument`), whose nodes are then moved into the
/// table; so do the lines after a table that a table cannot hold. That document gets the
/// other extensions' inline steps, and the block steps of those that apply there.
struct TableExtension: MarkdownExtension {
    var name: String { "table" }

    /// The tags of the nodes made (see `NodeTag`).
    private enum Kind {
        static let table: UInt8 = 1
        static let headerRow: UInt8 = 2
        static let row: UInt8 = 3
        /// A block moved in from the cells' document (the lines after a table).
        static let moved: UInt8 = 10

        /// A cell (4 to 7, by its alignment).
        static func cell(_ alignment: TableAlignment?) -> UInt8 {
            switch alignment {
            case nil: 4
            case .left?: 5
            case .center?: 6
            case .right?: 7
            }
        }

        static func alignment(ofCell kind: UInt8) -> TableAlignment? {
            switch kind {
            case 5: .left
            case 6: .center
            case 7: .right
            default: nil
            }
        }
    }

    func prepared(for source: SourceLines) -> TableExtension? { source.mayHoldTables ? self : nil }

    func makeBlocks(of tree: MarkdownTree) {
        tree.moved = makeTables(in: tree, depth: 0)
    }

    /// Makes each setext heading that holds a table (a table directly followed by `---`,
    /// which cmark takes for its underline) no heading, as `makeBlocks` would, without
    /// making the table: for reading the sections only.
    func shapeSections(of tree: MarkdownTree) {
        let source = tree.source
        var found: [OpaquePointer] = []
        var child = cmark_node_first_child(tree.root)
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
            guard let block = tree.newNode(CMARK_NODE_CUSTOM_BLOCK) else { continue }
            cmark_node_insert_before(heading, block)
            cmark_node_free(heading)
        }
    }

    /// A table is written whole, as aligned columns.
    func plainText(of node: OpaquePointer, kind: UInt8, entering: Bool) -> PlainTextPiece? {
        kind == Kind.table && entering ? .block(Self.tableText(node)) : nil
    }

    /// How deep tables are looked for in the lines after a table (each depth is one more
    /// parse of what is left of a paragraph).
    private static let maxTableDepth = 8

    /// Turns each paragraph that holds a GFM table into the paragraph before it (if any),
    /// the table, and the blocks after it (lines a table cannot hold). A setext heading whose
    /// text holds a table is one too: its underline is a line after the table.
    private func makeTables(in tree: MarkdownTree, depth: Int) -> [[LineOrigin]] {
        let source = tree.source
        var found: [(paragraph: OpaquePointer, table: TableSource)] = []
        var skipping: OpaquePointer?
        CommonMarkDocument.walk(tree.root) { node, entering in
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
        guard let document = cells.parse(memory: tree.memory, smart: tree.flavor.smartPunctuation) else { return [] }
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
        let cellsTree = MarkdownTree(tableCells: document, source: cellsSource, of: tree)
        var levels = [cells.origins]
        if depth < Self.maxTableDepth, found.contains(where: { $0.table.after != nil }), cellsSource.mayHoldTables {
            let inner = makeTables(in: cellsTree, depth: depth + 1)
            levels += inner.map { $0.map { $0.through(cells.origins) } }
        }
        for (quote, isCell) in zip(fragments, cells.fragmentIsCell) where isCell { CellDocument.removeCellPrefix(from: quote) }
        // The other extensions, on the cells' document (a table's own are made there).
        cellsTree.makeInlines(under: document)
        for step in cellsTree.extensions where step.appliesInTableCells { step.makeBlocks(of: cellsTree) }

        var fragment = fragments.makeIterator()
        for (paragraph, table) in found {
            if table.before != nil, let quote = fragment.next() { moveBlocks(of: quote, before: paragraph, depth: depth, tree: tree) }
            if let built = buildTable(table, cells: &fragment, depth: depth, tree: tree) { cmark_node_insert_before(paragraph, built) }
            if table.after != nil, let quote = fragment.next() { moveBlocks(of: quote, before: paragraph, depth: depth, tree: tree) }
            cmark_node_free(paragraph)
        }
        return levels
    }

    /// Moves the blocks of a fragment of the cells' document before `anchor`. (A block
    /// already moved in from a deeper one keeps its own tag.)
    private func moveBlocks(of quote: OpaquePointer, before anchor: OpaquePointer, depth: Int, tree: MarkdownTree) {
        while let block = cmark_node_first_child(quote) {
            cmark_node_insert_before(anchor, block)
            if NodeTag(of: block) == nil { tree.tag(block, by: self, kind: Kind.moved, level: depth) }
        }
    }

    /// The table's nodes, its cells' inline content taken from the next fragments.
    private func buildTable(
        _ table: TableSource, cells fragment: inout IndexingIterator<[OpaquePointer]>, depth: Int, tree: MarkdownTree
    ) -> OpaquePointer? {
        guard let node = tree.newNode(CMARK_NODE_CUSTOM_BLOCK, enter: "<table>", exit: "</table>") else { return nil }
        tree.tag(node, by: self, kind: Kind.table, level: depth)
        func section(_ rows: [[TableSource.Cell]], header: Bool) {
            guard !rows.isEmpty,
                let part = tree.newNode(CMARK_NODE_CUSTOM_BLOCK, enter: header ? "<thead>" : "<tbody>", exit: header ? "</thead>" : "</tbody>")
            else { return }
            cmark_node_append_child(node, part)
            for row in rows {
                guard let rowNode = tree.newNode(CMARK_NODE_CUSTOM_BLOCK, enter: "<tr>", exit: "</tr>") else { continue }
                tree.tag(rowNode, by: self, kind: header ? Kind.headerRow : Kind.row)
                cmark_node_append_child(part, rowNode)
                for column in 0..<table.alignments.count {
                    let alignment = table.alignments[column]
                    let name = header ? "th" : "td"
                    let open = "<\(name)\(alignment.map { " align=\"\($0.rawValue)\"" } ?? "")>"
                    guard let block = tree.newNode(CMARK_NODE_CUSTOM_BLOCK, enter: "", exit: ""),
                        let cell = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: open, exit: "</\(name)>")
                    else { continue }
                    tree.tag(cell, by: self, kind: Kind.cell(alignment))
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

    /// A table as aligned columns: cells two spaces apart, the header underlined with dashes;
    /// a column aligned right or centre in the source is aligned so here.
    private static func tableText(_ table: OpaquePointer) -> [UInt8] {
        let owner = NodeTag(of: table)?.owner
        var rows: [[[Character]]] = []
        var alignments: [TableAlignment?] = []
        CommonMarkDocument.walk(table) { node, entering in
            guard entering else { return }
            guard let tag = NodeTag(of: node), tag.owner == owner else { return }
            switch tag.kind {
            case Kind.headerRow, Kind.row:
                rows.append([])
            case Kind.cell(nil)...Kind.cell(.right):
                let alignment = Kind.alignment(ofCell: tag.kind)
                if rows.count == 1 { alignments.append(alignment) }
                var text: [UInt8] = []
                CommonMarkDocument.walk(node) { inline, entering in
                    let type = cmark_node_get_type(inline)
                    if entering && (type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE) { PlainTextWriter.appendLiteral(of: inline, to: &text) }
                }
                if !rows.isEmpty { rows[rows.count - 1].append(Array(String(decoding: text, as: UTF8.self))) }
            default:
                break
            }
        }
        let widths = alignments.indices.map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        var lines: [String] = []
        func line(_ cells: [String]) -> String {
            var text = cells.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        for (index, row) in rows.enumerated() {
            lines.append(
                line(
                    widths.indices.map { column in
                        let cell = column < row.count ? String(row[column]) : ""
                        let room = widths[column] - cell.count
                        switch alignments[column] {
                        case .right?: return String(repeating: " ", count: room) + cell
                        case .center?: return String(repeating: " ", count: room / 2) + cell + String(repeating: " ", count: room - room / 2)
                        default: return cell + String(repeating: " ", count: room)
                        }
                    }))
            if index == 0 { lines.append(line(widths.map { String(repeating: "-", count: max($0, 1)) })) }
        }
        return Array(lines.joined(separator: "\n").utf8)
    }
}
