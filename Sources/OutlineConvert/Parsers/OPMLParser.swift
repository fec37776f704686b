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

    func read(streaming file: InputFile, head: ArraySlice<UInt8>) throws -> ParsedDocument? {
        XMLSource.streams(head) ? try parse(XMLSource(file: file), file: file.path) : nil
    }

    /// Parses the OPML in `bytes`; `file` names it in messages.
    public func parse(_ bytes: [UInt8], file: String) throws -> ParsedDocument {
        try parse(XMLSource(bytes), file: file)
    }

    private func parse(_ source: XMLSource, file: String) throws -> ParsedDocument {
        var builder = OPMLBuilder(file: file)
        guard case .document(var outline, let expansionState) = try XMLReader.parse(source, file: file, into: &builder) else {
            throw ConversionError.malformed(SourceLocation(file: file, line: 1, column: 1), "the file holds no <opml>")
        }
        if let expansionState { builder.apply(expansionState.text, at: expansionState.location, to: &outline) }
        return ParsedDocument(outline: outline, warnings: builder.warnings)
    }
}

/// Makes each element into its part of the outline as soon as it ends.
private struct OPMLBuilder: XMLBuilder {
    /// What an element becomes.
    enum Part {
        /// The root: the outline and the `expansionState` to apply to it.
        case document(Outline, expansionState: (text: String, location: SourceLocation)?)
        /// `<head>`: its text elements, in order.
        case head([(name: String, text: String, location: SourceLocation)])
        /// An element of `<head>`: its text, or nil when it holds elements (and is ignored).
        case headEntry(String?)
        case body([OutlineNode])
        case outline(OutlineNode)
    }

    let file: String
    var warnings: [Diagnostic] = []

    init(file: String) { self.file = file }

    /// The root; `<head>` and `<body>` in it; the elements of `<head>`; `<outline>` in
    /// `<body>` or in an `<outline>`. (Only what is built can be more than ignored.)
    func builds(_ name: String, inside parent: String?) -> Bool {
        switch parent {
        case nil, "head": true
        case "opml": name == "head" || name == "body"
        case "body", "outline": name == "outline"
        default: false
        }
    }

    mutating func build(_ element: XMLElement<Part>) throws -> Part {
        switch (element.parent, element.name) {
        case (nil, _): return try document(element)
        case ("head", _):
            if let inner = element.firstElement {
                warn(inner.location(in: file), "<\(Quote.snippet(element.name))> in <head> holds elements; it is ignored")
                return .headEntry(nil)
            }
            return .headEntry(element.text)
        case ("opml", "head"):
            return .head(
                element.elements.compactMap { entry in
                    guard case .headEntry(let text?) = entry.node else { return nil }
                    return (entry.name, text, entry.location(in: file))
                })
        case ("opml", _): return .body(outlines(in: element))
        default: return .outline(try outline(element))
        }
    }

    private mutating func document(_ root: XMLElement<Part>) throws -> Part {
        guard root.name == "opml" else {
            throw ConversionError.invalid(root.location(in: file), "the root element is <\(Quote.snippet(root.name))>, not <opml>")
        }
        var outline = Outline()
        var expansionState: (text: String, location: SourceLocation)?
        var nodes: [OutlineNode]?
        for case .element(let child) in root.children {
            switch child.node {
            case .head(let entries):
                for (name, text, location) in entries {
                    switch name {
                    case "title":
                        let title = TitleText.normalized(text)
                        outline.title = title.isEmpty ? nil : title
                    case "expansionState": expansionState = (text, location)
                    case "_note": outline.body = BodyText.normalized(text)
                    default: outline.attributes[name] = text
                    }
                }
            case .body(let body): nodes = body
            default: warn(child.location(in: file), "<\(Quote.snippet(child.name))> in <opml> is ignored")
            }
        }
        guard let nodes else { throw ConversionError.invalid(root.location(in: file), "an OPML file needs a <body>") }
        outline.nodes = nodes
        // In the order of the document (elements are built innermost first).
        warnings.sort { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
        return .document(outline, expansionState: expansionState)
    }

    private mutating func warn(_ location: SourceLocation, _ message: String) {
        warnings.append(Diagnostic(location, message))
    }

    private mutating func outlines(in container: XMLElement<Part>) -> [OutlineNode] {
        var nodes: [OutlineNode] = []
        nodes.reserveCapacity(container.children.count)  // (not grown by doubling: a large outline is mostly nodes)
        for case .element(let child) in container.children {
            guard case .outline(let node) = child.node else {
                let place = "<\(Quote.snippet(child.name))> in <\(Quote.snippet(container.name))>"
                warn(child.location(in: file), place + " is ignored; only <outline> is read")
                continue
            }
            nodes.append(node)
        }
        return nodes
    }

    private mutating func outline(_ element: XMLElement<Part>) throws -> OutlineNode {
        // Some feed readers' exports name a folder by `title` only: it stands in for `text`
        // (and is kept as an attribute too).
        guard let text = element.attribute("text") ?? element.attribute("title") else {
            throw ConversionError.invalid(element.location(in: file), "an <outline> needs a text (or title) attribute")
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
        node.children = outlines(in: element)
        return node
    }

    /// The expansionState rule: listed nodes are expanded, other nodes that can collapse
    /// are collapsed.
    mutating func apply(_ list: String, at location: SourceLocation, to outline: inout Outline) {
        var count = 0
        outline.forEachNode { _ in count += 1 }
        var expanded = [Bool](repeating: false, count: count)
        // Entry by entry, as bytes: the list may be long (an array of its 50,000 entries was
        // the peak of a 12 MB file's memory).
        let utf8 = list.utf8
        var next = utf8.startIndex
        while next < utf8.endIndex {
            let end = utf8[next...].firstIndex(of: UInt8(ascii: ",")) ?? utf8.endIndex
            let entry = utf8[next..<end]
            next = end < utf8.endIndex ? utf8.index(after: end) : end
            if entry.isEmpty { continue }
            if let index = Self.plainNumber(entry), index < count {
                expanded[index] = true
                continue
            }
            let text = String(decoding: entry, as: UTF8.self).trimmed
            guard let index = Int(text), index >= 0 else {
                warn(location, "expansionState: '\(Quote.snippet(text))' is not a node number; it is ignored")
                continue
            }
            guard index < count else {
                warn(location, "expansionState: there is no node \(index) (the outline has \(count)); it is ignored")
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
