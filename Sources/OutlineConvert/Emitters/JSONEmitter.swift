/// Writes an outline as JSON (docs/formats.md), the lossless form of the model:
/// `{"version": 1, "title", "body", "attributes", "sections": [node…]}` with each node
/// `{"id", "title", "collapsed", "body", "attributes", "children"}`. `title` is left out
/// when the outline has none, `attributes` when empty. Keys keep this order and attribute
/// keys are sorted, so the same outline always gives the same bytes. Each level indents by
/// four spaces up to `maxIndent`; deeper levels keep that indentation, so that a file nested
/// 200 levels deep does not turn into hundreds of megabytes of spaces.
struct JSONEmitter: OutlineWriter {
    let name = "json"
    let extensions = ["json"]

    /// The deepest indentation written, in characters (16 levels).
    static let maxIndent = 2 + 16 * 4

    func write(_ outline: Outline, context: WriteContext) -> (bytes: [UInt8], warnings: [Diagnostic]) {
        (render(outline, sink: context.sink), [])
    }

    func render(_ outline: Outline, sink: OutputSink? = nil) -> [UInt8] {
        var json = ByteBuffer(capacity: sink == nil ? Self.estimatedSize(outline) : 0, sink: sink)
        json.write("{\n  \"version\": 1,\n" as StaticString)
        let indent = Array("  ".utf8)
        if let title = outline.title { field("title", title, indent: indent, into: &json) }
        json.write(indent)
        json.write("\"body\": " as StaticString)
        Self.quote(outline.body, into: &json)
        json.write(",\n" as StaticString)
        if !outline.attributes.isEmpty { attributes(outline.attributes, indent: indent, into: &json) }
        json.write("  \"sections\": " as StaticString)
        var levels: [Level] = []
        write(outline.nodes, depth: 0, levels: &levels, into: &json)
        json.write("\n}\n" as StaticString)
        return json.finish()
    }

    /// The fixed text around the nodes of one depth, made once: a node is then a dozen
    /// writes, not thirty. `indent` is the list's, `inner` its nodes' fields'.
    private struct Level {
        let inner: [UInt8]
        /// Up to the id's value; then after it up to the title's.
        let open: [UInt8]
        let afterID: [UInt8]
        /// After the title, with `collapsed`, up to the body's value.
        let afterTitle: (collapsed: [UInt8], expanded: [UInt8])
        let children: [UInt8]
        let close: (last: [UInt8], other: [UInt8])
        let end: [UInt8]

        init(depth: Int) {
            let indent = Array(repeating: UInt8(ascii: " "), count: min(2 + 4 * depth, JSONEmitter.maxIndent))
            inner = Array(repeating: UInt8(ascii: " "), count: min(indent.count + 4, JSONEmitter.maxIndent))
            open = indent + Array("  {\n".utf8) + inner + Array("\"id\": ".utf8)
            afterID = Array(",\n".utf8) + inner + Array("\"title\": ".utf8)
            let body = Array(",\n".utf8) + inner + Array("\"body\": ".utf8)
            afterTitle = (
                Array(",\n".utf8) + inner + Array("\"collapsed\": true".utf8) + body,
                Array(",\n".utf8) + inner + Array("\"collapsed\": false".utf8) + body
            )
            children = inner + Array("\"children\": ".utf8)
            close = (Array("\n".utf8) + indent + Array("  }\n".utf8), Array("\n".utf8) + indent + Array("  },\n".utf8))
            end = indent + Array("]".utf8)
        }
    }

    /// The nodes of one list, at `depth` (0 for the outline's); `levels` grows as deeper
    /// lists are met.
    private func write(_ nodes: [OutlineNode], depth: Int, levels: inout [Level], into json: inout ByteBuffer) {
        guard !nodes.isEmpty else {
            json.write("[]" as StaticString)
            return
        }
        if levels.count <= depth { levels.append(Level(depth: depth)) }
        let level = levels[depth]
        json.write("[\n" as StaticString)
        for index in nodes.indices {
            // Written piece by piece: no string is built per node but the strings themselves.
            // (Fields read in place: `let node = nodes[index]` would retain each of them.)
            json.write(level.open)
            Self.quote(nodes[index].id, into: &json)
            json.write(level.afterID)
            Self.quote(nodes[index].title, into: &json)
            json.write(nodes[index].isCollapsed ? level.afterTitle.collapsed : level.afterTitle.expanded)
            Self.quote(nodes[index].body, into: &json)
            json.write(",\n" as StaticString)
            if !nodes[index].attributes.isEmpty { attributes(nodes[index].attributes, indent: level.inner, into: &json) }
            json.write(level.children)
            write(nodes[index].children, depth: depth + 1, levels: &levels, into: &json)
            json.write(index == nodes.count - 1 ? level.close.last : level.close.other)
        }
        json.write(level.end)
    }

    /// About the size of the output, so the buffer is allocated once: each node's text and
    /// its seven lines of indentation.
    private static func estimatedSize(_ outline: Outline) -> Int {
        var size = outline.body.utf8.count + 4096
        func add(_ nodes: [OutlineNode], indent: Int) {
            for node in nodes {
                size += 100 + 7 * indent + node.id.utf8.count + node.title.utf8.count + node.body.utf8.count * 9 / 8
                add(node.children, indent: min(indent + 4, maxIndent))
            }
        }
        add(outline.nodes, indent: 6)
        return size
    }

    /// `"name": "value",` on its own line.
    private func field(_ name: StaticString, _ value: String, indent: [UInt8], into json: inout ByteBuffer) {
        json.write(indent)
        json.write("\"" as StaticString)
        json.write(name)
        json.write("\": " as StaticString)
        Self.quote(value, into: &json)
        json.write(",\n" as StaticString)
    }

    private func attributes(_ values: [String: String], indent: [UInt8], into json: inout ByteBuffer) {
        json.write(indent)
        json.write("\"attributes\": {" as StaticString)
        for (index, key) in values.keys.sorted().enumerated() {
            if index > 0 { json.write(", " as StaticString) }
            Self.quote(key, into: &json)
            json.write(": " as StaticString)
            Self.quote(values[key] ?? "", into: &json)
        }
        json.write("},\n" as StaticString)
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t` or `\u00XX`,
    /// and U+2028/U+2029 escaped (JavaScript treats them as line ends). Runs of other bytes
    /// are copied as they are.
    static func quoted(_ text: String) -> String {
        var json = ByteBuffer()
        quote(text, into: &json)
        return String(decoding: json.finish(), as: UTF8.self)
    }

    /// Whether one of the eight bytes of `word` is a control character, `"`, `\\` or 0xE2
    /// (which starts U+2028 and U+2029): the classic tests for a zero byte and a byte below n.
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        return (word &- ones &* 0x20) & ~word & highs != 0 || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
            || hasZero(word ^ (ones &* 0xE2))
    }

    static func quote(_ text: String, into json: inout ByteBuffer) {
        var text = text
        text.withUTF8 { quote($0, into: &json) }
    }

    /// `quote` for UTF-8 bytes.
    static func quote(_ bytes: UnsafeBufferPointer<UInt8>, into json: inout ByteBuffer) {
        json.write("\"" as StaticString)
        do {
            var runStart = 0
            var index = 0
            func flush(upTo end: Int) {
                if end > runStart { json.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart..<end]))) }
            }
            while index < bytes.count {
                // The common case: eight bytes at a time that need no escape.
                if index + 8 <= bytes.count,
                    !Self.mayNeedEscape(UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: index, as: UInt64.self))
                {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0xE2 {
                    index += 1
                    continue
                }
                var length = 1
                let escape: StaticString
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case .lineFeed: escape = "\\n"
                case .carriageReturn: escape = "\\r"
                case .tab: escape = "\\t"
                case 0..<0x20:
                    flush(upTo: index)
                    let hex = String(byte, radix: 16)
                    json.write("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                    runStart = index + 1
                    index += 1
                    continue
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    length = 3
                default:
                    index += 1
                    continue
                }
                flush(upTo: index)
                json.write(escape)
                runStart = index + length
                index += length
            }
            flush(upTo: bytes.count)
        }
        json.write("\"" as StaticString)
    }
}
