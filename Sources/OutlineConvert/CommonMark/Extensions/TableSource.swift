internal import CCmark

/// A paragraph, as cmark read it, that holds a GFM table (or a setext heading whose text
/// does: cmark reads the line after a table as its underline when it is `---`): its source
/// lines (container markers set aside) split into the text before the header row, the
/// header's cells, the alignments of the delimiter row, the body rows' cells, and the lines
/// after the table that a table cannot hold (they are read as blocks again).
struct TableSource {
    /// A line of the paragraph: its text after the container markers and the indent,
    /// the same with the indent as spaces (for lines read as blocks again), and where it
    /// starts.
    struct Line {
        let number: Int
        /// Where the source line starts.
        let lineStart: Int
        let content: ArraySlice<UInt8>
        let rest: [UInt8]
        /// A lazy continuation line (it lacks its container's markers or indent).
        let lazy: Bool
        /// Indented four columns or more past its container's content.
        let indented: Bool
    }

    /// A cell's text, trimmed, with `\|` unescaped, and its line and 1-based column.
    struct Cell {
        let text: [UInt8]
        let line: Int
        let column: Int
    }

    let before: [Line]?
    let header: [Cell]
    let alignments: [TableAlignment?]
    let rows: [[Cell]]
    let after: [Line]?

    /// cmark-gfm's limit on cells a table fills in for short rows (a few bytes of input
    /// must not make a huge table).
    private static let maxFilledCells = 0x80000

    /// The table in `block` (a paragraph, or a setext heading whose underline is `lastLine`).
    init?(block: OpaquePointer, lastLine: Int, source: SourceLines) {
        var quotes = 0
        var inItem = false
        var parent = cmark_node_parent(block)
        while let node = parent {
            switch cmark_node_get_type(node) {
            case CMARK_NODE_BLOCK_QUOTE: quotes += 1
            case CMARK_NODE_ITEM, CMARK_NODE_LIST: inItem = true
            case CMARK_NODE_DOCUMENT, CMARK_NODE_CUSTOM_BLOCK: break  // (a block's content has no markers of its own)
            default: return nil
            }
            parent = cmark_node_parent(node)
        }
        let lines = Self.lines(of: block, through: lastLine, source: source, quotes: quotes, inItem: inItem)
        // (A heading's underline is no delimiter row: cmark-gfm reads a setext heading first.)
        let isHeading = cmark_node_get_type(block) == CMARK_NODE_HEADING
        for delimiter in lines.indices.dropFirst().dropLast(isHeading ? 1 : 0) {
            let headerLine = lines[delimiter - 1]
            guard !lines[delimiter].lazy, !lines[delimiter].indented, !headerLine.lazy,
                let alignments = Self.alignments(ofDelimiterRow: lines[delimiter].content)
            else { continue }
            let header = Self.cells(of: headerLine)
            guard header.count == alignments.count else { continue }
            var rows: [[Cell]] = []
            var end = delimiter + 1
            var filled = 0
            while end < lines.count, !Self.endsTable(lines[end]) {
                let cells = Self.cells(of: lines[end]).prefix(alignments.count)
                guard !cells.isEmpty else { break }  // (`|` alone is no row: the table ends)
                filled += alignments.count - cells.count
                guard filled <= Self.maxFilledCells else { break }
                rows.append(Array(cells))
                end += 1
            }
            self.before = delimiter > 1 ? Array(lines[..<(delimiter - 1)]) : nil
            self.header = header
            self.alignments = alignments
            self.rows = rows
            self.after = end < lines.count ? Array(lines[end...]) : nil
            return
        }
        return nil
    }

    /// The paragraph's lines. Each block quote around it takes `>` (and a space) from the
    /// start of a line; inside a list item, a line must be indented as far as the
    /// paragraph's first line (else it is a lazy continuation). Indents are counted in
    /// columns, a tab reaching the next multiple of four, as cmark counts them.
    private static func lines(of block: OpaquePointer, through last: Int, source: SourceLines, quotes: Int, inItem: Bool) -> [Line] {
        let first = Int(cmark_node_get_start_line(block))
        var lines: [Line] = []
        var base = 0
        for number in first...max(first, last) {
            let raw = source.line(number)
            let (afterQuotes, quoted) = strippingQuotes(raw, count: quotes)
            let textStart = afterQuotes.firstIndex { $0 != .space && $0 != .tab } ?? afterQuotes.endIndex
            let indent = column(of: textStart, in: raw) - column(of: afterQuotes.startIndex, in: raw)
            if number == first {
                let start = min(raw.startIndex + Int(cmark_node_get_start_column(block)) - 1, raw.endIndex)
                let content = raw[max(start, afterQuotes.startIndex)...]
                base = inItem ? column(of: content.startIndex, in: raw) - column(of: afterQuotes.startIndex, in: raw) : 0
                lines.append(
                    Line(number: number, lineStart: raw.startIndex, content: content, rest: Array(content), lazy: false, indented: false))
                continue
            }
            let lazy = !quoted || indent < base
            // A line read again as blocks keeps its indent past the container's, as spaces (the
            // `> ` it is given there would move a tab's stop).
            let rest =
                lazy
                ? Array(repeating: .space, count: column(of: textStart, in: raw))
                    + raw[(raw.firstIndex { $0 != .space && $0 != .tab } ?? raw.endIndex)...]
                : Array(repeating: .space, count: indent - base) + afterQuotes[textStart...]
            lines.append(
                Line(
                    number: number, lineStart: raw.startIndex, content: afterQuotes[textStart...], rest: rest, lazy: lazy,
                    indented: !lazy && indent - base >= 4))
        }
        return lines
    }

    /// The column of `index` in its line, tabs reaching the next multiple of four.
    private static func column(of index: Int, in line: ArraySlice<UInt8>) -> Int {
        var column = 0
        for byte in line[line.startIndex..<index] { column = byte == .tab ? column + 4 - column % 4 : column + 1 }
        return column
    }

    private static func strippingQuotes(_ line: ArraySlice<UInt8>, count: Int) -> (ArraySlice<UInt8>, Bool) {
        var rest = line
        for _ in 0..<count {
            rest = rest.drop { $0 == .space || $0 == .tab }
            guard rest.first == UInt8(ascii: ">") else { return (rest, false) }
            rest = rest.dropFirst()
            if let first = rest.first, first == .space || first == .tab { rest = rest.dropFirst() }
        }
        return (rest, true)
    }

    /// Whether a line after the delimiter row ends the table though cmark read it as part of
    /// the paragraph: a lazy or indented line, a list item that cannot interrupt a
    /// paragraph (an empty one, or a numbered one not starting at 1) but ends a table, or a
    /// thematic break (which cmark took for a setext underline).
    private static func endsTable(_ line: Line) -> Bool {
        if line.lazy || line.indented || isThematicBreak(line.content) { return true }
        let text = line.content
        guard let first = text.first else { return true }
        var index = text.startIndex
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
            index += 1
        } else {
            while index < text.endIndex, text[index].isASCIIDigit, index - text.startIndex < 9 { index += 1 }
            guard index > text.startIndex, index < text.endIndex,
                text[index] == UInt8(ascii: ".") || text[index] == UInt8(ascii: ")")
            else { return false }
            index += 1
            let number = Int(String(decoding: text[text.startIndex..<(index - 1)], as: UTF8.self)) ?? 1
            if number != 1, index == text.endIndex || text[index] == .space || text[index] == .tab { return true }
        }
        return text[index...].allSatisfy { $0 == .space || $0 == .tab }
    }

    /// Three or more `-`, `*` or `_`, the same, with spaces or tabs between.
    private static func isThematicBreak(_ text: ArraySlice<UInt8>) -> Bool {
        let marks = text.filter { $0 != .space && $0 != .tab }
        guard marks.count >= 3, let mark = marks.first, mark == UInt8(ascii: "-") || mark == UInt8(ascii: "*") || mark == UInt8(ascii: "_")
        else { return false }
        return marks.allSatisfy { $0 == mark }
    }

    /// A row's cells: split at pipes that are not escaped (`\|`), a leading and a trailing
    /// pipe optional; each trimmed, with `\|` made `|`.
    private static func cells(of line: Line) -> [Cell] {
        splitRow(line.content).map { range in
            var text: [UInt8] = []
            var index = range.lowerBound
            while index < range.upperBound {
                if line.content[index] == .backslash, index + 1 < range.upperBound, line.content[index + 1] == UInt8(ascii: "|") {
                    index += 1
                }
                text.append(line.content[index])
                index += 1
            }
            let start = line.content[range].prefix { isSpace($0) }.count
            while let last = text.last, isSpace(last) { text.removeLast() }
            text.removeFirst(min(start, text.count))
            return Cell(text: text, line: line.number, column: range.lowerBound + start - line.lineStart + 1)
        }
    }

    private static func splitRow(_ text: ArraySlice<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = text.startIndex
        let end = text.endIndex
        func skipSpaces() { while index < end, text[index] == .space || text[index] == .tab { index += 1 } }
        if index < end, text[index] == UInt8(ascii: "|") {
            index += 1
            skipSpaces()
        }
        while index < end {
            let start = index
            while index < end, text[index] != UInt8(ascii: "|") {
                index += text[index] == .backslash && index + 1 < end && text[index + 1] == UInt8(ascii: "|") ? 2 : 1
            }
            if index < end {
                ranges.append(start..<index)
                index += 1
                skipSpaces()
            } else if start < index {
                ranges.append(start..<index)
            }
        }
        return ranges
    }

    /// The alignments of a delimiter row (`| :-- | :-: | --: | --- |`), or nil if the line
    /// is not one.
    static func alignments(ofDelimiterRow text: ArraySlice<UInt8>) -> [TableAlignment?]? {
        guard let first = text.first, first == UInt8(ascii: "|") || first == UInt8(ascii: ":") || first == UInt8(ascii: "-"),
            text.contains(UInt8(ascii: "-"))
        else { return nil }
        var result: [TableAlignment?] = []
        for range in splitRow(text) {
            var cell = text[range]
            while let first = cell.first, isSpace(first) { cell = cell.dropFirst() }
            while let last = cell.last, isSpace(last) { cell = cell.dropLast() }
            let left = cell.first == UInt8(ascii: ":")
            let right = cell.count > 1 && cell.last == UInt8(ascii: ":")
            let dashes = cell.dropFirst(left ? 1 : 0).dropLast(right ? 1 : 0)
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == UInt8(ascii: "-") }) else { return nil }
            result.append(left && right ? .center : left ? .left : right ? .right : nil)
        }
        return result.isEmpty ? nil : result
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .tab || byte == .lineFeed || byte == .carriageReturn || byte == 0x0B || byte == 0x0C
    }
}

/// The second document that cmark parses for the tables: each cell as a paragraph, the
/// text before and after each table as blocks, each of these alone in a block quote (so
/// that none runs into the next), then the source's link reference definitions.
struct CellDocument {
    private(set) var text: [UInt8] = []
    /// Line n + 1 of `text` comes from `origins[n]`.
    private(set) var origins: [LineOrigin] = []
    /// For each fragment, whether it is a cell.
    private(set) var fragmentIsCell: [Bool] = []

    /// A cell's text starts after this: a non-breaking space, which no block starts with, so
    /// a cell is always one paragraph (`# x` or `- x` stay text, as in a table), and which
    /// counts as white space for the delimiters that follow it.
    private static let cellPrefix = Array("> \u{A0}".utf8)

    mutating func add(_ table: TableSource) {
        if let before = table.before {
            // (cmark-gfm unescapes `\|` in the paragraph before a table too.)
            addFragment(before.map { ($0.number, Array($0.content), true) })
        }
        for cell in table.header { addCell(cell) }
        for row in table.rows { for cell in row { addCell(cell) } }
        if let after = table.after { addFragment(after.map { ($0.number, $0.rest, false) }) }
    }

    private mutating func addCell(_ cell: TableSource.Cell) {
        text += Self.cellPrefix + cell.text + [.lineFeed, .lineFeed]
        origins.append(LineOrigin(line: Int32(cell.line), columnShift: Int32(cell.column - Self.cellPrefix.count - 1)))
        origins.append(LineOrigin(line: Int32(cell.line), columnShift: 0))
        fragmentIsCell.append(true)
    }

    private mutating func addFragment(_ lines: [(number: Int, text: [UInt8], unescapePipes: Bool)]) {
        for line in lines {
            var content = line.text
            if line.unescapePipes {
                var index = 0
                while index + 1 < content.count {
                    if content[index] == .backslash && content[index + 1] == UInt8(ascii: "|") { content.remove(at: index) }
                    index += 1
                }
            }
            text += [UInt8(ascii: ">"), .space] + content + [.lineFeed]
            origins.append(LineOrigin(line: Int32(line.number), columnShift: -2))
        }
        text.append(.lineFeed)
        origins.append(.none)
        fragmentIsCell.append(false)
    }

    mutating func addDefinitions(_ lines: [ArraySlice<UInt8>]) {
        for line in lines {
            text += line + [.lineFeed]
            origins.append(.none)
        }
    }

    /// Takes the non-breaking space that starts each cell (`cellPrefix`) out of its text.
    static func removeCellPrefix(from quote: OpaquePointer) {
        guard let paragraph = cmark_node_first_child(quote), let text = cmark_node_first_child(paragraph),
            cmark_node_get_type(text) == CMARK_NODE_TEXT
        else { return }
        let literal = CommonMarkDocument.literalBytes(text)
        guard literal.starts(with: [0xC2, 0xA0]) else { return }
        if literal.count == 2 {
            cmark_node_free(text)
        } else {
            MarkdownTree.setLiteral(text, literal.dropFirst(2))
        }
    }

    /// The parsed document (the caller frees it), its nodes from `memory`.
    func parse(memory: UnsafeMutablePointer<cmark_mem>, smart: Bool) -> OpaquePointer? {
        CommonMarkDocument.tree(of: text[...], memory: memory, smart: smart)
    }
}

/// A table column's alignment, as its delimiter row gives it (`:--`, `:-:`, `--:`).
enum TableAlignment: String {
    case left, center, right
}
