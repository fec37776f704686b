import Foundation

/// Reads Markdown with cmark (SPEC §3.1): top-level ATX and setext headings become nodes,
/// nested under the nearest preceding heading of a lower level; the text between headings
/// is each node's body, as the exact source slice.
public struct MarkdownParser: Sendable {
    /// A parser; it keeps no state between documents.
    public init() {}

    /// Parses Markdown `text`; `file` names the source in messages.
    public func parse(_ text: String, file: String) throws -> ParsedDocument {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// Parses Markdown from raw bytes: they must be UTF-8 without NUL bytes (else a located error).
    public func parse(bytes: consuming [UInt8], file: String) throws -> ParsedDocument {
        let source = Lines(try SourceText.validated(bytes, file: file))
        let frontMatter = try FrontMatter(source.frontMatterCandidate, file: file)
        // cmark must not see the front matter (`---` would be a rule or a setext underline);
        // blank lines in its place keep cmark's line numbers equal to ours.
        let document = frontMatter.lineCount == 0
            ? CommonMarkDocument(parsing: source.bytes[...])
            : CommonMarkDocument(parsing: (Array(repeating: 10, count: frontMatter.lineCount)
                + source.bytes[source.start(ofLine: frontMatter.lineCount + 1)...])[...])

        var headings: [(level: Int, node: OutlineNode, foldAll: Bool, blockIndex: Int)] = []
        var bodyStarts: [(line: Int, blockIndex: Int)] = [(frontMatter.lineCount + 1, 0)]
        for (index, block) in document.blocks.enumerated() {
            guard let heading = block.heading else { continue }
            let markers = HeadingMarkers(parts: heading.parts)
            let node = OutlineNode(
                title: markers.title, id: markers.id ?? "", collapsed: markers.collapsed,
                attributes: markers.attributes, line: block.startLine)
            headings.append((heading.level, node, markers.foldAll, index))
            bodyStarts.append((source.headingEndLine(block) + 1, index + 1))
        }

        // Bodies: from after one heading up to the line before the next (or the end).
        var bodies: [String] = []
        var blockRanges: [Range<Int>] = []
        for (i, start) in bodyStarts.enumerated() {
            let next = i < headings.count ? headings[i].blockIndex : nil
            let endLine = next.map { document.blocks[$0].startLine - 1 } ?? source.count
            bodies.append(source.text(from: start.line, through: endLine))
            blockRanges.append(start.blockIndex..<(next ?? document.blocks.count))
        }

        var outline = Outline(
            title: frontMatter.title, body: bodies[0], attributes: frontMatter.attributes,
            collapseDepth: frontMatter.collapseDepth)
        outline.nodes = Self.nest(headings.enumerated().map { i, heading in
            var node = heading.node
            node.body = bodies[i + 1]
            return (heading.level, node, heading.foldAll)
        })
        return ParsedDocument(
            outline: outline, bodies: BodyRenderer(document: document, blockRanges: blockRanges))
    }

    // MARK: - Nesting

    /// Builds the tree: each heading nests under the nearest preceding heading of a lower
    /// level. `foldAll` collapses a node and every node below it that says nothing itself.
    private static func nest(_ flat: [(level: Int, node: OutlineNode, foldAll: Bool)]) -> [OutlineNode] {
        var stack: [(level: Int, node: OutlineNode, foldAll: Bool)] = []
        var roots: [OutlineNode] = []
        func closeTop() {
            guard var top = stack.popLast() else { return }
            if top.foldAll { top.node = foldingAll(top.node) }
            if stack.isEmpty { roots.append(top.node) } else { stack[stack.count - 1].node.children.append(top.node) }
        }
        for entry in flat {
            while let top = stack.last, top.level >= entry.level { closeTop() }
            stack.append(entry)
        }
        while !stack.isEmpty { closeTop() }
        return roots
    }

    private static func foldingAll(_ node: OutlineNode) -> OutlineNode {
        var node = node
        node.collapsed = node.collapsed ?? true
        node.children = node.children.map(foldingAll)
        return node
    }
}

// MARK: - Lines

/// The source as validated bytes, addressed by 1-based line numbers without splitting it
/// into strings (documents may be tens of megabytes).
private struct Lines {
    let bytes: [UInt8]
    private let starts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count, let found = memchr(base + offset, 10, buffer.count - offset) {
                offset = base.distance(to: UnsafeRawPointer(found)) + 1
                starts.append(offset)
            }
        }
        self.starts = starts
    }

    /// The number of lines (the text after the last line break counts as one, even if empty).
    var count: Int { starts.count }

    func start(ofLine line: Int) -> Int { starts[min(line, starts.count) - 1] }

    /// Line `number`'s bytes, without its line break.
    func line(_ number: Int) -> ArraySlice<UInt8> {
        let end = number < starts.count ? starts[number] - 1 : bytes.count
        return bytes[starts[number - 1]..<end]
    }

    /// The first lines as text, when the file starts like front matter (at most 1 MiB).
    var frontMatterCandidate: [Substring] {
        guard bytes.starts(with: Array("---".utf8)) else { return [] }
        var end = min(bytes.count, 1 << 20)
        while end < bytes.count, end > 0, bytes[end - 1] != 10 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Lines `from...through` joined with LF, without leading and trailing blank lines.
    func text(from: Int, through: Int) -> String {
        var low = max(from, 1)
        var high = min(through, count)
        while low <= high, isBlank(low) { low += 1 }
        while high >= low, isBlank(high) { high -= 1 }
        guard low <= high else { return "" }
        return String(decoding: bytes[starts[low - 1]..<line(high).endIndex], as: UTF8.self)
    }

    private func isBlank(_ number: Int) -> Bool {
        line(number).allSatisfy { $0 == 32 || $0 == 9 }
    }

    /// The last line of a heading. cmark reports a setext heading as ending on the line after
    /// its underline, so find the underline: the first `===` / `---` line after the start.
    func headingEndLine(_ block: CommonMarkDocument.Block) -> Int {
        if line(block.startLine).drop(while: { $0 == 32 }).first == UInt8(ascii: "#") { return block.startLine }
        let last = min(block.endLine, count)
        var number = block.startLine + 1
        while number <= last {
            if isSetextUnderline(line(number)) { return number }
            number += 1
        }
        return last
    }

    private func isSetextUnderline(_ line: ArraySlice<UInt8>) -> Bool {
        let indent = line.prefix { $0 == 32 }.count
        guard indent < 4 else { return false }
        let content = line.dropFirst(indent).reversed().drop { $0 == 32 || $0 == 9 }
        guard let mark = content.first, mark == UInt8(ascii: "=") || mark == UInt8(ascii: "-") else { return false }
        return content.allSatisfy { $0 == mark }
    }
}
