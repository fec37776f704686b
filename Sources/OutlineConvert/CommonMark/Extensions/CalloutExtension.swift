internal import CCmark

/// Obsidian's callouts (`callouts`): a block quote whose first line is `[!type]`, then `-`
/// (foldable, closed) or `+` (foldable, open) or nothing (always shown), then an optional
/// title, becomes a block (`CollapsibleBlocks`): a collapsible block with the state written,
/// or a callout. Any type is read (an unknown one looks like a note); the title is the
/// line's text, else the type. GitHub's own alerts (`[!NOTE]` alone) are `AlertExtension`'s.
struct CalloutExtension: MarkdownExtension {
    var name: String { "callouts" }

    func prepared(for source: SourceLines) -> CalloutExtension? {
        source.bytes.contains(bytes: "[!") ? self : nil
    }

    /// What a callout's first line says.
    private struct Header {
        let type: String
        /// nil: not foldable; else whether it starts open.
        let open: Bool?
        let title: String
    }

    func makeBlocks(of tree: MarkdownTree) {
        let root = tree.root
        var quotes: [(OpaquePointer, Header)] = []
        CommonMarkDocument.walk(root) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_BLOCK_QUOTE,
                let paragraph = cmark_node_first_child(node), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH,
                let header = Self.header(of: paragraph, wikiLinks: tree.flavor.names.contains("wikilinks"))
            else { return }
            quotes.append((node, header))
        }
        for (quote, header) in quotes {
            let classes = ["outline-callout", "outline-callout-" + header.type]
            guard
                let made = header.open.map({ tree.blocks.details(classes: classes, title: header.title, open: $0) })
                    ?? tree.blocks.callout(classes: [header.type], title: header.title),
                let paragraph = cmark_node_first_child(quote)
            else { continue }
            // The first line goes (up to and with its line break); the rest is the content.
            while let inline = cmark_node_first_child(paragraph) {
                let type = cmark_node_get_type(inline)
                tree.free(inline)
                if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK { break }
            }
            if cmark_node_first_child(paragraph) == nil { tree.free(paragraph) }
            cmark_node_insert_before(quote, made)
            while let child = cmark_node_first_child(quote) { cmark_node_append_child(made, child) }
            tree.free(quote)
        }
        tree.blocks.noteHolders(under: root)
    }

    /// The header of a block quote's first paragraph, unless it is none or GitHub's alert.
    /// (`wikiLinks`: the title shows a wiki link by its label, as a vault's title is text.)
    private static func header(of paragraph: OpaquePointer, wikiLinks: Bool) -> Header? {
        var line = ""
        var node = cmark_node_first_child(paragraph)
        var alone = true
        while let inline = node {
            let type = cmark_node_get_type(inline)
            if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK { break }
            if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE {
                line += String(decoding: CommonMarkDocument.literalBytes(inline), as: UTF8.self)
            } else {
                // Markup in the title: its text.
                alone = false
                CommonMarkDocument.walk(inline) { child, entering in
                    guard entering, cmark_node_get_type(child) == CMARK_NODE_TEXT || cmark_node_get_type(child) == CMARK_NODE_CODE else { return }
                    line += String(decoding: CommonMarkDocument.literalBytes(child), as: UTF8.self)
                }
            }
            node = cmark_node_next(inline)
        }
        guard line.hasPrefix("[!"), let close = line.firstIndex(of: "]") else { return nil }
        let type = line[line.index(line.startIndex, offsetBy: 2)..<close].lowercased()
        guard !type.isEmpty, type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
        var rest = line[line.index(after: close)...]
        var open: Bool?
        if let fold = rest.first, fold == "-" || fold == "+" {
            open = fold == "+"
            rest = rest.dropFirst()
        }
        let title = TitleText.normalized(wikiLinks ? WikiLinks.plainText(String(rest)) : String(rest))
        // GitHub's alert types alone on the line are read as GitHub reads them (an alert,
        // or with nothing after it a quote).
        let gitHub = ["note", "tip", "important", "warning", "caution"].contains(type) && open == nil && title.isEmpty && alone
        guard !gitHub else { return nil }
        return Header(type: type, open: open, title: title.isEmpty ? CollapsibleBlocks.titleCased(type) : title)
    }
}
