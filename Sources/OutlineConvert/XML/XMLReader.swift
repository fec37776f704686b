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
    static func parse(_ bytes: [UInt8], file: String) throws -> XMLElement {
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

        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlCtxtReadMemory(context, $0.baseAddress, Int32(clamping: $0.count), file, nil, options)
            }
        }
        defer { if let document { xmlFreeDoc(document) } }
        if let refusal = state.refusal {
            throw ConversionError.refused(SourceLocation(file: file, line: refusal.line, column: refusal.column), refusal.message)
        }
        if let error = state.firstError {
            let location = SourceLocation(file: file, line: error.line, column: error.column)
            if error.message.contains("Excessive depth") {
                throw ConversionError.refused(location, "elements nest deeper than \(maxDepth) levels, the limit for XML inputs")
            }
            throw ConversionError.malformed(location, error.message)
        }
        guard let document, context.pointee.wellFormed != 0, let root = xmlDocGetRootElement(document) else {
            throw ConversionError.malformed(SourceLocation(file: file, line: 1, column: 1), "the file is not well-formed XML")
        }
        var columns = ColumnFinder(source: bytes)
        return try element(root, file: file, columns: &columns)
    }

    // MARK: - Tree to values

    private static func element(_ node: xmlNodePtr, file: String, columns: inout ColumnFinder) throws -> XMLElement {
        let name = string(node.pointee.name)
        let line = Int(xmlGetLineNo(node))
        let column = columns.column(ofTag: name, onLine: line)
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
            let childLine = Int(xmlGetLineNo(current))
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                children.append(.element(try element(current, file: file, columns: &columns)))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                children.append(.text(string(UnsafePointer(current.pointee.content)), line: childLine))
            case XML_ENTITY_REF_NODE:
                throw ConversionError.refused(
                    SourceLocation(file: file, line: childLine, column: 0),
                    "entity '\(string(current.pointee.name))' is not defined; only the five XML entities are allowed")
            default:
                break  // comments, processing instructions
            }
            child = current.pointee.next
        }
        return XMLElement(name: name, line: line, column: column, attributes: attributes, children: children)
    }

    private static func string(_ text: UnsafePointer<xmlChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }
}

// MARK: - Parser callbacks

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
    // libxml2's messages may run over several lines; ours are one line each.
    let oneLine = message.split(whereSeparator: \.isNewline).map { $0.trimmed }.joined(separator: "; ")
    state.firstError = (Int(error.pointee.line), Int(error.pointee.int2), oneLine)
}

private func refuse(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) {
    guard let (parser, state) = state(of: context), state.refusal == nil else { return }
    let entity = name.map { String(cString: $0) } ?? "?"
    let input = parser.pointee.input
    state.refusal = (
        Int(input?.pointee.line ?? 0), Int(input?.pointee.col ?? 0),
        "entity declarations are not allowed (entity '\(entity)'): they can expand without bound or read local files")
    xmlStopParser(parser)
}

private let refuseEntityDeclaration: entityDeclSAXFunc = { context, name, _, _, _, _ in refuse(context, name) }
private let refuseUnparsedEntity: unparsedEntityDeclSAXFunc = { context, name, _, _, _ in refuse(context, name) }

// MARK: - Columns

/// libxml2 keeps only line numbers on nodes; this finds each start tag's column by scanning
/// its line, in document order (the n-th element named `x` on a line is the n-th `<x`).
/// Scanning resumes where the previous tag on the same line was found, and so does the
/// character count, so a whole minified file on one line stays linear.
private struct ColumnFinder {
    private let source: [UInt8]
    private var lineStarts: [Int] = [0]
    /// Where the last tag was found: its line, the byte after its name, and that byte's column.
    private var cursor: (line: Int, offset: Int, column: Int) = (0, 0, 1)

    init(source: [UInt8]) {
        self.source = source
        for (index, byte) in source.enumerated() where byte == 10 { lineStarts.append(index + 1) }
    }

    mutating func column(ofTag name: String, onLine line: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return 0 }
        let end = line < lineStarts.count ? lineStarts[line] : source.count
        var (from, column) = cursor.line == line ? (cursor.offset, cursor.column) : (lineStarts[line - 1], 1)
        let tag = Array(("<" + name).utf8)
        while from + tag.count <= end {
            if source[from] == tag[0], source[from..<(from + tag.count)].elementsEqual(tag) {
                let after = from + tag.count
                if after >= source.count || [32, 9, 10, 13, 47, 62].contains(source[after]) {
                    cursor = (line, after, column + source[from..<after].characterCount)
                    return column
                }
            }
            if source[from] & 0xC0 != 0x80 { column += 1 }
            from += 1
        }
        return 0
    }
}
