internal import CYaml

/// A node of a YAML document, as libyaml reads it (Debian's `libyaml-dev`): a scalar's text
/// as written (no type is resolved: `true`, `1.0` and `null` stay text, and `plain` says
/// whether it was unquoted, so that a reader can tell `null` from `"null"`), a sequence, or a
/// mapping with its entries in order; with its tag, if any, and where it starts. Tags are
/// kept, never acted on (`!!python/name:…`, `!ENV [VAR, default]`): nothing a file says
/// runs.
struct YAMLNode: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        case mapping([Entry])
    }

    /// An entry of a mapping.
    struct Entry: Equatable, Sendable {
        let key: YAMLNode
        let value: YAMLNode
    }

    let kind: Kind
    let tag: String?
    /// Where the node starts (1-based).
    let line: Int
    let column: Int

    /// A scalar's text; nil for a collection.
    var text: String? {
        if case .scalar(let text, _) = kind { return text }
        return nil
    }

    /// Whether the node is YAML's null: an empty or unquoted `null` / `~` scalar.
    var isNull: Bool {
        guard case .scalar(let text, let plain) = kind, plain, tag == nil else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    /// A plain scalar YAML 1.1 reads as a boolean (`true`, `yes`, `on`… as PyYAML, which
    /// mkdocs uses, resolves them); nil for any other node.
    var bool: Bool? {
        guard case .scalar(let text, let plain) = kind, plain || tag == "tag:yaml.org,2002:bool" else { return nil }
        switch text {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default: return nil
        }
    }

    /// A sequence's items; nil for another node.
    var items: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    /// A mapping's entries; nil for another node.
    var entries: [Entry]? {
        if case .mapping(let entries) = kind { return entries }
        return nil
    }

    /// The value of a mapping's entry whose key is the scalar `key` (the last, as YAML's
    /// loaders keep it); nil when there is none.
    subscript(key: String) -> YAMLNode? {
        entries?.last { $0.key.text == key }?.value
    }
}

/// Reads YAML with libyaml's event parser, each C pointer freed on every path. Anchors and
/// aliases are followed (a file that aliases expand past `maxNodes` is refused: the
/// "billion laughs"), collections nest at most `maxDepth` deep, and a syntax error is a
/// located `ConversionError`.
enum YAMLReader {
    /// The most nodes a file may make, aliases expanded.
    static let maxNodes = 1_000_000
    /// The deepest collections may nest (libyaml 0.2.5 sets no bound).
    static let maxDepth = 256

    /// The documents of `bytes` (UTF-8, UTF-16 with a byte-order mark).
    static func documents(_ bytes: [UInt8], file: String) throws -> [YAMLNode] {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw ConversionError.malformed(SourceLocation(file: file, line: 1, column: 1), "YAML: out of memory")
        }
        defer { yaml_parser_delete(parser) }
        return try bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            var builder = Builder(file: file)
            let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
            defer { event.deallocate() }
            while true {
                guard yaml_parser_parse(parser, event) == 1 else { throw error(of: parser.pointee, in: buffer, file: file) }
                defer { yaml_event_delete(event) }
                if event.pointee.type == YAML_STREAM_END_EVENT { break }
                try builder.take(event.pointee)
            }
            return builder.documents
        }
    }

    /// A parser's error, at its problem's place (libyaml counts from 0; an encoding error
    /// gives only the byte's offset in `bytes`).
    private static func error(of parser: yaml_parser_t, in bytes: UnsafeBufferPointer<UInt8>, file: String) -> ConversionError {
        let problem = parser.problem.map { String(cString: $0) } ?? "the text cannot be read"
        let context = parser.context.map { String(cString: $0) + ": " } ?? ""
        var place = (line: parser.problem_mark.line + 1, column: parser.problem_mark.column + 1)
        if parser.error == YAML_READER_ERROR {
            let before = bytes.prefix(min(parser.problem_offset, bytes.count))
            let lineStart = before.lastIndex(of: .lineFeed).map { $0 + 1 } ?? 0
            place = (before.count { $0 == .lineFeed } + 1, before.count - lineStart + 1)
        }
        return .malformed(SourceLocation(file: file, line: place.line, column: place.column), "YAML: " + context + problem)
    }

    /// Makes nodes from events: the collections open, each with its items so far.
    private struct Builder {
        let file: String
        var documents: [YAMLNode] = []
        /// The collections open: whether a sequence, their tag, anchor and start, and items.
        private var open: [(isSequence: Bool, tag: String?, anchor: String?, mark: yaml_mark_t, items: [YAMLNode])] = []
        private var anchors: [String: (node: YAMLNode, count: Int)] = [:]
        private var nodes = 0

        init(file: String) { self.file = file }

        mutating func take(_ event: yaml_event_t) throws {
            switch event.type {
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE
                try add(node(.scalar(text, plain: plain), tag: scalar.tag, at: event.start_mark), anchor: scalar.anchor, count: 1)
            // (The event's strings are freed once it is taken: they are copied now.)
            case YAML_SEQUENCE_START_EVENT where open.count >= YAMLReader.maxDepth,
                YAML_MAPPING_START_EVENT where open.count >= YAMLReader.maxDepth:
                throw ConversionError.refused(location(event.start_mark), "YAML: collections nest deeper than \(YAMLReader.maxDepth) levels")
            case YAML_SEQUENCE_START_EVENT:
                let start = event.data.sequence_start
                open.append((true, start.tag.map { String(cString: $0) }, start.anchor.map { String(cString: $0) }, event.start_mark, []))
            case YAML_MAPPING_START_EVENT:
                let start = event.data.mapping_start
                open.append((false, start.tag.map { String(cString: $0) }, start.anchor.map { String(cString: $0) }, event.start_mark, []))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let (isSequence, tag, anchor, mark, items) = open.popLast() else { return }
                let kind: YAMLNode.Kind
                if isSequence {
                    kind = .sequence(items)
                } else {
                    // (Items alternate: key, value; an odd one out cannot come from libyaml.)
                    kind = .mapping(stride(from: 0, to: items.count - 1, by: 2).map { YAMLNode.Entry(key: items[$0], value: items[$0 + 1]) })
                }
                let made = YAMLNode(kind: kind, tag: tag, line: mark.line + 1, column: mark.column + 1)
                try add(made, anchor: nil, count: 1)
                if let anchor { anchors[anchor] = (made, Self.count(made)) }
            case YAML_ALIAS_EVENT:
                let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                guard let (aliased, count) = anchors[name] else {
                    throw ConversionError.malformed(location(event.start_mark), "YAML: no anchor '\(Quote.snippet(name))' before this alias")
                }
                try add(aliased, anchor: nil, count: count)
            default:
                break  // (stream and document starts and ends)
            }
        }

        /// Adds a finished node to the collection open, or as a document.
        private mutating func add(_ made: YAMLNode, anchor: UnsafeMutablePointer<yaml_char_t>?, count: Int) throws {
            nodes += count
            guard nodes <= YAMLReader.maxNodes else {
                throw ConversionError.refused(
                    location(made), "YAML: more than \(YAMLReader.maxNodes) nodes, aliases expanded: refused (they may expand without end)")
            }
            if let anchor { anchors[String(cString: anchor)] = (made, count) }
            if open.isEmpty {
                documents.append(made)
            } else {
                open[open.count - 1].items.append(made)
            }
        }

        private func node(_ kind: YAMLNode.Kind, tag: UnsafeMutablePointer<yaml_char_t>?, at mark: yaml_mark_t) -> YAMLNode {
            YAMLNode(kind: kind, tag: tag.map { String(cString: $0) }, line: mark.line + 1, column: mark.column + 1)
        }

        private func location(_ mark: yaml_mark_t) -> SourceLocation {
            SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1)
        }

        private func location(_ node: YAMLNode) -> SourceLocation {
            SourceLocation(file: file, line: node.line, column: node.column)
        }

        /// The nodes `node` holds, itself included.
        private static func count(_ node: YAMLNode) -> Int {
            switch node.kind {
            case .scalar: 1
            case .sequence(let items): items.reduce(1) { $0 + count($1) }
            case .mapping(let entries): entries.reduce(1) { $0 + count($1.key) + count($1.value) }
            }
        }
    }
}
