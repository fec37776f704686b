/// Writes an outline as outliners' Markdown (docs/formats.md), the way Logseq writes a page,
/// so that it reads back to the same outline: `title::` and the outline's attributes as
/// page properties, the preamble, then a `- ` item per node, its children indented one tab
/// further. Under an item's title line: `collapsed:: true` on a collapsed node, `id::` where
/// reading the title back would give another id, its attributes as `key:: value`, then its
/// body, two spaces past the item's indentation. A title is written from `outline-title`
/// when it has one, else escaped so that it reads back as the same plain text. A page that
/// the reader's rule would not find to be an outline (no page property, and a preamble or
/// no nesting near the top) starts with `outline-render:: outline`, which the reader takes
/// off, so that the file reads back without `--from outline`. One
/// fallback, with a warning: an attribute that is not a property (its name, or a value over
/// several lines) is left out. A body line that would read as an item or a property gets
/// one more `\`, which the reader takes off (`OutlinerEscapes`).
struct OutlinerMarkdownEmitter: OutlineWriter {
    let name = "outline"
    let extensions = ["md"]
    /// Property names the reader takes for itself.
    private static let reserved: Set<String> = ["collapsed", "id", AttributeKey.outlinerTitle]

    func write(_ outline: Outline, context: WriteContext) -> (bytes: [UInt8], warnings: [Diagnostic]) {
        var text = ByteBuffer(capacity: context.inputSize + 4096, sink: context.sink)
        var warnings = WriterWarnings(file: context.file, format: "outline")
        var properties: [(name: String, value: String)] = []
        if let title = outline.title { properties.append(("title", title)) }
        // The page's attributes that are no property (a value over several lines) go in
        // front matter, which the reader reads too; so does a preamble's `---` first line.
        let (asProperties, asFrontMatter) = Self.pageAttributes(outline.attributes)
        let marker = OutlinerMarkdownParser.markerKey
        properties += writableProperties(asProperties, of: nil, reserved: ["title", marker], warnings: &warnings)
        let frontMatter = warnings.writable(
            asFrontMatter, of: nil, reserved: ["title", "collapse-depth", marker], isName: { _ in true }, what: "")
        if properties.isEmpty && !Self.readsAsOutline(outline) { properties.append((marker, "outline")) }
        if !frontMatter.isEmpty || (properties.isEmpty && outline.body.hasPrefix("---")) {
            let lines = frontMatter.map { YAMLText.scalar($0.name) + ": " + YAMLText.quoted($0.value) }
            text.write("---\n" + (lines.isEmpty ? ["{}"] : lines).joined(separator: "\n") + "\n---\n")
        }
        for property in properties { text.write(property.name + ":: " + property.value + "\n") }
        if !outline.body.isEmpty {
            if !properties.isEmpty { text.write("\n" as StaticString) }
            text.write(Self.escaped(outline.body, preamble: true))
            text.write("\n" as StaticString)
        }
        if !text.isEmpty && !outline.nodes.isEmpty { text.write("\n" as StaticString) }
        // A first item with no title line and nothing under it would read as the page's
        // properties (Logseq writes them so): an empty item before it holds those instead.
        if properties.isEmpty, let first = outline.nodes.first, Self.readsAsPageProperties(first) { text.write("-\n" as StaticString) }
        write(outline.nodes, indent: "", into: &text, warnings: &warnings)
        // An empty outline is one empty line: an empty file would be refused as input.
        if text.isEmpty { text.write("\n" as StaticString) }
        return (text.finish(), warnings.list)
    }

    private func write(_ nodes: [OutlineNode], indent: String, into text: inout ByteBuffer, warnings: inout WriterWarnings) {
        let content = indent + "  "
        for node in nodes {
            // An item with no title line is a bare `-`, its lines below it.
            // (A title line kept from reading is written as it was; one made by hand that
            // would read as an item or a property gets a `\` first, as the structure comes first.)
            var title = node.attributes[AttributeKey.outlinerTitle] ?? OutlinerTitles.titleLine(of: node.title)
            if OutlinerMarkdownParser.itemText(title[...]) != nil || OutlinerMarkdownParser.property(title[...]) != nil {
                title = "\\" + title
                // (A kept title line reads back as the escaped one: the same title, not the same line.)
                if node.attributes[AttributeKey.outlinerTitle] != nil {
                    warnings.dropped(
                        AttributeKey.outlinerTitle, of: node, because: "its title line would read as an item or a property: it is written escaped")
                }
            }
            text.write(indent + (title.isEmpty ? "-\n" : "- " + title + "\n"))
            var lines: [String] = []
            if node.isCollapsed { lines.append("collapsed:: true") }
            if node.id != IdentifierAssigner.slug(node.title) {
                if node.id.contains(where: \.isNewline) {
                    warnings.dropped("id", of: node, because: "a property cannot hold a line break")
                } else {
                    lines.append("id:: " + node.id)
                }
            }
            // (Its title line is written above, not as a property.)
            var attributes = node.attributes
            attributes[AttributeKey.outlinerTitle] = nil
            lines += writableProperties(attributes, of: node, reserved: Self.reserved, warnings: &warnings).map { $0.name + ":: " + $0.value }
            if !node.body.isEmpty {
                lines += Self.escaped(node.body, preamble: false).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                // A body that leaves a code fence open would hold the children written
                // below it as code: the fence is closed first.
                if !node.children.isEmpty, let open = Self.openFence(lines) {
                    lines.append(String(repeating: Character(Unicode.Scalar(open.marker)), count: open.length))
                    warnings.changedBody(of: node, "leaves a code fence open, which would hold its children: the fence is closed")
                }
            }
            for line in lines { text.write(line.isEmpty ? "\n" : content + line + "\n") }
            write(node.children, indent: indent + "\t", into: &text, warnings: &warnings)
        }
    }

    /// Whether the page, written with no page property, is an outline by the reader's rule
    /// (`OutlinerMarkdownParser.sniff`): no preamble, and an item nested in the first 64 KiB.
    /// The bytes before the first nested item are over-estimated (a line's indentation and
    /// escape at most double it), so that a page near the limit gets the marker too.
    private static func readsAsOutline(_ outline: Outline) -> Bool {
        guard outline.body.isEmpty else { return false }
        var bytes = 0
        for node in outline.nodes {
            let attributes = node.attributes.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 8 }
            bytes += 3 * (node.title.utf8.count + node.id.utf8.count + node.body.utf8.count) + attributes + 64
            if bytes > 49_152 { return false }
            if !node.children.isEmpty { return true }
        }
        return false
    }

    /// The code fence `lines` leave open at their end, if any.
    private static func openFence(_ lines: [String]) -> Fence? {
        var fence: Fence?
        for line in lines {
            let content = OutlinerMarkdownParser.indentation(of: Substring(line)).1
            if let open = fence {
                if open.isClosed(by: content) { fence = nil }
            } else {
                fence = Fence(opening: content)
            }
        }
        return fence
    }

    /// Whether `node`, written first, is what the reader takes for the page's properties.
    private static func readsAsPageProperties(_ node: OutlineNode) -> Bool {
        (node.attributes[AttributeKey.outlinerTitle] ?? OutlinerTitles.titleLine(of: node.title)).isEmpty && !node.isCollapsed
            && node.id == IdentifierAssigner.slug(node.title) && node.body.isEmpty && node.children.isEmpty
    }

    /// The page's attributes as properties, and those a property cannot hold.
    private static func pageAttributes(_ attributes: [String: String]) -> ([String: String], [String: String]) {
        var properties: [String: String] = [:]
        var others: [String: String] = [:]
        for (key, value) in attributes {
            // (`Title::` in any case is the page's title to the reader: such a key goes in
            // front matter, which keeps its case.)
            if isPropertyValue(value) && OutlinerMarkdownParser.property(Substring(key + ":: x")) != nil && key.lowercased() != "title" {
                properties[key] = value
            } else {
                others[key] = value
            }
        }
        return (properties, others)
    }

    /// A value a property line holds as it is: one line, no spaces at its ends.
    private static func isPropertyValue(_ value: String) -> Bool { !value.contains(where: \.isNewline) && value == value.trimmed }

    /// The attributes that can be written as `key:: value` lines, in name order.
    private func writableProperties(
        _ attributes: [String: String], of node: OutlineNode?, reserved: Set<String>, warnings: inout WriterWarnings
    ) -> [(name: String, value: String)] {
        warnings.writable(
            attributes, of: node, reserved: reserved, isName: { OutlinerMarkdownParser.property(Substring($0 + ":: x")) != nil },
            what: "a property name"
        )
        .filter { property in
            let writable = Self.isPropertyValue(property.value)
            if !writable { warnings.dropped(property.name, of: node, because: "a property's value is one line without spaces at its ends") }
            return writable
        }
    }

    /// A body or the preamble with the lines that would read as something else escaped
    /// (`OutlinerEscapes`, which the reader undoes).
    private static func escaped(_ text: String, preamble: Bool) -> String {
        OutlinerEscapes.apply(text.split(separator: "\n", omittingEmptySubsequences: false), adding: true, preamble: preamble)
            .joined(separator: "\n")
    }
}
