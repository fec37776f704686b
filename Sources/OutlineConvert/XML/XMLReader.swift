internal import CLibXML2
import Foundation

/// Parses XML with libxml2 into `XMLElement` values. This file is the only one that touches
/// libxml2. Safe for untrusted input: no network, no DTD loading, no entity substitution,
/// and any entity declaration stops the parse before it can be used (billion laughs, XXE).
/// Nesting deeper than `maxDepth` elements is an error (libxml2's own limit).
enum XMLReader {
    /// The deepest element nesting accepted.
    static let maxDepth = 256

    /// The document's root element. Errors carry the file, line and column of the first problem.
    static func parse(_ original: [UInt8], file: String) throws -> XMLElement {
        // libxml2 counts lines at LF only; XML reads CR and CRLF as LF anyway (XML 1.0 §2.11),
        // so make them LF first. Not in UTF-16 or UTF-32, whose bytes include NULs.
        let bytes = original.contains(0) ? original : SourceText.normalizingLineEndings(original)
        guard let context = xmlNewParserCtxt() else {
            throw ConversionError.io(path: file, "libxml2 could not allocate a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        let state = ParseState()
        let unmanaged = Unmanaged.passRetained(state)
        defer { unmanaged.release() }
        context.pointee._private = unmanaged.toOpaque()
        context.pointee.sax.pointee.serror = recordError
        context.pointee.sax.pointee.entityDecl = refuseEntityDeclaration
        context.pointee.sax.pointee.unparsedEntityDecl = refuseUnparsedEntity

        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue)
        // Handed over in chunks, as from a file: libxml2 refuses to look more than 10 MB into
        // one memory buffer ("Huge input lookup"), and XML_PARSE_HUGE would lift its depth
        // limit too.
        let chunks = Chunks(bytes)
        let document = xmlCtxtReadIO(
            context, readChunk, nil, Unmanaged.passUnretained(chunks).toOpaque(), file, nil, options)
        defer { if let document { xmlFreeDoc(document) } }
        if let refusal = state.refusal {
            throw ConversionError.refused(SourceLocation(file: file, line: refusal.line, column: refusal.column), refusal.message)
        }
        let source = XMLSource(bytes)
        if let error = state.firstError {
            let column = error.line > 0 ? source.column(line: error.line, byteColumn: max(error.column, 1)) : 0
            let location = SourceLocation(file: file, line: error.line, column: column)
            if error.message.contains("Excessive depth") {
                throw ConversionError.refused(location, "elements nest deeper than \(maxDepth) levels, the limit for XML inputs")
            }
            throw ConversionError.malformed(location, error.message)
        }
        guard let document, context.pointee.wellFormed != 0, let root = xmlDocGetRootElement(document) else {
            throw ConversionError.malformed(SourceLocation(file: file, line: 1, column: 1), "the file is not well-formed XML")
        }
        var positions = ElementPositions(source: source)
        return try element(root, file: file, positions: &positions)
    }

    // MARK: - Tree to values

    private static func element(_ node: xmlNodePtr, file: String, positions: inout ElementPositions) throws -> XMLElement {
        let name = string(node.pointee.name)
        var (offset, line, column) = positions.next()
        if column == 0 {
            // The scan fell out of step with libxml2 (input it recovered from in its own
            // way): its line, and the line's start, still locate the element.
            (line, column) = (Int(xmlGetLineNo(node)), 1)
        }
        var attributes: [(String, String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            let value = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1)
            defer { CLibXML2_free(value) }
            attributes.append((string(current.pointee.name), value.map { String(cString: $0) } ?? ""))
            attribute = current.pointee.next
        }
        var children: [XMLElement.Content] = []
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                children.append(.element(try element(current, file: file, positions: &positions)))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                children.append(.text(string(UnsafePointer(current.pointee.content))))
            case XML_ENTITY_REF_NODE:
                let reference = Array(("&" + string(current.pointee.name) + ";").utf8)
                let at = positions.source.bytes[offset...].firstRange(of: reference)?.lowerBound ?? offset
                let place = positions.source.position(at)
                throw ConversionError.refused(
                    SourceLocation(file: file, line: place.line, column: place.column),
                    "entity '\(Quote.snippet(string(current.pointee.name)))' is not defined; only the five XML entities are allowed")
            default:
                break  // comments, processing instructions
            }
            child = current.pointee.next
        }
        return XMLElement(
            name: name, line: line, column: column, attributes: attributes, children: children,
            source: positions.source, offset: offset)
    }

    private static func string(_ text: UnsafePointer<xmlChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }
}

// MARK: - Parser callbacks

/// The document's bytes, read by libxml2 a chunk at a time.
private final class Chunks {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

private let readChunk: xmlInputReadCallback = { context, buffer, length in
    guard let context, let buffer, length > 0 else { return 0 }
    let chunks = Unmanaged<Chunks>.fromOpaque(context).takeUnretainedValue()
    let count = min(Int(length), chunks.bytes.count - chunks.offset)
    guard count > 0 else { return 0 }
    chunks.bytes.withUnsafeBytes { source in
        guard let base = source.baseAddress else { return }
        UnsafeMutableRawPointer(buffer).copyMemory(from: base + chunks.offset, byteCount: count)
    }
    chunks.offset += count
    return Int32(count)
}

/// What the callbacks learn during one parse; reached through the context's `_private`.
private final class ParseState {
    var firstError: (line: Int, column: Int, message: String)?
    var refusal: (line: Int, column: Int, message: String)?
}

private func state(of context: UnsafeMutableRawPointer?) -> (xmlParserCtxtPtr, ParseState)? {
    guard let context else { return nil }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let raw = parser.pointee._private else { return nil }
    return (parser, Unmanaged<ParseState>.fromOpaque(raw).takeUnretainedValue())
}

/// Keeps the first error: later ones are usually consequences of it.
private let recordError: xmlStructuredErrorFunc = { context, error in
    guard let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
        let (_, state) = state(of: context), state.firstError == nil
    else { return }
    let message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
    // libxml2's messages may run over several lines and quote the input; ours are one short line.
    let oneLine = Quote.snippet(message.split(whereSeparator: \.isNewline).map { $0.trimmed }.joined(separator: "; "), limit: 200)
    state.firstError = (Int(error.pointee.line), Int(error.pointee.int2), oneLine)
}

private func refuse(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) {
    guard let (parser, state) = state(of: context), state.refusal == nil else { return }
    let entity = name.map { String(cString: $0) } ?? "?"
    let input = parser.pointee.input
    state.refusal = (
        Int(input?.pointee.line ?? 0), Int(input?.pointee.col ?? 0),
        "entity declarations are not allowed (entity '\(Quote.snippet(entity))'): they can expand without bound or read local files"
    )
    xmlStopParser(parser)
}

private let refuseEntityDeclaration: entityDeclSAXFunc = { context, name, _, _, _, _ in refuse(context, name) }
private let refuseUnparsedEntity: unparsedEntityDeclSAXFunc = { context, name, _, _, _ in refuse(context, name) }

// MARK: - Positions

/// Where each element starts, found by scanning the source for start tags in document
/// order (the order the tree is walked in): exact lines past libxml2's 65,535 cap and exact
/// columns, in one pass over the bytes however long the lines are.
private struct ElementPositions {
    let source: XMLSource
    private var scanner: XMLMarkupScanner
    private var lines = LineCounter()

    init(source: XMLSource) {
        self.source = source
        scanner = XMLMarkupScanner(bytes: source.bytes, offset: 0)
    }

    /// The next start tag's offset, line and column.
    mutating func next() -> (offset: Int, line: Int, column: Int) {
        let bytes = source.bytes
        while let byte = scanner.peek() {
            guard byte == UInt8(ascii: "<") else {
                scanner.offset += 1
                continue
            }
            let start = scanner.offset
            let markup = scanner.skipMarkup()
            guard markup == .startTag || markup == .emptyTag else { continue }
            let place = lines.position(of: start, in: bytes)
            return (start, place.line, place.column)
        }
        return (bytes.count, 0, 0)
    }
}
