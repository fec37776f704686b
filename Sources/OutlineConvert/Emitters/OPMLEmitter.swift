/// Writes an outline as OPML 2.0. `<head>` holds the `<title>`, the `<expansionState>`
/// (the spec's reading unless the options say OmniOutliner's, with the elements
/// `OPMLExpansionState` adds where the list alone would not read back exactly), the
/// preamble as `<_note>`, and each outline attribute as an element of its name
/// (`<ownerName>`, `<lang>`, …). Each node is an `<outline>` with `text` (the title;
/// `&entity;`-like text and tag-like `<` escaped once more, since OPML readers take `text`
/// as HTML), `id` (only where reading the title back would give another, as in Markdown),
/// `_note` (the body) and its other attributes in name order.
struct OPMLEmitter: OutlineWriter {
    let name = "opml"
    let extensions = ["opml"]
    /// Names taken by the format itself.
    private static let reservedHead: Set<String> = [
        "title", "expansionState", "_note", OPMLExpansionState.readingElement, OPMLExpansionState.hiddenElement,
    ]
    private static let reservedNode: Set<String> = ["text", "id", "_note"]

    func write(_ outline: Outline, context: WriteContext) -> (bytes: [UInt8], warnings: [Diagnostic]) {
        var xml = ByteBuffer(capacity: context.inputSize * 2 + 4096, sink: context.sink)
        var warnings = WriterWarnings(file: context.file, format: "OPML")
        var replaced = false
        xml.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n" as StaticString)
        if let title = outline.title { replaced = element("title", title, into: &xml) || replaced }
        let reading = context.options.opmlExpansion ?? .spec
        let (list, hidden) = OPMLExpansionState.lists(for: outline, reading: reading)
        func numbers(_ list: [Int]) -> String { list.map(String.init).joined(separator: ",") }
        xml.write("    <expansionState>" + numbers(list) + "</expansionState>\n")
        // OmniOutliner's list without a 0 could be read the spec's way: say which it is.
        if reading == .omni && !list.isEmpty && !list.contains(0) {
            xml.write("    <\(OPMLExpansionState.readingElement)>omni</\(OPMLExpansionState.readingElement)>\n")
        }
        if !hidden.isEmpty {
            xml.write("    <\(OPMLExpansionState.hiddenElement)>" + numbers(hidden) + "</\(OPMLExpansionState.hiddenElement)>\n")
        }
        if !outline.body.isEmpty { replaced = element("_note", outline.body, into: &xml) || replaced }
        for (name, value) in warnings.writable(outline.attributes, of: nil, reserved: Self.reservedHead, isName: XMLText.isName, what: "an XML name")
        {
            replaced = element(name, value, into: &xml) || replaced
        }
        if replaced { warnings.replacedControlCharacters(in: nil) }
        xml.write("  </head>\n  <body>\n" as StaticString)
        write(outline.nodes, indent: "    ", into: &xml, warnings: &warnings)
        xml.write("  </body>\n</opml>\n" as StaticString)
        return (xml.finish(), warnings.list)
    }

    private func element(_ name: String, _ text: String, into xml: inout ByteBuffer) -> Bool {
        xml.write("    <" + name + ">")
        let replaced = XMLText.append(text, attribute: false, to: &xml)
        xml.write("</" + name + ">\n")
        return replaced
    }

    private func write(_ nodes: [OutlineNode], indent: String, into xml: inout ByteBuffer, warnings: inout WriterWarnings) {
        for node in nodes {
            xml.write(indent + "<outline")
            var replaced = XMLText.appendAttribute("text", OPMLText.escaped(node.title), to: &xml)
            // As outliners write it: an id only where reading the title back would give another.
            if node.id != IdentifierAssigner.slug(node.title) {
                replaced = XMLText.appendAttribute("id", node.id, to: &xml) || replaced
            }
            if !node.body.isEmpty { replaced = XMLText.appendAttribute("_note", node.body, to: &xml) || replaced }
            for (name, value) in warnings.writable(
                node.attributes, of: node, reserved: Self.reservedNode, isName: XMLText.isName, what: "an XML name")
            {
                replaced = XMLText.appendAttribute(name, value, to: &xml) || replaced
            }
            if replaced { warnings.replacedControlCharacters(in: node) }
            if node.children.isEmpty {
                xml.write("/>\n" as StaticString)
            } else {
                xml.write(">\n" as StaticString)
                write(node.children, indent: indent + "  ", into: &xml, warnings: &warnings)
                xml.write(indent + "</outline>\n")
            }
        }
    }
}
