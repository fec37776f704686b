/// Reads XML property-list section files (SPEC §3.2). The root is an array of sections, or
/// a dict with an optional `title` and `sections`. A section dict has `name` or `title`,
/// and optionally `collapsed`, `detail`, `id`, `items` (strings or section dicts) and
/// `attributes` (a dict of strings, for round trips).
public struct PlistParser: Sendable {
    /// A parser; it keeps no state between documents.
    public init() {}

    /// Parses the plist in `bytes`; `file` names it in messages.
    public func parse(_ bytes: [UInt8], file: String) throws -> ParsedDocument {
        var reader = Reader(file: file)
        let root = try XMLReader.parse(bytes, file: file)
        guard root.name == "plist" else {
            throw reader.invalid(root, "", "the root element is <\(Quote.snippet(root.name))>, not <plist>")
        }
        let values = root.elements
        guard values.count == 1, let value = values.first else {
            throw reader.invalid(root, "", "<plist> must hold exactly one value, found \(values.count)")
        }
        if let stray = root.strayText {
            throw ConversionError.invalid(reader.location(stray.line, stray.column), "text '\(Quote.snippet(stray.text))' outside any value")
        }
        var outline = Outline()
        switch value.name {
        case "array":
            outline.nodes = try reader.sections(value, path: "sections")
        case "dict":
            for (key, entry) in try reader.entries(of: value, path: "") {
                switch key {
                case "title": outline.title = try reader.nonEmptyString(entry, path: "title")
                case "sections": outline.nodes = try reader.sections(entry, path: "sections")
                case "detail": outline.body = BodyText.normalized(try reader.string(entry, path: "detail"))
                default: reader.warnUnknown(key, entry, path: Quote.snippet(key, limit: 40))
                }
            }
        default:
            throw reader.invalid(value, "", "the top value must be an array of sections or a dict, not <\(Quote.snippet(value.name))>")
        }
        return ParsedDocument(outline: outline, warnings: reader.warnings)
    }
}

/// Walks plist values, naming each by its key path (`sections[2].items[0].collapsed`).
private struct Reader {
    let file: String
    var warnings: [Diagnostic] = []

    init(file: String) { self.file = file }

    func location(_ line: Int, _ column: Int = 0) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    func invalid(_ element: XMLElement, _ path: String, _ reason: String) -> ConversionError {
        .invalid(location(element.line, element.column), path.isEmpty ? reason : "\(path): \(reason)")
    }

    mutating func warnUnknown(_ key: String, _ element: XMLElement, path: String) {
        warnings.append(Diagnostic(location(element.line, element.column), "\(path): unknown key '\(Quote.snippet(key))' is ignored"))
    }

    mutating func sections(_ array: XMLElement, path: String) throws -> [OutlineNode] {
        guard array.name == "array" else { throw wrongType(array, path, expected: "an array") }
        var nodes: [OutlineNode] = []
        for (index, element) in try values(of: array).enumerated() {
            nodes.append(try node(element, path: "\(path)[\(index)]"))
        }
        return nodes
    }

    /// A section dict, or (for items) a string that becomes a leaf.
    mutating func node(_ element: XMLElement, path: String) throws -> OutlineNode {
        if element.name == "string" {
            return OutlineNode(title: try nonEmptyString(element, path: path), line: element.line)
        }
        guard element.name == "dict" else { throw wrongType(element, path, expected: "a dict or a string") }
        var node = OutlineNode(title: "", line: element.line)
        for (key, value) in try entries(of: element, path: path) {
            let keyPath = "\(path).\(Quote.snippet(key, limit: 40))"
            switch key {
            case "name", "title": node.title = try nonEmptyString(value, path: keyPath)
            case "collapsed": node.collapsed = try bool(value, path: keyPath)
            case "detail": node.body = BodyText.normalized(try string(value, path: keyPath))
            case "id": node.id = try string(value, path: keyPath).trimmed
            case "items": node.children = try sections(value, path: "\(keyPath)")
            case "attributes":
                for (name, text) in try entries(of: value, path: keyPath) {
                    node.attributes[name] = try string(text, path: "\(keyPath).\(Quote.snippet(name, limit: 40))")
                }
            default: warnUnknown(key, value, path: keyPath)
            }
        }
        guard !node.title.isEmpty else { throw invalid(element, path, "a section needs a 'name' (or 'title') string") }
        return node
    }

    /// A dict's key/value pairs, in order.
    func entries(of dict: XMLElement, path: String) throws -> [(String, XMLElement)] {
        guard dict.name == "dict" else { throw wrongType(dict, path, expected: "a dict") }
        let elements = try values(of: dict)
        var entries: [(String, XMLElement)] = []
        var index = 0
        while index < elements.count {
            let key = elements[index]
            guard key.name == "key" else { throw invalid(key, path, "expected <key>, found <\(Quote.snippet(key.name))>") }
            guard index + 1 < elements.count else { throw invalid(key, path, "key '\(Quote.snippet(key.text))' has no value") }
            entries.append((key.text, elements[index + 1]))
            index += 2
        }
        return entries
    }

    func values(of container: XMLElement) throws -> [XMLElement] {
        if let stray = container.strayText {
            throw ConversionError.invalid(location(stray.line, stray.column), "text '\(Quote.snippet(stray.text))' inside <\(Quote.snippet(container.name))> outside any value")
        }
        return container.elements
    }

    func string(_ element: XMLElement, path: String) throws -> String {
        guard element.name == "string" else { throw wrongType(element, path, expected: "a string") }
        if let inner = element.elements.first { throw invalid(inner, path, "<string> cannot contain <\(Quote.snippet(inner.name))>") }
        return element.text
    }

    func nonEmptyString(_ element: XMLElement, path: String) throws -> String {
        let text = try string(element, path: path)
        guard !text.trimmed.isEmpty else { throw invalid(element, path, "must not be empty") }
        return text
    }

    func bool(_ element: XMLElement, path: String) throws -> Bool {
        switch element.name {
        case "true": return true
        case "false": return false
        default: throw wrongType(element, path, expected: "a boolean (<true/> or <false/>)")
        }
    }

    func wrongType(_ element: XMLElement, _ path: String, expected: String) -> ConversionError {
        invalid(element, path, "expected \(expected), found <\(Quote.snippet(element.name))>")
    }
}
