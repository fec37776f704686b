internal import CCmark

extension MkDocsBlocks {
    /// Rewrites, before cmark reads the text, the headers of blocks whose place the lines
    /// alone tell: a header at the start of its line that starts a paragraph at the top
    /// level (the first line, or one after a blank line or a block's marker), outside fenced
    /// code and outside HTML blocks that run past blank lines; their content is dedented as
    /// `rewrite` dedents it, and read on in turn (a block inside a block is found in the
    /// same pass, `maxRounds` deep at most, as the rounds read them). Nil when there is none.
    ///
    /// What it leaves is what `rewrite` finds in cmark's tree afterwards (a header in a list
    /// or a quote, a header right after a paragraph's line, a fenced block); where this pass
    /// is unsure, it leaves the header. So a page whose blocks are all at the top level is
    /// read by cmark once. What it rewrote is right when cmark reads each marker as an HTML
    /// block at the top level, on its line (`isPlaced(in:)`): the line was not in code or in
    /// HTML, so it started a paragraph there, as `rewrite` asks; else the caller reads the
    /// text as it was.
    mutating func predict(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        let source = SourceLines(text)
        var lines = (1...source.count).map { source.line($0) }
        var context = LineContext()
        var found = false
        // The last lines of the blocks around the line read (as deep as the rounds read).
        var around: [Int] = []
        var number = 1
        while number <= lines.count {
            let line = lines[number - 1]
            while let last = around.last, last < number { around.removeLast() }
            if around.count < Self.maxRounds, context.blockStartsHere, let mark = line.first,
                mark == UInt8(ascii: "!") || mark == UInt8(ascii: "?") || mark == UInt8(ascii: "="),
                line.count >= 3, line[line.startIndex + 1] == mark, line[line.startIndex + 2] == mark, let header = Self.header(line)
            {
                rewriteBlock(header, line: number, start: 0, in: &lines)
                around.append(blocks[blocks.count - 1].lastLine)
                roundsRead = max(roundsRead, around.count)
                found = true
                // (Its marker is an HTML block of one line: a block may start on the next.)
                context.afterMarker()
            } else {
                context.read(line)
            }
            number += 1
        }
        return found ? lines.joinedLines() : nil
    }

    /// Whether every block's marker is an HTML block at the top level of `root` (the tree of
    /// the text `predict` rewrote), on the block's line.
    func isPlaced(in root: OpaquePointer) -> Bool {
        var placed = Array(repeating: false, count: blocks.count)
        var child = cmark_node_first_child(root)
        while let node = child {
            if cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK, let number = markerNumber(CommonMarkDocument.literalBytes(node)),
                blocks[number].line == Int(cmark_node_get_start_line(node))
            {
                placed[number] = true
            }
            child = cmark_node_next(node)
        }
        return !placed.contains(false)
    }
}

/// What the lines read so far leave open at the top level, as far as a header on the next
/// line is concerned: whether a block may start there.
private struct LineContext {
    /// The fence of an open fenced code block (its byte and length).
    private var fence: (byte: UInt8, length: Int)?
    /// What ends an open HTML block of kinds 1 to 5 (the kinds that run past blank lines).
    private var htmlEnd: [String]?
    /// Whether the last line ends any block before the next (a blank line, or the start).
    private var blockMayStart = true

    /// Whether a header at the start of the next line (no indent) would start a paragraph.
    var blockStartsHere: Bool { blockMayStart && fence == nil && htmlEnd == nil }

    mutating func afterMarker() {
        blockMayStart = true
    }

    mutating func read(_ line: ArraySlice<UInt8>) {
        if let open = fence {
            if Self.closes(line, fence: open) { fence = nil }
            blockMayStart = false
            return
        }
        if let ends = htmlEnd {
            if ends.contains(where: { line.contains(bytes: $0) }) { htmlEnd = nil }
            blockMayStart = false
            return
        }
        let indent = line.prefix { $0 == .space }.count
        let content = line.dropFirst(indent)
        if content.allSatisfy({ $0 == .space || $0 == .tab || $0 == .carriageReturn }) {
            blockMayStart = true
            return
        }
        blockMayStart = false
        // (A tab in the indent: not a fence or HTML block this pass can place; any that it
        // misses leaves a header for the rounds, never a wrong one, as a fence it thinks
        // open only stops it.)
        guard indent <= 3, content.first != .tab else { return }
        if let opened = Self.opensFence(content) {
            fence = opened
        } else if let ends = Self.htmlBlockEnds(content), !ends.contains(where: { content.dropFirst(1).contains(bytes: $0) }) {
            htmlEnd = ends
        }
    }

    /// The fence a line (without its indent) opens: three or more backticks (no backtick
    /// after them) or tildes.
    private static func opensFence(_ content: ArraySlice<UInt8>) -> (byte: UInt8, length: Int)? {
        guard let byte = content.first, byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~") else { return nil }
        let length = content.prefix { $0 == byte }.count
        guard length >= 3 else { return nil }
        if byte == UInt8(ascii: "`"), content.dropFirst(length).contains(UInt8(ascii: "`")) { return nil }
        return (byte, length)
    }

    /// Whether `line` closes the fence: at most three spaces, at least as many of its bytes,
    /// then only blanks.
    private static func closes(_ line: ArraySlice<UInt8>, fence: (byte: UInt8, length: Int)) -> Bool {
        let indent = line.prefix { $0 == .space }.count
        guard indent <= 3 else { return false }
        let content = line.dropFirst(indent)
        let length = content.prefix { $0 == fence.byte }.count
        return length >= fence.length && content.dropFirst(length).allSatisfy { $0 == .space || $0 == .tab || $0 == .carriageReturn }
    }

    /// What ends the HTML block of kind 1 to 5 a line (without its indent) starts, any of
    /// them (CommonMark's start and end conditions; the kind 1 ends in any case); nil when
    /// it starts none of those.
    private static func htmlBlockEnds(_ content: ArraySlice<UInt8>) -> [String]? {
        guard content.first == UInt8(ascii: "<") else { return nil }
        let rest = content.dropFirst()
        if rest.starts(with: "!--".utf8) { return ["-->"] }
        if rest.starts(with: "?".utf8) { return ["?>"] }
        if rest.starts(with: "![CDATA[".utf8) { return ["]]>"] }
        if rest.first == UInt8(ascii: "!"), rest.dropFirst().first?.isASCIILetter == true { return [">"] }
        let name = rest.prefix { $0.isASCIILetter }
        let after = rest.dropFirst(name.count).first
        guard after == nil || after == .space || after == .tab || after == UInt8(ascii: ">") || after == .carriageReturn else { return nil }
        let lower = String(decoding: name.map { $0 | 0x20 }, as: UTF8.self)
        guard ["script", "pre", "style", "textarea"].contains(lower) else { return nil }
        // (In the cases people write; another leaves the block open here, which only stops
        // this pass.)
        return ["</" + lower + ">", "</" + lower.uppercased() + ">", "</" + lower.prefix(1).uppercased() + lower.dropFirst() + ">"]
    }
}
