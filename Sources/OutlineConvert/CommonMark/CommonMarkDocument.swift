internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A CommonMark document parsed by cmark, with its flavour's extensions made on its tree
/// (`MarkdownFlavor`, `MarkdownExtension`). Only the files of this folder touch cmark: the
/// tree is owned here and freed when the last reference goes away.
final class CommonMarkDocument {
    /// A top-level heading: its lines as cmark reports them (1-based), its level and its
    /// inline content.
    struct HeadingBlock {
        let startLine: Int
        let endLine: Int
        let heading: Heading
    }

    /// A heading's level and content, in pieces from which a plain title can be built.
    struct Heading {
        let level: Int
        let parts: [TitlePart]
    }

    /// A piece of heading content.
    enum TitlePart: Equatable {
        case text(String)
        case code(String)
        case html(String)
        case lineBreak
    }

    private let root: OpaquePointer
    /// Where the tree's memory comes from: an arena (`NodeArena`), or malloc when nil.
    private let arena: NodeArena?
    /// The top-level blocks; nil once discarded.
    private var blockNodes: [OpaquePointer?]
    /// Whether headings are freed once read (see `doneWithHeading`).
    private let headingsAreDense: Bool
    /// Whether the tree's line numbers are the source file's (Markdown input), so that a
    /// link can be placed exactly; not for bodies of another format parsed together.
    var sourceLines = true

    /// The extensions' tree: what they made, and their steps when blocks are written.
    private let tree: MarkdownTree
    /// The headings bodies hold, made linkable (see `BodyHeadings`), and the id each was
    /// given when written.
    private var bodyHeadings: BodyHeadings
    private var headingIds: [OpaquePointer: String] = [:]
    /// The name each group of tabs was given when written.
    private var groupNames: [OpaquePointer: String] = [:]
    /// The top-level blocks whose inline content the extensions have made (`completeInlines`).
    private var inlinesMade: Set<OpaquePointer> = []
    /// The top-level blocks whose raw HTML is settled (`settleRawHTML`).
    private var rawHTMLSettled: Set<OpaquePointer> = []
    /// Read only for its sections' structure (see `parse`): never rendered.
    let isStructureOnly: Bool

    /// Parses `text` with source positions; `isBody` when it is one body on its own (its
    /// top-level headings are content, not sections).
    convenience init(parsing text: String, flavor: MarkdownFlavor = .gitHub, isBody: Bool = false, structureOnly: Bool = false) {
        self.init(parsing: Array(text.utf8)[...], flavor: flavor, isBody: isBody, structureOnly: structureOnly)
    }

    /// Parses UTF-8 `bytes` with source positions.
    init(parsing bytes: ArraySlice<UInt8>, flavor: MarkdownFlavor = .gitHub, isBody: Bool = false, structureOnly: Bool = false) {
        // A document that is mostly headings frees them as they are read (`doneWithHeading`),
        // which gives memory back only through malloc: it is parsed without an arena.
        let arena = MemoryPolicy.usesArena(denseInHeadings: Self.mayBeDenseInHeadings(bytes)) ? NodeArena(textSize: bytes.count) : nil
        let memory = NodeArena.memory(of: arena)
        self.arena = arena
        // cmark returns NULL only when out of memory.
        guard
            let (tree, headings) = NodeArena.run(
                in: arena,
                {
                    Self.parse(bytes, flavor: flavor, isBody: isBody, structureOnly: structureOnly, memory: memory)
                })
        else { fatalError("cmark could not allocate a document") }
        root = tree.root
        self.tree = tree
        self.isStructureOnly = structureOnly
        bodyHeadings = headings
        var topLevelHeadings = 0
        blockNodes = NodeArena.run(in: arena) { Self.groupingBodies(of: tree.root, memory: memory, headings: &topLevelHeadings) }
        headingsAreDense = topLevelHeadings > bytes.count / Self.denseHeadingBytes
    }

    /// cmark's tree of `bytes` with what the flavour's extensions make of it (see
    /// `MarkdownExtension` for the order of their steps), and the headings of bodies made
    /// linkable. Nil only when cmark is out of memory. With `structureOnly` (for an output
    /// that writes bodies as their source text: JSON, Markdown, XML, OPML, plist), only what
    /// decides which headings are sections is made: the tree is then never rendered.
    private static func parse(
        _ bytes: ArraySlice<UInt8>, flavor: MarkdownFlavor, isBody: Bool, structureOnly: Bool, memory: UnsafeMutablePointer<cmark_mem>
    ) -> (MarkdownTree, BodyHeadings)? {
        guard let tree = MarkdownTree(reading: bytes, flavor: flavor, memory: memory, topLevelHeadings: isBody, structureOnly: structureOnly)
        else { return nil }
        for step in flavor.extensions { step.rewriteSource(of: tree) }
        tree.prepare()
        var headings = BodyHeadings()
        if structureOnly {
            for step in tree.extensions { step.shapeSections(of: tree) }
            return (tree, headings)
        }
        // (Section titles are read before any body is written.)
        if !isBody && !tree.extensions.isEmpty {
            var child = cmark_node_first_child(tree.root)
            while let node = child {
                if cmark_node_get_type(node) == CMARK_NODE_HEADING { tree.makeInlines(under: node) }
                child = cmark_node_next(node)
            }
        }
        for step in tree.extensions { step.makeBlocks(of: tree) }
        for step in tree.extensions { step.finishBlocks(of: tree) }
        let nodes = tree.headings
        if !nodes.isEmpty { headings.make(nodes, root: tree.root, source: tree.source, memory: memory) }
        tree.forgetWalk()
        return (tree, headings)
    }

    /// cmark's tree of UTF-8 `bytes`, with source positions (and with `smart`, smart
    /// punctuation), its nodes from `memory` (the caller frees it); nil only when cmark is
    /// out of memory.
    static func tree(of bytes: ArraySlice<UInt8>, memory: UnsafeMutablePointer<cmark_mem>, smart: Bool = false) -> OpaquePointer? {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text -> OpaquePointer? in
                guard let parser = cmark_parser_new_with_mem(CMARK_OPT_SOURCEPOS | (smart ? CMARK_OPT_SMART : 0), memory) else { return nil }
                defer { cmark_parser_free(parser) }
                if let start = text.baseAddress { cmark_parser_feed(parser, start, text.count) }
                return cmark_parser_finish(parser)
            }
        }
    }

    /// The allocator of the tree's nodes (and of what cmark allocates for them later).
    private var memory: UnsafeMutablePointer<cmark_mem> { NodeArena.memory(of: arena) }

    /// Whether the text's start (its first 64 KiB) has more than one heading line (`#` after
    /// at most three spaces) per `denseHeadingBytes`.
    private static func mayBeDenseInHeadings(_ bytes: ArraySlice<UInt8>) -> Bool {
        let sample = bytes.prefix(65_536)
        var headings = 0
        sample.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                var at = start
                while at < buffer.count, at - start < 3, buffer[at] == .space { at += 1 }
                if at < buffer.count, buffer[at] == UInt8(ascii: "#") { headings += 1 }
                guard let end = buffer.firstIndex(ofByte: .lineFeed, from: at) else { break }
                start = end + 1
            }
        }
        return headings > sample.count / denseHeadingBytes
    }

    /// The top-level blocks, each run of blocks between two headings moved under one
    /// container (see `group`) as they are met: the walk is the one time each block is read
    /// before rendering (after parsing a large document, a block is a cache miss at least).
    private static func groupingBodies(of root: OpaquePointer, memory: UnsafeMutablePointer<cmark_mem>, headings: inout Int) -> [OpaquePointer?] {
        var blocks: [OpaquePointer?] = []
        var run: (first: OpaquePointer, container: OpaquePointer?)?
        var next = cmark_node_first_child(root)
        while let block = next {
            next = cmark_node_next(block)
            guard cmark_node_get_type(block) != CMARK_NODE_HEADING else {
                headings += 1
                run = nil
                blocks.append(block)
                continue
            }
            guard let (first, container) = run else {
                run = (block, nil)
                blocks.append(block)
                continue
            }
            if let container {
                cmark_node_append_child(container, block)
            } else if let container = Self.container(holding: first, memory: memory) {
                cmark_node_append_child(container, block)
                run = (first, container)
                blocks[blocks.count - 1] = container
            } else {
                blocks.append(block)  // (no memory for a container: the block stays on its own)
                run = (block, nil)
            }
        }
        return blocks
    }

    /// The number of top-level entries: headings, and bodies (a block, or the container of
    /// a run of blocks; see `groupingBodies`).
    var blockCount: Int { blockNodes.count }

    /// Top-level block `index` if it is a heading (read from the tree when asked, so nothing
    /// is kept twice); nil for any other block, or once discarded. Only its type is read
    /// from a block that is not a heading.
    func heading(at index: Int) -> HeadingBlock? {
        guard let node = blockNodes[index], cmark_node_get_type(node) == CMARK_NODE_HEADING else { return nil }
        return HeadingBlock(
            startLine: Int(cmark_node_get_start_line(node)), endLine: Int(cmark_node_get_end_line(node)),
            heading: Heading(level: Int(cmark_node_get_heading_level(node)), parts: Self.titleParts(of: node)))
    }

    /// Whether heading `index` holds markup (see `holdsMarkup(_:)`).
    func headingHoldsMarkup(_ index: Int) -> Bool { blockNodes[index].map(Self.holdsMarkup) ?? false }

    /// Says that heading `index` has been read: it is never rendered from the tree. In a
    /// document that is mostly headings (more than one per `denseHeadingBytes` bytes) it is
    /// freed now, so that a million headings are not held twice: malloc reuses their memory
    /// for the outline that grows beside them. Other documents keep their headings:
    /// they add little to the peak, and freeing them costs time (docs/performance.md).
    func doneWithHeading(_ index: Int) {
        guard headingsAreDense, let node = blockNodes[index] else { return }
        cmark_node_unlink(node)
        cmark_node_free(node)
        blockNodes[index] = nil
    }

    /// See `doneWithHeading`: a heading and its text take about 400 bytes of cmark's.
    private static let denseHeadingBytes = 512

    /// Moves the top-level blocks in `range` under one container (a custom block with no
    /// markup of its own, which renders as exactly its children), so that a body renders in
    /// one call to cmark instead of one per block. Returns `range`, which now holds the
    /// container at its start and nothing after it.
    @discardableResult
    func group(_ range: Range<Int>) -> Range<Int> {
        guard let first = range.first(where: { blockNodes[$0] != nil }), let firstNode = blockNodes[first],
            range.last(where: { blockNodes[$0] != nil }) != first,
            let container = Self.container(holding: firstNode, memory: memory)
        else { return range }
        for index in range {
            guard let node = blockNodes[index], node != firstNode else { continue }
            cmark_node_append_child(container, node)
            blockNodes[index] = nil
        }
        blockNodes[first] = nil
        blockNodes[range.lowerBound] = container
        return range
    }

    /// A new container (a custom block with no markup of its own) in `block`'s place, with
    /// `block` moved into it; nil if cmark has no memory for it.
    private static func container(holding block: OpaquePointer, memory: UnsafeMutablePointer<cmark_mem>) -> OpaquePointer? {
        guard let container = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, memory) else { return nil }
        guard cmark_node_insert_before(block, container) != 0 else {
            cmark_node_free(container)
            return nil
        }
        cmark_node_append_child(container, block)
        return container
    }

    deinit { cmark_node_free(root) }

    /// Settles what the blocks in `range` write that depends on the page: the ids of their
    /// headings and the names of their groups of tabs, from `ids` (once: written again, a
    /// heading keeps its id), and, with `forcedOpen`, the state of their collapsible blocks.
    func prepare(ofBlocks range: Range<Int>, ids: PageHeadingIdentifiers, forcedOpen: Bool?) {
        completeInlines(ofBlocks: range)
        identifyHeadings(ofBlocks: range, ids: ids)
        let blocks = tree.blocks
        guard !blocks.isEmpty else { return }
        for case let block? in blockNodes[range] {
            for node in blocks.blocks(in: block) {
                guard let made = blocks.blocks[node] else { continue }
                var name: String?
                if let group = made.group {
                    name = groupNames[group] ?? ids.id(for: "outline-tabs")
                    groupNames[group] = name
                }
                cmark_node_set_on_enter(node, made.openingTag(open: forcedOpen ?? made.open, name: name))
            }
        }
    }

    /// Makes the extensions' inline content (strikethrough, autolinks) in the blocks in
    /// `range` that do not have it yet.
    private func completeInlines(ofBlocks range: Range<Int>) {
        guard !isStructureOnly && !tree.extensions.isEmpty else { return }
        for case let block? in blockNodes[range] where inlinesMade.insert(block).inserted {
            tree.makeInlines(under: block)
        }
    }

    private func identifyHeadings(ofBlocks range: Range<Int>, ids: PageHeadingIdentifiers) {
        guard !bodyHeadings.blocks.isEmpty else { return }
        for case let block? in blockNodes[range] {
            for node in bodyHeadings.headings(in: block) {
                guard let heading = bodyHeadings.headings[node] else { continue }
                if let id = headingIds[node] {
                    // (The same calls as the first time: the same mkdocs id.)
                    ids.reuse(id)
                    _ = heading.title.flatMap { ids.mkdocsID(title: $0, id: id) }
                    continue
                }
                let id = ids.id(for: heading.base)
                headingIds[node] = id
                var tag = ByteBuffer()
                tag.write("<h\(heading.level) id=\"")
                tag.write(escaping: id)
                tag.write("\">")
                MkDocsSlug.writeAnchor(heading.title.flatMap { ids.mkdocsID(title: $0, id: id) }, into: &tag)
                var bytes = tag.finish()
                bytes.append(0)
                bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { _ = cmark_node_set_on_enter(node, $0.baseAddress) } }
            }
        }
    }

    /// Appends the HTML cmark renders for the blocks in `range` to `html` (see `prepare`
    /// first), and its text to `text`. Raw HTML is omitted unless `unsafe`. `writing` may
    /// take a top-level block (given it, before anything is written) to write it itself
    /// (what it writes is not searched); it sees the blocks a body's container holds.
    func appendHTML(
        ofBlocks range: Range<Int>, unsafe: Bool, to html: inout ByteBuffer, readers: HTMLReaders = HTMLReaders(),
        writing: ((OpaquePointer) -> ((inout ByteBuffer) -> Void)?)? = nil
    ) {
        completeInlines(ofBlocks: range)
        func render(_ node: OpaquePointer) { self.render(node, unsafe: unsafe, to: &html, readers: readers) }
        for case let node? in blockNodes[range] {
            guard let writing else {
                render(node)
                continue
            }
            if let write = writing(node) {
                write(&html)
                continue
            }
            // A body's container (no markup of its own): its blocks one by one, if it holds one taken.
            let children = Self.contained(node).map { ($0, writing($0)) }
            guard children.contains(where: { $0.1 != nil }) else {
                render(node)
                continue
            }
            for (block, write) in children {
                if let write { write(&html) } else { render(block) }
            }
        }
    }

    /// The HTML of each top-level block in `range` on its own, as `appendHTML` writes it
    /// (the blocks a body's container holds one by one).
    func eachBlockHTML(ofBlocks range: Range<Int>, unsafe: Bool) -> [[UInt8]] {
        completeInlines(ofBlocks: range)
        var blocks: [[UInt8]] = []
        for case let node? in blockNodes[range] {
            let contained = Self.contained(node)
            for block in contained.isEmpty ? [node] : contained {
                var html = ByteBuffer()
                render(block, unsafe: unsafe, to: &html, readers: HTMLReaders())
                blocks.append(html.finish())
            }
        }
        return blocks
    }

    /// The blocks `node` holds when it is a body's container (see `group`); none for any other block.
    private static func contained(_ node: OpaquePointer) -> [OpaquePointer] {
        guard cmark_node_get_type(node) == CMARK_NODE_CUSTOM_BLOCK, cmark_node_get_on_enter(node).map({ $0.pointee == 0 }) ?? true else { return [] }
        return MarkdownTree.children(of: node)
    }

    /// Appends cmark's HTML of `node`, as the extensions rewrite it, to `html`, and gives it to `readers`.
    private func render(_ node: OpaquePointer, unsafe: Bool, to html: inout ByteBuffer, readers: HTMLReaders) {
        let steps = tree.extensions
        let lines = sourceText(of: node)
        for step in steps { step.beforeHTML(of: node, text: lines, keepsRawHTML: unsafe) }
        guard let rendered = cmark_render_html(node, unsafe ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT) else { return }
        defer { memory.pointee.free(rendered) }  // (from the tree's allocator)
        let bytes = UnsafeRawBufferPointer(start: rendered, count: strlen(rendered)).assumingMemoryBound(to: UInt8.self)
        let isCode = readers.code != nil && MarkdownTree.mayHoldCode(node) && (lines.map(CodeInfoExtension.mayHoldFence) ?? true)
        if let rewritten = Self.rewrittenHTML(bytes, by: steps) {
            html.write(rewritten)
            rewritten.withUnsafeBufferPointer { readers.read($0, mayHoldCode: isCode) }
        } else {
            html.write(UnsafeRawBufferPointer(bytes))
            readers.read(bytes, mayHoldCode: isCode)
        }
    }

    /// cmark's HTML of a block as the extensions rewrite it, each in turn; nil when none does.
    private static func rewrittenHTML(_ html: UnsafeBufferPointer<UInt8>, by steps: [any MarkdownExtension]) -> [UInt8]? {
        var rewritten: [UInt8]?
        for step in steps {
            let next = rewritten.map { bytes in bytes.withUnsafeBufferPointer { step.rewriteHTML($0) } } ?? step.rewriteHTML(html)
            if let next { rewritten = next }
        }
        return rewritten
    }

    /// Settles the raw HTML of the blocks in `range`, once (see `RawHTMLExtension`): what
    /// GitHub keeps of it, or all of it with `keepsAll`; the URLs kept go through `rewrite`
    /// as links' do (see `rewriteLinks`). Nothing when the flavour has no `raw_html`.
    func settleRawHTML(ofBlocks range: Range<Int>, keepsAll: Bool, rewrite: ((String, Int, Int) -> String?)?) {
        guard let raw = tree.rawHTML else { return }
        completeInlines(ofBlocks: range)
        let placed = rewrite.map { rewrite in
            { (url: String, node: OpaquePointer, line: Int, column: Int) in
                let (line, column) = self.sourcePosition(line: line, column: column, of: node)
                return rewrite(url, line, column)
            }
        }
        for index in range {
            guard let block = blockNodes[index], rawHTMLSettled.insert(block).inserted, mayHoldRawHTML(block) else { continue }
            let settled = raw.settle(block, in: tree, keepsAll: keepsAll, rewrite: placed)
            guard settled != block else { continue }
            blockNodes[index] = settled
            rawHTMLSettled.remove(block)
            rawHTMLSettled.insert(settled)
            if inlinesMade.remove(block) != nil { inlinesMade.insert(settled) }
        }
    }

    /// Whether the lines a top-level block was read from hold a `<`; true when that is not known.
    private func mayHoldRawHTML(_ block: OpaquePointer) -> Bool {
        sourceText(of: block).map { $0.firstIndex(ofByte: UInt8(ascii: "<")) != nil } ?? true
    }

    /// The lines a top-level block was read from (a body's container has no lines of its
    /// own: its blocks' are read); nil when they are not known.
    private func sourceText(of block: OpaquePointer) -> ArraySlice<UInt8>? {
        let first = cmark_node_get_start_line(block) > 0 ? block : cmark_node_first_child(block)
        let last = cmark_node_get_start_line(block) > 0 ? block : cmark_node_last_child(block)
        guard let first, let last else { return nil }
        // (cmark ends an HTML block that closes on its first line, `<!-- c --> text`, on the
        // line before it: such a last block would be left out.)
        let (start, end) = (Int(cmark_node_get_start_line(first)), max(Int(cmark_node_get_end_line(last)), Int(cmark_node_get_start_line(last))))
        guard start > 0, end >= start, end <= tree.source.count else { return nil }
        return tree.source.lines(start, through: end)
    }

    /// Where `line` and `column` of `node`'s document are in the source: inside a table or
    /// a block moved in from a cells' document, through the innermost such node's origin;
    /// a node made by an extension (line 0) is placed at the nearest node above it that has one.
    private func sourcePosition(line: Int, column: Int, of node: OpaquePointer) -> (Int, Int) {
        var (line, column) = (line, column)
        var ancestor = cmark_node_parent(node)
        while let current = ancestor {
            if line == 0, cmark_node_get_start_line(current) > 0 { (line, column) = (Int(cmark_node_get_start_line(current)), 0) }
            if let level = NodeTag(of: current)?.level {
                let origin = LineOrigin.of(line: line, level: level, in: tree.moved)
                return (Int(origin.line), max(column + Int(origin.columnShift), 1))
            }
            ancestor = cmark_node_parent(current)
        }
        return (line, column)
    }

    /// Lets `rewrite` change the destination of every link and image in the blocks in
    /// `range` (given the destination and its 1-based line and byte column; nil keeps it).
    /// Code spans and code blocks hold no links, so their text is never touched.
    func rewriteLinks(ofBlocks range: Range<Int>, _ rewrite: (String, Int, Int) -> String?) {
        completeInlines(ofBlocks: range)
        for case let block? in blockNodes[range] {
            // Inside a table or a block moved in from a cells' document, positions are that
            // document's: the innermost such node says which. (A leaf holds no link.)
            var levels: [(node: OpaquePointer, level: Int)] = []
            // The line of the last node met that has one: a link an extension made (a wiki
            // link) has none, and is placed there, its column unknown.
            var lastLine = 0
            Self.walk(block) { node, entering in
                let type = cmark_node_get_type(node)
                if !entering, levels.last?.node == node { levels.removeLast() }
                if entering, !Self.isLeaf(node), let level = NodeTag(of: node)?.level { levels.append((node, level)) }
                if entering, cmark_node_get_start_line(node) > 0 { lastLine = Int(cmark_node_get_start_line(node)) }
                guard entering, type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { return }
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                var line = Int(cmark_node_get_start_line(node))
                var column = Int(cmark_node_get_start_column(node))
                if line == 0 { (line, column) = (lastLine, 0) }
                if let level = levels.last?.level {
                    let origin = LineOrigin.of(line: line, level: level, in: tree.moved)
                    line = Int(origin.line)
                    column = max(column + Int(origin.columnShift), 1)
                }
                if let replacement = rewrite(url, line, column) {
                    cmark_node_set_url(node, replacement)
                }
            }
        }
    }

    /// Plain text of the blocks in `range`, every non-blank line starting with `indent`: no
    /// Markdown syntax; lists keep a bullet or number, block quotes and list items are
    /// indented, code keeps its lines, raw HTML is dropped.
    func plainText(ofBlocks range: Range<Int>, indent: String, sizeHint: Int = 0, blockStyle: PlainTextBlockStyle = .init()) -> [UInt8] {
        completeInlines(ofBlocks: range)
        var writer = PlainTextWriter(
            indent: indent, sizeHint: sizeHint, blocks: tree.blocks.blocks, extensions: tree.flavor.extensions, style: blockStyle)
        for case let node? in blockNodes[range] { writer.write(node) }
        return writer.finish()
    }
}
