/// A body's blocks in an already parsed CommonMark tree (for Markdown input, the whole
/// document's, so that `[x][ref]` resolves against a definition in another section).
/// It is a cache of the body's text: it never makes two nodes differ.
struct BodyBlocks: Equatable, @unchecked Sendable {
    // (Unchecked: the tree is only read once parsing is done, and a page's links are
    // rewritten by the one thread that renders it.)
    let document: CommonMarkDocument
    /// The blocks' indexes in `document` (32-bit: kept in every node of a large outline).
    private let blocks: Range<Int32>
    var range: Range<Int> { Int(blocks.lowerBound)..<Int(blocks.upperBound) }

    init(document: CommonMarkDocument, range: Range<Int>) {
        self.document = document
        blocks = Int32(clamping: range.lowerBound)..<Int32(clamping: range.upperBound)
    }

    static func == (_: BodyBlocks, _: BodyBlocks) -> Bool { true }
}

/// Renders a body (CommonMark text) as HTML or plain text: from its parsed blocks when it
/// has them, else by parsing it on its own.
enum BodyRendering {
    /// Appends the body's HTML. With `links`, each link and image destination goes through
    /// it first (a docs site); `line` places links when the tree's lines are not the source's.
    static func appendHTML(
        _ body: BodyStorage, blocks: BodyBlocks?, unsafe: Bool, links: PageLinks?, line: Int, to html: inout ByteBuffer
    ) {
        guard let (document, range, sourceLines) = source(body, blocks) else { return }
        if let links {
            document.rewriteLinks(ofBlocks: range) { url, linkLine, column in
                sourceLines ? links.href(for: url, line: linkLine, column: column) : links.href(for: url, line: line, column: 0)
            }
        }
        document.appendHTML(ofBlocks: range, unsafe: unsafe, to: &html)
    }

    /// The body as plain text, each non-blank line starting with `indent`.
    static func plainText(_ body: BodyStorage, blocks: BodyBlocks?, indent: String = "") -> [UInt8] {
        guard let (document, range, _) = source(body, blocks) else { return [] }
        // About the size of the text (the source less its syntax, plus indents): one buffer.
        return document.plainText(ofBlocks: range, indent: indent, sizeHint: body.count + body.count / 8)
    }

    private static func source(_ body: BodyStorage, _ blocks: BodyBlocks?) -> (CommonMarkDocument, Range<Int>, Bool)? {
        if let blocks { return (blocks.document, blocks.range, blocks.document.sourceLines) }
        guard !body.isEmpty else { return nil }
        let alone = CommonMarkDocument(parsing: body.string)
        return (alone, alone.group(0..<alone.blockCount), false)
    }
}

extension OutlineNode {
    func appendBodyHTML(unsafe: Bool, links: PageLinks?, to html: inout ByteBuffer) {
        BodyRendering.appendHTML(bodyStorage, blocks: blocks, unsafe: unsafe, links: links, line: line, to: &html)
    }

    func bodyPlainText(indent: String) -> [UInt8] {
        BodyRendering.plainText(bodyStorage, blocks: blocks, indent: indent)
    }
}

extension Outline {
    func appendBodyHTML(unsafe: Bool, links: PageLinks?, to html: inout ByteBuffer) {
        BodyRendering.appendHTML(bodyStorage, blocks: blocks, unsafe: unsafe, links: links, line: 0, to: &html)
    }

    func bodyPlainText() -> [UInt8] {
        BodyRendering.plainText(bodyStorage, blocks: blocks)
    }
}

extension Outline {
    /// For an outline read from a format other than Markdown: when a body holds what may be
    /// a link reference definition, all bodies are parsed as one CommonMark document (the
    /// Markdown this outline writes), so that `[x][ref]` in one section resolves against a
    /// definition in another, exactly as it does when the same outline comes as Markdown.
    /// If that document does not hold every section apart (a body leaves a code block
    /// open), bodies stay parsed on their own.
    mutating func parseBodiesTogether(maxInputSize: Int) {
        guard blocks == nil, Self.mayDefineLinks(body) || nodes.contains(where: Self.mayDefineLinks) else { return }
        let context = WriteContext(options: ConversionOptions(), file: "", pageTitle: "", inputSize: 0)
        let markdown = MarkdownEmitter().write(self, context: context).bytes
        guard let together = try? MarkdownParser(maxInputSize: maxInputSize).parse(bytes: markdown, file: "").outline else { return }
        var parsed: [BodyBlocks?] = []
        together.forEachNode { parsed.append($0.blocks) }
        var count = 0
        forEachNode { _ in count += 1 }
        guard parsed.count == count else { return }
        blocks = together.blocks
        blocks?.document.sourceLines = false
        var index = 0
        mapNodes { node in
            node.blocks = parsed[index]
            node.blocks?.document.sourceLines = false
            index += 1
        }
    }

    private static func mayDefineLinks(_ node: OutlineNode) -> Bool {
        mayDefineLinks(node.body) || node.children.contains(where: mayDefineLinks)
    }

    /// Whether the text may hold a definition (`[label]: destination`): a cheap test that
    /// lets most outlines skip the joint parse.
    private static func mayDefineLinks(_ body: String) -> Bool {
        var previous: UInt8 = 0
        for byte in body.utf8 {
            if previous == UInt8(ascii: "]") && byte == UInt8(ascii: ":") { return true }
            previous = byte
        }
        return false
    }
}
