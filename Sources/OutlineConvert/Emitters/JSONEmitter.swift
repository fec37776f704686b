/// Writes an outline as JSON (SPEC §5.3), the lossless form of the model:
/// `{"version": 1, "title", "body", "attributes", "sections": [node…]}` with each node
/// `{"id", "title", "collapsed", "body", "attributes", "children"}`. `title` is left out
/// when the outline has none, `attributes` when empty. Keys keep this order and attribute
/// keys are sorted, so the same outline always gives the same bytes.
struct JSONEmitter {
    func render(_ outline: Outline) -> String {
        var json = "{\n  \"version\": 1,\n"
        if let title = outline.title { json += "  \"title\": \(Self.quoted(title)),\n" }
        json += "  \"body\": \(Self.quoted(outline.body)),\n"
        if !outline.attributes.isEmpty { json += "  \"attributes\": \(Self.object(outline.attributes)),\n" }
        json += "  \"sections\": "
        write(outline.nodes, indent: "  ", into: &json)
        json += "\n}\n"
        return json
    }

    private func write(_ nodes: [OutlineNode], indent: String, into json: inout String) {
        guard !nodes.isEmpty else {
            json += "[]"
            return
        }
        json += "[\n"
        let inner = indent + "    "
        for (index, node) in nodes.enumerated() {
            json += indent + "  {\n"
            json += inner + "\"id\": \(Self.quoted(node.id)),\n"
            json += inner + "\"title\": \(Self.quoted(node.title)),\n"
            json += inner + "\"collapsed\": \(node.isCollapsed),\n"
            json += inner + "\"body\": \(Self.quoted(node.body)),\n"
            if !node.attributes.isEmpty { json += inner + "\"attributes\": \(Self.object(node.attributes)),\n" }
            json += inner + "\"children\": "
            write(node.children, indent: inner, into: &json)
            json += "\n" + indent + (index == nodes.count - 1 ? "  }\n" : "  },\n")
        }
        json += indent + "]"
    }

    private static func object(_ values: [String: String]) -> String {
        "{" + values.keys.sorted().map { "\(quoted($0)): \(quoted(values[$0] ?? ""))" }.joined(separator: ", ") + "}"
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t` or `\u00XX`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
