internal import CCmark

/// A Markdown extension made on the tree cmark parsed, declared whole in one file of
/// `Extensions/` (as cmark-gfm's `tasklist.c` declares one): its name, a cheap test of
/// whether it may apply to a text, its steps on the tree, the HTML of what it makes (set on
/// the nodes it makes, or by a rewrite of cmark's HTML) and their plain text. A flavour
/// (`MarkdownFlavor`) is an ordered list of extensions, and `CommonMarkDocument` runs it.
/// Each step runs for the extensions in the flavour's order:
///
/// 1. `rewriteSource`, for every extension of the flavour, before anything reads the tree
///    (mkdocs' indented blocks rewrite the text, which cmark then reads again);
/// 2. `prepared(for:)`, the may-apply test on the text: the steps below run only for the
///    extensions it returns;
/// 3. `makeBlocks` on the whole tree (tables, task items, alerts, details); or, when only
///    the sections of the text are read, `shapeSections`;
///    Then `finishBlocks`, once every extension's blocks are made (footnotes are numbered in
///    the order of their references, tables' cells included);
/// 4. `makeInlines` on one top-level block, just before it is first written or its links
///    are read (strikethrough, autolinks): never on blocks that are not written;
/// 5. when blocks are written: `beforeHTML` on each, then `rewriteHTML` on what cmark
///    rendered of it; as plain text, `plainText` of each node the extension tagged.
///
/// Every step does nothing unless the extension declares it. Steps share one walk of the
/// tree's blocks (`MarkdownTree.nodes(_:)`): an extension names in `collects` the node types
/// it reads from it.
protocol MarkdownExtension: Sendable {
    /// Its name, as pandoc, cmark-gfm or Python-Markdown calls it (`table`, `admonition`).
    var name: String { get }
    /// This extension, ready for `source` (the text the tree was parsed from); nil when it
    /// cannot apply to it, so that most documents skip its steps. The test must be cheap: a
    /// search of the bytes, not a parse.
    func prepared(for source: SourceLines) -> Self?
    /// The node types this extension reads from the shared walk of the tree's blocks (raw
    /// inline HTML makes the walk take in inline content).
    var collects: [cmark_node_type] { get }
    /// Whether `makeBlocks` also runs on the document that a table's cells and the lines
    /// after a table are parsed in (see `TableExtension`): `makeInlines` always does.
    var appliesInTableCells: Bool { get }

    /// Step 1: may rewrite the text and the tree (`MarkdownTree.replace`); it tests the text
    /// itself, as `prepared(for:)` has not run yet.
    func rewriteSource(of tree: MarkdownTree)
    /// Step 3, when only sections are read: what decides which headings are sections.
    func shapeSections(of tree: MarkdownTree)
    /// Step 3: what the extension makes of the tree's blocks.
    func makeBlocks(of tree: MarkdownTree)
    /// Step 3, after every extension's `makeBlocks`: what needs all the blocks made.
    func finishBlocks(of tree: MarkdownTree)
    /// Step 4: what it makes of the inline content under `block`, whose text is in `text`
    /// (the source lines it was parsed from: a cheap test there spares most blocks a walk).
    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree)
    /// Step 5: `block` is about to be rendered as HTML (raw HTML kept when `keepsRawHTML`:
    /// `--unsafe`); `text` is the lines it was parsed from, when known (a cheap test there
    /// spares most blocks a walk).
    func beforeHTML(of block: OpaquePointer, text: ArraySlice<UInt8>?, keepsRawHTML: Bool)
    /// Step 5: cmark's HTML of a block, rewritten; nil leaves it as it is.
    func rewriteHTML(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8]?
    /// Step 5: the plain text of a node this extension tagged `kind` (`MarkdownTree.tag`),
    /// entering or leaving it; nil writes it as cmark's node would be.
    func plainText(of node: OpaquePointer, kind: UInt8, entering: Bool) -> PlainTextPiece?
}

extension MarkdownExtension {
    func prepared(for source: SourceLines) -> Self? { self }
    var collects: [cmark_node_type] { [] }
    var appliesInTableCells: Bool { false }
    func rewriteSource(of tree: MarkdownTree) {}
    func shapeSections(of tree: MarkdownTree) {}
    func makeBlocks(of tree: MarkdownTree) {}
    func finishBlocks(of tree: MarkdownTree) {}
    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {}
    func beforeHTML(of block: OpaquePointer, text: ArraySlice<UInt8>?, keepsRawHTML: Bool) {}
    func rewriteHTML(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8]? { nil }
    func plainText(of node: OpaquePointer, kind: UInt8, entering: Bool) -> PlainTextPiece? { nil }
}

/// What the plain-text writer writes for a node an extension tagged.
enum PlainTextPiece {
    /// Lines of a block of their own, in place of the node and all it holds.
    case block([UInt8])
    /// Text where the node is, in the paragraph that holds it (its content is written after).
    case inline([UInt8])
    /// A container numbered among its siblings (1, 2, …), as an ordered list's item: its first
    /// line starts with `before`, its number and `after`, its other lines with `rest`.
    case numbered(before: [UInt8], after: [UInt8], rest: [UInt8])
}
