internal import CCmark

/// GitHub's alerts (`alerts`): a block quote whose first line is `[!NOTE]`, `[!TIP]`,
/// `[!IMPORTANT]`, `[!WARNING]` or `[!CAUTION]` (any case) and that holds more becomes a
/// callout (`CollapsibleBlocks`).
struct AlertExtension: MarkdownExtension {
    var name: String { "alerts" }

    func prepared(for source: SourceLines) -> AlertExtension? {
        source.bytes.contains(bytes: "[!") ? self : nil
    }

    func makeBlocks(of tree: MarkdownTree) {
        let root = tree.root
        var quotes: [(OpaquePointer, String)] = []
        CommonMarkDocument.walk(root) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_BLOCK_QUOTE,
                let paragraph = cmark_node_first_child(node), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH,
                let text = cmark_node_first_child(paragraph), cmark_node_get_type(text) == CMARK_NODE_TEXT
            else { return }
            let literal = String(decoding: CommonMarkDocument.literalBytes(text), as: UTF8.self)
            guard literal.hasPrefix("[!"), literal.hasSuffix("]") else { return }
            let type = literal.dropFirst(2).dropLast().lowercased()
            guard ["note", "tip", "important", "warning", "caution"].contains(type) else { return }
            // The marker alone on the first line, and something after it.
            let after = cmark_node_next(text)
            guard after == nil || cmark_node_get_type(after) == CMARK_NODE_SOFTBREAK || cmark_node_get_type(after) == CMARK_NODE_LINEBREAK,
                cmark_node_next(paragraph) != nil || after.flatMap(cmark_node_next) != nil
            else { return }
            quotes.append((node, type))
        }
        for (quote, type) in quotes {
            guard let made = tree.blocks.callout(classes: [type], title: CollapsibleBlocks.titleCased(type)),
                let paragraph = cmark_node_first_child(quote), let marker = cmark_node_first_child(paragraph)
            else { continue }
            if let lineBreak = cmark_node_next(marker) { tree.free(lineBreak) }
            tree.free(marker)
            if cmark_node_first_child(paragraph) == nil { tree.free(paragraph) }
            cmark_node_insert_before(quote, made)
            while let child = cmark_node_first_child(quote) { cmark_node_append_child(made, child) }
            tree.free(quote)
        }
        tree.blocks.noteHolders(under: root)
    }
}
