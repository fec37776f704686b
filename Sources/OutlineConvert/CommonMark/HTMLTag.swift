/// One tag of raw HTML, read as HTML's tokenizer reads it (its start tag, end tag, comment,
/// declaration and processing-instruction states), written back in one canonical form.
struct HTMLTag: Equatable {
    enum Kind: Equatable {
        case start
        case end
        /// A comment, a declaration (`<!DOCTYPE …>`, `<![CDATA[…]]>`) or `<?…>`.
        case other
    }

    struct Attribute: Equatable {
        /// Lowercased.
        let name: String
        /// As written, without its quotes (entities not decoded); nil when there is no `=`.
        var value: [UInt8]?
        /// Where the value starts, from the tag's `<`.
        let offset: Int
    }

    let kind: Kind
    /// Lowercased; empty for `.other`.
    let name: String
    var attributes: [Attribute] = []
    var selfClosing = false

    /// Whether `<` at `index` starts markup (not text): a letter, `/`, `!` or `?` after it.
    static func startsMarkup(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index + 1 < bytes.count else { return false }
        let next = bytes[index + 1]
        return next.isASCIILetter || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
    }

    /// The tag that `<` at `index` starts, and the index after it; nil when it starts no
    /// tag (text) or its end is not in `bytes`.
    static func read(_ bytes: [UInt8], at index: Int) -> (HTMLTag, Int)? {
        guard startsMarkup(bytes, at: index) else { return nil }
        let next = bytes[index + 1]
        if next == UInt8(ascii: "!") {
            if bytes[(index + 2)...].starts(with: "--".utf8) { return comment(bytes, at: index) }
            return bytes[index...].firstIndex(of: UInt8(ascii: ">")).map { (HTMLTag(kind: .other, name: ""), $0 + 1) }
        }
        if next == UInt8(ascii: "?") {
            return bytes[index...].firstIndex(of: UInt8(ascii: ">")).map { (HTMLTag(kind: .other, name: ""), $0 + 1) }
        }
        let isEnd = next == UInt8(ascii: "/")
        let nameStart = isEnd ? index + 2 : index + 1
        guard nameStart < bytes.count, bytes[nameStart].isASCIILetter else {
            // `</>` is nothing; `</` and anything else a bogus comment, to the next `>`.
            return bytes[index...].firstIndex(of: UInt8(ascii: ">")).map { (HTMLTag(kind: .other, name: ""), $0 + 1) }
        }
        var at = nameStart
        while at < bytes.count, !bytes[at].isHTMLSpace, bytes[at] != UInt8(ascii: "/"), bytes[at] != UInt8(ascii: ">") { at += 1 }
        let name = String(decoding: bytes[nameStart..<at].map { $0.isASCIILetter ? $0 | 0x20 : $0 }, as: UTF8.self)
        var tag = HTMLTag(kind: isEnd ? .end : .start, name: name)
        guard let end = tag.readAttributes(bytes, from: at, tagStart: index) else { return nil }
        return (tag, end)
    }

    /// `<!--` … `-->` (or `--!>`; `<!-->` and `<!--->` end at once).
    private static func comment(_ bytes: [UInt8], at index: Int) -> (HTMLTag, Int)? {
        let body = index + 4
        let other = HTMLTag(kind: .other, name: "")
        if bytes[body...].starts(with: ">".utf8) { return (other, body + 1) }
        if bytes[body...].starts(with: "->".utf8) { return (other, body + 2) }
        var at = body
        while at + 2 < bytes.count {
            if bytes[at] == UInt8(ascii: "-"), bytes[at + 1] == UInt8(ascii: "-") {
                if bytes[at + 2] == UInt8(ascii: ">") { return (other, at + 3) }
                if at + 3 < bytes.count, bytes[at + 2] == UInt8(ascii: "!"), bytes[at + 3] == UInt8(ascii: ">") { return (other, at + 4) }
            }
            at += 1
        }
        return nil
    }

    /// Reads the attributes from `index` to the tag's `>`: the index after it, nil if none.
    /// A name met twice keeps its first value, as in HTML.
    private mutating func readAttributes(_ bytes: [UInt8], from index: Int, tagStart: Int) -> Int? {
        var at = index
        func skipSpaces() { while at < bytes.count, bytes[at].isHTMLSpace { at += 1 } }
        while true {
            skipSpaces()
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: ">"):
                return at + 1
            case UInt8(ascii: "/"):
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: ">") { selfClosing = true }
                continue
            default:
                break
            }
            let nameStart = at
            at += 1  // (A name may start with `=`.)
            while at < bytes.count, !bytes[at].isHTMLSpace, bytes[at] != UInt8(ascii: "/"), bytes[at] != UInt8(ascii: ">"),
                bytes[at] != UInt8(ascii: "=")
            {
                at += 1
            }
            let name = String(decoding: bytes[nameStart..<at].map { $0.isASCIILetter ? $0 | 0x20 : $0 }, as: UTF8.self)
            skipSpaces()
            var value: [UInt8]?
            var valueStart = at
            if at < bytes.count, bytes[at] == UInt8(ascii: "=") {
                at += 1
                skipSpaces()
                guard at < bytes.count else { return nil }
                let quote = bytes[at]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    guard let close = bytes[(at + 1)...].firstIndex(of: quote) else { return nil }
                    valueStart = at + 1
                    value = Array(bytes[valueStart..<close])
                    at = close + 1
                } else {
                    valueStart = at
                    while at < bytes.count, !bytes[at].isHTMLSpace, bytes[at] != UInt8(ascii: ">") { at += 1 }
                    value = Array(bytes[valueStart..<at])
                }
            }
            if !attributes.contains(where: { $0.name == name }) {
                attributes.append(Attribute(name: name, value: value, offset: valueStart - tagStart))
            }
        }
    }

    /// The tag as HTML: every value double-quoted.
    var html: [UInt8] {
        switch kind {
        case .other: return []
        case .end: return Array("</\(name)>".utf8)
        case .start:
            var bytes = Array("<\(name)".utf8)
            for attribute in attributes {
                bytes.append(.space)
                bytes += attribute.name.utf8
                guard let value = attribute.value else { continue }
                bytes += "=\"".utf8
                for byte in value {
                    if byte == UInt8(ascii: "\"") { bytes += "&quot;".utf8 } else { bytes.append(byte) }
                }
                bytes.append(UInt8(ascii: "\""))
            }
            bytes.append(UInt8(ascii: ">"))
            return bytes
        }
    }
}

/// The character references of HTML, as far as URLs need them.
enum HTMLEntities {
    /// A URL as written in an attribute, as the browser reads it: character references
    /// decoded, tabs and line breaks removed. A named reference not known here (`&eacute;`)
    /// becomes `unknown`; nil when that is nil (never guessed at). None of them stands for
    /// a character that could end or hide a scheme: those are all known here.
    static func decodedURL(_ url: ArraySlice<UInt8>, unknown: String? = nil) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(url.count)
        var index = url.startIndex
        while index < url.endIndex {
            let byte = url[index]
            guard byte == UInt8(ascii: "&") else {
                if byte != .tab && byte != .lineFeed && byte != .carriageReturn { bytes.append(byte) }
                index += 1
                continue
            }
            var end = index + 1
            if end < url.endIndex, url[end] == UInt8(ascii: "#") {
                end += 1
                let hex = end < url.endIndex && url[end] | 0x20 == UInt8(ascii: "x")
                if hex { end += 1 }
                let digits = end
                while end < url.endIndex, hex ? url[end].isASCIIHexDigit : url[end].isASCIIDigit { end += 1 }
                guard end > digits else {
                    bytes.append(byte)
                    index += 1
                    continue
                }
                let value = UInt32(String(decoding: url[digits..<end], as: UTF8.self), radix: hex ? 16 : 10) ?? 0xFFFD
                let scalar = Unicode.Scalar(value == 0 ? 0xFFFD : value) ?? "\u{FFFD}"
                if scalar != "\t" && scalar != "\n" && scalar != "\r" { bytes += String(Character(scalar)).utf8 }
                if end < url.endIndex, url[end] == UInt8(ascii: ";") { end += 1 }
                index = end
                continue
            }
            while end < url.endIndex, url[end].isASCIILetter || url[end].isASCIIDigit { end += 1 }
            guard end > index + 1 else {
                bytes.append(byte)
                index += 1
                continue
            }
            let name = String(decoding: url[(index + 1)..<end], as: UTF8.self)
            let terminated = end < url.endIndex && url[end] == UInt8(ascii: ";")
            // (In an attribute, a reference not ended by `;` stays text when a letter, digit or `=` follows.)
            let followed = end < url.endIndex && (url[end].isASCIILetter || url[end].isASCIIDigit || url[end] == UInt8(ascii: "="))
            guard terminated || (!followed && named[name] != nil) else {
                bytes += url[index..<end]
                index = end
                continue
            }
            guard let character = named[name] ?? unknown else { return nil }
            bytes += character.utf8
            index = terminated ? end + 1 : end
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Named references that URLs use, and those that would hide a scheme's letters or
    /// `:` (a tab or line break decodes to nothing: a browser drops them from URLs).
    private static let named: [String: String] = [
        "amp": "&", "AMP": "&", "lt": "<", "LT": "<", "gt": ">", "GT": ">", "quot": "\"", "QUOT": "\"", "apos": "'", "nbsp": "\u{A0}",
        "Tab": "", "NewLine": "", "colon": ":", "sol": "/", "period": ".", "num": "#", "quest": "?", "percnt": "%", "equals": "=",
        "lpar": "(", "rpar": ")", "plus": "+", "comma": ",", "excl": "!", "commat": "@", "lowbar": "_", "hyphen": "-", "dash": "-",
    ]
}
