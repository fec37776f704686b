/// Lines of Markdown that every flavour reads as exactly their own text, whether as a
/// paragraph or as a heading's text: no byte that could start markup in any of them, and
/// nothing that could start a block. An outliner page's titles are mostly such lines, and
/// they are read and rendered without a parse.
enum LiteralLine {
    /// The bytes that may start markup in some flavour: escapes, emphasis, code, links,
    /// HTML, entities, strikethrough, wiki links, tags, block references, embeds, math,
    /// marks, keys, autolinks' schemes and addresses; control bytes.
    private static let syntax: [Bool] = (0...255).map { byte in
        byte < 0x20 || byte == 0x7F || "\\`*_[]<>&!~#(){}|$^=+:@".utf8.contains(UInt8(byte))
    }

    /// Whether `line` reads as its own text: it starts with a letter (or a non-ASCII
    /// character), ends with neither a space nor a tab, and holds no markup byte nor `www.`.
    static func holds(_ line: String) -> Bool {
        let bytes = line.utf8
        guard let first = bytes.first, first.isASCIILetter || first >= 0x80, let last = bytes.last, last != .space, last != .tab else {
            return false
        }
        return !bytes.contains(where: { syntax[Int($0)] }) && !line.contains(bytes: "www.")
    }

    /// A line that `holds` as cmark writes its text in HTML (of the bytes it escapes, only
    /// `"` can be in such a line).
    static func html(_ line: String) -> [UInt8] {
        var html: [UInt8] = []
        html.reserveCapacity(line.utf8.count + 8)
        for byte in line.utf8 {
            if byte == UInt8(ascii: "\"") { html += "&quot;".utf8 } else { html.append(byte) }
        }
        return html
    }
}
