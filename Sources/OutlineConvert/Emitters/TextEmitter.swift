/// Writes an outline as indented plain text (SPEC §5.2): one line per visible node, two
/// spaces of indent per depth below the top, a marker (`▾` expanded, `▸` collapsed, `•`
/// not collapsible; `-`, `+`, `*` with `ascii`), a space and the title. An expanded node's
/// body follows as plain text aligned with its title; a collapsed node hides its body and
/// children.
struct TextEmitter {
    let ascii: Bool
    let bodies: BodyRenderer

    func render(_ outline: Outline, sizeHint: Int = 0) -> [UInt8] {
        var text = ByteBuffer(capacity: sizeHint + 4096)
        if let title = outline.title { text.write(Self.oneLine(title) + "\n\n") }
        let preamble = bodies.plainText(outline.body, number: 0)
        if !preamble.isEmpty { text.write(preamble + "\n\n") }
        var number = 0
        write(outline.nodes, indent: "", into: &text, number: &number)
        return text.bytes
    }

    private func write(_ nodes: [OutlineNode], indent: String, into text: inout ByteBuffer, number: inout Int) {
        for node in nodes {
            number += 1
            let marker: StaticString = !node.isCollapsible ? (ascii ? "* " : "• ") : node.isCollapsed ? (ascii ? "+ " : "▸ ") : (ascii ? "- " : "▾ ")
            text.write(indent)
            text.write(marker)
            text.write(Self.oneLine(node.title))
            text.write("\n" as StaticString)
            if node.isCollapsed && node.isCollapsible {
                number += Self.count(node.children)  // hidden, but still numbered
                continue
            }
            let bodyIndent = indent + "  "
            let body = bodies.plainText(node.body, number: number, indent: bodyIndent)
            if !body.isEmpty {
                text.write(body)
                text.write("\n" as StaticString)
            }
            write(node.children, indent: bodyIndent, into: &text, number: &number)
        }
    }

    private static func oneLine(_ title: String) -> String {
        title.utf8.contains(where: { $0 == 10 || $0 == 13 }) ? title.split(whereSeparator: \.isNewline).joined(separator: " ") : title
    }

    private static func count(_ nodes: [OutlineNode]) -> Int {
        nodes.reduce(nodes.count) { $0 + count($1.children) }
    }
}
