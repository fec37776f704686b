internal import CCmark

/// The headings that a body holds and cmark renders (inside a block quote, a list item, a
/// block; or any heading of a body parsed on its own): each becomes a node that renders
/// `<hN id="…">`, so that it can be linked to as on GitHub and in mkdocs. Its id is settled
/// when the page is written (it must differ from the page's section ids); what reading
/// decides is its base: the `{#id}` that ends it (taken out of its text), else the slug of
/// its text.
struct BodyHeadings {
    /// A heading made linkable: its level, the base of its id, and the title mkdocs would
    /// slug for one (nil when the id is stated).
    struct Heading {
        let level: Int
        let base: String
        let title: String?
    }

    /// By the inline node that renders the heading's tag and text.
    private(set) var headings: [OpaquePointer: Heading] = [:]
    /// The top-level blocks that hold one (the only ones walked when a page is written).
    private(set) var blocks: Set<OpaquePointer> = []

    /// Makes each of `nodes` (headings, in document order, whose source positions are into
    /// `source`) a linkable heading.
    mutating func make(_ nodes: [OpaquePointer], root: OpaquePointer, source: SourceLines, memory: UnsafeMutablePointer<cmark_mem>) {
        for node in nodes {
            let level = Int(cmark_node_get_heading_level(node))
            let start = Int(cmark_node_get_start_line(node))
            let textLine = source.setextUnderline(after: start, through: Int(cmark_node_get_end_line(node))).map { $0 - 1 } ?? start
            let line = source.line(textLine)
            let markers = HeadingMarkers(parts: CommonMarkDocument.titleParts(of: node), source: line)
            // The attributes leave the rendered text as they leave the title.
            if let last = cmark_node_last_child(node), cmark_node_get_type(last) == CMARK_NODE_TEXT,
                let text = HeadingMarkers.strippingAttributes(
                    from: String(decoding: CommonMarkDocument.literalBytes(last), as: UTF8.self), source: line)
            {
                MarkdownTree.setLiteral(last, Array(text.utf8))
            }
            guard let block = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, memory) else { continue }
            guard let inline = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_INLINE, memory) else {
                cmark_node_free(block)
                continue
            }
            cmark_node_set_on_enter(block, "")
            cmark_node_set_on_exit(block, "")
            cmark_node_set_on_enter(inline, "<h\(level)>")
            cmark_node_set_on_exit(inline, "</h\(level)>")
            NodeTag.heading.set(on: block)
            cmark_node_append_child(block, inline)
            while let child = cmark_node_first_child(node) { cmark_node_append_child(inline, child) }
            cmark_node_insert_before(node, block)
            cmark_node_free(node)
            let explicit = markers.id.map(IdentifierAssigner.cleaned) ?? ""
            headings[inline] =
                explicit.isEmpty
                ? Heading(level: level, base: IdentifierAssigner.slug(markers.title), title: markers.title)
                : Heading(level: level, base: explicit, title: nil)
            var top = block
            while let parent = cmark_node_parent(top), parent != root { top = parent }
            blocks.insert(top)
        }
    }

    /// The headings of `node` (a top-level block, or the grouping container of several), in order.
    func headings(in node: OpaquePointer) -> [OpaquePointer] {
        Self.nodes(in: node, holders: blocks) { headings[$0] != nil }
    }

    /// The nodes that `isOne` picks in `node` (a top-level block, or the grouping container
    /// of several), walking only the top-level blocks among `holders`: those that hold one.
    static func nodes(in node: OpaquePointer, holders: Set<OpaquePointer>, _ isOne: (OpaquePointer) -> Bool) -> [OpaquePointer] {
        var tops = [node]
        if !holders.contains(node) {
            tops = []
            var child = cmark_node_first_child(node)
            while let block = child {
                if holders.contains(block) { tops.append(block) }
                child = cmark_node_next(block)
            }
        }
        var found: [OpaquePointer] = []
        for top in tops {
            CommonMarkDocument.walk(top) { node, entering in
                if entering && isOne(node) { found.append(node) }
            }
        }
        return found
    }
}
