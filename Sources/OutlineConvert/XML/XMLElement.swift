/// An element whose end tag has just been read, as an `XMLBuilder` sees it: its name,
/// place and attributes, its text, and its child elements as the builder made them.
struct XMLElement<Node> {
    /// What an element holds, in document order (comments and processing instructions dropped).
    enum Content {
        case element(XMLChild<Node>)
        case text(String)
    }

    let name: String
    /// Where the start tag's `<` is: 1-based line and column (in characters).
    let line: Int
    let column: Int
    let attributes: [(name: String, value: String)]
    /// The name of the element this one is in; nil for the root.
    let parent: String?
    let children: [Content]
    /// The document's bytes and this start tag's offset in them, to place text on demand.
    let source: XMLSource
    let offset: Int

    init(_ start: OpenElement, parent: String?, children: [Content], source: XMLSource) {
        (name, line, column, attributes, offset) = (start.name, start.line, start.column, start.attributes, start.offset)
        self.parent = parent
        self.children = children
        self.source = source
    }

    /// Whether this is the document's root element.
    var isRoot: Bool { parent == nil }

    /// The value of an attribute, if present.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The child elements, in order.
    var elements: [XMLChild<Node>] {
        children.compactMap { if case .element(let e) = $0 { e } else { nil } }
    }

    /// The first child element, if any, without collecting the others.
    var firstElement: XMLChild<Node>? {
        for case .element(let element) in children { return element }
        return nil
    }

    /// All text directly inside, CDATA included.
    var text: String {
        // Most elements hold one run of text, or none.
        if children.isEmpty { return "" }
        if children.count == 1, case .text(let text) = children[0] { return text }
        var text = ""
        for case .text(let run) in children { text += run }
        return text
    }

    /// The first run of non-white-space text directly inside, if any, with where it starts.
    var strayText: (text: String, line: Int, column: Int)? {
        for case .text(let text) in children where !text.trimmed.isEmpty {
            let place = source.firstText(inElementAt: offset).map(source.position) ?? (line: line, column: column)
            return (text.trimmed, place.line, place.column)
        }
        return nil
    }

    /// Where the element starts, for a message.
    func location(in file: String) -> SourceLocation { SourceLocation(file: file, line: line, column: column) }
}

/// A child element as its parent sees it: its name and place, and what the builder made of
/// it (nil when it was not built).
struct XMLChild<Node> {
    let name: String
    let line: Int
    let column: Int
    let node: Node?

    init(_ start: OpenElement, node: Node?) {
        (name, line, column) = (start.name, start.line, start.column)
        self.node = node
    }

    /// Where the element starts, for a message.
    func location(in file: String) -> SourceLocation { SourceLocation(file: file, line: line, column: column) }
}

/// Steps over XML markup byte by byte: tags (with quoted attribute values, which may hold
/// `>`), comments, CDATA sections, processing instructions and doctypes.
struct XMLMarkupScanner {
    enum Markup: Equatable {
        case startTag, endTag, emptyTag, other
        /// A CDATA section; its text starts at this offset.
        case cdata(Int)
    }

    let bytes: [UInt8]
    var offset: Int

    func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// At a `<`: moves past the whole construct and says what it was.
    mutating func skipMarkup() -> Markup {
        let second = offset + 1 < bytes.count ? bytes[offset + 1] : 0
        if second != UInt8(ascii: "!") && second != UInt8(ascii: "?") {  // a tag (the common case)
            let isEnd = second == UInt8(ascii: "/")
            let last = skipToClose(bracketsNest: false)
            return isEnd ? .endTag : last == UInt8(ascii: "/") ? .emptyTag : .startTag
        }
        if has("<!--") { skip(past: "-->"); return .other }
        if has("<![CDATA[") {
            let start = offset + 9
            skip(past: "]]>")
            return .cdata(start)
        }
        if second == UInt8(ascii: "?") { skip(past: "?>"); return .other }
        // A doctype: quoted literals and an internal subset in brackets may hold `>`.
        _ = skipToClose(bracketsNest: true)
        return .other
    }

    /// Moves past the `>` that closes the construct, stepping over quoted text (and, with
    /// `bracketsNest`, brackets); returns the byte before that `>`.
    private mutating func skipToClose(bracketsNest: Bool) -> UInt8 {
        var depth = 0
        var quote: UInt8?
        var previous: UInt8 = 0
        while let byte = peek() {
            offset += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if bracketsNest && byte == UInt8(ascii: "[") {
                depth += 1
            } else if bracketsNest && byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: ">") && depth <= 0 {
                return previous
            }
            previous = byte
        }
        return previous
    }

    private func has(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { bytes[offset..<(offset + count)].elementsEqual($0) }
    }

    private mutating func skip(past literal: StaticString) {
        while offset < bytes.count && !has(literal) { offset += 1 }
        offset = min(offset + literal.utf8CodeUnitCount, bytes.count)
    }
}
