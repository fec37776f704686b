internal import CCmark

/// Raw HTML as GitHub keeps it (pandoc's `raw_html`; SPEC §3.1.2): without `--unsafe`, each
/// raw HTML node becomes what `HTMLSanitizer` keeps of it, and with it, each keeps its text;
/// either way the URLs of what is kept are a site's links. Its step needs the page's links,
/// so `CommonMarkDocument.settleRawHTML` runs it on a body's blocks before they are written
/// (once), not a step of `MarkdownExtension`'s. A flavour without it (`--from commonmark`)
/// keeps cmark's own choice: no raw HTML, or all of it.
///
/// A scope is the content of one node (a body, a list item, a paragraph, a link): what raw
/// HTML opens there is closed at its end, an end tag that closes nothing open there is
/// dropped, and whatever a dropped element holds (`<script>…</script>`) goes with it, the
/// inline nodes between its tags too.
struct RawHTMLExtension: MarkdownExtension {
    var name: String { "raw_html" }

    func prepared(for source: SourceLines) -> RawHTMLExtension? {
        source.bytes.firstIndex(ofByte: UInt8(ascii: "<")) != nil ? self : nil
    }

    /// Settles the raw HTML under `block` (a top-level block); returns the block now in its
    /// place (itself, unless it was raw HTML). `rewrite` takes a kept URL, the node it is in
    /// and its line and column in that node's document.
    func settle(
        _ block: OpaquePointer, in tree: MarkdownTree, keepsAll: Bool, rewrite: ((String, OpaquePointer, Int, Int) -> String?)?
    ) -> OpaquePointer {
        var replaced: [OpaquePointer] = []
        defer { tree.free(replaced) }
        if Self.isRaw(block) {
            // A top-level raw block is a scope of its own.
            var sanitizer = HTMLSanitizer(keepsAll: keepsAll)
            return settle(block, with: &sanitizer, closingScope: true, tree: tree, rewrite: rewrite, replaced: &replaced)
        }
        // The scopes that hold raw HTML (its nodes' parents), in the order their first raw
        // node comes: an outer scope's before what it holds after that node.
        var scopes: [OpaquePointer] = []
        var listed: Set<OpaquePointer> = []
        CommonMarkDocument.walk(block) { node, entering in
            guard entering, Self.isRaw(node), let parent = cmark_node_parent(node), listed.insert(parent).inserted else { return }
            scopes.append(parent)
        }
        for scope in scopes where Self.isAttached(scope, under: block) {
            var sanitizer = HTMLSanitizer(keepsAll: keepsAll)
            var child = cmark_node_first_child(scope)
            while let node = child {
                child = cmark_node_next(node)
                if Self.isRaw(node) {
                    _ = settle(node, with: &sanitizer, closingScope: false, tree: tree, rewrite: rewrite, replaced: &replaced)
                } else if sanitizer.dropping != nil && !keepsAll && !Self.holdsBlocks(scope) {
                    // (Only inline content goes with a dropped element: a body's Markdown
                    // blocks, which headings and blocks may be listed in, stay.)
                    cmark_node_unlink(node)
                    replaced.append(node)
                }
            }
            let closing = sanitizer.closingOpenElements()
            if !closing.isEmpty, let node = tree.newNode(Self.holdsBlocks(scope) ? CMARK_NODE_CUSTOM_BLOCK : CMARK_NODE_CUSTOM_INLINE) {
                cmark_node_set_on_enter(node, String(decoding: closing, as: UTF8.self))
                if cmark_node_append_child(scope, node) == 0 { cmark_node_free(node) }
            }
        }
        return block
    }

    /// One raw node: its text through `sanitizer` (and what its scope leaves open closed
    /// after it, when `closingScope`); unless the sanitizer keeps all, replaced by a custom
    /// node of what is kept (which cmark writes as it is), the raw node listed in
    /// `replaced`. Returns the node now in its place.
    private func settle(
        _ node: OpaquePointer, with sanitizer: inout HTMLSanitizer, closingScope: Bool, tree: MarkdownTree,
        rewrite: ((String, OpaquePointer, Int, Int) -> String?)?, replaced: inout [OpaquePointer]
    ) -> OpaquePointer {
        let literal = CommonMarkDocument.literalBytes(node)
        if let rewrite {
            let (line, column) = (Int(cmark_node_get_start_line(node)), Int(cmark_node_get_start_column(node)))
            sanitizer.rewrite = { url, offset in
                // (The URL's line and column, from the node's start and the lines before it.)
                let before = literal[..<min(offset, literal.count)]
                let breaks = before.count { $0 == .lineFeed }
                let lineStart = (before.lastIndex(of: .lineFeed) ?? -1) + 1
                return rewrite(url, node, line + breaks, breaks == 0 ? column + offset : offset - lineStart + 1)
            }
        }
        var kept = sanitizer.filter(literal)
        sanitizer.rewrite = nil
        if closingScope { kept += sanitizer.closingOpenElements() }
        if sanitizer.keepsAll {
            if kept != literal { MarkdownTree.setLiteral(node, kept) }
            return node
        }
        // (A node that keeps nothing, or a block that keeps only white space, leaves nothing,
        // unless it stands for a top-level block.)
        let isBlock = cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK
        if isBlock && kept.allSatisfy(\.isHTMLSpace) { kept = [] }
        if kept.isEmpty && !closingScope {
            cmark_node_unlink(node)
            replaced.append(node)
            return node
        }
        let type = isBlock ? CMARK_NODE_CUSTOM_BLOCK : CMARK_NODE_CUSTOM_INLINE
        // (Without memory for it, cmark's own omission stays.)
        guard let made = tree.newNode(type, enter: String(decoding: kept, as: UTF8.self)) else { return node }
        cmark_node_insert_before(node, made)
        cmark_node_unlink(node)
        replaced.append(node)
        return made
    }

    /// Whether `node` is still under `block` (not in what a dropped element took).
    private static func isAttached(_ node: OpaquePointer, under block: OpaquePointer) -> Bool {
        var current = node
        while current != block {
            guard let parent = cmark_node_parent(current) else { return false }
            current = parent
        }
        return true
    }

    private static func isRaw(_ node: OpaquePointer) -> Bool {
        let type = cmark_node_get_type(node)
        return type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE
    }

    /// Whether a node's children are blocks.
    private static func holdsBlocks(_ node: OpaquePointer) -> Bool {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT, CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_ITEM, CMARK_NODE_CUSTOM_BLOCK: true
        default: false
        }
    }
}
