/// Reads OPML 1.0 and 2.0 (SPEC §3.4): each `<outline text=…>` in `<body>` is a node;
/// `text` may hold markup, and its plain text is the title; `_note` is the body, `id` the
/// id, every other attribute is kept. In `<head>`: `<title>`, `<expansionState>`, `<_note>`
/// (the preamble, as this tool writes it) and any other text element as an outline
/// attribute (`<ownerName>`, `<dateCreated>`, …). `expansionState` lists 0-based pre-order
/// indexes of expanded nodes: a node not listed that has children or a note starts
/// collapsed; without the element, nothing is marked. A bad entry in it is a warning.
public struct OPMLParser: OutlineReader {
    let name = "opml"
    let extensions = ["opml"]

    /// A parser; it keeps no state between documents.
    public init() {}

    func sniff(_ head: ArraySlice<UInt8>) -> Bool { XMLRootName.of(head) == "opml" }

    func reasonToSkip(_ head: () -> ArraySlice<UInt8>?) -> String? {
        guard let head = head() else { return nil }
        let root = XMLRootName.of(head)
        return root == "opml" ? nil : "a .opml file whose root is <\(Quote.snippet(root ?? "?"))>, not <opml>"
    }

    func read(_ bytes: [UInt8], file: String, maxInputSize: Int) throws -> ParsedDocument {
        try parse(bytes, file: file)
    }

    /// Parses the OPML in `bytes`; `file` names it in messages.
    public func parse(_ bytes: [UInt8], file: String) throws -> ParsedDocument {
        let root = try XMLReader.parse(bytes, file: file)
        var reader = OPMLReader(file: file)
        guard root.name == "opml" else { throw reader.invalid(root, "the root element is <\(Quote.snippet(root.name))>, not <opml>") }
        var outline = Outline()
        var expansionState: (element: XMLElement, text: String)?
        var body: XMLElement?
        for element in root.elements {
            switch element.name {
            case "head":
                for entry in element.elements {
                    if let inner = entry.firstElement {
                        reader.warn(inner, "<\(Quote.snippet(entry.name))> in <head> holds elements; it is ignored")
                        continue
                    }
                    switch entry.name {
                    case "title":
                        let title = TitleText.normalized(entry.text)
                        outline.title = title.isEmpty ? nil : title
                    case "expansionState": expansionState = (entry, entry.text)
                    case "_note": outline.body = BodyText.normalized(entry.text)
                    default: outline.attributes[entry.name] = entry.text
                    }
                }
            case "body": body = element
            default: reader.warn(element, "<\(Quote.snippet(element.name))> in <opml> is ignored")
            }
        }
        guard let body else { throw reader.invalid(root, "an OPML file needs a <body>") }
        outline.nodes = try reader.outlines(in: body)
        if let expansionState { reader.apply(expansionState.text, at: expansionState.element, to: &outline) }
        return ParsedDocument(outline: outline, warnings: reader.warnings)
    }
}

private struct OPMLReader {
    let file: String
    var warnings: [Diagnostic] = []

    init(file: String) { self.file = file }

    func location(_ element: XMLElement) -> SourceLocation {
        SourceLocation(file: file, line: element.line, column: element.column)
    }

    func invalid(_ element: XMLElement, _ reason: String) -> ConversionError {
        .invalid(location(element), reason)
    }

    mutating func warn(_ element: XMLElement, _ message: String) {
        warnings.append(Diagnostic(location(element), message))
    }

    mutating func outlines(in container: XMLElement) throws -> [OutlineNode] {
        var nodes: [OutlineNode] = []
        for case .element(let element) in container.children {
            guard element.name == "outline" else {
                warn(element, "<\(Quote.snippet(element.name))> in <\(Quote.snippet(container.name))> is ignored; only <outline> is read")
                continue
            }
            guard let text = element.attribute("text") else {
                throw invalid(element, "an <outline> needs a text attribute")
            }
            let title = TitleText.normalized(OPMLText.plain(text))
            var node = OutlineNode(title: title.isEmpty ? HeadingMarkers.untitled : title, line: element.line)
            for (name, value) in element.attributes {
                switch name {
                case "text": break
                case "_note": node.body = BodyText.normalized(value)
                case "id": node.id = value.trimmed
                default: node.attributes[name] = value
                }
            }
            node.children = try outlines(in: element)
            nodes.append(node)
        }
        return nodes
    }

    /// The expansionState rule: listed nodes are expanded, other nodes that can collapse
    /// are collapsed.
    mutating func apply(_ list: String, at element: XMLElement, to outline: inout Outline) {
        var count = 0
        outline.forEachNode { _ in count += 1 }
        var expanded = [Bool](repeating: false, count: count)
        for entry in list.utf8.split(separator: UInt8(ascii: ",")) {  // bytes: the list may be long
            if let index = Self.plainNumber(entry), index < count {
                expanded[index] = true
                continue
            }
            let text = String(decoding: entry, as: UTF8.self).trimmed
            guard let index = Int(text), index >= 0 else {
                warn(element, "expansionState: '\(Quote.snippet(text))' is not a node number; it is ignored")
                continue
            }
            guard index < count else {
                warn(element, "expansionState: there is no node \(index) (the outline has \(count)); it is ignored")
                continue
            }
            expanded[index] = true
        }
        var index = 0
        outline.mapNodes { node in
            node.collapsed = expanded[index] ? false : node.isCollapsible ? true : nil
            index += 1
        }
    }

    /// The number an entry of the list states when it is only digits between spaces (nearly
    /// every entry), read without making a String; nil sends it the long way.
    private static func plainNumber(_ entry: Substring.UTF8View) -> Int? {
        var number = 0
        var digits = 0
        var trailing = false
        for byte in entry {
            if byte == 32 {
                trailing = digits > 0
                continue
            }
            guard !trailing, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? number : nil
    }
}

/// OPML `text` as HTML: its plain text, and back.
enum OPMLText {
    /// Tags and comments removed, then character references decoded.
    static func plain(_ text: String) -> String {
        guard mayHoldMarkup(text) else { return text }
        let characters = Array(text)
        var withoutTags = ""
        var index = 0
        while index < characters.count {
            let next = index + 1 < characters.count ? characters[index + 1] : " "
            if characters[index] == "<" && startsTag(next) {
                let close = characters[index...].firstIndex(of: ">") ?? characters.count - 1
                index = close + 1
                continue
            }
            withoutTags.append(characters[index])
            index += 1
        }
        let rest = Array(withoutTags)
        var result = ""
        index = 0
        while index < rest.count {
            if rest[index] == "&", let (length, value) = entityLength(rest[index...]) {
                result += value
                index += length
            } else {
                result.append(rest[index])
                index += 1
            }
        }
        return result
    }

    /// Whether the text has a `<` or a `&` (a byte scan: most titles have neither).
    static func mayHoldMarkup(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") } }
    }

    /// Whether `<` followed by `next` starts a tag, a comment or a processing instruction.
    static func startsTag(_ next: Character) -> Bool {
        next.isASCII && (next.isLetter || next == "/" || next == "!" || next == "?")
    }

    private static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}"]

    /// The length and value of the character reference `text` starts with (`&amp;`,
    /// `&#233;`, `&#xE9;`), if it is one.
    static func entityLength(_ text: ArraySlice<Character>) -> (Int, String)? {
        guard let semicolon = text.prefix(12).firstIndex(of: ";") else { return nil }
        let name = String(text[(text.startIndex + 1)..<semicolon])
        let length = semicolon - text.startIndex + 1
        if let value = named[name] { return (length, value) }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let number = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let number, number != 0, let scalar = Unicode.Scalar(number) else { return nil }
        return (length, String(Character(scalar)))
    }
}
