/// Reads XML section files (SPEC §3.3):
/// `<outline title=…>` holding an optional `<detail>` (the preamble), then `<section>`s and
/// `<item>`s. A `<section title=… collapsed=true|false id=…>` may start with a `<detail>`;
/// an `<item title=…>text</item>` is a leaf whose text is its body. Other attributes (of
/// `<outline>` too) are kept as attributes; any other element is an error.
public struct XMLSectionParser: OutlineReader {
    let name = "xml"
    let extensions = ["xml"]

    /// A parser; it keeps no state between documents.
    public init() {}

    func sniff(_ head: ArraySlice<UInt8>) -> Bool { XMLRootName.of(head) == "outline" }

    func reasonToSkip(_ head: () -> ArraySlice<UInt8>?) -> String? {
        guard let head = head() else { return nil }  // (tried, so that its error is reported)
        let root = XMLRootName.of(head)
        return root == "outline" ? nil : "XML whose root is <\(Quote.snippet(root ?? "?"))>, not <outline>"
    }

    func read(_ bytes: [UInt8], file: String, maxInputSize: Int) throws -> ParsedDocument {
        try parse(bytes, file: file)
    }

    /// Parses the XML in `bytes`; `file` names it in messages.
    public func parse(_ bytes: [UInt8], file: String) throws -> ParsedDocument {
        let root = try XMLReader.parse(bytes, file: file)
        let reader = SectionReader(file: file)
        guard root.name == "outline" else {
            throw reader.invalid(root, "the root element is <\(Quote.snippet(root.name))>, not <outline>")
        }
        var outline = Outline()
        for (name, value) in root.attributes {
            guard name == "title" else {
                outline.attributes[name] = value
                continue
            }
            let title = TitleText.normalized(value)
            guard !title.isEmpty else { throw reader.invalid(root, "the outline's title must not be empty") }
            outline.title = title
        }
        let (detail, nodes) = try reader.contents(of: root)
        outline.body = detail
        outline.nodes = nodes
        return ParsedDocument(outline: outline)
    }
}

private struct SectionReader {
    let file: String

    func invalid(_ element: XMLElement, _ reason: String) -> ConversionError {
        .invalid(SourceLocation(file: file, line: element.line, column: element.column), reason)
    }

    /// An optional leading `<detail>` and the `<section>`/`<item>` children of `container`.
    func contents(of container: XMLElement) throws -> (detail: String, nodes: [OutlineNode]) {
        if let stray = container.strayText {
            throw ConversionError.invalid(
                SourceLocation(file: file, line: stray.line, column: stray.column),
                "text '\(Quote.snippet(stray.text))' directly inside <\(Quote.snippet(container.name))>; put it in a <detail>")
        }
        var detail = ""
        var nodes: [OutlineNode] = []
        var isFirst = true
        for case .element(let element) in container.children {
            defer { isFirst = false }
            switch element.name {
            case "detail":
                guard isFirst else { throw invalid(element, "<detail> must be the first child of <\(Quote.snippet(container.name))>") }
                if let inner = element.firstElement { throw invalid(inner, "<detail> holds text only, not <\(Quote.snippet(inner.name))>") }
                detail = BodyText.normalized(element.text)
            case "section":
                var node = try header(of: element)
                (node.body, node.children) = try contents(of: element)
                nodes.append(node)
            case "item":
                var node = try header(of: element)
                if let inner = element.firstElement { throw invalid(inner, "<item> holds text only, not <\(Quote.snippet(inner.name))>") }
                node.body = BodyText.normalized(element.text)
                nodes.append(node)
            default:
                throw invalid(
                    element,
                    "unknown element <\(Quote.snippet(element.name))> in <\(Quote.snippet(container.name))>; expected <section>, <item> or a first <detail>"
                )
            }
        }
        return (detail, nodes)
    }

    /// A node from an element's attributes: `title` (required), `collapsed`, `id`, the rest kept.
    private func header(of element: XMLElement) throws -> OutlineNode {
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
