/// Reads OPML 1.0 and 2.0: each `<outline text=…>` in `<body>` is a node; `text` may hold
/// markup, and its plain text is the title; `_note` is the body, `id` the id, every other
/// attribute is kept. In `<head>`: `<title>`, `<expansionState>` (read either way, see
/// `OPMLExpansionState`), `<_note>` (the preamble, as this tool writes it) and any other text
/// element as an outline attribute (`<ownerName>`, `<dateCreated>`, …). With an
/// `expansionState`, a node it does not expand that has children or a note starts collapsed;
/// without one, nothing is marked. A bad entry in it is a warning.
struct OPMLParser: OutlineReader {
    let name = "opml"
    let extensions = ["opml"]

    /// How `<expansionState>` is read; nil: the way the file was written (see
    /// `OPMLExpansionReading`).
    var expansion: OPMLExpansionReading?

    /// A parser; it keeps no state between documents.
    init(expansion: OPMLExpansionReading? = nil) { self.expansion = expansion }

    func sniff(_ head: ArraySlice<UInt8>) -> Bool { XMLRootName.of(head) == "opml" }

    func reasonToSkip(_ head: () -> ArraySlice<UInt8>?) -> String? {
        guard let head = head() else { return nil }
        let root = XMLRootName.of(head)
        return root == "opml" ? nil : "a .opml file whose root is <\(Quote.snippet(root ?? "?"))>, not <opml>"
    }

    func read(_ bytes: [UInt8], file: String, options: ConversionOptions) throws -> ParsedDocument {
        try OPMLParser(expansion: options.opmlExpansion).parse(bytes, file: file)
    }

    func read(streaming file: InputFile, head: ArraySlice<UInt8>, options: ConversionOptions) throws -> ParsedDocument? {
        XMLSource.streams(head) ? try OPMLParser(expansion: options.opmlExpansion).parse(XMLSource(file: file), file: file.path) : nil
    }

    /// Parses the OPML in `bytes`; `file` names it in messages.
    func parse(_ bytes: [UInt8], file: String) throws -> ParsedDocument {
        try parse(XMLSource(bytes), file: file)
    }

    private func parse(_ source: XMLSource, file: String) throws -> ParsedDocument {
        var builder = OPMLBuilder(file: file)
        guard case .document(var outline, let head) = try XMLReader.parse(source, file: file, into: &builder) else {
            throw ConversionError.malformed(SourceLocation(file: file, line: 1, column: 1), "the file holds no <opml>")
        }
        builder.apply(head, forcing: expansion, to: &outline)
        return ParsedDocument(outline: outline, warnings: builder.warnings)
    }
}

/// Makes each element into its part of the outline as soon as it ends.
private struct OPMLBuilder: XMLBuilder {
    /// What an element becomes.
    enum Part {
        /// The root: the outline and what its head says of the expansion state.
        case document(Outline, ExpansionHead)
        /// `<head>`: its text elements, in order.
        case head([(name: String, text: String, location: SourceLocation)])
        /// An element of `<head>`: its text, or nil when it holds elements (and is ignored).
        case headEntry(String?)
        case body([OutlineNode])
        case outline(OutlineNode)
    }

    /// What `<head>` says of the expansion state.
    struct ExpansionHead {
        var list: (text: String, location: SourceLocation)?
        var hidden: (text: String, location: SourceLocation)?
        var reading: String?
        var names: Set<String> = []
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
        var expansion = ExpansionHead()
        var nodes: [OutlineNode]?
        for case .element(let child) in root.children {
            switch child.node {
            case .head(let entries):
                for (name, text, location) in entries {
                    expansion.names.insert(name)
                    switch name {
                    case "title":
                        let title = TitleText.normalized(text)
                        outline.title = title.isEmpty ? nil : title
                    case "expansionState": expansion.list = (text, location)
                    case OPMLExpansionState.hiddenElement: expansion.hidden = (text, location)
                    case OPMLExpansionState.readingElement: expansion.reading = text
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
        return .document(outline, expansion)
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

    /// The expansionState rule: the nodes the list expands (read the way `forced` says, else
    /// the way the file was written) and those `_expansionStateHidden` names are expanded;
    /// other nodes that can collapse are collapsed. Without a list, nothing is marked.
    mutating func apply(_ head: ExpansionHead, forcing forced: OPMLExpansionReading?, to outline: inout Outline) {
        guard let list = head.list else { return }
        let state = OPMLExpansionState(outline)
        let (numbers, bad) = OPMLExpansionState.numbers(in: list.text)
        var expansion = state.expansion(of: numbers, forcing: forced, headNames: head.names, stated: head.reading)
        for message in bad + expansion.warnings { warn(list.location, "expansionState: " + message) }
        if let hidden = head.hidden {
            let (indexes, badHidden) = OPMLExpansionState.numbers(in: hidden.text)
            let extra = state.expansion(indexes, reading: .omni)
            for (index, open) in extra.expanded.enumerated() where open { expansion.expanded[index] = true }
            for message in badHidden + extra.warnings { warn(hidden.location, OPMLExpansionState.hiddenElement + ": " + message) }
        }
        var index = 0
        outline.mapNodes { node in
            node.collapsed = expansion.expanded[index] ? false : node.isCollapsible ? true : nil
            index += 1
        }
    }
}

/// OPML `text` as HTML: its plain text, and back.
enum OPMLText {
    /// Tags and comments removed, then character references decoded. By bytes: a `<`
    /// followed by a combining mark is one character, but it still starts a tag.
    static func plain(_ text: String) -> String {
        guard mayHoldMarkup(text) else { return text }
        let bytes = Array(text.utf8)
        var withoutTags: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<") && startsTag(bytes[(index + 1)...]) {
                index = (bytes[index...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count - 1) + 1
                continue
            }
            withoutTags.append(bytes[index])
            index += 1
        }
        return CharacterReference.decodeAll(withoutTags[...])
    }

    /// A plain title as OPML `text`, which readers take as HTML: only what would read as
    /// markup is escaped (`&` starting a reference, `<` starting a tag), so `AT&T` stays.
    static func escaped(_ title: String) -> String {
        guard mayHoldMarkup(title) else { return title }
        let bytes = Array(title.utf8)
        var result: [UInt8] = []
        for index in bytes.indices {
            if bytes[index] == UInt8(ascii: "&") && CharacterReference.decode(bytes[index...]) != nil {
                result += "&amp;".utf8
            } else if bytes[index] == UInt8(ascii: "<") && startsTag(bytes[(index + 1)...]) {
                result += "&lt;".utf8
            } else {
                result.append(bytes[index])
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether the text has a `<` or a `&` (a byte scan: most titles have neither).
    private static func mayHoldMarkup(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") } }
    }

    /// Whether `<` followed by `rest` starts a tag, a comment or a processing instruction.
    private static func startsTag(_ rest: ArraySlice<UInt8>) -> Bool {
        guard let next = rest.first else { return false }
        return next.isASCIILetter || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
    }
}
