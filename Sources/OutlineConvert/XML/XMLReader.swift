internal import CLibXML2
import Glibc

/// Parses XML with libxml2's SAX2 interface straight into `XMLElement` values: libxml2
/// builds no tree of its own, so the document is held once, as our values. This file is the
/// only one that touches libxml2. Safe for untrusted input: no network, no DTD loading, no
/// entity substitution, and any entity declaration stops the parse before it can be used
/// (billion laughs, XXE). Nesting deeper than `maxDepth` elements is an error (libxml2's own
/// limit).
enum XMLReader {
    /// The deepest element nesting accepted.
    static let maxDepth = 256

    /// The document's root element. Errors carry the file, line and column of the first problem.
    static func parse(_ original: [UInt8], file: String) throws -> XMLElement {
        // libxml2 counts lines at LF only; XML reads CR and CRLF as LF anyway (XML 1.0 §2.11),
        // so make them LF first. Not in UTF-16 or UTF-32, whose bytes include NULs.
        let bytes = original[...].firstIndex(ofByte: 0) != nil ? original : SourceText.normalizingLineEndings(original)
        guard let context = xmlNewParserCtxt() else {
            throw ConversionError.io(path: file, "libxml2 could not allocate a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        let source = XMLSource(bytes)
        let state = ParseState(source: source)
        let unmanaged = Unmanaged.passRetained(state)
        defer { unmanaged.release() }
        context.pointee._private = unmanaged.toOpaque()
        let sax = context.pointee.sax
        sax?.pointee.serror = recordError
        sax?.pointee.entityDecl = refuseEntityDeclaration
        sax?.pointee.unparsedEntityDecl = refuseUnparsedEntity
        sax?.pointee.startElementNs = startElement
        sax?.pointee.endElementNs = endElement
        sax?.pointee.characters = characters
        sax?.pointee.ignorableWhitespace = characters
        sax?.pointee.reference = refuseReference

        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue)
        // Handed over in chunks, as from a file: libxml2 refuses to look more than 10 MB into
        // one memory buffer ("Huge input lookup"), and XML_PARSE_HUGE would lift its depth
        // limit too.
        let chunks = Chunks(bytes)
        let document = xmlCtxtReadIO(
            context, readChunk, nil, Unmanaged.passUnretained(chunks).toOpaque(), file, nil, options)
        if let document { xmlFreeDoc(document) }  // holds a doctype at most: no element is added to it
        if let refusal = state.refusal {
            throw ConversionError.refused(SourceLocation(file: file, line: refusal.line, column: refusal.column), refusal.message)
        }
        if let error = state.firstError {
            let column = error.line > 0 ? source.column(line: error.line, byteColumn: max(error.column, 1)) : 0
            let location = SourceLocation(file: file, line: error.line, column: column)
            if error.message.contains("Excessive depth") {
                throw ConversionError.refused(location, "elements nest deeper than \(maxDepth) levels, the limit for XML inputs")
            }
            throw ConversionError.malformed(location, error.message)
        }
        guard context.pointee.wellFormed != 0, let root = state.root else {
            throw ConversionError.malformed(SourceLocation(file: file, line: 1, column: 1), "the file is not well-formed XML")
        }
        return root
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

/// What the callbacks learn and build during one parse; reached through the context's `_private`.
private final class ParseState {
    var firstError: (line: Int, column: Int, message: String)?
    var refusal: (line: Int, column: Int, message: String)?
    // (Unchecked: only the parsing thread touches these, one callback at a time; checking
    // every access at run time cost a tenth of reading a plist.)
    /// The elements begun and not yet ended, outermost first.
    @exclusivity(unchecked) var open: [OpenElement] = []
    var root: XMLElement?
    @exclusivity(unchecked) var positions: ElementPositions
    /// Text read since the innermost open element's last child began or ended, not yet a
    /// child itself: one buffer for all elements, as text only ever goes to the innermost.
    @exclusivity(unchecked) var text = PendingText()
    /// Element and attribute names met so far, by libxml2's pointer: libxml2 hands every
    /// name over from its parser's dictionary (one copy of each name, kept for the whole
    /// parse), so equal pointers are equal names and a document's few names become Strings once.
    @exclusivity(unchecked) private var names: [(pointer: UnsafePointer<xmlChar>, name: String)] = []

    init(source: XMLSource) { positions = ElementPositions(source: source) }

    /// `name` as a String, from the names met before when it is one of them.
    func name(_ name: UnsafePointer<xmlChar>) -> String {
        for known in names where known.pointer == name { return known.name }
        let made = String(cString: name)
        if names.count < 64 { names.append((name, made)) }
        return made
    }

    /// Makes the pending text a child of the innermost open element. Only white space beside
    /// a child element is dropped: every reader ignores it (text is read from elements
    /// without children), and a plist or an outline holds a lot of it.
    func flushText(besideElement: Bool) {
        guard text.count > 0, !open.isEmpty else { return }
        defer { text.count = 0 }
        let last = open.count - 1
        text.withBytes { text in
            let spaceOnly = text.allSatisfy { $0 == 32 || $0 == 10 || $0 == 9 || $0 == 13 }
            if spaceOnly && (besideElement || open[last].children.contains { if case .element = $0 { true } else { false } }) { return }
            open[last].children.append(.text(String(decoding: text, as: UTF8.self)))
        }
    }

    /// Records the first refusal and stops the parser.
    func refuse(_ parser: xmlParserCtxtPtr, line: Int, column: Int, _ message: String) {
        guard refusal == nil else { return }
        refusal = (line, column, message)
        xmlStopParser(parser)
    }
}

/// Bytes gathered and then let go, again and again, in one buffer that keeps its capacity
/// (emptying an array with `removeAll(keepingCapacity:)` is a generic call per use).
private struct PendingText {
    private var storage: [UInt8] = []
    /// How many bytes of `storage` are the text; set to 0 to empty it.
    var count = 0

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if storage.count < count + bytes.count { storage.append(contentsOf: repeatElement(0, count: count + bytes.count - storage.count)) }
        storage.withUnsafeMutableBufferPointer { storage in
            guard let target = storage.baseAddress, let source = bytes.baseAddress else { return }
            (target + count).update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<count])) }
    }
}

/// An element whose end tag has not been read yet.
private struct OpenElement {
    let name: String
    let offset: Int
    let line: Int
    let column: Int
    let attributes: [(name: String, value: String)]
    var children: [XMLElement.Content] = []
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
    guard let (parser, state) = state(of: context) else { return }
    let entity = name.map { String(cString: $0) } ?? "?"
    let input = parser.pointee.input
    state.refuse(
        parser, line: Int(input?.pointee.line ?? 0), column: Int(input?.pointee.col ?? 0),
        "entity declarations are not allowed (entity '\(Quote.snippet(entity))'): they can expand without bound or read local files")
}

private let refuseEntityDeclaration: entityDeclSAXFunc = { context, name, _, _, _, _ in refuse(context, name) }
private let refuseUnparsedEntity: unparsedEntityDeclSAXFunc = { context, name, _, _, _ in refuse(context, name) }

/// A reference to an entity that is neither predefined nor declared (possible only in a
/// document naming an external DTD, which is never loaded).
private func refuseUndefinedEntity(_ parser: xmlParserCtxtPtr, _ state: ParseState, _ name: String) {
    let source = state.positions.source
    let from = state.open.last?.offset ?? 0
    let at = source.bytes[from...].firstRange(of: Array("&\(name);".utf8))?.lowerBound ?? from
    let place = source.position(at)
    state.refuse(
        parser, line: place.line, column: place.column,
        "entity '\(Quote.snippet(name))' is not defined; only the five XML entities are allowed")
}

private let refuseReference: referenceSAXFunc = { context, name in
    guard let (parser, state) = state(of: context) else { return }
    refuseUndefinedEntity(parser, state, name.map { String(cString: $0) } ?? "?")
}

// MARK: - Building the elements

private let startElement: startElementNsSAX2Func = { context, localName, _, _, _, _, attributeCount, _, attributes in
    guard let (parser, state) = state(of: context), state.refusal == nil else { return }
    var (offset, line, column) = state.positions.next(parser)
    if column == 0 {
        // The scan fell out of step with libxml2 (input it recovered from in its own way):
        // its line, and the line's start, still locate the element.
        (line, column) = (Int(xmlSAX2GetLineNumber(parser)), 1)
    }
    var values: [(name: String, value: String)] = []
    if let attributes, attributeCount > 0 {
        values.reserveCapacity(Int(attributeCount))
        // Five pointers per attribute: local name, prefix, URI, value start, value end.
        for index in 0..<Int(attributeCount) {
            let base = 5 * index
            guard let name = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
            let value = UnsafeBufferPointer(start: start, count: end - start)
            guard let decoded = decodedAttribute(value) else {
                let raw = String(decoding: value, as: UTF8.self)
                let entity = raw.split(separator: "&").last.map { $0.prefix { $0 != ";" } } ?? ""
                refuseUndefinedEntity(parser, state, String(entity))
                return
            }
            values.append((state.name(name), decoded))
        }
    }
    state.flushText(besideElement: true)
    state.open.append(OpenElement(name: localName.map(state.name) ?? "", offset: offset, line: line, column: column, attributes: values))
}

private let endElement: endElementNsSAX2Func = { context, _, _, _ in
    guard let (_, state) = state(of: context), state.refusal == nil else { return }
    state.flushText(besideElement: false)
    guard let ended = state.open.popLast() else { return }
    let element = XMLElement(
        name: ended.name, line: ended.line, column: ended.column, attributes: ended.attributes, children: ended.children,
        source: state.positions.source, offset: ended.offset)
    if state.open.isEmpty {
        state.root = element
    } else {
        state.open[state.open.count - 1].children.append(.element(element))
    }
}

private let characters: charactersSAXFunc = { context, text, length in
    guard let (_, state) = state(of: context), state.refusal == nil, !state.open.isEmpty, let text, length > 0 else { return }
    state.text.append(UnsafeBufferPointer(start: text, count: Int(length)))
}

/// An attribute value as libxml2 hands it over without entity substitution: every `&` it
/// holds stands for `&#38;` (an ampersand) or for a reference to an undefined entity; `nil`
/// for the latter.
private func decodedAttribute(_ value: UnsafeBufferPointer<xmlChar>) -> String? {
    guard let base = value.baseAddress, memchr(base, Int32(UInt8(ascii: "&")), value.count) != nil else {
        return String(decoding: value, as: UTF8.self)
    }
    let ampersand = Array("&#38;".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(value.count)
    var index = 0
    while index < value.count {
        if value[index] == UInt8(ascii: "&") {
            guard value[index...].starts(with: ampersand) else { return nil }
            bytes.append(UInt8(ascii: "&"))
            index += ampersand.count
        } else {
            bytes.append(value[index])
            index += 1
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

// MARK: - Positions

/// Where each element starts: exact lines past libxml2's 65,535 cap and exact columns, in
/// one pass however long the lines are. In UTF-8 (nearly every document), libxml2 reports a
/// start tag when it has read up to its `>`, so the tag's `<` is the last one before that
/// offset (an attribute value holds no `<`), and libxml2's line there, less the line breaks
/// inside the tag, is the tag's line. In other encodings, libxml2's offsets are not ours: a
/// scan for start tags in document order (the order they are reported in) finds them.
private struct ElementPositions {
    let source: XMLSource
    private var scanner: XMLMarkupScanner
    private var lines = LineCounter()
    /// The last element placed.
    private var last = (offset: 0, line: 1, column: 1)
    /// Whether libxml2's offsets are the source's (decided at the first element).
    private var sameOffsets: Bool?

    init(source: XMLSource) {
        self.source = source
        scanner = XMLMarkupScanner(bytes: source.bytes, offset: 0)
    }

    /// The offset, line and column of the start tag `parser` has just read; column 0 when
    /// it cannot be found.
    mutating func next(_ parser: xmlParserCtxtPtr) -> (offset: Int, line: Int, column: Int) {
        let input = parser.pointee.input
        if sameOffsets == nil { sameOffsets = input?.pointee.buf?.pointee.encoder == nil }
        guard sameOffsets == true, let input else { return scanned() }
        let bytes = source.bytes
        let end = min(max(Int(xmlByteConsumed(parser)), 0), bytes.count)
        let from = min(last.offset, end)
        return bytes.withUnsafeBufferPointer { buffer in
            guard let (start, breaks) = Self.lastTagStart(in: buffer, from: from, end: end) else { return (end, Int(input.pointee.line), 0) }
            let line = Int(input.pointee.line) - breaks
            let column: Int
            if line == last.line {
                column = last.column + buffer[last.offset..<start].characterCount
            } else {
                let lineStart = buffer[..<start].lastIndex(of: 10).map { $0 + 1 } ?? 0
                column = 1 + buffer[lineStart..<start].characterCount
            }
            last = (start, line, column)
            return last
        }
    }

    /// The offset of the last `<` in `buffer[from..<end]` and the line breaks after it,
    /// looked for from the end eight bytes at a time (a tag may be long: OPML keeps its text
    /// in attributes).
    private static func lastTagStart(in buffer: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> (Int, Int)? {
        let raw = UnsafeRawBufferPointer(buffer)
        let ones: UInt64 = 0x0101_0101_0101_0101
        func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
            let x = word ^ (ones &* UInt64(byte))
            return (x &- ones) & ~x & 0x8080_8080_8080_8080 != 0
        }
        var breaks = 0
        var index = end
        while index > from {
            if index - 8 >= from {
                let word = raw.loadUnaligned(fromByteOffset: index - 8, as: UInt64.self)
                if !hasByte(word, UInt8(ascii: "<")) && !hasByte(word, 10) {
                    index -= 8
                    continue
                }
            }
            index -= 1
            switch buffer[index] {
            case UInt8(ascii: "<"): return (index, breaks)
            case 10: breaks += 1
            default: break
            }
        }
        return nil
    }

    /// The next start tag's offset, line and column, by scanning.
    private mutating func scanned() -> (offset: Int, line: Int, column: Int) {
        let bytes = source.bytes
        while scanner.offset < bytes.count {
            guard
                let start = bytes.withUnsafeBytes({ buffer -> Int? in
                    guard let base = buffer.baseAddress,
                        let found = memchr(base + scanner.offset, Int32(UInt8(ascii: "<")), buffer.count - scanner.offset)
                    else { return nil }
                    return base.distance(to: UnsafeRawPointer(found))
                })
            else { break }
            scanner.offset = start
            let markup = scanner.skipMarkup()
            guard markup == .startTag || markup == .emptyTag else { continue }
            let place = lines.position(of: start, in: bytes)
            return (start, place.line, place.column)
        }
        return (bytes.count, 0, 0)
    }
}
