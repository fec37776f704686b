internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The collapsible and callout blocks that bodies hold, made on cmark's tree as custom
/// nodes (docs/formats.md) by three extensions: mkdocs' `!!!` / `???` / `===` blocks
/// (`AdmonitionExtension`), GitHub's alerts (`AlertExtension`), and `<details>` /
/// `<summary>` written as HTML (`DetailsExtension`). Each renders as `<details>`
/// (collapsible) or a `<div role="note">` (callout); its state is settled when a page is
/// written, and the plain-text writer shows it as a section is shown.
struct CollapsibleBlocks {
    /// A block made: what the plain-text writer shows, and how its opening tag is written
    /// (so that `--expand-all` / `--collapse-all` can set its state when a page is written).
    struct Block {
        let title: String
        /// A `<details>` (else a callout, always shown).
        let collapsible: Bool
        let open: Bool
        /// The opening tag before and after ` name=…` and ` open`.
        let tagStart: String
        let tagEnd: String
        /// For a tab: its group's node (the group is named when the page is written, so that
        /// names are unique in the page, whatever format carried the body).
        var group: OpaquePointer? = nil

        func openingTag(open: Bool, name: String? = nil) -> String {
            tagStart + (name.map { " name=\"\($0)\"" } ?? "") + (collapsible && open ? " open" : "") + tagEnd
        }
    }

    /// By the custom block node that renders it.
    private(set) var blocks: [OpaquePointer: Block] = [:]
    /// The top-level blocks that hold one (the only ones walked when a state is forced).
    private(set) var holders: Set<OpaquePointer> = []
    private let memory: UnsafeMutablePointer<cmark_mem>

    init(memory: UnsafeMutablePointer<cmark_mem>) {
        self.memory = memory
    }

    var isEmpty: Bool { blocks.isEmpty }

    // MARK: - Nodes

    /// A new callout block (a `<div role="note">`), always shown; `titleHTML` shows its
    /// title when given (`MarkdownTree.titleHTML`), else the title as text.
    mutating func callout(classes: [String], title: String, titleHTML: String? = nil) -> OpaquePointer? {
        guard let node = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, memory) else { return nil }
        let type = classes.first ?? "note"
        let start = "<div class=\"" + (["outline-callout"] + classes.map { "outline-callout-" + $0 }).joined(separator: " ") + "\" role=\"note\""
        let end = ">" + (title.isEmpty ? "" : "\n<p class=\"outline-callout-title\">" + Self.icon + (titleHTML ?? Self.escaped(title)) + "</p>")
        let block = Block(title: title.isEmpty ? Self.titleCased(type) : title, collapsible: false, open: true, tagStart: start, tagEnd: end)
        blocks[node] = block
        cmark_node_set_on_enter(node, block.openingTag(open: true))
        cmark_node_set_on_exit(node, "</div>")
        NodeTag.block.set(on: node)
        return node
    }

    /// A new collapsible block (a `<details>`); `titleHTML` as a callout's.
    mutating func details(classes: [String], title: String, titleHTML: String? = nil, open: Bool) -> OpaquePointer? {
        guard let node = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, memory) else { return nil }
        let icon = classes.first == "outline-callout" ? Self.icon : ""
        let block = Block(
            title: title, collapsible: true, open: open,
            tagStart: "<details class=\"" + classes.joined(separator: " ") + "\"",
            tagEnd: "><summary>" + icon + (titleHTML ?? Self.escaped(title.isEmpty ? "Details" : title)) + "</summary>")
        blocks[node] = block
        cmark_node_set_on_enter(node, block.openingTag(open: open))
        cmark_node_set_on_exit(node, "</details>")
        NodeTag.block.set(on: node)
        return node
    }

    /// Gives a collapsible block its title (from a `<summary>`).
    mutating func retitle(_ node: OpaquePointer, _ block: Block, _ title: String) {
        guard !title.isEmpty else { return }
        let named = Block(
            title: title, collapsible: true, open: block.open, tagStart: block.tagStart,
            tagEnd: "><summary>" + Self.escaped(title) + "</summary>")
        blocks[node] = named
        cmark_node_set_on_enter(node, named.openingTag(open: named.open))
    }

    /// Makes `tab`, a collapsible block, a member of the group of tabs `group`, open or not.
    mutating func join(_ tab: OpaquePointer, group: OpaquePointer, open: Bool) {
        guard let block = blocks[tab] else { return }
        var member = Block(title: block.title, collapsible: true, open: open, tagStart: block.tagStart, tagEnd: block.tagEnd)
        member.group = group
        blocks[tab] = member
        cmark_node_set_on_enter(tab, member.openingTag(open: member.open))
    }

    /// Notes the top-level block of each block made (after a step made blocks).
    mutating func noteHolders(under root: OpaquePointer) {
        for node in blocks.keys {
            var top = node
            while let parent = cmark_node_parent(top), parent != root { top = parent }
            if cmark_node_parent(top) == root { holders.insert(top) }
        }
    }

    /// The blocks of `node` (a top-level block, or the grouping container of several), in order.
    func blocks(in node: OpaquePointer) -> [OpaquePointer] {
        BodyHeadings.nodes(in: node, holders: holders) { blocks[$0] != nil }
    }

    /// A callout's icon: its glyph comes from the page's style, by the callout's type, so
    /// that the type shows by a shape as well as a colour.
    private static let icon = "<span class=\"outline-callout-icon\" aria-hidden=\"true\"></span>"

    static func titleCased(_ type: String) -> String {
        type.prefix(1).uppercased() + type.dropFirst()
    }

    static func escaped(_ text: String) -> String {
        var buffer = ByteBuffer()
        buffer.write(escaping: text)
        return String(decoding: buffer.finish(), as: UTF8.self)
    }
}
