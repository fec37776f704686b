/// Raw HTML as GitHub keeps it (SPEC §3.1.2): the elements and attributes of its sanitizer's
/// allowlist, URLs of allowed schemes only; comments, declarations, `on*`, `style=` and every
/// other element dropped (the content of `script`, `style` and the like with it), never
/// escaped into view. It reads one raw HTML piece at a time (the text of one cmark node) as
/// an HTML tokenizer does, keeps the elements opened and not closed across the pieces of one
/// scope, drops an end tag that closes nothing open there, and closes what is still open at
/// the scope's end (`closingOpenElements`), so that raw HTML can never change the page's
/// structure around it. With `keepsAll` (`--unsafe`) every tag is kept as written.
///
/// Kept URLs (`href`, `src`, `srcset`, `cite`, `longdesc`) go through `rewrite` (a site's
/// links), given as the browser reads them (entities decoded) with their byte offset in the
/// piece.
struct HTMLSanitizer {
    let keepsAll: Bool
    var rewrite: ((String, Int) -> String?)?
    /// The kept elements open in this scope, innermost last.
    private var open: [String] = []
    /// Inside an element whose content is dropped: its name (its content may span pieces).
    private(set) var dropping: String?

    init(keepsAll: Bool, rewrite: ((String, Int) -> String?)? = nil) {
        self.keepsAll = keepsAll
        self.rewrite = rewrite
    }

    /// What is kept of one piece of raw HTML.
    mutating func filter(_ piece: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(piece.count)
        var index = 0
        while index < piece.count {
            if let name = dropping {
                // (Raw text: only its end tag ends it.)
                guard let end = Self.endTag(named: name, in: piece, from: index) else { return keepsAll ? output + piece[index...] : output }
                if keepsAll { output += piece[index..<end] }
                index = end
                dropping = nil
                continue
            }
            let byte = piece[index]
            guard byte == UInt8(ascii: "<") else {
                output.append(byte)
                index += 1
                continue
            }
            guard let (tag, end) = HTMLTag.read(piece, at: index) else {
                // A `<` that starts no tag is text; an unterminated tag is dropped.
                if HTMLTag.startsMarkup(piece, at: index) { return keepsAll ? output + piece[index...] : output }
                output += keepsAll ? [byte] : Array("&lt;".utf8)
                index += 1
                continue
            }
            write(tag, source: piece[index..<end], offset: index, into: &output)
            index = end
        }
        return output
    }

    /// End tags for the elements still open, innermost first: the scope is over.
    mutating func closingOpenElements() -> [UInt8] {
        defer { open = [] }
        return open.reversed().flatMap { Array("</\($0)>".utf8) }
    }

    private mutating func write(_ tag: HTMLTag, source: ArraySlice<UInt8>, offset: Int, into output: inout [UInt8]) {
        switch tag.kind {
        case .other:
            if keepsAll { output += source }
        case .end:
            if keepsAll {
                output += source
                return
            }
            guard let at = open.lastIndex(of: tag.name) else { return }
            for name in open[at...].reversed() { output += Array("</\(name)>".utf8) }
            open.removeSubrange(at...)
        case .start:
            if Self.contentDropped.contains(tag.name) && !tag.selfClosing { dropping = tag.name }
            if keepsAll {
                let rewritten = rewritingURLs(of: tag, offset: offset, checked: false)
                output += rewritten == tag ? Array(source) : rewritten.html
                return
            }
            guard Self.elements.contains(tag.name), open.count < Self.maxOpen || Self.voidElements.contains(tag.name) else { return }
            if let top = open.last, Self.closesOpen(top, tag.name) {
                output += Array("</\(top)>".utf8)
                open.removeLast()
            }
            var kept = tag
            kept.attributes = tag.attributes.filter { Self.allows($0.name, on: tag.name) }
            kept = rewritingURLs(of: kept, offset: offset, checked: true)
            output += kept.html
            if !Self.voidElements.contains(tag.name) { open.append(tag.name) }
        }
    }

    /// `tag` with its URLs through `rewrite`; when `checked`, without the URL attributes
    /// whose scheme the allowlist does not take.
    private func rewritingURLs(of tag: HTMLTag, offset: Int, checked: Bool) -> HTMLTag {
        var result = tag
        result.attributes = tag.attributes.compactMap { attribute in
            guard let schemes = Self.urlSchemes(attribute.name, on: tag.name), let value = attribute.value else { return attribute }
            let urls = attribute.name == "srcset" ? Self.srcsetURLs(value) : [value[...]]
            if checked, !urls.allSatisfy({ Self.hasAllowedScheme($0, schemes) }) { return nil }
            guard let rewrite else { return attribute }
            var rewritten = attribute
            var bytes = value
            // (From the last, so that the ranges of those before stay right.)
            for url in urls.reversed() {
                guard let decoded = HTMLEntities.decodedURL(url), let href = rewrite(decoded, offset + attribute.offset + url.startIndex)
                else { continue }
                var escaped = ByteBuffer(capacity: href.utf8.count)
                escaped.write(escaping: href)
                bytes.replaceSubrange(url.startIndex..<url.endIndex, with: escaped.finish())
            }
            rewritten.value = bytes
            return rewritten
        }
        return result
    }

    /// The end of the end tag `</name…>` (any case) at or after `index`; nil if there is none.
    private static func endTag(named name: String, in piece: [UInt8], from index: Int) -> Int? {
        let name = Array(name.utf8)
        var at = index
        while let open = piece[at...].firstIndex(of: UInt8(ascii: "<")) {
            // (Only `</name` followed by a space, `/` or `>` is read as a tag: reading every `<`
            // of a script as one would scan to the end for each.)
            let after = open + 2 + name.count
            if after < piece.count, piece[open + 1] == UInt8(ascii: "/"),
                zip(piece[(open + 2)..<after], name).allSatisfy({ ($0.isASCIILetter ? $0 | 0x20 : $0) == $1 }),
                piece[after].isHTMLSpace || piece[after] == UInt8(ascii: "/") || piece[after] == UInt8(ascii: ">")
            {
                return HTMLTag.read(piece, at: open)?.1
            }
            at = open + 1
        }
        return nil
    }

    // MARK: - The allowlist (html-pipeline's, which GitHub's follows, with `picture`/`source`)

    static let elements: Set<String> = [
        "h1", "h2", "h3", "h4", "h5", "h6", "br", "b", "i", "strong", "em", "a", "pre", "code", "img", "tt", "div", "ins", "del",
        "sup", "sub", "p", "ol", "ul", "table", "thead", "tbody", "tfoot", "blockquote", "dl", "dt", "dd", "kbd", "q", "samp", "var",
        "hr", "ruby", "rt", "rp", "li", "tr", "td", "th", "s", "strike", "summary", "details", "caption", "figure", "figcaption",
        "abbr", "bdo", "cite", "dfn", "mark", "small", "span", "time", "wbr", "picture", "source", "colgroup", "col", "u",
    ]

    private static let globalAttributes: Set<String> = [
        "abbr", "accept", "accept-charset", "accesskey", "action", "align", "alt", "aria-describedby", "aria-hidden", "aria-label",
        "aria-labelledby", "axis", "border", "cellpadding", "cellspacing", "char", "charoff", "charset", "checked", "clear", "cols",
        "colspan", "color", "compact", "coords", "datetime", "dir", "disabled", "enctype", "for", "frame", "headers", "height",
        "hreflang", "hspace", "id", "ismap", "label", "lang", "maxlength", "media", "method", "multiple", "name", "nohref", "noshade",
        "nowrap", "open", "progress", "prompt", "readonly", "rel", "rev", "role", "rows", "rowspan", "rules", "scope", "selected",
        "shape", "size", "span", "start", "summary", "tabindex", "title", "type", "usemap", "valign", "value", "width", "itemprop",
    ]

    private static let elementAttributes: [String: Set<String>] = [
        "a": ["href"], "img": ["src", "longdesc", "srcset", "sizes"], "source": ["srcset", "sizes"],
        "div": ["itemscope", "itemtype"], "blockquote": ["cite"], "del": ["cite"], "ins": ["cite"], "q": ["cite"],
    ]

    private static func allows(_ attribute: String, on element: String) -> Bool {
        globalAttributes.contains(attribute) || elementAttributes[element]?.contains(attribute) == true
    }

    /// The schemes a URL attribute may have (a relative URL has none); nil for an attribute that holds no URL.
    private static func urlSchemes(_ attribute: String, on element: String) -> [String]? {
        switch (element, attribute) {
        case ("a", "href"): ["http", "https", "mailto"]
        case ("img", "src"), ("img", "longdesc"), ("img", "srcset"), ("source", "srcset"), (_, "cite"): ["http", "https"]
        default: nil
        }
    }

    /// Elements dropped with all they hold (Sanitize's `remove_contents`, and the raw-text
    /// elements GitHub's tag filter names).
    private static let contentDropped: Set<String> = [
        "iframe", "math", "noembed", "noframes", "noscript", "plaintext", "script", "style", "svg", "xmp", "template", "textarea",
        "title", "select", "object",
    ]

    /// How many kept elements may be open in one scope; deeper start tags are dropped (so
    /// that no end tag searches a long list).
    static let maxOpen = 256

    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]

    /// Whether opening `element` ends `top` (HTML's implied end tags, for the elements kept).
    private static func closesOpen(_ top: String, _ element: String) -> Bool {
        switch top {
        case "p": blockStarts.contains(element)
        case "li": element == "li"
        case "dt", "dd": element == "dt" || element == "dd"
        case "td", "th": element == "td" || element == "th" || element == "tr"
        case "tr": element == "tr"
        case "rt", "rp": element == "rt" || element == "rp"
        default: false
        }
    }

    private static let blockStarts: Set<String> = [
        "p", "div", "ul", "ol", "dl", "table", "blockquote", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "details", "figure",
    ]

    /// The URLs of a `srcset` (comma-separated candidates, each a URL and a descriptor).
    static func srcsetURLs(_ value: [UInt8]) -> [ArraySlice<UInt8>] {
        var urls: [ArraySlice<UInt8>] = []
        var index = 0
        while index < value.count {
            while index < value.count, value[index].isHTMLSpace || value[index] == UInt8(ascii: ",") { index += 1 }
            let start = index
            while index < value.count, !value[index].isHTMLSpace { index += 1 }
            var url = value[start..<index]
            // (A URL ends at its descriptor, or at a comma right after it.)
            while url.last == UInt8(ascii: ",") { url = url.dropLast() }
            if !url.isEmpty { urls.append(url) }
            while index < value.count, value[index] != UInt8(ascii: ",") { index += 1 }
        }
        return urls
    }

    /// Whether a URL (as written in the attribute) is relative or of one of `schemes`, read as
    /// a browser reads it: entities decoded, tabs and line breaks removed, leading controls
    /// and spaces ignored. An entity that cannot be decoded before the scheme's end makes it
    /// unsafe.
    static func hasAllowedScheme(_ url: ArraySlice<UInt8>, _ schemes: [String]) -> Bool {
        guard let decoded = HTMLEntities.decodedURL(url, unknown: "\u{FFFD}") else { return false }
        let bytes = decoded.utf8.drop { $0 <= 0x20 }
        guard
            let end = bytes.firstIndex(where: {
                $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }),
            bytes[end] == UInt8(ascii: ":")
        else { return true }
        let scheme = String(decoding: bytes[..<end].map { $0.isASCIILetter ? $0 | 0x20 : $0 }, as: UTF8.self)
        return schemes.contains(scheme)
    }
}
