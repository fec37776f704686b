internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GitHub's footnotes (`footnotes`): `[^label]` refers to a note written anywhere as
/// `[^label]: text`, with more of its content indented four columns below. The notes
/// referred to are numbered by their first reference and written at the end of the page with
/// their back-links, as `cmark-gfm -e footnotes` writes them; in plain text a reference is
/// `[1]` and its note starts with `[1] `.
///
/// cmark reads a one-word note as a link reference definition and a longer one as a
/// paragraph, so the text is rewritten first, one line for one line (`rewriteSource`): each
/// note's first line becomes a list item whose content starts four columns in, which cmark
/// then reads with the note's indented lines and lazy lines, as cmark-gfm reads a note.
/// Those items are tagged (`makeBlocks`, before any other step reads them as tasks); once
/// every block is made (tables too), they become notes, references are found in document
/// order, and the notes referred to move to the end (`finishBlocks`).
///
/// A reference in a section's title is numbered, but the title, plain text, does not show it.
struct FootnoteExtension: MarkdownExtension {
    var name: String { "footnotes" }

    private enum Kind {
        static let reference: UInt8 = 1
        static let note: UInt8 = 2
        static let backLinks: UInt8 = 3
        /// A note's list item, until it becomes the note.
        static let item: UInt8 = 4
    }

    // MARK: - Notes

    /// A note's first line in the source: `[^label]:` after at most three spaces (and any
    /// block quote markers).
    private struct Definition {
        let line: Int
        /// Where its indent starts (after any block quote markers), where `[^` starts, and
        /// where the content starts (after the spaces that follow `:`).
        let indentStart: Int
        let start: Int
        let contentStart: Int
        let label: [UInt8]
    }

    func rewriteSource(of tree: MarkdownTree) {
        let source = tree.source
        guard source.bytes.contains(bytes: "[^") else { return }
        let (verbatim, items) = Self.containers(of: tree.root)
        let definitions = Self.definitions(in: source, outside: verbatim)
        guard !definitions.isEmpty else { return }
        let lists = Self.topLevelLists(of: tree.root, in: source)
        var text: [UInt8] = []
        text.reserveCapacity(source.bytes.count + definitions.count * 4)
        var copied = source.bytes.startIndex
        var previous: [UInt8] = []
        let offsets = Self.contentColumns(of: definitions, in: items, source: source)
        for (definition, offset) in zip(definitions, offsets) {
            let line = source.line(definition.line)
            // A marker no list next to this one uses, so that the item is a list of its own,
            // nor one that makes a rule of content such as `- - -`.
            let content = line[definition.contentStart...]
            let nearby = lists.last { $0.line < definition.line }?.marker
            let following = lists.first { $0.line > definition.line }?.marker
            let first = content.first.map { [$0] } ?? []
            let marker = Self.markers.first { $0 != previous && $0 != nearby && $0 != following && $0 != first } ?? Self.markers[0]
            previous = marker
            // The note's content is four columns past its container's (the document's, or a
            // list item's that holds it), not past its own indent: that indent goes.
            text += source.bytes[copied..<max(definition.indentStart, min(definition.start, line.startIndex + offset))]
            text += marker + Array(repeating: UInt8.space, count: 4 - marker.count)
            // (An item that starts with a blank line would have its content one column past
            // its marker, where a note's is four columns in: a comment stands in.)
            text += content.allSatisfy({ $0 == .carriageReturn }) ? Self.placeholder + content : Array(content)
            copied = line.endIndex
        }
        text += source.bytes[copied...]
        guard let again = CommonMarkDocument.tree(of: text[...], memory: tree.memory, smart: tree.flavor.smartPunctuation) else { return }
        tree.replace(source: text[...], root: again)
        tree.footnotes = definitions.map { MarkdownTree.Footnote(line: $0.line, label: $0.label) }
    }

    /// The markers a note's first line may get (each followed by spaces up to four columns).
    private static let markers: [[UInt8]] = ["-", "+", "*", "1.", "1)"].map { Array($0.utf8) }
    /// What stands for an empty first line (an HTML block, taken out of the note).
    private static let placeholder = Array("<!--outline-footnote-->".utf8)

    /// The notes' first lines: `[^label]:` after at most three spaces (and block quote
    /// markers), on a line no code block or HTML block holds.
    private static func definitions(in source: SourceLines, outside verbatim: [ClosedRange<Int>]) -> [Definition] {
        var found: [Definition] = []
        var ranges = verbatim.makeIterator()
        var range = ranges.next()
        for number in 1...source.count {
            while let current = range, current.upperBound < number { range = ranges.next() }
            if let current = range, current.contains(number) { continue }
            let line = source.line(number)
            // (After block quote markers, each with at most three spaces before it.)
            var index = line.startIndex
            var indentStart = index
            while true {
                let indent = index
                indentStart = indent
                while index < line.endIndex, index - indent < 3, line[index] == .space { index += 1 }
                guard index < line.endIndex, line[index] == UInt8(ascii: ">") else { break }
                index += 1
                if index < line.endIndex, line[index] == .space { index += 1 }
            }
            guard index + 1 < line.endIndex, line[index] == UInt8(ascii: "["), line[index + 1] == UInt8(ascii: "^") else { continue }
            let labelStart = index + 2
            var end = labelStart
            while end < line.endIndex, !Self.endsLabel(line[end]) { end += 1 }
            guard end > labelStart, end + 1 < line.endIndex, line[end] == UInt8(ascii: "]"), line[end + 1] == UInt8(ascii: ":") else {
                continue
            }
            var content = end + 2
            while content < line.endIndex, line[content] == .space || line[content] == .tab { content += 1 }
            found.append(
                Definition(line: number, indentStart: indentStart, start: index, contentStart: content, label: Array(line[labelStart..<end])))
        }
        return found
    }

    /// Whether a byte cannot be in a label (as cmark-gfm reads one).
    private static func endsLabel(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "]") || byte == .space || byte == .tab || byte == .carriageReturn || byte == .lineFeed || byte == 0
    }

    /// The lines of code blocks and HTML blocks, in order (no note starts there), and the
    /// list items: their lines and the column their content starts at, in order.
    private static func containers(of root: OpaquePointer) -> (verbatim: [ClosedRange<Int>], items: [ListItemLines]) {
        var lines: [ClosedRange<Int>] = []
        var items: [ListItemLines] = []
        MarkdownTree.walk(under: root, inlines: false) { node, entering in
            let type = cmark_node_get_type(node)
            let (start, end) = (Int(cmark_node_get_start_line(node)), Int(cmark_node_get_end_line(node)))
            guard entering, start > 0, end >= start else { return }
            if type == CMARK_NODE_CODE_BLOCK || type == CMARK_NODE_HTML_BLOCK { lines.append(start...end) }
            if type == CMARK_NODE_ITEM {
                let content = cmark_node_first_child(node).map { Int(cmark_node_get_start_column($0)) - 1 }
                items.append(ListItemLines(lines: start...end, column: content ?? Int(cmark_node_get_start_column(node)) + 1))
            }
        }
        return (lines.sorted { $0.lowerBound < $1.lowerBound }, items)
    }

    /// A list item's lines, and the byte column (from 0) its content starts at.
    private struct ListItemLines {
        let lines: ClosedRange<Int>
        let column: Int
    }

    /// For each note (in order), the column its container's content starts at: that of the
    /// innermost list item that holds its line and whose content starts no further right
    /// than the note; 0 for none. (Items come in document order and nest: one sweep, with
    /// the items holding the current line on a stack.)
    private static func contentColumns(of definitions: [Definition], in items: [ListItemLines], source: SourceLines) -> [Int] {
        var columns: [Int] = []
        var holding: [ListItemLines] = []
        var next = 0
        for definition in definitions {
            while next < items.count, items[next].lines.lowerBound <= definition.line {
                while let last = holding.last, last.lines.upperBound < items[next].lines.lowerBound { holding.removeLast() }
                holding.append(items[next])
                next += 1
            }
            while let last = holding.last, last.lines.upperBound < definition.line { holding.removeLast() }
            let at = definition.start - source.line(definition.line).startIndex
            columns.append(holding.last { $0.column <= at }?.column ?? 0)
        }
        return columns
    }

    /// The top-level lists: the line each starts on and its marker (`-`, `1.`, …).
    private static func topLevelLists(of root: OpaquePointer, in source: SourceLines) -> [(line: Int, marker: [UInt8])] {
        var lists: [(line: Int, marker: [UInt8])] = []
        var child = cmark_node_first_child(root)
        while let node = child {
            child = cmark_node_next(node)
            guard cmark_node_get_type(node) == CMARK_NODE_LIST else { continue }
            let number = Int(cmark_node_get_start_line(node))
            let marker: [UInt8]
            if cmark_node_get_list_type(node) == CMARK_ORDERED_LIST {
                marker = Array((cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM ? "1)" : "1.").utf8)
            } else {
                let line = source.line(number)
                let column = line.startIndex + Int(cmark_node_get_start_column(node)) - 1
                marker = column < line.endIndex ? [line[column]] : []
            }
            lists.append((number, marker))
        }
        return lists
    }

    /// Tags each note's list item as a note, so that no other step reads it as a list item
    /// of its own (a task, say). The item becomes the note once every block is made (tables
    /// read its lines as an item's).
    func makeBlocks(of tree: MarkdownTree) {
        guard !tree.footnotes.isEmpty else { return }
        var noteAt: [Int: Int] = [:]
        for (index, footnote) in tree.footnotes.enumerated() { noteAt[footnote.line] = index }
        MarkdownTree.walk(under: tree.root, inlines: false) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_LIST, let index = noteAt[Int(cmark_node_get_start_line(node))],
                let item = cmark_node_first_child(node)
            else { return }
            tree.tag(item, by: self, kind: Kind.item)
            tree.footnotes[index].note = item
        }
    }

    /// Makes each note's list item a note where it stands: a block holding what the item held.
    private func makeNotes(in tree: MarkdownTree) {
        var gone: [OpaquePointer] = []
        for index in tree.footnotes.indices {
            guard let item = tree.footnotes[index].note, let list = cmark_node_parent(item),
                let note = tree.newNode(CMARK_NODE_CUSTOM_BLOCK)
            else { continue }
            tree.tag(note, by: self, kind: Kind.note)
            while let block = cmark_node_first_child(item) { cmark_node_append_child(note, block) }
            if let first = cmark_node_first_child(note), cmark_node_get_type(first) == CMARK_NODE_HTML_BLOCK,
                CommonMarkDocument.literalBytes(first).starts(with: Self.placeholder)
            {
                gone.append(first)
            }
            cmark_node_insert_before(list, note)
            gone.append(cmark_node_next(item) == nil ? list : item)
            tree.footnotes[index].note = note
        }
        tree.free(gone)
    }

    // MARK: - References

    /// Numbers the notes by their first reference in document order, makes the references,
    /// and moves the notes referred to to the end (the others are dropped, as cmark-gfm drops
    /// them), each with back-links to its references.
    func finishBlocks(of tree: MarkdownTree) {
        guard !tree.footnotes.isEmpty else { return }
        makeNotes(in: tree)
        var byLabel: [String: Int] = [:]
        for (index, footnote) in tree.footnotes.enumerated() where footnote.note != nil {
            let key = Self.key(footnote.label[...])
            if byLabel[key] == nil { byLabel[key] = index }
        }
        var numbered: [Int] = []
        var numbers: [Int: Int] = [:]
        var references: [Int: [Bool]] = [:]  // for each note, whether each reference is shown
        var found: [(node: OpaquePointer, slice: ArraySlice<UInt8>?, inTitle: Bool)] = []
        var levels: [(node: OpaquePointer, level: Int)] = []
        CommonMarkDocument.walk(tree.root) { node, entering in
            if !entering, levels.last?.node == node { levels.removeLast() }
            if entering, !CommonMarkDocument.isLeaf(node), let level = NodeTag(of: node)?.level { levels.append((node, level)) }
            // (Most text holds no `[^`: strstr says so without a copy.)
            guard entering, cmark_node_get_type(node) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(node),
                strstr(literal, "[^") != nil
            else { return }
            found.append((node, Self.sourceSlice(of: node, level: levels.last?.level, in: tree), tree.isSectionTitle(cmark_node_parent(node))))
        }
        for (node, slice, inTitle) in found {
            let literal = CommonMarkDocument.literalBytes(node)
            var pieces: [(offset: Int, length: Int)] = []
            var notes: [Int] = []
            for (offset, label) in Self.references(in: literal, source: slice) {
                guard let index = byLabel[Self.key(label)] else { continue }
                pieces.append((offset, label.count + 3))
                notes.append(index)
            }
            guard !pieces.isEmpty else { continue }
            for (piece, text) in tree.split(node, at: pieces) {
                let index = notes[piece]
                if numbers[index] == nil {
                    numbered.append(index)
                    numbers[index] = numbered.count
                }
                references[index, default: []].append(!inTitle)
                makeReference(
                    in: text, number: numbers[index] ?? 0, count: references[index]?.count ?? 1, shown: !inTitle, label: tree.footnotes[index].label,
                    tree: tree)
            }
        }
        moveNotes(numbered.map { ($0, references[$0] ?? []) }, in: tree)
    }

    /// Where a text node's literal came from in the source, when it is known (the slice its
    /// positions give, mapped out of a table's cells).
    private static func sourceSlice(of node: OpaquePointer, level: Int?, in tree: MarkdownTree) -> ArraySlice<UInt8>? {
        var line = Int(cmark_node_get_start_line(node))
        var column = Int(cmark_node_get_start_column(node))
        var end = Int(cmark_node_get_end_column(node))
        guard line > 0, column > 0, end >= column, cmark_node_get_end_line(node) == cmark_node_get_start_line(node) else { return nil }
        if let level {
            let origin = LineOrigin.of(line: line, level: level, in: tree.moved)
            guard origin.line > 0 else { return nil }
            line = Int(origin.line)
            column += Int(origin.columnShift)
            end += Int(origin.columnShift)
        }
        let text = tree.source.line(line)
        guard column >= 1, text.startIndex + end <= text.endIndex else { return nil }
        return text[(text.startIndex + column - 1)..<(text.startIndex + end)]
    }

    /// The references in a text node's literal (offset of `[^`, label): `[^label]` whose `[`
    /// is not escaped in the source. The source's `[^` and the literal's correspond in
    /// order; where they cannot be matched (an entity made one), none is taken.
    private static func references(in literal: [UInt8], source: ArraySlice<UInt8>?) -> [(Int, ArraySlice<UInt8>)] {
        let inLiteral = openings(in: literal[...])
        guard let source else { return inLiteral.compactMap { at in label(at: at, in: literal[...]).map { (at, $0) } } }
        let inSource = openings(in: source)
        guard inSource.count == inLiteral.count else { return [] }
        var found: [(Int, ArraySlice<UInt8>)] = []
        for (at, from) in zip(inLiteral, inSource) {
            var backslashes = 0
            while from - backslashes > source.startIndex, source[from - backslashes - 1] == .backslash { backslashes += 1 }
            guard backslashes % 2 == 0, let label = label(at: at, in: literal[...]), label.elementsEqual(self.label(at: from, in: source) ?? [])
            else { continue }
            found.append((at, label))
        }
        return found
    }

    /// Where each `[^` starts.
    private static func openings(in bytes: ArraySlice<UInt8>) -> [Int] {
        var found: [Int] = []
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "["), bytes[index + 1] == UInt8(ascii: "^") { found.append(index) }
            index += 1
        }
        return found
    }

    /// The label of a reference starting at `at` (`[^label]`): not empty, with no white
    /// space, bracket or backslash.
    private static func label(at start: Int, in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var end = start + 2
        while end < bytes.endIndex, !endsLabel(bytes[end]), bytes[end] != UInt8(ascii: "["), bytes[end] != .backslash { end += 1 }
        guard end > start + 2, end < bytes.endIndex, bytes[end] == UInt8(ascii: "]") else { return nil }
        return bytes[(start + 2)..<end]
    }

    /// How labels are compared: as cmark compares link labels, case aside.
    private static func key(_ label: ArraySlice<UInt8>) -> String {
        String(decoding: label, as: UTF8.self).lowercased()
    }

    /// Makes `text` (the reference's own text node, `[^label]`) the reference: a link to the
    /// note, its number shown (in a section's title, where it is not shown, the same HTML
    /// with no text node).
    private func makeReference(in text: OpaquePointer, number: Int, count: Int, shown: Bool, label: [UInt8], tree: MarkdownTree) {
        let id = PercentEncoding.escapedHref(label)
        let enter = "<sup class=\"footnote-ref\"><a href=\"#fn-\(id)\" id=\"fnref-\(id)\(count > 1 ? "-\(count)" : "")\" data-footnote-ref>"
        guard let reference = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: shown ? enter : "", exit: shown ? "</a></sup>" : "") else { return }
        tree.tag(reference, by: self, kind: Kind.reference)
        cmark_node_insert_before(text, reference)
        if shown, let digits = tree.newNode(CMARK_NODE_TEXT) {
            MarkdownTree.setLiteral(digits, String(number).utf8)
            cmark_node_append_child(reference, digits)
        }
        cmark_node_free(text)
    }

    /// Moves the notes referred to, in the order of their numbers, into the notes' section at
    /// the end of the document; frees the others.
    private func moveNotes(_ numbered: [(index: Int, shown: [Bool])], in tree: MarkdownTree) {
        let kept = Set(numbered.map(\.index))
        tree.free(tree.footnotes.indices.filter { !kept.contains($0) }.compactMap { tree.footnotes[$0].note })
        guard !numbered.isEmpty,
            let section = tree.newNode(
                CMARK_NODE_CUSTOM_BLOCK, enter: "<section class=\"footnotes\" data-footnotes>\n<ol>", exit: "</ol>\n</section>")
        else { return }
        cmark_node_append_child(tree.root, section)
        for (index, shown) in numbered {
            guard let note = tree.footnotes[index].note else { continue }
            let id = PercentEncoding.escapedHref(tree.footnotes[index].label)
            cmark_node_set_on_enter(note, "<li id=\"fn-\(id)\">")
            cmark_node_set_on_exit(note, "</li>")
            cmark_node_append_child(section, note)
            var links: [String] = []
            for (position, isShown) in shown.enumerated() where isShown {
                let reference = position + 1
                let href = "#fnref-\(id)\(reference > 1 ? "-\(reference)" : "")"
                let mark = reference > 1 ? "↩<sup class=\"footnote-ref\">\(reference)</sup>" : "↩"
                links.append("<a href=\"\(href)\" class=\"footnote-backref\" data-footnote-backref aria-label=\"Back to content\">\(mark)</a>")
            }
            guard !links.isEmpty else { continue }
            let last = cmark_node_last_child(note)
            let inParagraph = last.map { cmark_node_get_type($0) == CMARK_NODE_PARAGRAPH } ?? false
            guard
                let backLinks = tree.newNode(
                    inParagraph ? CMARK_NODE_CUSTOM_INLINE : CMARK_NODE_CUSTOM_BLOCK, enter: (inParagraph ? " " : "") + links.joined(separator: " "))
            else { continue }
            tree.tag(backLinks, by: self, kind: Kind.backLinks)
            if inParagraph, let last { cmark_node_append_child(last, backLinks) } else { cmark_node_append_child(note, backLinks) }
        }
    }

    func plainText(of node: OpaquePointer, kind: UInt8, entering: Bool) -> PlainTextPiece? {
        switch kind {
        case Kind.reference: .inline(Array((entering ? "[" : "]").utf8))
        case Kind.note: .numbered(before: [UInt8(ascii: "[")], after: Array("] ".utf8), rest: Array("    ".utf8))
        case Kind.backLinks: .inline([])
        default: nil
        }
    }
}
