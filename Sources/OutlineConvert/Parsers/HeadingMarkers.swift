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

    init(parts: [CommonMarkDocument.TitlePart]) {
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
        if let last = pieces.last, last.isText {
            let text = last.text.trimmingTrailingSpaces
            if text.hasSuffix("}"), let open = text.lastIndex(of: "{"),
                let attributes = PandocAttributes(String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
            {
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
        if !classes.isEmpty { self.attributes["class"] = classes.joined(separator: " ") }
        for (key, value) in attributes.pairs {
            if key == "visibility" && value == "folded" { collapsed = true; continue }
            self.attributes[key] = value
        }
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
                if (byte >= 9 && byte <= 13) || (byte == 32 && previous == 32) { return false }
                previous = byte
            }
            return previous != 32 && previous != UInt8(ascii: "}")
        }
    }

    /// `fold` or `foldAll` for a markmap comment, else nil.
    private static func markmapOption(_ html: String) -> String? {
        guard html.hasPrefix("<!--"), html.hasSuffix("-->") else { return nil }
        let inner = html.dropFirst(4).dropLast(3).trimmed
        guard inner.hasPrefix("markmap:") else { return nil }
        let option = inner.dropFirst("markmap:".count).trimmed
        return option == "fold" || option == "foldAll" ? option : nil
    }
}

/// Pandoc's attribute syntax, the text between `{` and `}`: `#id`, `.class`, `key=value`,
/// `key="quoted value"`, and `-` (pandoc's short form of `.unnumbered`).
struct PandocAttributes {
    var id: String?
    var classes: [String] = []
    var pairs: [(String, String)] = []

    /// Nil unless the whole text is valid attribute syntax (`{}`, empty, is valid: no
    /// attributes, as pandoc reads it).
    init?(_ text: String) {
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let first = rest.first else { break }
            if first == "#" || first == "." {
                let word = rest.dropFirst().prefix { !$0.isWhitespace }
                guard !word.isEmpty, !word.contains(where: { "{}\"'=#".contains($0) }) else { return nil }
                if first == "#" { id = String(word) } else { classes.append(String(word)) }
                rest = rest[word.endIndex...]
            } else if first == "-" && rest.dropFirst().first?.isWhitespace != false {
                // (`first?.isWhitespace != false`: the end of the text, or white space.)
                classes.append("unnumbered")
                rest = rest.dropFirst()
            } else {
                let key = rest.prefix { $0.isLetter || $0.isNumber || "-_:".contains($0) }
                guard !key.isEmpty, rest[key.endIndex...].first == "=" else { return nil }
                rest = rest[key.endIndex...].dropFirst()
                var value: Substring
                if let quote = rest.first, quote == "\"" || quote == "'" {
                    guard let close = rest.dropFirst().firstIndex(of: quote) else { return nil }
                    value = rest[rest.index(after: rest.startIndex)..<close]
                    rest = rest[rest.index(after: close)...]
                } else {
                    value = rest.prefix { !$0.isWhitespace }
                    guard !value.contains(where: { "{}\"'".contains($0) }) else { return nil }
                    rest = rest[value.endIndex...]
                }
                pairs.append((String(key), String(value)))
            }
        }
    }
}
