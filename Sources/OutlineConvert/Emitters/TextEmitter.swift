/// Writes an outline as indented plain text (SPEC §5.2): one line per visible node, two
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
        (render(outline, ascii: context.options.ascii, sizeHint: context.inputSize, sink: context.sink), [])
    }

    func render(_ outline: Outline, ascii: Bool, sizeHint: Int = 0, sink: OutputSink? = nil) -> [UInt8] {
        var text = ByteBuffer(capacity: sizeHint + 4096, sink: sink)
        if let title = outline.title { text.write(Self.oneLine(title) + "\n\n") }
        let preamble = outline.bodyPlainText()
        if !preamble.isEmpty {
            text.write(preamble)
            text.write("\n\n" as StaticString)
        }
        write(outline.nodes, ascii: ascii, indent: "", into: &text)
        return text.finish()
    }

    private func write(_ nodes: [OutlineNode], ascii: Bool, indent: String, into text: inout ByteBuffer) {
        for node in nodes {
            let marker: StaticString = !node.isCollapsible ? (ascii ? "* " : "• ") : node.isCollapsed ? (ascii ? "+ " : "▸ ") : (ascii ? "- " : "▾ ")
            text.write(indent)
            text.write(marker)
            text.write(Self.oneLine(node.title))
            let links = TitleLinks(node, unsafe: true)
            if let url = links.title { text.write(" <" + Self.oneLine(url) + ">") }
            if let feed = links.feed { text.write(" (feed <" + Self.oneLine(feed) + ">)") }
            text.write("\n" as StaticString)
            if node.isCollapsed { continue }
            let bodyIndent = indent + "  "
            let body = node.bodyPlainText(indent: bodyIndent)
            if !body.isEmpty {
                text.write(body)
                text.write("\n" as StaticString)
            }
            write(node.children, ascii: ascii, indent: bodyIndent, into: &text)
        }
    }

    private static func oneLine(_ title: String) -> String {
        var utf8 = title
        let hasLineBreak = utf8.withUTF8 { $0.contains { $0 == 10 || $0 == 13 } }  // (a buffer: `utf8` is slow)
        return hasLineBreak ? title.split(whereSeparator: \.isNewline).joined(separator: " ") : title
    }

}
