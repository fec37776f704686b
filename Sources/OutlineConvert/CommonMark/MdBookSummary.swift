internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An mdBook `SUMMARY.md` as mdBook's summary parser reads it (docs/sites.md): an optional
/// title (a first `# ` heading), prefix chapters (links before the first list), the
/// numbered chapters (lists; a nested list holds its item's sub-chapters), broken into
/// parts by `# ` headings, then suffix chapters (links after); `---` separators; a link
/// without a target (`[Title]()`) is a draft chapter. What mdBook refuses (an item that
/// does not start with a link, a list after the suffix chapters) is a located warning,
/// and left out.
struct MdBookSummary: Sendable {
    /// A chapter: its title (the link's text), its file as written (nil: a draft), where
    /// it is named, and its sub-chapters.
    struct Chapter: Sendable {
        var title: String
        var target: String?
        var location: SourceLocation
        var children: [Chapter] = []
    }

    enum Item: Sendable {
        case chapter(Chapter, numbered: Bool)
        case part(String)
        case separator
    }

    /// The items, in order.
    var items: [Item] = []
    var warnings: [Diagnostic] = []

    /// The summary `text` of `file`.
    init(_ text: String, file: String) {
        let document: OpaquePointer? = text.withCString { cmark_parse_document($0, strlen($0), CMARK_OPT_DEFAULT) }
        guard let document else { return }
        defer { cmark_node_free(document) }
        var block = cmark_node_first_child(document)
        if let first = block, cmark_node_get_type(first) == CMARK_NODE_HEADING, cmark_node_get_heading_level(first) == 1 {
            block = cmark_node_next(first)  // (the title, which mdBook ignores too)
        }
        enum Stage { case prefix, numbered, suffix }
        var stage = Stage.prefix
        while let node = block {
            block = cmark_node_next(node)
            let type = cmark_node_get_type(node)
            let isPart = type == CMARK_NODE_HEADING && cmark_node_get_heading_level(node) == 1
            if type == CMARK_NODE_LIST || isPart {
                if stage == .suffix {
                    warnings.append(
                        Diagnostic(location(of: node, file), "mdBook's suffix chapters cannot be followed by a list or a part; the rest is left out"))
                    return
                }
                stage = .numbered
                if isPart {
                    items.append(.part(TitleText.normalized(Self.plainText(of: node))))
                } else {
                    items += list(node, file: file).map { .chapter($0, numbered: true) }
                }
            } else if type == CMARK_NODE_THEMATIC_BREAK {
                items.append(.separator)
            } else if stage != .numbered || type == CMARK_NODE_PARAGRAPH {
                if stage == .numbered { stage = .suffix }
                // (Outside the lists, every link is a chapter.)
                CommonMarkDocument.walk(node) { inline, entering in
                    if entering, cmark_node_get_type(inline) == CMARK_NODE_LINK {
                        items.append(.chapter(chapter(inline, file: file), numbered: false))
                    }
                }
            }
        }
    }

    /// The chapters of a list: each item's first link, and its nested list's chapters.
    private mutating func list(_ list: OpaquePointer, file: String) -> [Chapter] {
        var chapters: [Chapter] = []
        var item = cmark_node_first_child(list)
        while let node = item {
            item = cmark_node_next(node)
            var child = cmark_node_first_child(node)
            var chapter: Chapter?
            while let part = child {
                child = cmark_node_next(part)
                switch cmark_node_get_type(part) {
                case CMARK_NODE_PARAGRAPH where chapter == nil:
                    if let link = cmark_node_first_child(part), cmark_node_get_type(link) == CMARK_NODE_LINK {
                        chapter = self.chapter(link, file: file)
                    } else {
                        warnings.append(
                            Diagnostic(location(of: part, file), "an item of SUMMARY.md's chapters does not start with a link; it is left out"))
                    }
                case CMARK_NODE_LIST:
                    // (A list with no chapter before it is not nested: its chapters follow.)
                    if chapter == nil { chapters += self.list(part, file: file) } else { chapter?.children += self.list(part, file: file) }
                default: break
                }
            }
            if let chapter { chapters.append(chapter) }
        }
        return chapters
    }

    private func chapter(_ link: OpaquePointer, file: String) -> Chapter {
        let url = cmark_node_get_url(link).map { String(cString: $0) } ?? ""
        return Chapter(
            title: TitleText.normalized(Self.plainText(of: link)), target: url.isEmpty ? nil : url.replacing("%20", with: " "),
            location: location(of: link, file))
    }

    private func location(of node: OpaquePointer, _ file: String) -> SourceLocation {
        SourceLocation(file: file, line: Int(cmark_node_get_start_line(node)), column: Int(cmark_node_get_start_column(node)))
    }

    /// The text of a node's inline content, without markup.
    private static func plainText(of node: OpaquePointer) -> String {
        var text = ""
        CommonMarkDocument.walk(node) { inline, entering in
            guard entering else { return }
            switch cmark_node_get_type(inline) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE: text += CommonMarkDocument.literal(inline)
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: text += " "
            default: break
            }
        }
        return text
    }
}
