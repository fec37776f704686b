internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the steps of Markdown extensions work on (see `MarkdownExtension`): cmark's tree of
/// a text, the text, the allocator of the tree's nodes, the extensions that may apply to the
/// text, and what the steps have made so far. Built and used by `CommonMarkDocument` while
/// it parses, and kept for the steps that run when blocks are written.
final class MarkdownTree {
    let flavor: MarkdownFlavor
    /// The parsed text (the tree's source positions are into it).
    private(set) var source: SourceLines
    private(set) var root: OpaquePointer
    let memory: UnsafeMutablePointer<cmark_mem>
    /// The flavour's extensions that may apply to the text (see `prepare`).
    private(set) var extensions: [any MarkdownExtension] = []
    /// The raw HTML step among `extensions`, if any (asked for each body written).
    private(set) var rawHTML: RawHTMLExtension?
    /// The collapsible and callout blocks made.
    var blocks: CollapsibleBlocks
    /// For the nodes moved in from documents parsed beside the source (a table's cells),
    /// where each line of each such document is in the source (see `NodeTag.level`).
    var moved: [[LineOrigin]] = []
    /// The document of a table's cells (see `TableExtension`), not the source's own tree.
    let isTableCells: Bool
    /// The footnotes' definitions (see `FootnoteExtension`), in the order they were written.
    var footnotes: [Footnote] = []
    /// The lines that start definitions (see `DefinitionListExtension`), each loose or not.
    var definitions: [Int: Bool] = [:]
    /// The abbreviations the text defines, by abbreviation (see `AbbreviationExtension`).
    var abbreviations: [String: String] = [:]
    /// mkdocs' blocks rewritten before cmark read the text (see `MkDocsBlocks.predict`).
    var predictedBlocks: MkDocsBlocks?

    /// A footnote's definition: the line it starts on, its label as written, and the note
    /// made of it.
    struct Footnote {
        let line: Int
        let label: [UInt8]
        var note: OpaquePointer? = nil
    }

    /// Whether the headings at the top level of the tree are bodies' (a body parsed on its
    /// own) rather than sections; whether only the sections of the text are read.
    private let topLevelHeadings: Bool
    private let structureOnly: Bool
    /// What the shared walk of the blocks found (see `nodes(_:)`): nil until asked for.
    private var found: (types: [UInt32], nodes: [[OpaquePointer]], headings: [OpaquePointer])?
    /// Headings that steps moved out of the top level into a block (see `addHeadings`).
    private var movedHeadings: [OpaquePointer] = []

    init(
        root: OpaquePointer, source: ArraySlice<UInt8>, flavor: MarkdownFlavor, memory: UnsafeMutablePointer<cmark_mem>,
        topLevelHeadings: Bool, structureOnly: Bool
    ) {
        self.root = root
        self.source = SourceLines(source)
        self.flavor = flavor
        self.memory = memory
        self.topLevelHeadings = topLevelHeadings
        self.structureOnly = structureOnly
        isTableCells = false
        blocks = CollapsibleBlocks(memory: memory)
    }

    /// cmark's tree of `bytes`, with mkdocs' blocks that the lines alone place rewritten
    /// before cmark reads the text (`AdmonitionExtension.tree(of:memory:smart:)`); nil only
    /// when cmark is out of memory.
    convenience init?(
        reading bytes: ArraySlice<UInt8>, flavor: MarkdownFlavor, memory: UnsafeMutablePointer<cmark_mem>, topLevelHeadings: Bool,
        structureOnly: Bool
    ) {
        let smart = flavor.smartPunctuation
        guard
            let (text, root, predicted) = flavor.admonition?.tree(of: bytes, memory: memory, smart: smart)
                ?? CommonMarkDocument.tree(of: bytes, memory: memory, smart: smart).map({ (bytes, $0, nil) })
        else { return nil }
        self.init(root: root, source: text, flavor: flavor, memory: memory, topLevelHeadings: topLevelHeadings, structureOnly: structureOnly)
        predictedBlocks = predicted
    }

    /// The tree of a document parsed beside `outer`'s source (`TableExtension`), with the
    /// extensions of `outer`'s flavour that may apply to its text.
    init(tableCells root: OpaquePointer, source: SourceLines, of outer: MarkdownTree) {
        self.root = root
        self.source = source
        flavor = outer.flavor
        memory = outer.memory
        topLevelHeadings = false
        structureOnly = false
        isTableCells = true
        blocks = CollapsibleBlocks(memory: memory)
        abbreviations = outer.abbreviations
        prepare()
    }

    /// Replaces the text and its tree (the old tree is freed): for `rewriteSource`.
    func replace(source text: ArraySlice<UInt8>, root newRoot: OpaquePointer) {
        cmark_node_free(root)
        root = newRoot
        source = SourceLines(text)
    }

    /// Settles which extensions may apply to the text (`MarkdownExtension.prepared`).
    func prepare() {
        extensions = flavor.extensions.compactMap { $0.prepared(for: source) }
        rawHTML = extensions.lazy.compactMap { $0 as? RawHTMLExtension }.first
    }

    /// Runs every extension's inline step under `block`, with the text of the lines it was
    /// parsed from. A block made by a step (it has no lines) has its blocks done one by one,
    /// in order, without recursion (blocks may nest deeply); nothing is done under a node
    /// with a level (see `NodeTag.level`).
    func makeInlines(under block: OpaquePointer) {
        var pending = [block]
        while let node = pending.popLast() {
            guard !NodeTag.hasLevel(node) else { continue }
            let first = Int(cmark_node_get_start_line(node))
            guard
                first > 0 || cmark_node_get_type(node).rawValue >= CMARK_NODE_FIRST_INLINE.rawValue
                    || CommonMarkDocument.holdsInlines(node)
            else {
                var children: [OpaquePointer] = []
                var child = cmark_node_first_child(node)
                while let next = child {
                    children.append(next)
                    child = cmark_node_next(next)
                }
                pending += children.reversed()
                continue
            }
            let text = first > 0 ? source.lines(first, through: Int(cmark_node_get_end_line(node))) : source.bytes
            for step in extensions { step.makeInlines(under: node, text: text, of: self) }
        }
    }

    // MARK: - The shared walk

    /// The nodes of `type` in the tree, in document order, but for what lies under a node
    /// with a level (made in a document of its own: see `NodeTag.level`). `type` must be
    /// among the `collects` of a prepared extension. The tree is walked once, when this is
    /// first asked: a step that frees nodes after that frees them through `free(_:)`.
    /// Frees `node` and all it holds, which the shared walk's lists then forget: a step
    /// that frees a node a later step has listed (raw HTML in a callout's first line, which
    /// the details step reads) frees it through here.
    func free(_ node: OpaquePointer) {
        free([node])
    }

    /// Frees each of `nodes` (unlinked, or linked) and all they hold, in one pass over the lists.
    func free(_ nodes: [OpaquePointer]) {
        guard !nodes.isEmpty else { return }
        if var walked = found {
            var gone: Set<OpaquePointer> = []
            for node in nodes { CommonMarkDocument.walk(node) { child, entering in if entering { gone.insert(child) } } }
            walked.nodes = walked.nodes.map { $0.filter { !gone.contains($0) } }
            walked.headings.removeAll { gone.contains($0) }
            found = walked
            movedHeadings.removeAll { gone.contains($0) }
        }
        for node in nodes { cmark_node_free(node) }
    }

    /// Says that the steps that read the shared walk are done (the tree is parsed): nodes
    /// freed from now on are freed at once, not looked for in its lists.
    func forgetWalk() {
        found = nil
        movedHeadings = []
    }

    func nodes(_ type: cmark_node_type) -> [OpaquePointer] {
        let found = walkedOnce()
        guard let index = found.types.firstIndex(of: type.rawValue) else { return [] }
        return found.nodes[index]
    }

    /// The headings that bodies hold, in document order (but for top-level ones of a text
    /// read as sections): those of the shared walk, then those moved since.
    var headings: [OpaquePointer] {
        guard !structureOnly && !isTableCells else { return [] }
        return walkedOnce().headings + movedHeadings
    }

    /// Whether `node` is a heading read as a section's title (a top-level one of a text read
    /// as sections), whose content shows only as plain text.
    func isSectionTitle(_ node: OpaquePointer?) -> Bool {
        guard let node, !topLevelHeadings, !isTableCells else { return false }
        return cmark_node_get_type(node) == CMARK_NODE_HEADING && cmark_node_parent(node) == root
    }

    /// Says that `nodes`, top-level headings before, are now in a block: headings of a body.
    func addHeadings(_ nodes: [OpaquePointer]) {
        guard !nodes.isEmpty else { return }
        let listed = Set(walkedOnce().headings + movedHeadings)
        movedHeadings += nodes.filter { !listed.contains($0) }
    }

    private func walkedOnce() -> (types: [UInt32], nodes: [[OpaquePointer]], headings: [OpaquePointer]) {
        if let found { return found }
        var types: [UInt32] = []
        for step in extensions where !isTableCells || step.appliesInTableCells {
            for type in step.collects where !types.contains(type.rawValue) { types.append(type.rawValue) }
        }
        let collectsHeadings = !structureOnly && !isTableCells
        let inlines = types.contains { $0 >= CMARK_NODE_FIRST_INLINE.rawValue }
        var nodes = [[OpaquePointer]](repeating: [], count: types.count)
        var headings: [OpaquePointer] = []
        let root = root
        Self.walk(under: root, inlines: inlines) { node, entering in
            guard entering else { return }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_HEADING && collectsHeadings && (topLevelHeadings || cmark_node_parent(node) != root) {
                headings.append(node)
            }
            if let index = types.firstIndex(of: type.rawValue) { nodes[index].append(node) }
        }
        found = (types, nodes, headings)
        return (types, nodes, headings)
    }

    /// Calls `visit` for each node under `root` in document order, entering and leaving (a
    /// leaf only entering), but for what lies under a node with a level (see
    /// `NodeTag.level`), and for inline content unless `inlines` (a walk of the blocks only:
    /// it never reads the inline nodes, most of a tree).
    static func walk(under root: OpaquePointer, inlines: Bool = true, _ visit: (OpaquePointer, Bool) -> Void) {
        var current = root
        var entering = true
        while true {
            if !entering {
                visit(current, false)
            } else if !NodeTag.hasLevel(current) {
                visit(current, true)
                if !CommonMarkDocument.isLeaf(current) && (inlines || !CommonMarkDocument.holdsInlines(current)) {
                    if let child = cmark_node_first_child(current) {
                        current = child
                        continue
                    }
                    visit(current, false)
                }
            }
            if current == root { return }
            if let next = cmark_node_next(current) {
                current = next
                entering = true
            } else {
                guard let parent = cmark_node_parent(current) else { return }
                current = parent
                entering = false
            }
        }
    }

    // MARK: - Nodes

    /// The children of `node`, in order.
    static func children(of node: OpaquePointer) -> [OpaquePointer] {
        var children: [OpaquePointer] = []
        var child = cmark_node_first_child(node)
        while let next = child {
            children.append(next)
            child = cmark_node_next(next)
        }
        return children
    }

    /// Whether the block `node` is or may hold a code block (any block but a paragraph, a
    /// heading, a rule or raw HTML).
    static func mayHoldCode(_ node: OpaquePointer) -> Bool {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING, CMARK_NODE_THEMATIC_BREAK, CMARK_NODE_HTML_BLOCK: false
        default: true
        }
    }

    /// A new node from the tree's allocator; a custom one renders `enter` and `exit`.
    func newNode(_ type: cmark_node_type, enter: String = "", exit: String = "") -> OpaquePointer? {
        guard let node = cmark_node_new_with_mem(type, memory) else { return nil }
        if type == CMARK_NODE_CUSTOM_BLOCK || type == CMARK_NODE_CUSTOM_INLINE {
            cmark_node_set_on_enter(node, enter)
            cmark_node_set_on_exit(node, exit)
        }
        return node
    }

    /// Tags `node` as `kind` of `owner` (an extension of the flavour), with `level` (see
    /// `NodeTag`).
    func tag(_ node: OpaquePointer, by owner: some MarkdownExtension, kind: UInt8, level: Int? = nil) {
        let ownerType = type(of: owner)
        guard let index = flavor.extensions.firstIndex(where: { type(of: $0) == ownerType }) else { return }
        NodeTag(owner: .extension(index), kind: kind, level: level).set(on: node)
    }

    /// Splits a text node so that each of `pieces` (offset and length in its text, in any
    /// order, not overlapping) is a text node of its own; returns each piece's index in
    /// `pieces` and its node.
    func split(_ node: OpaquePointer, at pieces: [(Int, Int)]) -> [(Int, OpaquePointer)] {
        let literal = CommonMarkDocument.literalBytes(node)
        var result: [(Int, OpaquePointer)] = []
        var position = 0
        func add(_ range: Range<Int>) -> OpaquePointer? {
            guard !range.isEmpty, let piece = newNode(CMARK_NODE_TEXT) else { return nil }
            Self.setLiteral(piece, literal[range])
            cmark_node_insert_before(node, piece)
            return piece
        }
        // (Cut in the text's order; each piece keeps its index in `pieces`.)
        for (index, (offset, length)) in pieces.enumerated().sorted(by: { $0.element.0 < $1.element.0 }) {
            _ = add(position..<offset)
            if let piece = add(offset..<offset + length) { result.append((index, piece)) }
            position = offset + length
        }
        _ = add(position..<literal.count)
        cmark_node_free(node)
        return result
    }

    /// The HTML of a block's title line (a tab's, an admonition's), read as Markdown in the
    /// tree's flavour, as Python-Markdown renders those titles: code, emphasis, icons,
    /// emoji, math. Nil for a title of plain text, and for one that is not a paragraph alone
    /// or holds raw HTML or a link: those stay text (nothing here settles raw HTML's safety
    /// or a link's address).
    func titleHTML(_ title: String) -> String? {
        guard !LiteralLine.holds(title), !title.containsByte(UInt8(ascii: "<")), !title.containsByte(UInt8(ascii: "[")),
            !title.contains(bytes: "://"), !title.contains(bytes: "www.")
        else { return nil }
        guard !Self.isPlainText(title) else { return nil }
        let document = CommonMarkDocument(parsing: title, flavor: flavor, isBody: true)
        guard document.blockCount == 1 else { return nil }
        var html = ByteBuffer()
        document.appendHTML(ofBlocks: 0..<1, unsafe: false, to: &html)
        let bytes = html.finish()
        guard bytes.starts(with: "<p>".utf8), bytes.count >= 8, bytes.suffix(5).elementsEqual("</p>\n".utf8) else { return nil }
        return String(decoding: bytes[3..<(bytes.count - 5)], as: UTF8.self)
    }

    /// Whether a title's Markdown is its text, in every flavour, without reading it: words
    /// of letters and digits (no ordinal such as `1st`), single spaces between, and only
    /// the punctuation no extension reads and HTML does not escape (`,`, `.`, `?`, `!`,
    /// `;`, a `-` alone). Most blocks' titles are.
    static func isPlainText(_ title: String) -> Bool {
        let bytes = title.utf8
        guard let first = bytes.first, let last = bytes.last, first != .space, last != .space else { return false }
        var previous: UInt8 = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if previous.isASCIIDigit { return false }
            case UInt8(ascii: "0")...UInt8(ascii: "9"), 0x80...0xFF, UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "?"),
                UInt8(ascii: "!"), UInt8(ascii: ";"):
                break
            case .space, UInt8(ascii: "-"):
                if previous == byte { return false }
            default: return false
            }
            previous = byte
        }
        return true
    }

    /// Sets a node's literal text.
    static func setLiteral(_ node: OpaquePointer, _ bytes: some Collection<UInt8>) {
        var text = Array(bytes)
        text.append(0)
        text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = cmark_node_set_literal(node, $0.baseAddress) }
        }
    }
}
