/// Writes an outline as an XML section file (docs/formats.md): `<outline title=…>` with
/// the outline's attributes, a first `<detail>` for the preamble, then a `<section>` for
/// each node with children (its body in a first `<detail>`) and an `<item>` for each node
/// without (its body as its text). Every node carries `title`, `id` and `collapsed`, then
/// its other attributes in name order; two spaces of indent per level. Bodies are written
/// right after the start tag, so that reading them back keeps their indentation.
struct XMLSectionEmitter: OutlineWriter {
    let name = "xml"
    let extensions = ["xml"]
    private static let reserved: Set<String> = ["title", "id", "collapsed"]

    func write(_ outline: Outline, context: WriteContext) -> (bytes: [UInt8], warnings: [Diagnostic]) {
        var xml = ByteBuffer(capacity: context.inputSize * 2 + 4096, sink: context.sink)
        var warnings = WriterWarnings(file: context.file, format: "XML")
        xml.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline" as StaticString)
        var replaced = false
        if let title = outline.title { replaced = XMLText.appendAttribute("title", title, to: &xml) || replaced }
        replaced = attributes(outline.attributes, of: nil, into: &xml, warnings: &warnings) || replaced
        xml.write(">\n" as StaticString)
        if !outline.body.isEmpty { replaced = detail(outline.body, indent: "  ", into: &xml) || replaced }
        if replaced { warnings.replacedControlCharacters(in: nil) }
        write(outline.nodes, indent: "  ", into: &xml, warnings: &warnings)
        xml.write("</outline>\n" as StaticString)
        return (xml.finish(), warnings.list)
    }

    private func write(_ nodes: [OutlineNode], indent: String, into xml: inout ByteBuffer, warnings: inout WriterWarnings) {
        for node in nodes {
            let element = node.children.isEmpty ? "item" : "section"
            xml.write(indent + "<" + element)
            var replaced = XMLText.appendAttribute("title", node.title, to: &xml)
            replaced = XMLText.appendAttribute("id", node.id, to: &xml) || replaced
            replaced = XMLText.appendAttribute("collapsed", node.isCollapsed ? "true" : "false", to: &xml) || replaced
            replaced = attributes(node.attributes, of: node, into: &xml, warnings: &warnings) || replaced
            if node.children.isEmpty {
                if node.body.isEmpty {
                    xml.write("/>\n" as StaticString)
                } else {
                    xml.write(">" as StaticString)
                    replaced = XMLText.append(node.body, attribute: false, to: &xml) || replaced
                    xml.write("</item>\n" as StaticString)
                }
            } else {
                xml.write(">\n" as StaticString)
                if !node.body.isEmpty { replaced = detail(node.body, indent: indent + "  ", into: &xml) || replaced }
                write(node.children, indent: indent + "  ", into: &xml, warnings: &warnings)
                xml.write(indent + "</section>\n")
            }
            if replaced { warnings.replacedControlCharacters(in: node) }
        }
    }

    private func detail(_ body: String, indent: String, into xml: inout ByteBuffer) -> Bool {
        xml.write(indent + "<detail>")
        let replaced = XMLText.append(body, attribute: false, to: &xml)
        xml.write("</detail>\n" as StaticString)
        return replaced
    }

    /// The attributes an XML element can hold, in name order; the others are warnings.
    private func attributes(_ values: [String: String], of node: OutlineNode?, into xml: inout ByteBuffer, warnings: inout WriterWarnings) -> Bool {
        var replaced = false
        for (name, value) in warnings.writable(values, of: node, reserved: Self.reserved, isName: XMLText.isName, what: "an XML name") {
            replaced = XMLText.appendAttribute(name, value, to: &xml) || replaced
        }
        return replaced
    }
}
