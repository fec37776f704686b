internal import CCmark

/// What reading keeps so that bodies render without being parsed again: the whole
/// document's CommonMark tree (for Markdown input, so that `[x][ref]` resolves against a
/// definition in another section), and, for the preamble and then each node in document
/// order, the range of its blocks and the body text they were parsed from.
///
/// It lives beside the outline, never in it: the outline stays a plain value. An entry is
/// used only while the outline still holds the same body at that position, so an outline
/// changed after reading (a title, a body, nodes added or moved) renders correctly: a body
/// that is not the one parsed is parsed on its own.
struct ParsedBodies: @unchecked Sendable {
    // (Unchecked: the tree is only read once parsing is done, and a page's links are
    // rewritten by the one thread that renders it.)
    let document: CommonMarkDocument
    /// How bodies were read, and how a body changed since is read.
    let flavor: MarkdownFlavor
    /// Position 0 is the preamble; position n + 1 is the n-th node in document order.
    private var entries: [(body: String, blocks: Range<Int32>)] = []

    init(document: CommonMarkDocument, flavor: MarkdownFlavor = .gitHub, capacity: Int = 0) {
        self.document = document
        self.flavor = flavor
        entries.reserveCapacity(capacity)
    }

    /// Adds the entry of the next position: `body`, parsed as `blocks` of the document.
    mutating func append(_ body: String, blocks: Range<Int>) {
        entries.append((body, Int32(clamping: blocks.lowerBound)..<Int32(clamping: blocks.upperBound)))
    }

    var count: Int { entries.count }

    /// The blocks of `body` at `position`, if that is the body parsed there.
    fileprivate func blocks(of body: String, at position: Int) -> Range<Int>? {
        guard position < entries.count else { return nil }
        let entry = entries[position]
        // (Equal strings that share storage compare in constant time: the usual case.)
        guard entry.body == body else { return nil }
        return Int(entry.blocks.lowerBound)..<Int(entry.blocks.upperBound)
    }
}

/// What reads a page's body HTML as it is written: in a docs site the search's text of its
/// sections, and on any page the languages of its code blocks (for their highlighting).
struct HTMLReaders {
    var search: SearchText?
    var code: CodeLanguages?

    /// Gives `html` (whole elements) to the readers; the code's languages only when
    /// `mayHoldCode` (math may be in any block).
    func read(_ html: UnsafeBufferPointer<UInt8>, mayHoldCode: Bool) {
        search?.append(html: html)
        if mayHoldCode { code?.collect(from: html) }
        code?.collectMath(from: html)
    }
}

/// Renders bodies (CommonMark text) as HTML or plain text: from the blocks read with the
/// document when they are still the body's, else by parsing the body on its own.
struct BodyRenderer {
    let bodies: ParsedBodies?
    /// For HTML: the page's ids, from which the headings that bodies hold get theirs (and
    /// groups of tabs their names).
    var headingIds = PageHeadingIdentifiers()
    /// `--expand-all` (true) or `--collapse-all` (false), for the blocks bodies hold too.
    var forcedOpen: Bool? = nil
    /// For plain text: ASCII markers.
    var ascii = false
    /// How a body not among `bodies` is read.
    var flavor = MarkdownFlavor.gitHub
    /// How the page's Markdown is read: its bodies' flavour (a title line's too).
    var pageFlavor: MarkdownFlavor { bodies?.flavor ?? flavor }
    /// The link reference definitions of the page's bodies (`linkDefinitions(of:)`), for
    /// titles: a changelog's `## [1.0.0] - 2017-06-20` links through one.
    var titleDefinitions = ""
    /// For HTML: what reads the bodies' HTML as it is written (the site search's text, the
    /// languages of the code).
    var readers = HTMLReaders()

    /// Appends the HTML of `body` at `position` (see `ParsedBodies`). With `links`, each
    /// link and image destination goes through it first (a docs site); `line` places links
    /// when the tree's lines are not the source's. `writing` may take a top-level block
    /// (given it and its line) to write it itself (see `CommonMarkDocument.appendHTML`).
    func appendHTML(
        _ body: String, at position: Int, line: Int, unsafe: Bool, links: PageLinks?, to html: inout ByteBuffer,
        writing: ((OpaquePointer, Int) -> ((inout ByteBuffer) -> Void)?)? = nil
    ) {
        guard let (document, range, sourceLines) = source(body, at: position) else { return }
        let rewrite = links.map { links in
            { (url: String, linkLine: Int, column: Int) in
                sourceLines ? links.href(for: url, line: linkLine, column: column) : links.href(for: url, line: line, column: 0)
            }
        }
        Self.settleLinks(of: document, blocks: range, unsafe: unsafe, rewrite: rewrite)
        document.prepare(ofBlocks: range, ids: headingIds, forcedOpen: forcedOpen)
        document.appendHTML(
            ofBlocks: range, unsafe: unsafe, to: &html, readers: readers,
            writing: writing.map { writing in { block in writing(block, sourceLines ? Int(cmark_node_get_start_line(block)) : line) } })
    }

    /// The HTML inside the one paragraph that `markdown` (a title line with markup) makes,
    /// links rewritten as in bodies; nil when it makes anything else (a block of its own).
    func inlineHTML(_ markdown: String, line: Int, unsafe: Bool, links: PageLinks?) -> [UInt8]? {
        if let html = literalHTML(markdown, line: line, links: links, wikiLinks: { wikiLinks }) { return html }
        var document = CommonMarkDocument(parsing: markdown, flavor: pageFlavor, isBody: true)
        guard document.blockCount == 1 else { return nil }
        if !titleDefinitions.isEmpty && markdown.containsByte(UInt8(ascii: "[")) {
            // (The definitions after the line: what they make, if anything, comes after its block.)
            document = CommonMarkDocument(parsing: markdown + "\n\n" + titleDefinitions, flavor: pageFlavor, isBody: true)
        }
        let rewrite = links.map { links in { (url: String, _: Int, _: Int) in links.href(for: url, line: line, column: 0) } }
        Self.settleLinks(of: document, blocks: 0..<1, unsafe: unsafe, rewrite: rewrite)
        var html = ByteBuffer(capacity: markdown.utf8.count * 2)
        document.appendHTML(ofBlocks: 0..<1, unsafe: unsafe, to: &html)
        return Self.paragraphContent(html.finish())
    }

    /// The HTML of a title line that needs no parse: a literal line's, or with the page's
    /// wiki links, a line of `LiteralLine.wikiPieces`'s; nil for the others.
    /// (`wikiLinks` is asked only for such a line: it looks through the flavour's extensions.)
    private func literalHTML(_ markdown: String, line: Int, links: PageLinks?, wikiLinks: () -> WikiLinkExtension?) -> [UInt8]? {
        if LiteralLine.holds(markdown) { return LiteralLine.html(markdown) }
        guard let pieces = LiteralLine.wikiPieces(markdown), let wikiLinks = wikiLinks() else { return nil }
        return wikiLinks.html(of: pieces) { url in links?.href(for: url, line: line, column: 0) }
    }

    /// The wiki links of the flavour bodies are read in, if it has them.
    private var wikiLinks: WikiLinkExtension? {
        pageFlavor.extensions.lazy.compactMap { $0 as? WikiLinkExtension }.first
    }

    /// Before blocks are written: their raw HTML settled (`settleRawHTML`), then, in a site,
    /// every link's destination through `rewrite` (given it and its line and column).
    private static func settleLinks(
        of document: CommonMarkDocument, blocks range: Range<Int>, unsafe: Bool, rewrite: ((String, Int, Int) -> String?)?
    ) {
        document.settleRawHTML(ofBlocks: range, keepsAll: unsafe, rewrite: rewrite)
        if let rewrite { document.rewriteLinks(ofBlocks: range, rewrite) }
    }

    /// What is inside `<p>…</p>\n`; nil for HTML of anything else.
    private static func paragraphContent(_ html: [UInt8]) -> [UInt8]? {
        guard html.starts(with: Array("<p>".utf8)), html.count >= 8, html.suffix(5).elementsEqual("</p>\n".utf8) else { return nil }
        return Array(html[3..<(html.count - 5)])
    }

    /// `inlineHTML` of each title line: a literal line's as it is, the others' read in one
    /// document (each line a paragraph) where that gives the same: lines that cannot start
    /// a block of several lines (no fence, list, quote, table, heading, HTML or definition);
    /// nil for the others, and for all when the document does not read as one paragraph a
    /// line.
    func inlineHTMLs(_ titles: [(markdown: String, line: Int)], unsafe: Bool, links: PageLinks?) -> [[UInt8]?] {
        let wikiLinks = wikiLinks
        var results = titles.map { literalHTML($0.markdown, line: $0.line, links: links, wikiLinks: { wikiLinks }) }
        let batched = titles.indices.filter { results[$0] == nil && Self.isParagraphAlone(titles[$0].markdown) }
        guard !batched.isEmpty else { return results }
        // (The page's definitions after the titles: what they make, if anything, comes after.)
        let document = CommonMarkDocument(
            parsing: batched.map { titles[$0].markdown }.joined(separator: "\n\n") + "\n\n" + titleDefinitions, flavor: pageFlavor,
            isBody: true)
        let all = 0..<document.blockCount
        let rewrite = links.map { links in
            // (Line 2i + 1 of the document is title i's.)
            { (url: String, line: Int, _: Int) in
                let index = (line - 1) / 2
                return links.href(for: url, line: index >= 0 && index < batched.count ? titles[batched[index]].line : 0, column: 0)
            }
        }
        Self.settleLinks(of: document, blocks: all, unsafe: unsafe, rewrite: rewrite)
        let blocks = document.eachBlockHTML(ofBlocks: all, unsafe: unsafe)
        // (Each title one block, then what the definitions make on their own: mostly nothing.)
        let afterTitles = titleDefinitions.isEmpty ? 0 : CommonMarkDocument(parsing: titleDefinitions, isBody: true).blockCount
        guard blocks.count == batched.count + afterTitles else { return results }
        for (index, html) in zip(batched, blocks) { results[index] = Self.paragraphContent(html) }
        return results
    }

    /// Whether a title line reads as one paragraph whatever lines stand around it: it starts
    /// with a letter, or with what starts no block (a code span, emphasis, a link, an image,
    /// a wiki link, a parenthesis, a number). (A line that does start one makes
    /// the batch fail its checks: every title is then rendered on its own.)
    private static func isParagraphAlone(_ line: String) -> Bool {
        let bytes = line.utf8
        guard let first = bytes.first, !line.containsByte(.lineFeed), !line.containsByte(.carriageReturn), !line.hasSuffix("|"),
            !line.contains(bytes: "]:")  // (a definition's `[label]:`)
        else { return false }
        let second = bytes.dropFirst().first
        switch first {
        case _ where first.isASCIILetter || first >= 0x80: return true
        case UInt8(ascii: "["), UInt8(ascii: "("): return true
        case UInt8(ascii: "`"): return second != UInt8(ascii: "`")  // (never a fence)
        case UInt8(ascii: "!"): return second == UInt8(ascii: "[")  // (never `!!!`)
        case UInt8(ascii: "*"), UInt8(ascii: "_"):
            // Emphasis: not a list item (`* x`) or a rule (`***`, `_ _ _`).
            return second != .space && second != .tab && bytes.contains { !($0 == first || $0 == .space || $0 == .tab) }
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            // A number, not an ordered list's (`1.` or `1)` before a space or the end).
            let rest = bytes.drop { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard let mark = rest.first, mark == UInt8(ascii: ".") || mark == UInt8(ascii: ")") else { return true }
            let after = rest.dropFirst().first
            return after != nil && after != .space && after != .tab
        default: return false
        }
    }

    /// The body as plain text, each non-blank line starting with `indent`.
    func plainText(_ body: String, at position: Int, indent: String = "") -> [UInt8] {
        guard let (document, range, _) = source(body, at: position) else { return [] }
        // About the size of the text (the source less its syntax, plus indents): one buffer.
        let size = body.utf8.count
        return document.plainText(
            ofBlocks: range, indent: indent, sizeHint: size + size / 8, blockStyle: PlainTextBlockStyle(ascii: ascii, forcedOpen: forcedOpen))
    }

    private func source(_ body: String, at position: Int) -> (CommonMarkDocument, Range<Int>, Bool)? {
        if let bodies, !bodies.document.isStructureOnly, let range = bodies.blocks(of: body, at: position) {
            return (bodies.document, range, bodies.document.sourceLines)
        }
        guard !body.isEmpty else { return nil }
        let alone = CommonMarkDocument(parsing: body, flavor: pageFlavor, isBody: true)
        return (alone, alone.group(0..<alone.blockCount), false)
    }
}

extension BodyRenderer {
    /// The lines of `outline`'s preamble and bodies that start a link reference definition
    /// (`[label]: destination`, on one line), for titles' links (`titleDefinitions`).
    static func linkDefinitions(of outline: Outline) -> String {
        var lines: [UInt8] = []
        // (By bytes: a body of thousands of lines is read once, most of it by memchr.)
        func collect(_ body: String) {
            guard body.contains(bytes: "]:") else { return }
            var body = body
            body.withUTF8 { bytes in
                var start = 0
                while start < bytes.count {
                    let end = bytes.firstIndex(ofByte: .lineFeed, from: start) ?? bytes.count
                    var first = start
                    while first < end, first - start < 3, bytes[first] == .space { first += 1 }
                    if first + 1 < end, bytes[first] == UInt8(ascii: "["), bytes[first + 1] != UInt8(ascii: "^"),
                        UnsafeBufferPointer(rebasing: bytes[first..<end]).firstIndex(of: Self.definitionMark) != nil
                    {
                        lines += bytes[start..<end]
                        lines.append(.lineFeed)
                    }
                    start = end + 1
                }
            }
        }
        collect(outline.body)
        outline.forEachNode { collect($0.body) }
        return String(decoding: lines, as: UTF8.self)
    }

    private static let definitionMark = Array("]:".utf8)
}

extension ParsedBodies {
    /// For an outline read from a format other than Markdown: when a body holds what may be
    /// a link reference definition, all bodies are parsed as one CommonMark document (the
    /// Markdown this outline writes), so that `[x][ref]` in one section resolves against a
    /// definition in another, exactly as it does when the same outline comes as Markdown.
    /// Nil when no body may define a link, or when that document does not hold every
    /// section apart (a body leaves a code block open): bodies are parsed on their own then.
    static func together(_ outline: Outline, maxInputSize: Int, flavor: MarkdownFlavor = .gitHub) -> ParsedBodies? {
        guard mayDefineLinks(outline.body) || outline.nodes.contains(where: mayDefineLinks) else { return nil }
        let context = WriteContext(options: ConversionOptions(), file: "", pageTitle: "", inputSize: 0)
        let markdown = MarkdownEmitter().write(outline, context: context).bytes
        guard let parsed = try? MarkdownParser(maxInputSize: maxInputSize, flavor: flavor).parse(bytes: markdown, file: ""),
            let read = parsed.bodies
        else { return nil }
        var bodies = [outline.body]
        outline.forEachNode { bodies.append($0.body) }
        guard read.count == bodies.count else { return nil }
        // The entries stand for this outline's own bodies (the Markdown may have escaped a
        // line of one), and the tree's lines are not the source's.
        var together = ParsedBodies(document: read.document, flavor: flavor, capacity: bodies.count)
        for (position, body) in bodies.enumerated() {
            let entry = read.entries[position]
            together.entries.append((body, entry.blocks))
        }
        together.document.sourceLines = false
        return together
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
