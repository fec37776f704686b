/// The collapse markers on a Markdown heading line, and the title left once they are
/// stripped: pandoc attributes (`{#id .collapsed key=value}`) and markmap comments
/// (`<!-- markmap: fold -->`, `<!-- markmap: foldAll -->`).
struct HeadingMarkers {
    private(set) var title = ""
    private(set) var id: String?
    private(set) var collapsed: Bool?
    private(set) var foldAll = false
    private(set) var attributes: [String: String] = [:]

    /// The title of a heading with no text at all.
    static let untitled = "Untitled"

    /// The markers of a heading whose inline content cmark read as `parts`; `source` is the
    /// heading's last line as written, where pandoc attributes are read (cmark's text has
    /// already taken their backslash escapes away).
    init(parts: [CommonMarkDocument.TitlePart], source: ArraySlice<UInt8>) {
        // Most titles are text and code with single spaces, no raw HTML and no attributes
        // (which `isPlain` rules out: they end with `}`): use them as they are.
        if let plain = Self.plainTitle(parts) {
            title = plain
            return
        }
        // Raw HTML is not part of a plain title; markmap's comments are markers.
        var pieces: [(text: String, isText: Bool)] = []
        for part in parts {
            switch part {
            case .html(let html):
                switch Self.markmapOption(html) {
                case "fold": collapsed = true
                case "foldAll": collapsed = true; foldAll = true
                default: break
                }
            case .text(let text):
                if let last = pieces.last, last.isText { pieces[pieces.count - 1].text += text } else { pieces.append((text, true)) }
            case .code(let code): pieces.append((code, false))
            case .lineBreak: pieces.append((" ", true))
            }
        }
        // Pandoc attributes close the heading: they must end its last run of plain text.
        // They are read from the source; in cmark's text they start at the `{` that is as
        // many from the end as the source's block holds (escaping keeps every brace).
        if let last = pieces.last, last.isText, let (attributes, braces, _) = PandocAttributes.ending(source) {
            let text = last.text.trimmingTrailingSpaces
            if text.hasSuffix("}"), let open = Self.index(ofBrace: braces, fromTheEndOf: text) {
                pieces[pieces.count - 1].text = String(text[..<open])
                apply(attributes)
            }
        }
        let title = TitleText.normalized(pieces.map(\.text).joined())
        self.title = title.isEmpty ? Self.untitled : title
    }

    private mutating func apply(_ attributes: PandocAttributes) {
        id = attributes.id
        var classes: [String] = []
        for name in attributes.classes {
            switch name {
            case "collapsed", "folded": collapsed = true
            case "expanded", "open": collapsed = false
            default: classes.append(name)
            }
        }
        if !classes.isEmpty { self.attributes[AttributeKey.classes] = classes.joined(separator: " ") }
        for (key, value) in attributes.pairs {
            if key == "visibility" && value == "folded" { collapsed = true; continue }
            self.attributes[key] = value
        }
    }

    /// `text`, the last text of a heading whose source line is `source`, without the pandoc
    /// attributes that end it (and the spaces before them); nil when it ends in none.
    static func strippingAttributes(from text: String, source: ArraySlice<UInt8>) -> String? {
        guard let (_, braces, _) = PandocAttributes.ending(source) else { return nil }
        let trimmed = text.trimmingTrailingSpaces
        guard trimmed.hasSuffix("}"), let open = index(ofBrace: braces, fromTheEndOf: trimmed) else { return nil }
        return String(trimmed[..<open]).trimmingTrailingSpaces
    }

    /// A heading's content as `line` writes it (its only line when `atx`, else the last of a
    /// setext heading's text): without the ATX markers (the opening `#`s and closing ones),
    /// markmap's comments, the pandoc attributes that end it, and spaces at its ends.
    static func content(of line: ArraySlice<UInt8>, atx: Bool) -> ArraySlice<UInt8> {
        var start = line.startIndex
        while start < line.endIndex, line[start] == .space || line[start] == .tab { start += 1 }
        while atx, start < line.endIndex, line[start] == UInt8(ascii: "#") { start += 1 }
        var end = PandocAttributes.ending(line[start...])?.start ?? line.endIndex
        while true {
            while end > start, line[end - 1] == .space || line[end - 1] == .tab { end -= 1 }
            let hashes = atx ? line[start..<end].reversed().prefix { $0 == UInt8(ascii: "#") }.count : 0
            if line[start..<end].reversed().starts(with: ">--".utf8), let comment = PandocAttributes.lastCommentStart(line[start..<end]),
                markmapOption(String(decoding: line[comment..<end], as: UTF8.self)) != nil
            {
                end = comment
            } else if hashes > 0, end - hashes == start || line[end - hashes - 1] == .space || line[end - hashes - 1] == .tab {
                end -= hashes
            } else {
                break
            }
        }
        while start < end, line[start] == .space || line[start] == .tab { start += 1 }
        return line[start..<end]
    }

    /// The index of the `count`-th `{` from the end of `text`.
    private static func index(ofBrace count: Int, fromTheEndOf text: String) -> String.Index? {
        var seen = 0
        var index = text.endIndex
        while index > text.startIndex {
            index = text.index(before: index)
            if text[index] == "{" {
                seen += 1
                if seen == count { return index }
            }
        }
        return nil
    }

    /// The parts joined, when they are only text and code and need no clean-up.
    private static func plainTitle(_ parts: [CommonMarkDocument.TitlePart]) -> String? {
        if parts.count == 1, case .text(let text) = parts[0] { return isPlain(text) ? text : nil }
        var joined = ""
        for part in parts {
            switch part {
            case .text(let text), .code(let text): joined += text
            case .html, .lineBreak: return nil
            }
        }
        return isPlain(joined) ? joined : nil
    }

    /// Text that needs no clean-up: not empty, no white space but single spaces inside
    /// (see `TitleText`), and no `}` at the end (which may close pandoc attributes).
    private static func isPlain(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in  // (a buffer: iterating `utf8` took 27 instructions a byte)
            var previous: UInt8 = 32
            for byte in bytes {
                if (byte >= 9 && byte <= 13) || (byte == .space && previous == .space) { return false }
                previous = byte
            }
            return previous != .space && previous != UInt8(ascii: "}")
        }
    }

    /// `fold` or `foldAll` for a markmap comment, else nil.
    static func markmapOption(_ html: String) -> String? {
        guard html.hasPrefix("<!--"), html.hasSuffix("-->") else { return nil }
        let inner = html.dropFirst(4).dropLast(3).trimmed
        guard inner.hasPrefix("markmap:") else { return nil }
        let option = inner.dropFirst("markmap:".count).trimmed
        return option == "fold" || option == "foldAll" ? option : nil
    }
}

/// Pandoc's attribute syntax, the text between `{` and `}`: `#id`, `.class`, `key=value`,
/// `key="quoted value"` (or single quotes), and `-` (pandoc's short form of `.unnumbered`).
/// As pandoc reads it, a backslash before ASCII punctuation stands for that character (so a
/// quoted value holds `\"`, `\\`, `\}`), and a character reference (`&amp;`) for its
/// character.
struct PandocAttributes {
    var id: String?
    var classes: [String] = []
    var pairs: [(String, String)] = []

    /// The attributes that end a heading's source line (`# Title {#id key="v"}`), and how
    /// many `{` the block holds, its own included; nil when the line does not end in one.
    /// The block is the leftmost `{…}` that reads as attributes through to the end.
    static func ending(_ line: ArraySlice<UInt8>) -> (PandocAttributes, braces: Int, start: Int)? {
        var end = line.endIndex
        func trimSpaces() {
            while end > line.startIndex, line[end - 1] == UInt8(ascii: " ") || line[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        }
        trimSpaces()
        // markmap's comments may follow the block (`# Mac {.x} <!-- markmap: fold -->`), and
        // so may an ATX heading's closing `#`s (`# Mac {.x} ##`).
        while true {
            if line[..<end].reversed().starts(with: ">--".utf8), let comment = lastCommentStart(line[..<end]) {
                end = comment
            } else if end > line.startIndex, line[end - 1] == UInt8(ascii: "#") {
                let hashes = line[..<end].reversed().prefix { $0 == UInt8(ascii: "#") }.count
                guard end - hashes > line.startIndex, line[end - hashes - 1] == UInt8(ascii: " ") else { break }
                end -= hashes
            } else {
                break
            }
            trimSpaces()
        }
        guard end > line.startIndex, line[end - 1] == UInt8(ascii: "}") else { return nil }
        var start = line.startIndex
        while let open = line[start..<end].firstIndex(of: UInt8(ascii: "{")) {
            // (A `{` after an odd number of backslashes is escaped: text, not a block.)
            let backslashes = line[start..<open].reversed().prefix { $0 == UInt8(ascii: "\\") }.count
            if backslashes % 2 == 0, let attributes = PandocAttributes(line[(open + 1)..<(end - 1)]) {
                return (attributes, line[open..<end].count { $0 == UInt8(ascii: "{") }, open)
            }
            start = open + 1
        }
        return nil
    }

    /// Where the last `<!--` in `text` starts.
    static func lastCommentStart(_ text: ArraySlice<UInt8>) -> Int? {
        var index = text.endIndex - 4
        while index >= text.startIndex {
            if text[index..<(index + 4)].elementsEqual("<!--".utf8) { return index }
            index -= 1
        }
        return nil
    }

    /// Nil unless the whole text is valid attribute syntax (`{}`, empty, is valid: no
    /// attributes, as pandoc reads it).
    private init?(_ bytes: ArraySlice<UInt8>) {
        var reader = Reader(bytes: bytes, index: bytes.startIndex)
        while true {
            reader.skipSpaces()
            guard let first = reader.peek() else { break }
            if first == UInt8(ascii: "#") || first == UInt8(ascii: ".") {
                reader.advance()
                guard let word = reader.word(), !word.isEmpty, !word.contains(where: { "{}\"'=#".contains($0) }) else { return nil }
                if first == UInt8(ascii: "#") { id = word } else { classes.append(word) }
            } else if first == UInt8(ascii: "-") && reader.isSpaceOrEnd(at: 1) {
                classes.append("unnumbered")
                reader.advance()
            } else {
                guard let key = reader.key(), reader.peek() == UInt8(ascii: "=") else { return nil }
                reader.advance()
                let value: String
                if let quote = reader.peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    reader.advance()
                    guard let quoted = reader.quoted(until: quote) else { return nil }
                    value = quoted
                } else {
                    guard let word = reader.word(), !word.contains(where: { "{}\"'".contains($0) }) else { return nil }
                    value = word
                }
                pairs.append((key, value))
            }
        }
    }

    /// Reads the bytes of an attribute block, escapes and references decoded.
    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var index: Int

        func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }
        mutating func advance() { index += 1 }

        func isSpaceOrEnd(at offset: Int) -> Bool {
            index + offset >= bytes.endIndex || Self.isSpace(bytes[index + offset])
        }

        mutating func skipSpaces() {
            while let byte = peek(), Self.isSpace(byte) { advance() }
        }

        /// A key: letters, digits, `-`, `_`, `:` (any non-ASCII letter too); the Markdown
        /// writer escapes an `_` as `\_`, so that cmark reads no emphasis into the heading.
        mutating func key() -> String? {
            var result: [UInt8] = []
            while let byte = peek() {
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.endIndex, "-_:".utf8.contains(bytes[index + 1]) {
                    result.append(bytes[index + 1])
                    index += 2
                } else if byte >= 0x80 || byte.isASCIILetter || byte.isASCIIDigit || "-_:".utf8.contains(byte) {
                    result.append(byte)
                    advance()
                } else {
                    break
                }
            }
            return result.isEmpty ? nil : String(validating: result, as: UTF8.self)
        }

        /// Up to white space or the end, escapes decoded; nil when it is not UTF-8.
        mutating func word() -> String? {
            var result: [UInt8] = []
            while let byte = peek(), !Self.isSpace(byte) { appendCharacter(to: &result) }
            return String(validating: result, as: UTF8.self)
        }

        /// Up to the closing `quote`, escapes decoded; nil when it does not close.
        mutating func quoted(until quote: UInt8) -> String? {
            var result: [UInt8] = []
            while let byte = peek() {
                if byte == quote {
                    advance()
                    return String(validating: result, as: UTF8.self)
                }
                appendCharacter(to: &result)
            }
            return nil
        }

        /// One character of a value: `\` and ASCII punctuation, a character reference, or a byte.
        private mutating func appendCharacter(to result: inout [UInt8]) {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.endIndex, bytes[index + 1].isASCIIPunctuation {
                result.append(bytes[index + 1])
                index += 2
            } else if byte == UInt8(ascii: "&"), let (length, value) = CharacterReference.decode(bytes[index...]) {
                result += value.utf8
                index += length
            } else {
                result.append(byte)
                index += 1
            }
        }

        private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    }
}
