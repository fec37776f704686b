internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The links of a Markdown text as cmark reads them (destinations in `<…>`, with balanced
/// parentheses, with titles, escaped), for files whose links are their meaning: mdBook's
/// `SUMMARY.md`. Links in code are not links.
enum MarkdownLinks {
    /// A link: its text (plain), destination, and 1-based line and byte column.
    struct Link {
        let text: String
        let target: String
        let line: Int
        let column: Int
    }

    /// The links of `text`, in order.
    static func links(in text: String) -> [Link] {
        var links: [Link] = []
        let document: OpaquePointer? = text.withCString { cmark_parse_document($0, strlen($0), CMARK_OPT_DEFAULT) }
        guard let document else { return [] }
        defer { cmark_node_free(document) }
        guard let iterator = cmark_iter_new(document) else { return [] }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), cmark_node_get_type(node) == CMARK_NODE_LINK else {
                continue
            }
            links.append(
                Link(
                    text: TitleText.normalized(plainText(of: node)), target: cmark_node_get_url(node).map { String(cString: $0) } ?? "",
                    line: Int(cmark_node_get_start_line(node)), column: Int(cmark_node_get_start_column(node))))
        }
        return links
    }

    /// The text of a node's inline content, without markup.
    private static func plainText(of node: OpaquePointer) -> String {
        var text = ""
        var child = cmark_node_first_child(node)
        while let inline = child {
            switch cmark_node_get_type(inline) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE:
                text += cmark_node_get_literal(inline).map { String(cString: $0) } ?? ""
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                text += " "
            default:
                text += plainText(of: inline)
            }
            child = cmark_node_next(inline)
        }
        return text
    }
}
