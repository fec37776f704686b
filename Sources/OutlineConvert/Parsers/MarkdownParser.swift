/// Reads Markdown with cmark (SPEC §3.1): top-level ATX and setext headings become nodes,
/// nested under the nearest preceding heading of a lower level; the text between headings
/// is each node's body, as the exact source slice.
public struct MarkdownParser: Sendable {
    public init() {}

    /// Parses `text`; `file` names the source in messages.
    public func parse(_ text: String, file: String) throws -> ParsedDocument {
        let text = SourceText.normalizingLineEndings(text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let frontMatter = try FrontMatter(lines: lines, file: file)
        // cmark must not see the front matter (`---` would be a rule or a setext underline);
        // blank lines keep its line numbers equal to ours.
        let markdown = frontMatter.lineCount == 0
            ? text
            : String(repeating: "\n", count: frontMatter.lineCount)
                + lines[frontMatter.lineCount...].joined(separator: "\n")
        let document = CommonMarkDocument(parsing: markdown)

        var headings: [(level: Int, node: OutlineNode, foldAll: Bool, blockIndex: Int)] = []
        var bodyLineRanges: [(from: Int, blockIndex: Int)] = [(frontMatter.lineCount + 1, 0)]
        for (index, block) in document.blocks.enumerated() {
            guard let heading = block.heading else { continue }
            let endLine = headingEndLine(block, lines: lines)
            let markers = HeadingMarkers(parts: heading.parts)
            let node = OutlineNode(
                title: markers.title, id: markers.id ?? "", collapsed: markers.collapsed,
                attributes: markers.attributes, line: block.startLine)
            headings.append((heading.level, node, markers.foldAll, index))
            bodyLineRanges.append((endLine + 1, index + 1))
        }

        // Bodies: from after one heading up to the line before the next (or the end).
        var bodies: [String] = []
        var blockRanges: [Range<Int>] = []
        for (i, start) in bodyLineRanges.enumerated() {
            let next = i + 1 < bodyLineRanges.count ? headings[i].blockIndex : nil
            let endLine = next.map { document.blocks[$0].startLine - 1 } ?? lines.count
            bodies.append(Self.slice(lines, from: start.from, through: endLine))
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

    // MARK: - Helpers

    /// The last line of a heading. cmark reports a setext heading as ending on the line after
    /// its underline, so find the underline: the first `===` / `---` line after the start.
    private func headingEndLine(_ block: CommonMarkDocument.Block, lines: [Substring]) -> Int {
        let first = lines[block.startLine - 1].drop { $0 == " " }
        if first.hasPrefix("#") { return block.startLine }
        var line = block.startLine + 1
        while line <= min(block.endLine, lines.count) {
            if Self.isSetextUnderline(lines[line - 1]) { return line }
            line += 1
        }
        return min(block.endLine, lines.count)
    }

    private static func isSetextUnderline(_ line: Substring) -> Bool {
        let indent = line.prefix { $0 == " " }.count
        guard indent < 4 else { return false }
        let content = line.dropFirst(indent).reversed().drop { $0 == " " || $0 == "\t" }
        guard let mark = content.first, mark == "=" || mark == "-" else { return false }
        return content.allSatisfy { $0 == mark }
    }

    /// Lines `from...through` (1-based) joined with LF, without leading and trailing blank lines.
    private static func slice(_ lines: [Substring], from: Int, through: Int) -> String {
        var low = max(from, 1)
        var high = min(through, lines.count)
        while low <= high, isBlank(lines[low - 1]) { low += 1 }
        while high >= low, isBlank(lines[high - 1]) { high -= 1 }
        guard low <= high else { return "" }
        return lines[(low - 1)...(high - 1)].joined(separator: "\n")
    }

    private static func isBlank(_ line: Substring) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" }
    }

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
