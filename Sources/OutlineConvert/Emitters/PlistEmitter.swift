/// Writes an outline as an XML property list (docs/formats.md), as Apple's tools lay one
/// out (tab indentation): a root dict with `title`, `detail` (the preamble), `attributes`
/// and `sections`; each section a dict with `title`, `id`, `collapsed`, `detail`,
/// `attributes` and `items`, the empty ones left out (`collapsed` never). A plist dict
/// holds any key, so nothing is ever dropped.
struct PlistEmitter: OutlineWriter {
    let name = "plist"
    let extensions = ["plist"]

    func write(_ outline: Outline, context: WriteContext) -> (bytes: [UInt8], warnings: [Diagnostic]) {
        var plist = Writer(bytes: ByteBuffer(capacity: context.inputSize * 2 + 4096, sink: context.sink))
        plist.bytes.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>

            """ as StaticString)
        if let title = outline.title { plist.entry("title", string: title, indent: "\t") }
        if !outline.body.isEmpty { plist.entry("detail", string: outline.body, indent: "\t") }
        if !outline.attributes.isEmpty { plist.attributes(outline.attributes, indent: "\t") }
        plist.key("sections", indent: "\t")
        var warnings = WriterWarnings(file: context.file, format: "plist")
        if plist.replaced { warnings.replacedControlCharacters(in: nil) }
        plist.array(outline.nodes, indent: "\t", warnings: &warnings)
        plist.bytes.write("</dict>\n</plist>\n" as StaticString)
        return (plist.bytes.finish(), warnings.list)
    }
}

private struct Writer {
    var bytes: ByteBuffer
    /// Whether a control character was replaced since this was last reset.
    var replaced = false

    mutating func key(_ name: String, indent: String) {
        bytes.write(indent + "<key>")
        replaced = XMLText.append(name, attribute: false, to: &bytes) || replaced
        bytes.write("</key>\n" as StaticString)
    }

    mutating func entry(_ name: String, string: String, indent: String) {
        key(name, indent: indent)
        bytes.write(indent + "<string>")
        replaced = XMLText.append(string, attribute: false, to: &bytes) || replaced
        bytes.write("</string>\n" as StaticString)
    }

    mutating func attributes(_ values: [String: String], indent: String) {
        key("attributes", indent: indent)
        bytes.write(indent + "<dict>\n")
        for name in values.keys.sorted() { entry(name, string: values[name] ?? "", indent: indent + "\t") }
        bytes.write(indent + "</dict>\n")
    }

    mutating func array(_ nodes: [OutlineNode], indent: String, warnings: inout WriterWarnings) {
        guard !nodes.isEmpty else {
            bytes.write(indent + "<array/>\n")
            return
        }
        bytes.write(indent + "<array>\n")
        let inner = indent + "\t"
        for node in nodes {
            replaced = false
            bytes.write(inner + "<dict>\n")
            entry("title", string: node.title, indent: inner + "\t")
            entry("id", string: node.id, indent: inner + "\t")
            key("collapsed", indent: inner + "\t")
            bytes.write(inner + (node.isCollapsed ? "\t<true/>\n" : "\t<false/>\n"))
            if !node.body.isEmpty { entry("detail", string: node.body, indent: inner + "\t") }
            if !node.attributes.isEmpty { attributes(node.attributes, indent: inner + "\t") }
            if replaced { warnings.replacedControlCharacters(in: node) }
            if !node.children.isEmpty {
                key("items", indent: inner + "\t")
                array(node.children, indent: inner + "\t", warnings: &warnings)
            }
            bytes.write(inner + "</dict>\n")
        }
        bytes.write(indent + "</array>\n")
    }
}
