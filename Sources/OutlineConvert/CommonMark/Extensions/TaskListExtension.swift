internal import CCmark

/// GFM task list items (`tasklist`): a list item whose line starts with `[ ]`, `[x]` or
/// `[X]` gets a checkbox, as `cmark-gfm -e tasklist` renders it; in plain text, `[ ]` or
/// `[x]` before its text.
struct TaskListExtension: MarkdownExtension {
    var name: String { "tasklist" }

    /// The tags of the checkboxes made (see `NodeTag`).
    private enum Kind {
        static let open: UInt8 = 1
        static let done: UInt8 = 2
    }

    func prepared(for source: SourceLines) -> TaskListExtension? {
        source.bytes.firstIndex(ofByte: UInt8(ascii: "]")) != nil ? self : nil
    }

    var collects: [cmark_node_type] { [CMARK_NODE_ITEM] }
    var appliesInTableCells: Bool { true }

    func makeBlocks(of tree: MarkdownTree) {
        // (An item another extension tagged is its own: a footnote's.)
        for item in tree.nodes(CMARK_NODE_ITEM) where NodeTag(of: item) == nil { makeTask(item, in: tree) }
    }

    func plainText(of node: OpaquePointer, kind: UInt8, entering: Bool) -> PlainTextPiece? {
        guard entering else { return nil }
        return .inline(Array((kind == Kind.done ? "[x] " : "[ ] ").utf8))
    }

    /// Makes `item` a task item when its line starts with a list marker and `[ ]`, `[x]` or
    /// `[X]` followed by a space or tab (read from the line's start, as cmark-gfm does: so not
    /// inside a block quote), and its first paragraph starts with it.
    private func makeTask(_ item: OpaquePointer, in tree: MarkdownTree) {
        let line = tree.source.line(Int(cmark_node_get_start_line(item)))
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
        guard let checkbox = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: box, exit: "") else { return }
        tree.tag(checkbox, by: self, kind: done ? Kind.done : Kind.open)
        if literal.isEmpty {
            cmark_node_insert_before(text, checkbox)
            cmark_node_free(text)
        } else {
            MarkdownTree.setLiteral(text, literal)
            cmark_node_insert_before(text, checkbox)
        }
    }

    /// The character between the brackets of a task item's line (`^[ \t]*([-+*]|[0-9]+[.)])[ \t]+\[[ xX]\][ \t]`).
    private static func taskMarker(_ line: ArraySlice<UInt8>) -> UInt8? {
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
}
