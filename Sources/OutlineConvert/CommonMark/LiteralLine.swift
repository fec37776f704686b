/// Lines of Markdown that every flavour reads as exactly their own text, whether as a
/// paragraph or as a heading's text: no byte that could start markup in any of them, and
/// nothing that could start a block. An outliner page's titles are mostly such lines, and
/// they are read and rendered without a parse.
enum LiteralLine {
    /// The bytes that may start markup in some flavour: escapes, emphasis, code, links,
    /// HTML, entities, strikethrough, wiki links, tags, block references, embeds, math,
    /// marks, keys, autolinks' schemes and addresses; control bytes. (As bits: byte b is
    /// bit b of `syntax.low` below 64, bit b - 64 of `syntax.high` below 128; no byte of
    /// 128 or more is markup.)
    private static let syntax: (low: UInt64, high: UInt64) = {
        var (low, high): (UInt64, UInt64) = (0, 0)
        for byte in Array(0..<0x20) + [0x7F] + "\\`*_[]<>&!~#(){}|$^=+:@".utf8.map(Int.init) {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
        return (low, high)
    }()

    /// Whether `line` reads as its own text: it starts with a letter (or a non-ASCII
    /// character), ends with neither a space nor a tab, and holds no markup byte nor `www.`.
    static func holds(_ line: String) -> Bool {
        var line = line
        let (low, high) = syntax
        let clean = line.withUTF8 { bytes in
            guard let first = bytes.first, first.isASCIILetter || first >= 0x80, let last = bytes.last, last != .space, last != .tab else {
                return false
            }
            for byte in bytes where byte < 128 {
                if byte < 64 ? (low >> UInt64(byte)) & 1 != 0 : (high >> UInt64(byte - 64)) & 1 != 0 { return false }
            }
            return true
        }
        return clean && !line.contains(bytes: "www.")
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
