/// Reads property-list section files (docs/formats.md) in any of their three forms: XML
/// (parsed with libxml2), binary (`bplist00`) and the old ASCII OpenStep form (first
/// non-space character not `<`). The root is an array of sections, or a dict with
/// optional `title`, `detail` (the preamble), `attributes` (a dict of strings) and
/// `sections`. A section dict has `name` or `title`, and optionally `collapsed`, `detail`,
/// `id`, `items` (strings or section dicts) and `attributes`. OpenStep has only strings,
/// so there `collapsed` is `YES`/`NO` (or `true`/`false`, `1`/`0`).
struct PlistParser: OutlineReader {
    let name = "plist"
    let extensions = ["plist"]

    /// A parser; it keeps no state between documents.
    init() {}

    /// An XML plist, or a binary one.
    func sniff(_ head: ArraySlice<UInt8>) -> Bool {
        head.starts(with: Array("bplist00".utf8)) || XMLRootName.of(head) == "plist"
    }

    func read(_ bytes: [UInt8], file: String, options: ConversionOptions) throws -> ParsedDocument {
        try parse(bytes, file: file)
    }

    /// An XML plist (not a binary or OpenStep one) is read a chunk at a time.
    func read(streaming file: InputFile, head: ArraySlice<UInt8>, options: ConversionOptions) throws -> ParsedDocument? {
        guard !head.starts(with: Array("bplist00".utf8)), XMLRootName.of(head) != nil, XMLSource.streams(head) else { return nil }
        var builder = PlistXMLBuilder(file: file.path)
        return try document(XMLReader.parse(XMLSource(file: file), file: file.path, into: &builder), file: file.path, isOpenStep: false)
    }

    /// Parses the plist in `bytes`; `file` names it in messages.
    func parse(_ bytes: [UInt8], file: String) throws -> ParsedDocument {
        if bytes.starts(with: Array("bplist00".utf8)) {
            return try document(BinaryPlist.parse(bytes, file: file, maxDepth: XMLReader.maxDepth), file: file, isOpenStep: false)
        } else if XMLRootName.of(bytes.prefix(65_536)) != nil || bytes.contains(0) {
            var builder = PlistXMLBuilder(file: file)
            return try document(XMLReader.parse(bytes, file: file, into: &builder), file: file, isOpenStep: false)
        } else {
            let text = try SourceText.validated(bytes, file: file)
            return try document(OpenStepPlist.parse(text, file: file, maxDepth: XMLReader.maxDepth), file: file, isOpenStep: true)
        }
    }

    /// The outline a plist's top value holds.
    private func document(_ value: PlistValue, file: String, isOpenStep: Bool) throws -> ParsedDocument {
        var reader = Reader(file: file, isOpenStep: isOpenStep)
        var outline = Outline()
        switch value.kind {
        case .array:
            outline.nodes = try reader.sections(value, path: KeyPath.root.appending("sections"))
        case .dict(let entries):
            for (key, entry) in entries {
                switch key {
                case "title": outline.title = try reader.title(entry, path: KeyPath.root.appending("title"))
                case "sections": outline.nodes = try reader.sections(entry, path: KeyPath.root.appending("sections"))
                case "detail": outline.body = BodyText.normalized(try reader.string(entry, path: KeyPath.root.appending("detail")))
                case "attributes": outline.attributes = try reader.attributes(entry, path: KeyPath.root.appending("attributes"))
                default: reader.warnUnknown(key, entry, path: KeyPath.root.appending(key))
                }
            }
        default:
            throw reader.invalid(value, .root, "the top value must be an array of sections or a dict, not \(value.typeName)")
        }
        return ParsedDocument(outline: outline, warnings: reader.warnings)
    }
}

/// Walks plist values, naming each by its key path (`sections[2].items[0].collapsed`).
private struct Reader {
    let file: String
    let isOpenStep: Bool
    var warnings: [Diagnostic] = []

    init(file: String, isOpenStep: Bool) {
        self.file = file
        self.isOpenStep = isOpenStep
    }

    func invalid(_ value: PlistValue, _ path: @autoclosure () -> KeyPath, _ reason: String) -> ConversionError {
        .invalid(SourceLocation(file: file, line: value.line, column: value.column), path().message(reason))
    }

    mutating func warnUnknown(_ key: String, _ value: PlistValue, path: KeyPath) {
        warnings.append(
            Diagnostic(
                SourceLocation(file: file, line: value.line, column: value.column), path.message("unknown key '\(Quote.snippet(key))' is ignored")))
    }

    mutating func sections(_ value: PlistValue, path: KeyPath) throws -> [OutlineNode] {
        guard case .array(let elements) = value.kind else { throw wrongType(value, path, expected: "an array") }
        var nodes: [OutlineNode] = []
        nodes.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            nodes.append(try node(element, path: path.appending(index: index)))
        }
        return nodes
    }

    /// A section dict, or (for items) a string that becomes a leaf.
    mutating func node(_ value: PlistValue, path: KeyPath) throws -> OutlineNode {
        if case .string = value.kind {
            return OutlineNode(title: try title(value, path: path), line: value.line)
        }
        guard case .dict(let entries) = value.kind else { throw wrongType(value, path, expected: "a dict or a string") }
        var node = OutlineNode(title: "", line: value.line)
        var id: String?  // (set once the title is known: an id that is its slug is not kept)
        // (Each key's path is made only for a message: most values have none.)
        for (key, entry) in entries {
            switch key {
            case "name", "title": node.title = try title(entry, path: path.appending(key))
            case "collapsed": node.collapsed = try bool(entry, path: path.appending(key))
            case "detail": node.body = BodyText.normalized(try string(entry, path: path.appending(key)))
            case "id": id = try string(entry, path: path.appending(key)).trimmed
            case "items": node.children = try sections(entry, path: path.appending(key))
            case "attributes": node.attributes = try attributes(entry, path: path.appending(key))
            default: warnUnknown(key, entry, path: path.appending(key))
            }
        }
        guard !node.title.isEmpty else { throw invalid(value, path, "a section needs a 'name' (or 'title') string") }
        if let id { node.id = id }
        return node
    }

    func attributes(_ value: PlistValue, path: @autoclosure () -> KeyPath) throws -> [String: String] {
        guard case .dict(let entries) = value.kind else { throw wrongType(value, path(), expected: "a dict of strings") }
        var attributes: [String: String] = [:]
        for (name, text) in entries {
            attributes[name] = try string(text, path: path().appending(name))
        }
        return attributes
    }

    func string(_ value: PlistValue, path: @autoclosure () -> KeyPath) throws -> String {
        guard case .string(let text) = value.kind else { throw wrongType(value, path(), expected: "a string") }
        return text
    }

    func title(_ value: PlistValue, path: @autoclosure () -> KeyPath) throws -> String {
        let title = TitleText.normalized(try string(value, path: path()))
        guard !title.isEmpty else { throw invalid(value, path(), "must not be empty") }
        return title
    }

    func bool(_ value: PlistValue, path: @autoclosure () -> KeyPath) throws -> Bool {
        switch value.kind {
        case .bool(let flag): return flag
        case .string(let text) where isOpenStep:
            switch text {
            case "YES", "true", "1": return true
            case "NO", "false", "0": return false
            default: throw invalid(value, path(), "expected YES or NO, found '\(Quote.snippet(text))'")
            }
        default:
            throw wrongType(value, path(), expected: isOpenStep ? "YES or NO" : "a boolean (<true/> or <false/>)")
        }
    }

    func wrongType(_ value: PlistValue, _ path: @autoclosure () -> KeyPath, expected: String) -> ConversionError {
        invalid(value, path(), "expected \(expected), found \(value.typeName)")
    }
}
