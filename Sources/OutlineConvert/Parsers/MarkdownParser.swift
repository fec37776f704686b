#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads Markdown with cmark (docs/formats.md): top-level ATX and setext headings become nodes,
/// nested under the nearest preceding heading of a lower level; the text between headings
/// is each node's body, as the exact source slice. Bodies are GitHub Flavored Markdown
/// (`markdown`), strict CommonMark (`commonmark`), mdBook's (`mdbook`: Rust blocks hide
/// their boring lines) or mkdocs' dialect (`mkdocs`).
struct MarkdownParser: OutlineReader {
    var name: String {
        switch flavor {
        case .gitHub: "markdown"
        case .commonMark: "commonmark"
        case .mdBook: "mdbook"
        default: "mkdocs"
        }
    }
    var extensions: [String] { flavor == .gitHub ? ["md", "markdown", "mdown", "mkd", "mkdn"] : [] }
    let isText = true
    private let limits: MarkdownLimits
    private let flavor: MarkdownFlavor

    /// A parser of GitHub Flavored Markdown; it keeps no state between documents. Its limits
    /// on hostile shapes scale with `maxInputSize` (see `MarkdownLimits`).
    init(maxInputSize: Int = ConversionOptions.defaultMaxInputSize) {
        self.init(maxInputSize: maxInputSize, flavor: .gitHub)
    }

    init(maxInputSize: Int = ConversionOptions.defaultMaxInputSize, flavor: MarkdownFlavor) {
        limits = MarkdownLimits(maxInputSize: maxInputSize)
        self.flavor = flavor
    }

    /// Markdown takes any text: it is what is left when nothing else matches (strict
    /// CommonMark is read only when asked for).
    func sniff(_ head: ArraySlice<UInt8>) -> Bool { flavor == .gitHub }

    func read(_ bytes: [UInt8], file: String, options: ConversionOptions) throws -> ParsedDocument {
        // (An output that writes bodies as their text needs the sections only.)
        // (In a graph or vault, pages link by name.)
        let flavor = options.wikiIndex != nil && flavor == .gitHub ? MarkdownFlavor.withWikiLinks(index: options.wikiIndex, page: file) : flavor
        return try MarkdownParser(maxInputSize: options.maxInputSize, flavor: flavor).parse(
            bytes: bytes, file: file, structureOnly: !options.to.writer.rendersBodies)
    }

    /// Parses Markdown `text`; `file` names the source in messages.
    func parse(_ text: String, file: String) throws -> ParsedDocument {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// Parses Markdown from raw bytes: they must be UTF-8 without NUL bytes (else a located error).
    func parse(bytes: consuming [UInt8], file: String) throws -> ParsedDocument {
        try parse(bytes: bytes, file: file, structureOnly: false)
    }

    func parse(bytes: consuming [UInt8], file: String, structureOnly: Bool) throws -> ParsedDocument {
        let source = Lines(try SourceText.validated(bytes, file: file))
        try limits.check(source.bytes, lineStarts: source.starts, file: file)
        let frontMatter = try FrontMatter(source.frontMatterCandidate, file: file)
        // cmark must not see the front matter (`---` would be a rule or a setext underline);
        // blank lines in its place keep cmark's line numbers equal to ours.
        let document =
            frontMatter.lineCount == 0
            ? CommonMarkDocument(parsing: source.bytes[...], flavor: flavor, structureOnly: structureOnly)
            : CommonMarkDocument(
                parsing: (Array(repeating: 10, count: frontMatter.lineCount)
                    + source.bytes[source.start(ofLine: frontMatter.lineCount + 1)...])[...], flavor: flavor,
                structureOnly: structureOnly)

        // One pass: each heading ends the body before it, closes the open nodes of its level
        // or deeper, and opens its own.
        var tree = TreeBuilder()
        var bodies = ParsedBodies(document: document, flavor: flavor)
        var preamble = ""
        var bodyStart = (line: frontMatter.lineCount + 1, block: 0)
        var levelOneTitle: String?
        // Bodies end in document order: the preamble first, then each node's.
        func endBody(beforeLine line: Int, block: Int) {
            let body = String(decoding: source.text(from: bodyStart.line, through: line - 1), as: UTF8.self)
            // (The document has grouped each body's blocks already: one entry between headings.)
            bodies.append(body, blocks: bodyStart.block..<block)
            if bodies.count == 1 { preamble = body } else { tree.setBodyOfLast(body) }
        }
        for index in 0..<document.blockCount {
            guard let block = document.heading(at: index) else { continue }
            let heading = block.heading
            endBody(beforeLine: block.startLine, block: index)
            let endLine = source.headingEndLine(block)
            // (Attributes end the heading's text: on its line, or a setext heading's last line.)
            let textLine = endLine > block.startLine ? endLine - 1 : endLine
            let markers = HeadingMarkers(parts: heading.parts, source: source.line(textLine))
            var attributes = markers.attributes
            // A title with markup keeps it as written beside its plain text (docs/formats.md):
            // HTML shows it, Markdown writes it back. (Not one with a footnote's reference: a
            // title does not show it.)
            if attributes[AttributeKey.outlinerTitle] == nil, document.headingHoldsMarkup(index) {
                let markdown = source.headingContent(from: block.startLine, through: textLine)
                if markdown != markers.title && !markdown.contains(bytes: "[^") { attributes[AttributeKey.outlinerTitle] = markdown }
            }
            var level = heading.level
            if level == 1 && levelOneTitle == nil { levelOneTitle = markers.title }
            // The Markdown writer's fallback for depths past six: `###### x {outline-depth="9"}`.
            if level == 6, let depth = attributes[AttributeKey.depth].flatMap({ Int($0) }), depth > 6 {
                level = min(depth, XMLReader.maxDepth)
                attributes[AttributeKey.depth] = nil
            }
            tree.open(
                OutlineNode(
                    title: markers.title, id: markers.id ?? "", collapsed: markers.collapsed,
                    attributes: attributes, line: block.startLine),
                level: level, foldAll: markers.foldAll)
            bodyStart = (endLine + 1, index + 1)
            document.doneWithHeading(index)
        }
        endBody(beforeLine: source.count + 1, block: document.blockCount)

        let outline = Outline(
            title: frontMatter.title, body: preamble, nodes: tree.finish(), attributes: frontMatter.attributes,
            collapseDepth: frontMatter.collapseDepth)
        var parsed = ParsedDocument(outline: outline, warnings: frontMatter.warnings, bodies: bodies)
        parsed.levelOneTitle = levelOneTitle
        return parsed
    }
}

// MARK: - Nesting

/// Builds the tree as headings arrive: each nests under the nearest preceding heading of a
/// lower level. `foldAll` collapses a node and every node below it that says nothing itself.
private struct TreeBuilder {
    private var stack: [(level: Int, node: OutlineNode, foldAll: Bool)] = []
    /// The top-level nodes, in runs of `runLength` (the last one open): one array grown by
    /// doubling would hold a document of a million headings up to three times over while it
    /// grows, in memory of its own, while runs this small reuse what cmark frees as the
    /// headings are read. Joined once, at the end.
    private var roots: [[OutlineNode]] = [[]]
    private static let runLength = 512

    mutating func open(_ node: consuming OutlineNode, level: Int, foldAll: Bool) {
        while let top = stack.last, top.level >= level { closeTop() }
        stack.append((level, node, foldAll))
    }

    /// Sets the body of the node opened last.
    mutating func setBodyOfLast(_ body: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].node.body = body
    }

    mutating func finish() -> [OutlineNode] {
        while !stack.isEmpty { closeTop() }
        if roots.count == 1 { return roots[0] }
        var all: [OutlineNode] = []
        all.reserveCapacity(roots.reduce(0) { $0 + $1.count })
        for index in roots.indices {
            all += roots[index]
            roots[index] = []  // (each run let go once copied)
        }
        return all
    }

    private mutating func closeTop() {
        guard let (_, popped, foldAll) = stack.popLast() else { return }
        let node = foldAll ? Self.foldingAll(popped) : popped
        if stack.isEmpty {
            if roots[roots.count - 1].count == Self.runLength { roots.append([]) }
            roots[roots.count - 1].append(node)
        } else {
            stack[stack.count - 1].node.children.append(node)
        }
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
struct Lines {
    let bytes: [UInt8]
    /// The offset of each line's first byte (32-bit: inputs are at most 1 GiB).
    let starts: [UInt32]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.starts = Self.lineStarts(bytes)
    }

    /// The offset of every line's first byte. The array is reserved for a line every 16
    /// bytes, more than most text has: grown by doubling instead, each copy touches fresh
    /// pages; pages reserved and never written cost nothing.
    static func lineStarts(_ bytes: [UInt8]) -> [UInt32] {
        var starts: [UInt32] = []
        starts.reserveCapacity(bytes.count / 16 + 2)
        starts.append(0)
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while let found = buffer.firstIndex(ofByte: .lineFeed, from: offset) {
                offset = found + 1
                starts.append(UInt32(truncatingIfNeeded: offset))
            }
        }
        return starts
    }

    /// The number of lines (the text after the last line break counts as one, even if empty).
    var count: Int { starts.count }

    func start(ofLine line: Int) -> Int { Int(starts[min(line, starts.count) - 1]) }

    /// Line `number`'s bytes, without its line break.
    func line(_ number: Int) -> ArraySlice<UInt8> {
        let end = number < starts.count ? Int(starts[number]) - 1 : bytes.count
        return bytes[Int(starts[number - 1])..<end]
    }

    /// The first lines as text, when the file starts like front matter: through the first
    /// line after the first that is `---` or `...` (trailing blanks aside), within 1 MiB.
    var frontMatterCandidate: [Substring] {
        guard bytes.starts(with: Array("---".utf8)) else { return [] }
        var number = 2
        while number <= count, start(ofLine: number) < 1 << 20 {
            var line = line(number)
            while let last = line.last, last == .space || last == .tab { line.removeLast() }
            if line.elementsEqual("---".utf8) || line.elementsEqual("...".utf8) {
                let end = number < count ? start(ofLine: number + 1) : bytes.count
                return String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            }
            number += 1
        }
        return []
    }

    /// Lines `from...through` joined with LF, without leading and trailing blank lines.
    func text(from: Int, through: Int) -> ArraySlice<UInt8> {
        var low = max(from, 1)
        var high = min(through, count)
        while low <= high, isBlank(low) { low += 1 }
        while high >= low, isBlank(high) { high -= 1 }
        guard low <= high else { return [] }
        return bytes[Int(starts[low - 1])..<line(high).endIndex]
    }

    private func isBlank(_ number: Int) -> Bool {
        line(number).allSatisfy { $0 == .space || $0 == .tab }
    }

    /// The last line of a heading. cmark reports a setext heading as ending on the line after
    /// its underline, so find the underline: the first `===` / `---` line after the start.
    /// A heading's content as written on its lines `first` through `last` (an ATX heading's
    /// one line, a setext heading's text lines), on one line: without the ATX markers, and
    /// without markmap's comments and the pandoc attributes that end it.
    func headingContent(from first: Int, through last: Int) -> String {
        if first == last, line(first).drop(while: { $0 == .space }).first == UInt8(ascii: "#") {
            return String(decoding: HeadingMarkers.content(of: line(first), atx: true), as: UTF8.self)
        }
        let lines =
            (first..<last).map { String(decoding: line($0), as: UTF8.self).trimmed }
            + [String(decoding: HeadingMarkers.content(of: line(last), atx: false), as: UTF8.self)]
        return lines.filter { !$0.isEmpty }.joined(separator: " ")
    }

    func headingEndLine(_ block: CommonMarkDocument.HeadingBlock) -> Int {
        if line(block.startLine).drop(while: { $0 == .space }).first == UInt8(ascii: "#") { return block.startLine }
        let last = min(block.endLine, count)
        var number = block.startLine + 1
        while number <= last {
            if isSetextUnderline(line(number)) { return number }
            number += 1
        }
        return last
    }

    private func isSetextUnderline(_ line: ArraySlice<UInt8>) -> Bool {
        let indent = line.prefix { $0 == .space }.count
        guard indent < 4 else { return false }
        let content = line.dropFirst(indent).reversed().drop { $0 == .space || $0 == .tab }
        guard let mark = content.first, mark == UInt8(ascii: "=") || mark == UInt8(ascii: "-") else { return false }
        return content.allSatisfy { $0 == mark }
    }
}
