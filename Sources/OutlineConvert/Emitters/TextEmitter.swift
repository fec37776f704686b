/// Writes an outline as indented plain text (docs/formats.md): one line per visible node, two
/// spaces of indent per depth below the top, a marker (`▾` expanded, `▸` collapsed, `•`
/// not collapsible; `-`, `+`, `*` with `ascii`), a space and the title. An expanded node's
/// body follows as plain text aligned with its title; a collapsed node hides its body and
/// children. A title that links (see `TitleLinks`) is followed by its URL in `<…>`, and a
/// feed's by `(feed <…>)`.
struct TextEmitter: OutlineWriter {
    var rendersBodies: Bool { true }
    let name = "text"
    let extensions = ["txt", "text"]
    let optionNames = ["--ascii"]

    func write(_ outline: Outline, context: WriteContext) -> (bytes: [UInt8], warnings: [Diagnostic]) {
        let ascii = context.options.ascii
        var text = ByteBuffer(capacity: context.inputSize + 4096, sink: context.sink)
        if let title = outline.title { text.write(Self.oneLine(title) + "\n\n") }
        let bodies = BodyRenderer(bodies: context.bodies, forcedOpen: context.options.collapse.all, ascii: ascii, flavor: context.bodyFlavor)
        let preamble = bodies.plainText(outline.body, at: 0)
        if !preamble.isEmpty {
            text.write(preamble)
            text.write("\n\n" as StaticString)
        }
        var position = 1
        write(outline.nodes, ascii: ascii, indent: "", bodies: bodies, position: &position, into: &text)
        return (text.finish(), [])
    }

    /// `position` is the next node's in document order (see `ParsedBodies`).
    private func write(
        _ nodes: [OutlineNode], ascii: Bool, indent: String, bodies: BodyRenderer, position: inout Int, into text: inout ByteBuffer
    ) {
        for node in nodes {
            let here = position
            position += 1
            let marker = TextMarker.of(collapsible: node.isCollapsible, open: !node.isCollapsed, ascii: ascii)
            text.write(indent)
            text.write(marker)
            text.write(Self.oneLine(bodies.pageFlavor.plainTitle(node.title)))
            let links = TitleLinks(node, unsafe: true)
            if let url = links.title { text.write(" <" + Self.oneLine(url) + ">") }
            if let feed = links.feed { text.write(" (feed <" + Self.oneLine(feed) + ">)") }
            text.write("\n" as StaticString)
            if node.isCollapsed {
                position += node.descendantCount
                continue
            }
            let bodyIndent = indent + "  "
            let body = bodies.plainText(node.body, at: here, indent: bodyIndent)
            if !body.isEmpty {
                text.write(body)
                text.write("\n" as StaticString)
            }
            write(node.children, ascii: ascii, indent: bodyIndent, bodies: bodies, position: &position, into: &text)
        }
    }

    private static func oneLine(_ title: String) -> String {
        var utf8 = title
        let hasLineBreak = utf8.withUTF8 { $0.contains { $0 == .lineFeed || $0 == .carriageReturn } }  // (a buffer: `utf8` is slow)
        return hasLineBreak ? title.split(whereSeparator: \.isNewline).joined(separator: " ") : title
    }

}
