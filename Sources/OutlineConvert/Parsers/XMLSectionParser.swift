/// Reads XML section files (docs/formats.md):
/// `<outline title=…>` holding an optional `<detail>` (the preamble), then `<section>`s and
/// `<item>`s. A `<section title=… collapsed=true|false id=…>` may start with a `<detail>`;
/// an `<item title=…>text</item>` is a leaf whose text is its body. Other attributes (of
/// `<outline>` too) are kept as attributes; any other element is an error.
struct XMLSectionParser: OutlineReader {
    let name = "xml"
    let extensions = ["xml"]

    /// A parser; it keeps no state between documents.
    init() {}

    func sniff(_ head: ArraySlice<UInt8>) -> Bool { XMLRootName.of(head) == "outline" }

    func reasonToSkip(_ head: () -> ArraySlice<UInt8>?) -> String? {
        guard let head = head() else { return nil }  // (tried, so that its error is reported)
        let root = XMLRootName.of(head)
        return root == "outline" ? nil : "XML whose root is <\(Quote.snippet(root ?? "?"))>, not <outline>"
    }

    func read(_ bytes: [UInt8], file: String, options: ConversionOptions) throws -> ParsedDocument {
        try parse(bytes, file: file)
    }

    func read(streaming file: InputFile, head: ArraySlice<UInt8>, options: ConversionOptions) throws -> ParsedDocument? {
        XMLSource.streams(head) ? try parse(XMLSource(file: file), file: file.path) : nil
    }

    /// Parses the XML in `bytes`; `file` names it in messages.
    func parse(_ bytes: [UInt8], file: String) throws -> ParsedDocument {
        try parse(XMLSource(bytes), file: file)
    }

    private func parse(_ source: XMLSource, file: String) throws -> ParsedDocument {
        var builder = SectionBuilder(file: file)
        guard case .outline(let outline) = try XMLReader.parse(source, file: file, into: &builder) else {
            throw ConversionError.malformed(SourceLocation(file: file, line: 1, column: 1), "the file holds no <outline>")
        }
        return ParsedDocument(outline: outline)
    }
}

/// Makes each element into its part of the outline as soon as it ends.
private struct SectionBuilder: XMLBuilder {
    /// What an element becomes.
    enum Part {
        case outline(Outline)
        case node(OutlineNode)
        case detail(String)
    }

    let file: String

    /// The root; and `<detail>`, `<section>` and `<item>` in the root or a section.
    func builds(_ name: String, inside parent: String?) -> Bool {
        guard let parent else { return true }
        return (parent == "outline" || parent == "section") && (name == "detail" || name == "section" || name == "item")
    }

    func build(_ element: XMLElement<Part>) throws -> Part {
        if element.isRoot {
            guard element.name == "outline" else {
                throw invalid(element, "the root element is <\(Quote.snippet(element.name))>, not <outline>")
            }
            var outline = Outline()
            for (name, value) in element.attributes {
                guard name == "title" else {
                    outline.attributes[name] = value
                    continue
                }
                let title = TitleText.normalized(value)
                guard !title.isEmpty else { throw invalid(element, "the outline's title must not be empty") }
                outline.title = title
            }
            (outline.body, outline.nodes) = try contents(of: element)
            return .outline(outline)
        }
        switch element.name {
        case "detail":
            try refuseElements(in: element)
            return .detail(BodyText.normalized(element.text))
        case "section":
            var node = try header(of: element)
            (node.body, node.children) = try contents(of: element)
            return .node(node)
        default:  // "item"
            var node = try header(of: element)
            try refuseElements(in: element)
            node.body = BodyText.normalized(element.text)
            return .node(node)
        }
    }

    private func invalid(_ element: XMLElement<Part>, _ reason: String) -> ConversionError {
        .invalid(element.location(in: file), reason)
    }

    /// `<detail>` and `<item>` hold text only.
    private func refuseElements(in element: XMLElement<Part>) throws {
        if let inner = element.firstElement {
            throw ConversionError.invalid(
                inner.location(in: file), "<\(element.name)> holds text only, not <\(Quote.snippet(inner.name))>")
        }
    }

    /// An optional leading `<detail>` and the sections and items of `container`.
    private func contents(of container: XMLElement<Part>) throws -> (detail: String, nodes: [OutlineNode]) {
        if let stray = container.strayText {
            throw ConversionError.invalid(
                SourceLocation(file: file, line: stray.line, column: stray.column),
                "text '\(Quote.snippet(stray.text))' directly inside <\(Quote.snippet(container.name))>; put it in a <detail>")
        }
        var detail = ""
        var nodes: [OutlineNode] = []
        nodes.reserveCapacity(container.children.count)  // (not grown by doubling: a large outline is mostly nodes)
        var isFirst = true
        for case .element(let child) in container.children {
            defer { isFirst = false }
            switch child.node {
            case .detail(let text):
                guard isFirst else {
                    throw ConversionError.invalid(
                        child.location(in: file), "<detail> must be the first child of <\(Quote.snippet(container.name))>")
                }
                detail = text
            case .node(let node):
                nodes.append(node)
            case .outline, nil:
                throw ConversionError.invalid(
                    child.location(in: file),
                    "unknown element <\(Quote.snippet(child.name))> in <\(Quote.snippet(container.name))>; expected <section>, <item> or a first <detail>"
                )
            }
        }
        return (detail, nodes)
    }

    /// A node from an element's attributes: `title` (required), `collapsed`, `id`, the rest kept.
    private func header(of element: XMLElement<Part>) throws -> OutlineNode {
        guard let title = element.attribute("title").map(TitleText.normalized), !title.isEmpty else {
            throw invalid(element, "<\(Quote.snippet(element.name))> needs a non-empty title attribute")
        }
        var node = OutlineNode(title: title, line: element.line)
        for (name, value) in element.attributes {
            switch name {
            case "title": break
            case "id": node.id = value.trimmed
            case "collapsed":
                switch value.trimmed {
                case "true": node.collapsed = true
                case "false": node.collapsed = false
                default: throw invalid(element, "collapsed must be \"true\" or \"false\", not \"\(Quote.snippet(value))\"")
                }
            default: node.attributes[name] = value
            }
        }
        return node
    }
}
