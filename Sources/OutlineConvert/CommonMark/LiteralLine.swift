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

    /// Whether `byte` may start markup, by the bits of `syntax` (given: a static is looked
    /// up through a lock-free check each time it is read).
    private static func isMarkup(_ byte: UInt8, _ syntax: (low: UInt64, high: UInt64)) -> Bool {
        byte < 64 ? (syntax.low >> UInt64(byte)) & 1 != 0 : byte < 128 && (syntax.high >> UInt64(byte - 64)) & 1 != 0
    }

    /// Whether `line` reads as its own text: it starts with a letter (or a non-ASCII
    /// character), ends with neither a space nor a tab, and holds no markup byte nor `www.`.
    static func holds(_ line: String) -> Bool {
        var line = line
        let clean = line.withUTF8 { bytes in
            guard let first = bytes.first, first.isASCIILetter || first >= 0x80, let last = bytes.last, last != .space, last != .tab else {
                return false
            }
            let syntax = syntax
            return !bytes.contains { isMarkup($0, syntax) }
        }
        return clean && !line.contains(bytes: "www.")
    }

    /// What a piece of a line of `wikiPieces` is.
    enum PieceKind: Equatable {
        /// Text, as it reads.
        case text
        /// A wiki link's inner text (`[[…]]`).
        case link
        /// A Logseq block reference's id (`((…))`).
        case blockReference
    }

    /// The pieces of a line that reads as its own text but for wiki links (`[[…]]`) whose
    /// text is such text too, `|` and `#` allowed, and Logseq's block references
    /// (`((id))`, 36 hex digits and `-`), at least one of them: in order, as bytes. Nil for
    /// any other line. Outliners' titles with links are mostly such lines: their plain text
    /// and HTML need no parse either.
    static func wikiPieces(_ line: String) -> [(text: ArraySlice<UInt8>, kind: PieceKind)]? {
        guard line.contains(bytes: "[[") || line.contains(bytes: "(("), !line.contains(bytes: "www.") else { return nil }
        let bytes = Array(line.utf8)
        guard let first = bytes.first, first.isASCIILetter || first >= 0x80 || first == UInt8(ascii: "[") || first == UInt8(ascii: "("),
            let last = bytes.last, last != .space, last != .tab
        else { return nil }
        let syntax = syntax
        var pieces: [(text: ArraySlice<UInt8>, kind: PieceKind)] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "[") || byte == UInt8(ascii: "(") else {
                if isMarkup(byte, syntax) { return nil }
                index += 1
                continue
            }
            let end: Int
            let kind: PieceKind
            if byte == UInt8(ascii: "[") {
                // `[[`, text without markup but `|` and `#`, `]]`.
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") else { return nil }
                var close = index + 2
                while close < bytes.count, bytes[close] != UInt8(ascii: "]") {
                    if isMarkup(bytes[close], syntax) && bytes[close] != UInt8(ascii: "|") && bytes[close] != UInt8(ascii: "#") { return nil }
                    close += 1
                }
                guard close > index + 2, close + 1 < bytes.count, bytes[close + 1] == UInt8(ascii: "]") else { return nil }
                (end, kind) = (close, .link)
            } else {
                // `((`, 36 hex digits and `-`, `))`.
                end = index + 38
                guard end + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "("), bytes[end] == UInt8(ascii: ")"),
                    bytes[end + 1] == UInt8(ascii: ")"), bytes[(index + 2)..<end].allSatisfy({ $0.isASCIIHexDigit || $0 == UInt8(ascii: "-") })
                else { return nil }
                kind = .blockReference
            }
            if start < index { pieces.append((bytes[start..<index], .text)) }
            pieces.append((bytes[(index + 2)..<end], kind))
            index = end + 2
            start = index
        }
        if start < bytes.count { pieces.append((bytes[start...], .text)) }
        return pieces
    }

    /// A line that `holds` as cmark writes its text in HTML (of the bytes it escapes, only
    /// `"` can be in such a line).
    static func html(_ line: String) -> [UInt8] {
        var html: [UInt8] = []
        html.reserveCapacity(line.utf8.count + 8)
        append(line.utf8, to: &html)
        return html
    }

    /// Text appended to `html` as cmark writes it (houdini's `escape_html`: `&`, `<`, `>`
    /// and `"` as references).
    static func append(_ text: some Sequence<UInt8>, to html: inout [UInt8]) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): html += "&amp;".utf8
            case UInt8(ascii: "<"): html += "&lt;".utf8
            case UInt8(ascii: ">"): html += "&gt;".utf8
            case UInt8(ascii: "\""): html += "&quot;".utf8
            default: html.append(byte)
            }
        }
    }
}
