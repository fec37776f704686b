internal import CLibXML2
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Parses XML with libxml2's SAX2 interface, handing each element to a reader's
/// `XMLBuilder` as soon as its end tag is read, with its child elements already built: no
/// tree is held, neither libxml2's nor ours, only what the reader makes of each element. This
/// file is the only one that touches libxml2. Safe for untrusted input: no network, no DTD
/// loading, no entity substitution, and any entity declaration stops the parse before it can
/// be used (billion laughs, XXE). Nesting deeper than `maxDepth` elements is an error
/// (libxml2's own limit).
enum XMLReader {
    /// The deepest element nesting accepted.
    static let maxDepth = 256

    /// What `builder` made of the root element. Errors carry the file, line and column of
    /// the first problem: the XML's own (not well-formed, refused entities) before any the
    /// builder throws, as if the whole document were read before it is looked at.
    static func parse<Builder: XMLBuilder>(_ bytes: [UInt8], file: String, into builder: inout Builder) throws -> Builder.Node {
        try parse(XMLSource(bytes), file: file, into: &builder)
    }

    /// `parse` from `source`: a file read a chunk at a time, or bytes.
    static func parse<Builder: XMLBuilder>(_ source: XMLSource, file: String, into builder: inout Builder) throws -> Builder.Node {
        guard let context = xmlNewParserCtxt() else {
            throw ConversionError.io(path: file, "libxml2 could not allocate a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        let state = ParseState(source: source, builder: builder)
        state.connect()
        defer { state.disconnect() }
        let unmanaged = Unmanaged<ParseEvents>.passRetained(state)
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
        // Handed over in chunks, even from memory: libxml2 refuses to look more than 10 MB
        // into one memory buffer ("Huge input lookup"), and XML_PARSE_HUGE would lift its
        // depth limit too.
        let document = xmlCtxtReadIO(
            context, readChunk, nil, Unmanaged.passUnretained(source).toOpaque(), file, nil, options)
        if let document { xmlFreeDoc(document) }  // holds a doctype at most: no element is added to it
        if let failure = source.failure { throw failure }
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
        if let failure = state.failure { throw failure }
        builder = state.builder
        guard context.pointee.wellFormed != 0, let root = state.root else {
            throw ConversionError.malformed(SourceLocation(file: file, line: 1, column: 1), "the file is not well-formed XML")
        }
        return root
    }
}

/// What a reader makes of XML elements, one element at a time, innermost first.
protocol XMLBuilder {
    /// What an element becomes.
    associatedtype Node

    /// Whether an element named `name` inside one named `parent` (nil for the root) is
    /// built. The elements inside one that is not are not built either; its parent still
    /// sees it among its children, by name and place, with no node.
    func builds(_ name: String, inside parent: String?) -> Bool

    /// What `element` becomes, once its end tag is read.
    mutating func build(_ element: XMLElement<Node>) throws -> Node
}

// MARK: - Parser callbacks

private let readChunk: xmlInputReadCallback = { context, buffer, length in
    guard let context, let buffer, length > 0 else { return 0 }
    let source = Unmanaged<XMLSource>.fromOpaque(context).takeUnretainedValue()
    return Int32(source.read(into: UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: Int(length)))
}

/// What the callbacks learn during one parse, whatever is built; reached through the
/// context's `_private`. The building is `ParseState`'s, reached through `handlers`:
/// closures made where the builder's type is known, so that it runs specialized to it.
private class ParseEvents {
    /// What a `ParseState` does with the elements that are built. (A class: reaching one
    /// closure of it retains it once, where a struct would retain all four each time.)
    final class Handlers {
        /// Whether an element of this name, in the innermost open one, is built.
        let builds: (String) -> Bool
        let begin: (OpenElement) -> Void
        /// An element that is not built, in one that is.
        let skip: (OpenElement) -> Void
        let end: () -> Void

        init(
            builds: @escaping (String) -> Bool, begin: @escaping (OpenElement) -> Void, skip: @escaping (OpenElement) -> Void,
            end: @escaping () -> Void
        ) {
            (self.builds, self.begin, self.skip, self.end) = (builds, begin, skip, end)
        }
    }

    var handlers: Handlers?
    var firstError: (line: Int, column: Int, message: String)?
    var refusal: (line: Int, column: Int, message: String)?
    /// The first error the builder threw; nothing is built after it.
    var failure: (any Error)?
    // (Unchecked: only the parsing thread touches these, one callback at a time, and
    // checking every access at run time is a measurable part of reading a plist.)
    @exclusivity(unchecked) var positions: ElementPositions
    /// Text read since the innermost open element's last child began or ended, not yet a
    /// child itself: one buffer for all elements, as text only ever goes to the innermost.
    @exclusivity(unchecked) var text = PendingText()
    /// Element and attribute names met so far, by libxml2's pointer: libxml2 hands every
    /// name over from its parser's dictionary (one copy of each name, kept for the whole
    /// parse), so equal pointers are equal names and a document's few names become Strings once.
    @exclusivity(unchecked) private var names: [(pointer: UnsafePointer<xmlChar>, name: String)] = []
    /// The start tags of the open elements, innermost last.
    @exclusivity(unchecked) private var openOffsets: [Int] = []
    /// How many of the open elements are inside one that is not built (and so not built).
    private var skipped = 0

    init(source: XMLSource) { positions = ElementPositions(source: source) }

    /// Whether events are still taken: not after a refusal or a builder's error.
    var isBuilding: Bool { refusal == nil && failure == nil }

    /// Whether the innermost open element is built (and so keeps its text).
    var innermostIsBuilt: Bool { skipped == 0 && !openOffsets.isEmpty }

    /// The offset of the innermost open element's start tag (0 when none is open).
    var innermostOffset: Int { openOffsets.last ?? 0 }

    /// `name` as a String, from the names met before when it is one of them.
    func name(_ name: UnsafePointer<xmlChar>) -> String {
        for known in names where known.pointer == name { return known.name }
        let made = String(cString: name)
        if names.count < 64 { names.append((name, made)) }
        return made
    }

    /// Records the first refusal and stops the parser.
    func refuse(_ parser: xmlParserCtxtPtr, line: Int, column: Int, _ message: String) {
        guard refusal == nil else { return }
        refusal = (line, column, message)
        xmlStopParser(parser)
    }

    /// Whether an element named `name` starting now is built.
    func builds(_ name: String) -> Bool {
        guard skipped == 0, let handlers else { return false }
        return handlers.builds(name)
    }

    /// An element starts: `built` is what `builds(_:)` said.
    func begin(_ element: OpenElement, built: Bool) {
        openOffsets.append(element.offset)
        if built {
            handlers?.begin(element)
        } else {
            if skipped == 0 { handlers?.skip(element) }
            skipped += 1
        }
    }

    func end() {
        _ = openOffsets.popLast()
        if skipped > 0 {
            skipped -= 1
        } else {
            handlers?.end()
        }
    }
}

/// The elements of one parse that are built, and what `Builder` makes of them.
private final class ParseState<Builder: XMLBuilder>: ParseEvents {
    var builder: Builder
    /// The built elements begun and not yet ended, outermost first.
    @exclusivity(unchecked) private var open: [(element: OpenElement, children: [XMLElement<Builder.Node>.Content])] = []
    var root: Builder.Node?

    init(source: XMLSource, builder: Builder) {
        self.builder = builder
        super.init(source: source)
    }

    /// Sets `handlers` to this state's methods. Called from the specialized `parse`, so
    /// that the closures, and what they call, are specialized too; `disconnect()` breaks
    /// the cycle they make.
    func connect() {
        handlers = Handlers(
            builds: { self.builder.builds($0, inside: self.open.last?.element.name) },
            begin: { self.push($0) }, skip: { self.skip($0) }, end: { self.pop() })
    }

    func disconnect() { handlers = nil }

    private func push(_ element: OpenElement) {
        flushText(besideElement: true)
        open.append((element, []))
    }

    private func skip(_ element: OpenElement) {
        flushText(besideElement: true)
        if !open.isEmpty { open[open.count - 1].children.append(.element(XMLChild(element, node: nil))) }
    }

    private func pop() {
        flushText(besideElement: false)
        guard let (ended, children) = open.popLast() else { return }
        let element = XMLElement<Builder.Node>(ended, parent: open.last?.element.name, children: children, source: positions.source)
        let node: Builder.Node
        do {
            node = try builder.build(element)
        } catch {
            failure = error
            open = []
            return
        }
        if open.isEmpty {
            root = node
        } else {
            open[open.count - 1].children.append(.element(XMLChild(ended, node: node)))
        }
    }

    /// Makes the pending text a child of the innermost open element. Only white space beside
    /// a child element is dropped: every reader ignores it (text is read from elements
    /// without children), and a plist or an outline holds a lot of it.
    private func flushText(besideElement: Bool) {
        guard text.count > 0, !open.isEmpty else { return }
        defer { text.count = 0 }
        let last = open.count - 1
        text.withBytes { text in
            let spaceOnly = text.allSatisfy { $0 == .space || $0 == .lineFeed || $0 == .tab || $0 == .carriageReturn }
            if spaceOnly && (besideElement || open[last].children.contains { if case .element = $0 { true } else { false } }) { return }
            open[last].children.append(.text(String(decoding: text, as: UTF8.self)))
        }
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
struct OpenElement {
    let name: String
    let offset: Int
    let line: Int
    let column: Int
    let attributes: [(name: String, value: String)]
}

private func state(of context: UnsafeMutableRawPointer?) -> (xmlParserCtxtPtr, ParseEvents)? {
    guard let context else { return nil }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let raw = parser.pointee._private else { return nil }
    return (parser, Unmanaged<ParseEvents>.fromOpaque(raw).takeUnretainedValue())
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
private func refuseUndefinedEntity(_ parser: xmlParserCtxtPtr, _ state: ParseEvents, _ name: String) {
    let source = state.positions.source
    let from = state.innermostOffset
    let at = source.whole()[from...].firstRange(of: Array("&\(name);".utf8))?.lowerBound ?? from
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
    guard let (parser, state) = state(of: context), state.isBuilding else { return }
    var (offset, line, column) = state.positions.next(parser)
    if column == 0 {
        // The scan fell out of step with libxml2 (input it recovered from in its own way):
        // its line, and the line's start, still locate the element.
        (line, column) = (Int(xmlSAX2GetLineNumber(parser)), 1)
    }
    let name = localName.map(state.name) ?? ""
    let built = state.builds(name)
    var values: [(name: String, value: String)] = []
    if let attributes, attributeCount > 0 {
        if built { values.reserveCapacity(Int(attributeCount)) }
        // Five pointers per attribute: local name, prefix, URI, value start, value end.
        for index in 0..<Int(attributeCount) {
            let base = 5 * index
            guard let name = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
            let value = UnsafeBufferPointer(start: start, count: end - start)
            // (Decoded in every element, built or not: an undefined entity is refused anywhere.)
            guard let decoded = decodedAttribute(value) else {
                let raw = String(decoding: value, as: UTF8.self)
                let entity = raw.split(separator: "&").last.map { $0.prefix { $0 != ";" } } ?? ""
                refuseUndefinedEntity(parser, state, String(entity))
                return
            }
            if built { values.append((state.name(name), decoded)) }
        }
    }
    state.begin(OpenElement(name: name, offset: offset, line: line, column: column, attributes: values), built: built)
}

private let endElement: endElementNsSAX2Func = { context, _, _, _ in
    guard let (_, state) = state(of: context), state.isBuilding else { return }
    state.end()
}

private let characters: charactersSAXFunc = { context, text, length in
    guard let (_, state) = state(of: context), state.isBuilding, state.innermostIsBuilt, let text, length > 0 else { return }
    state.text.append(UnsafeBufferPointer(start: text, count: Int(length)))
}

/// An attribute value as libxml2 hands it over without entity substitution: every `&` it
/// holds stands for `&#38;` (an ampersand) or for a reference to an undefined entity; `nil`
/// for the latter.
private func decodedAttribute(_ value: UnsafeBufferPointer<xmlChar>) -> String? {
    guard value.firstIndex(ofByte: UInt8(ascii: "&")) != nil else {
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
    /// For other encodings: the scan over the whole document, begun at the first element.
    private var scanner: XMLMarkupScanner?
    private var lines = LineCounter()
    /// The last element placed.
    private var last = (offset: 0, line: 1, column: 1)
    /// Whether libxml2's offsets are the source's (decided at the first element).
    private var sameOffsets: Bool?

    init(source: XMLSource) { self.source = source }

    /// The offset, line and column of the start tag `parser` has just read; column 0 when
    /// it cannot be found.
    mutating func next(_ parser: xmlParserCtxtPtr) -> (offset: Int, line: Int, column: Int) {
        let input = parser.pointee.input
        if sameOffsets == nil { sameOffsets = input?.pointee.buf?.pointee.encoder == nil }
        guard sameOffsets == true, let input else { return scanned() }
        // (Offsets in the window are the document's less `base`.)
        let base = source.windowStart
        let end = min(max(Int(xmlByteConsumed(parser)), 0), source.count)
        let from = max(min(last.offset, end), base)
        let place: (offset: Int, line: Int, column: Int)? = source.window.withUnsafeBufferPointer { buffer in
            guard let (start, breaks) = Self.lastTagStart(in: buffer, from: from - base, end: end - base) else { return nil }
            let line = Int(input.pointee.line) - breaks
            let column: Int
            if line == last.line {
                column = last.column + buffer[(last.offset - base)..<start].characterCount
            } else {
                let lineStart = buffer[..<start].lastIndex(of: 10).map { $0 + 1 } ?? 0
                column = 1 + buffer[lineStart..<start].characterCount
            }
            return (base + start, line, column)
        }
        guard let place else { return (end, Int(input.pointee.line), 0) }
        last = place
        source.release(before: place.offset)
        return place
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
            case .lineFeed: breaks += 1
            default: break
            }
        }
        return nil
    }

    /// The next start tag's offset, line and column, by scanning.
    private mutating func scanned() -> (offset: Int, line: Int, column: Int) {
        var scanner = self.scanner ?? XMLMarkupScanner(bytes: source.whole(), offset: 0)
        defer { self.scanner = scanner }
        let bytes = scanner.bytes
        while scanner.offset < bytes.count {
            guard
                let start = bytes.withUnsafeBufferPointer({ $0.firstIndex(ofByte: UInt8(ascii: "<"), from: scanner.offset) })
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
