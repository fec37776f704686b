/// Reads the JSON this tool writes (docs/formats.md): `{"version": 1, "title", "body",
/// "attributes", "sections": [node…]}`, each node `{"id", "title", "collapsed", "body",
/// "attributes", "children"}`. A wrong type is an error at the value's line and column,
/// naming its key path (`sections[2].children[0].collapsed`); an unknown key is a warning.
/// A `collapsed` key counts as a marker of the source. Nesting is limited like XML's.
struct JSONOutlineParser: OutlineReader {
    let name = "json"
    let extensions = ["json"]
    let isText = true

    /// A parser; it keeps no state between documents.
    init() {}

    func sniff(_ head: ArraySlice<UInt8>) -> Bool { isOutline(head) }

    func reasonToSkip(_ head: () -> ArraySlice<UInt8>?) -> String? {
        guard let head = head() else { return nil }
        return isOutline(head) ? nil : "JSON that is not an outline (no top-level \"version\" and \"sections\")"
    }

    /// A top-level object with `"version"`, and `"sections"` unless the head ends first.
    private func isOutline(_ head: ArraySlice<UInt8>) -> Bool {
        guard let keys = JSONReader.topLevelKeys(head), keys.contains("version") else { return false }
        return keys.contains("sections") || head.count >= 65_536
    }

    func read(_ bytes: [UInt8], file: String, options: ConversionOptions) throws -> ParsedDocument {
        try parse(bytes, file: file)
    }

    /// Parses the JSON outline in `bytes`; `file` names it in messages.
    func parse(_ bytes: [UInt8], file: String) throws -> ParsedDocument {
        // The root object and the sections array, then two levels (object, children) per node.
        let root = try JSONReader.parse(bytes, file: file, maxDepth: 2 + 2 * XMLReader.maxDepth)
        var reader = Mapper(bytes: bytes, file: file)
        var outline = Outline()
        var version: JSONValue?
        var sections: JSONValue?
        for (key, value) in try reader.members(root, path: .root) {
            switch key {
            case "version": version = value
            case "title": outline.title = try reader.title(value, path: KeyPath.root.appending("title"))
            case "body": outline.body = BodyText.normalized(try reader.string(value, path: KeyPath.root.appending("body")))
            case "attributes": outline.attributes = try reader.attributes(value, path: KeyPath.root.appending("attributes"))
            case "sections": sections = value
            default: reader.warnUnknown(key, value, path: .root)
            }
        }
        guard let version else { throw reader.invalid(root, .root, "there is no \"version\"; this is not an outline-render JSON file") }
        guard case .number(let number) = version.kind, number == "1" else {
            throw reader.invalid(version, KeyPath.root.appending("version"), "only version 1 is known, found \(Quote.snippet(reader.text(version)))")
        }
        guard let sections else { throw reader.invalid(root, .root, "there is no \"sections\" array") }
        outline.nodes = try reader.nodes(sections, path: KeyPath.root.appending("sections"))
        return ParsedDocument(outline: outline, warnings: reader.warnings)
    }
}

/// Turns JSON values into outline values, naming each by its key path.
private struct Mapper {
    let bytes: [UInt8]
    let file: String
    var warnings: [Diagnostic] = []
    /// Lines are counted forward as nodes are met, in file order.
    private var lines = LineCounter()

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    mutating func line(at offset: Int) -> Int {
        lines.position(of: offset, in: bytes).line
    }

    func location(_ value: JSONValue) -> SourceLocation {
        SourceText.location(of: value.offset, in: bytes[...], file: file)
    }

    func invalid(_ value: JSONValue, _ path: KeyPath, _ reason: String) -> ConversionError {
        .invalid(location(value), path.message(reason))
    }

    func wrongType(_ value: JSONValue, _ path: KeyPath, expected: String) -> ConversionError {
        invalid(value, path, "expected \(expected), found \(value.typeName)")
    }

    /// The value's source text, for messages.
    func text(_ value: JSONValue) -> String {
        if case .number(let number) = value.kind { return number }
        return value.typeName
    }

    mutating func warnUnknown(_ key: String, _ value: JSONValue, path: KeyPath) {
        warnings.append(Diagnostic(location(value), path.message("unknown key '\(Quote.snippet(key))' is ignored")))
    }

    func members(_ value: JSONValue, path: KeyPath) throws -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = value.kind else { throw wrongType(value, path, expected: "an object") }
        return members
    }

    func string(_ value: JSONValue, path: KeyPath) throws -> String {
        guard case .string(let text) = value.kind else { throw wrongType(value, path, expected: "a string") }
        return text
    }

    func title(_ value: JSONValue, path: KeyPath) throws -> String {
        let title = TitleText.normalized(try string(value, path: path))
        guard !title.isEmpty else { throw invalid(value, path, "a title must not be empty") }
        return title
    }

    func attributes(_ value: JSONValue, path: KeyPath) throws -> [String: String] {
        var attributes: [String: String] = [:]
        for (key, text) in try members(value, path: path) {
            attributes[key] = try string(text, path: path.appending(key))
        }
        return attributes
    }

    mutating func nodes(_ value: JSONValue, path: KeyPath) throws -> [OutlineNode] {
        guard case .array(let elements) = value.kind else { throw wrongType(value, path, expected: "an array") }
        var nodes: [OutlineNode] = []
        nodes.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            nodes.append(try node(element, path: path.appending(index: index)))
        }
        return nodes
    }

    mutating func node(_ value: JSONValue, path: KeyPath) throws -> OutlineNode {
        var node = OutlineNode(title: "", line: line(at: value.offset))
        var id: String?  // (set once the title is known: an id that is its slug is not kept)
        for (key, member) in try members(value, path: path) {
            let keyPath = path.appending(key)
            switch key {
            case "title": node.title = try title(member, path: keyPath)
            case "id": id = try string(member, path: keyPath).trimmed
            case "collapsed":
                guard case .bool(let collapsed) = member.kind else { throw wrongType(member, keyPath, expected: "a boolean") }
                node.collapsed = collapsed
            case "body": node.body = BodyText.normalized(try string(member, path: keyPath))
            case "attributes": node.attributes = try attributes(member, path: keyPath)
            case "children": node.children = try nodes(member, path: keyPath)
            default: warnUnknown(key, member, path: path)
            }
        }
        guard !node.title.isEmpty else { throw invalid(value, path, "a section needs a \"title\"") }
        if let id { node.id = id }
        return node
    }
}
