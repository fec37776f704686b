internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GFM's extended autolinks, found in the text of a text node as cmark-gfm finds them:
/// `www.` after a space or `*`, `_`, `~`, `(`; `http://`, `https://` and `ftp://` with a
/// valid domain; e-mail addresses. Trailing punctuation and unbalanced `)` are left out.
enum Autolinks {
    struct Found {
        let range: Range<Int>
        let url: String
    }

    /// What starts an autolink (`@`, `://`, `www.`), and which of these a whole text holds:
    /// a text node is searched only for those.
    struct Triggers {
        let at: Bool
        let scheme: Bool
        let www: Bool

        init(_ text: ArraySlice<UInt8>) {
            at = text.firstIndex(ofByte: UInt8(ascii: "@")) != nil
            scheme = text.contains(bytes: "://")
            www = text.contains(bytes: "www.")
        }

        private init() {
            at = false
            scheme = false
            www = false
        }

        /// For a flavour without autolinks: nothing triggers one.
        static let none = Triggers()

        var any: Bool { at || scheme || www }

        /// Whether a text (cmark's, NUL-terminated) may hold one.
        func mayHold(_ literal: UnsafePointer<CChar>) -> Bool {
            (at && strchr(literal, 0x40) != nil) || (scheme && strstr(literal, "://") != nil) || (www && strstr(literal, "www.") != nil)
        }
    }

    /// The links in `text`, in order. `startsAfterBoundary` says whether a `www.` at its very
    /// start may be a link (what comes before the text node allows it).
    static func find(in text: [UInt8], startsAfterBoundary: Bool) -> [Found] {
        var found: [Found] = []
        var plainStart = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "w"),
                index == 0 ? startsAfterBoundary : isSpace(text[index - 1]) || "*_~(".utf8.contains(text[index - 1]),
                let end = www(text, at: index)
            {
                found += emails(text, in: plainStart..<index)
                found.append(Found(range: index..<end, url: "http://" + String(decoding: text[index..<end], as: UTF8.self)))
                index = end
                plainStart = end
                continue
            }
            if byte == UInt8(ascii: ":"), let range = url(text, colon: index, lowerBound: plainStart) {
                found += emails(text, in: plainStart..<range.lowerBound)
                found.append(Found(range: range, url: String(decoding: text[range], as: UTF8.self)))
                index = range.upperBound
                plainStart = index
                continue
            }
            index += 1
        }
        found += emails(text, in: plainStart..<text.count)
        return found
    }

    private static func www(_ text: [UInt8], at start: Int) -> Int? {
        guard text[start...].starts(with: "www.".utf8) else { return nil }
        let domain = domainLength(text, from: start, allowShort: false)
        guard domain > 0 else { return nil }
        var end = start + domain
        while end < text.count, !isSpace(text[end]), text[end] != UInt8(ascii: "<") { end += 1 }
        end = trimmingEnd(text, start: start, end: end)
        return end > start ? end : nil
    }

    private static func url(_ text: [UInt8], colon: Int, lowerBound: Int) -> Range<Int>? {
        guard text.count - colon >= 4, text[colon + 1] == UInt8(ascii: "/"), text[colon + 2] == UInt8(ascii: "/") else { return nil }
        var start = colon
        while start > lowerBound, text[start - 1].isASCIILetter { start -= 1 }
        let scheme = String(decoding: text[start..<colon], as: UTF8.self).lowercased()
        guard ["http", "https", "ftp"].contains(scheme), isHostCharacter(text, at: colon + 3) else { return nil }
        let domain = domainLength(text, from: colon + 3, allowShort: true)
        guard domain > 0 else { return nil }
        var end = colon + 3 + domain
        while end < text.count, !isSpace(text[end]), text[end] != UInt8(ascii: "<") { end += 1 }
        end = trimmingEnd(text, start: start, end: end)
        return end > start ? start..<end : nil
    }

    /// cmark-gfm's domain check: host characters, `-`, `_` and `.`, no `_` in the last two
    /// segments, and (unless `allowShort`) at least one `.`. Returns its length, or 0.
    private static func domainLength(_ text: [UInt8], from start: Int, allowShort: Bool) -> Int {
        let size = text.count - start
        var dots = 0
        var underscores = (previous: 0, last: 0)
        var index = 1
        while index < size - 1 {
            if text[start + index] == .backslash && index < size - 2 { index += 1 }
            let byte = text[start + index]
            if byte == UInt8(ascii: "_") {
                underscores.last += 1
            } else if byte == UInt8(ascii: ".") {
                underscores = (underscores.last, 0)
                dots += 1
            } else if byte != UInt8(ascii: "-") && !isHostCharacter(text, at: start + index) {
                break
            }
            index += 1
        }
        if underscores.previous > 0 || underscores.last > 0 { return 0 }
        return allowShort || dots > 0 ? index : 0
    }

    /// A character that is neither white space nor punctuation (read from its first byte).
    private static func isHostCharacter(_ text: [UInt8], at index: Int) -> Bool {
        var iterator = text[index...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        return !Flanking.isSpace(scalar) && !Flanking.isPunctuation(scalar)
    }

    /// The end of a link once trailing punctuation, an entity-like `&name;` and unbalanced
    /// closing parentheses are left out (and the link stops before any `<`).
    private static func trimmingEnd(_ text: [UInt8], start: Int, end: Int) -> Int {
        var end = text[start..<end].firstIndex(of: UInt8(ascii: "<")) ?? end
        // (Counted once: trimming a `)` takes one from the closing count.)
        var parentheses: (opening: Int, closing: Int)?
        while end > start {
            let last = text[end - 1]
            if "?!.,:*_~'\"".utf8.contains(last) {
                end -= 1
            } else if last == UInt8(ascii: ";") {
                var newEnd = end - 2
                while newEnd > start, text[newEnd].isASCIILetter { newEnd -= 1 }
                end = newEnd < end - 2 && text[newEnd] == UInt8(ascii: "&") ? newEnd : end - 1
            } else if last == UInt8(ascii: ")") {
                let counted =
                    parentheses
                    ?? (text[start..<end].filter { $0 == UInt8(ascii: "(") }.count, text[start..<end].filter { $0 == UInt8(ascii: ")") }.count)
                guard counted.closing > counted.opening else { break }
                parentheses = (counted.opening, counted.closing - 1)
                end -= 1
            } else {
                break
            }
        }
        return end
    }

    /// E-mail addresses in `range` of the text, as cmark-gfm's post-processing finds them.
    private static func emails(_ text: [UInt8], in range: Range<Int>) -> [Found] {
        var found: [Found] = []
        var offset = range.lowerBound
        // cmark-gfm gives up on a text after 1,000 `@` that start no address (a line of
        // them would otherwise take time that grows with its square).
        var attempts = 0
        while offset < range.upperBound, attempts < 1_000, let at = text[offset..<range.upperBound].firstIndex(of: UInt8(ascii: "@")) {
            attempts += 1
            var rewind = 0
            var afterSlash = false
            while rewind < at - offset {
                let byte = text[at - rewind - 1]
                if isAlphanumeric(byte) || ".+-_".utf8.contains(byte) {
                    rewind += 1
                    continue
                }
                afterSlash = byte == UInt8(ascii: "/")
                break
            }
            guard rewind > 0, !afterSlash else {
                offset = at + 1
                continue
            }
            var length = 0
            var ats = 0
            var dots = 0
            let size = range.upperBound - at
            while length < size {
                let byte = text[at + length]
                if isAlphanumeric(byte) {
                } else if byte == UInt8(ascii: "@") {
                    ats += 1
                    if ats > 1 { break }  // (no address has two)
                } else if byte == UInt8(ascii: "."), length < size - 1, isAlphanumeric(text[at + length + 1]) {
                    dots += 1
                } else if byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") {
                    break
                }
                length += 1
            }
            let lastByte = length > 0 ? text[at + length - 1] : 0
            guard length >= 2, ats == 1, dots > 0, lastByte.isASCIILetter || lastByte == UInt8(ascii: ".") else {
                offset = at + 1
                continue
            }
            let end = trimmingEnd(text, start: at, end: at + length)
            guard end > at else {
                offset = at + 1
                continue
            }
            let start = at - rewind
            found.append(Found(range: start..<end, url: "mailto:" + String(decoding: text[start..<end], as: UTF8.self)))
            offset = end
        }
        return found
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .tab || byte == .lineFeed || byte == .carriageReturn || byte == 0x0B || byte == 0x0C
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool { byte.isASCIILetter || byte.isASCIIDigit }
}

/// GFM's extended autolinks (`autolink`): `www.` addresses, `http://`, `https://` and
/// `ftp://` URLs and e-mail addresses in text (not inside a link) become links, as
/// `cmark-gfm -e autolink` makes them (`Autolinks` finds them).
struct AutolinkExtension: MarkdownExtension {
    var name: String { "autolink" }
    /// What may start a link in the text; nothing before `prepared(for:)`.
    private var triggers = Autolinks.Triggers.none

    func prepared(for source: SourceLines) -> AutolinkExtension? {
        let triggers = Autolinks.Triggers(source.bytes)
        guard triggers.any else { return nil }
        var prepared = self
        prepared.triggers = triggers
        return prepared
    }

    /// (The triggers are the whole text's, not the block's: a text node's literal may hold
    /// what its source wrote as a character reference, `&#64;`.)
    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        var texts: [OpaquePointer] = []
        var linkDepth = 0
        MarkdownTree.walk(under: block) { node, entering in
            switch cmark_node_get_type(node) {
            case CMARK_NODE_TEXT:
                guard linkDepth == 0, let literal = cmark_node_get_literal(node), triggers.mayHold(literal) else { return }
                texts.append(node)
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                linkDepth += entering ? 1 : -1
            default:
                break
            }
        }
        for text in texts { makeAutolinks(in: text, tree: tree) }
    }

    /// Links the addresses in a text node (one not inside a link).
    private func makeAutolinks(in text: OpaquePointer, tree: MarkdownTree) {
        let literal = CommonMarkDocument.literalBytes(text)
        let links = Autolinks.find(in: literal, startsAfterBoundary: Self.followsBoundary(text))
        guard !links.isEmpty else { return }
        for (index, piece) in tree.split(text, at: links.map { ($0.range.lowerBound, $0.range.count) }) {
            guard let node = tree.newNode(CMARK_NODE_LINK) else { continue }
            cmark_node_set_url(node, links[index].url)
            cmark_node_insert_before(piece, node)
            cmark_node_append_child(node, piece)
        }
    }

    /// Whether the text node starts where `www.` may start a link: at the start of a line,
    /// or after emphasis or strikethrough (whose delimiters `*`, `_`, `~` allow it).
    private static func followsBoundary(_ text: OpaquePointer) -> Bool {
        guard let previous = cmark_node_previous(text) else { return true }
        switch cmark_node_get_type(previous) {
        case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK, CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_CUSTOM_INLINE:
            return true
        default:
            return false
        }
    }
}
