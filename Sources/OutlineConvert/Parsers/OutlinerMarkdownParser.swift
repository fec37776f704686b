/// Reads outliners' Markdown (docs/formats.md, "Outliners' Markdown"): a bullet outline as
/// Logseq, Drummer and Obsidian write it, each `- ` item a node. An item's first line is
/// its title, `key:: value` lines right after it are its properties (`collapsed:: true` its
/// state, `id::` its id, the others its attributes), the rest of its lines its body, and the
/// items indented under it its children. `key:: value` lines before the first item are the
/// page's properties (`title::` its title). Lines inside a fenced code block are never
/// items. A title line with inline markup keeps its source in the attribute
/// `outline-title`, from which HTML renders it and the writer writes it back.
struct OutlinerMarkdownParser: OutlineReader {
    let name = "outline"
    let extensions: [String] = []
    let isText = true

    /// A parser; it keeps no state between documents.
    init() {}

    /// The key that tells how a page reads when its content alone would tell wrong: the
    /// outline writer puts `outline-render:: outline` first when nothing else would make its
    /// page read as an outline (a flat list, a preamble first); the Markdown writer puts
    /// `outline-render: markdown` in front matter when its page would read as one. The
    /// readers take it off, whatever its value.
    static let markerKey = "outline-render"

    /// Whether Markdown text is a bullet outline (the rule of docs/formats.md), from its
    /// first bytes: outside front matter and fenced code, there are Logseq properties where
    /// Logseq writes them (`key:: value` on the first line, as an item's text, or right
    /// under an item or another such property), or every line that starts at the margin
    /// is a `- ` item and at least one item is nested.
    func sniff(_ head: ArraySlice<UInt8>) -> Bool {
        let head = head.prefix(65_536)
        // Most Markdown is ruled out by its bytes alone: no `::` anywhere, and a first line
        // that is neither an item nor front matter.
        if !Self.mayHoldProperty(head) {
            let first = head.drop { $0 == .space || $0 == .tab || $0 == .lineFeed || $0 == .carriageReturn }.first
            guard let first, first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "+") else { return false }
        }
        // The rest by bytes, line by line (every Markdown file with a `::` is asked).
        var lines = head.split(separator: .lineFeed, omittingEmptySubsequences: false)[...]
        if head.starts(with: "---".utf8) {
            let text = String(decoding: head, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let count = FrontMatter.lineCount(of: text)
            if text.prefix(count).contains(where: { $0.trimmingTrailingSpaces == Self.markerKey + ": markdown" }) { return false }
            lines = lines.dropFirst(count)
        }
        var fence: (marker: UInt8, length: Int)?
        var sawItem = false
        var nested = false
        var onlyItems = true
        // Whether a property may follow: at the top, or under an item or a property.
        var propertyMayFollow = true
        for line in lines {
            let indent = line.prefix { $0 == .space || $0 == .tab }.count
            var content = line.dropFirst(indent)
            while content.last == .carriageReturn || content.last == .space || content.last == .tab { content.removeLast() }
            if let open = fence {
                let run = content.prefix { $0 == open.marker }.count
                if run >= open.length && run == content.count { fence = nil }
                continue
            }
            if content.isEmpty { continue }
            let item = Self.itemText(bytes: content)
            let text = item ?? content
            if (item != nil || propertyMayFollow) && Self.isProperty(bytes: text) { return true }
            propertyMayFollow = item != nil
            if let marker = text.first, marker == UInt8(ascii: "`") || marker == UInt8(ascii: "~") {
                let length = text.prefix { $0 == marker }.count
                if length >= 3 && (marker == UInt8(ascii: "~") || !text.dropFirst(length).contains(marker)) {
                    fence = (marker, length)
                    continue
                }
            }
            if item != nil {
                sawItem = true
                if indent > 0 { nested = true }
            } else if indent == 0 {
                onlyItems = false
            }
        }
        return sawItem && nested && onlyItems
    }

    /// Whether some `::` in the bytes ends a key at the start of a line (after its
    /// indentation and an item's `- `): Rust's `std::io` and C++'s `a::b` in prose do not.
    private static func mayHoldProperty(_ bytes: ArraySlice<UInt8>) -> Bool {
        var from = bytes.startIndex
        while let colon = bytes[from...].firstIndex(of: UInt8(ascii: ":")) {
            from = colon + 1
            guard colon + 1 < bytes.endIndex, bytes[colon + 1] == UInt8(ascii: ":") else { continue }
            var start = colon
            while start > bytes.startIndex, case let byte = bytes[start - 1],
                byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte >= 0x80
            {
                start -= 1
            }
            guard start < colon else { continue }
            // (`- key::` in an item: the key starts after the marker.)
            if start - 2 >= bytes.startIndex, bytes[start - 1] == .space, "-*+".utf8.contains(bytes[start - 2]) { start -= 2 }
            while start > bytes.startIndex, bytes[start - 1] == .space || bytes[start - 1] == .tab { start -= 1 }
            if start == bytes.startIndex || bytes[start - 1] == .lineFeed { return true }
        }
        return false
    }

    /// `itemText` on bytes (a line without its indentation and trailing blanks).
    private static func itemText(bytes content: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        itemTextStart(content).map { content[$0...] }
    }

    /// `property` on bytes: a key (a letter or `_`, then letters, digits, `-`, `_`), `::`,
    /// then a space or the end.
    private static func isProperty(bytes text: ArraySlice<UInt8>) -> Bool {
        guard let first = text.first, first.isASCIILetter || first == UInt8(ascii: "_") || first >= 0x80 else { return false }
        let key = text.prefix { $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 >= 0x80 }
        let rest = text.dropFirst(key.count)
        guard rest.starts(with: "::".utf8) else { return false }
        let after = rest.dropFirst(2)
        return (after.isEmpty || after.first == .space) && property(Substring(String(decoding: text, as: UTF8.self))) != nil
    }

    func read(_ bytes: [UInt8], file: String, options: ConversionOptions) throws -> ParsedDocument {
        var document = try parse(bytes, file: file, blocks: options.wikiIndex.map { index in { index.block($0)?.title } })
        document.bodyFlavor = .withWikiLinks(index: options.wikiIndex, page: file)
        document.isBulletOutline = true
        return document
    }

    /// Parses an outline in `bytes`; `file` names it in messages. `blocks` gives a Logseq
    /// block's title by its id, for titles that reference blocks (in a graph).
    func parse(_ bytes: [UInt8], file: String, blocks: ((String) -> String?)? = nil) throws -> ParsedDocument {
        let text = try SourceText.validated(bytes, file: file)
        try MarkdownLimits().check(text, lineStarts: Lines.lineStarts(text), file: file)
        let lines = String(decoding: text, as: UTF8.self).splitLines()
        let frontMatter = try FrontMatter(Array(lines.prefix(FrontMatter.lineCount(of: lines))), file: file)
        var builder = Builder(file: file)
        for number in frontMatter.lineCount..<lines.count { try builder.add(lines[number], line: number + 1) }
        var (outline, warnings) = builder.finish(blocks: blocks)
        for (key, value) in frontMatter.attributes where outline.attributes[key] == nil { outline.attributes[key] = value }
        outline.title = outline.title ?? frontMatter.title
        outline.collapseDepth = frontMatter.collapseDepth
        return ParsedDocument(outline: outline, warnings: frontMatter.warnings + warnings)
    }

    // MARK: Lines

    /// The width of a line's indentation (a tab counts as four columns) and the rest.
    static func indentation(of line: Substring) -> (Int, Substring) {
        // (By bytes: asked of every line.)
        var width = 0
        let bytes = line.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex, bytes[index] == .space || bytes[index] == .tab {
            width += bytes[index] == .tab ? 4 - width % 4 : 1
            index = bytes.index(after: index)
        }
        return (width, line[index...])
    }

    /// The text of an item's first line (after `- `, `* ` or `+ `; "" for a bare `-`), or
    /// nil when `content` (a line without its indentation) is not an item.
    static func itemText(_ content: Substring) -> Substring? {
        itemTextStart(content.utf8).map { content[$0...] }
    }

    /// Where `itemText` starts in `content`'s bytes (by bytes: every line is asked, and
    /// the markers and blanks are ASCII).
    private static func itemTextStart<Bytes: BidirectionalCollection<UInt8>>(_ content: Bytes) -> Bytes.Index? {
        guard let marker = content.first, marker == UInt8(ascii: "-") || marker == UInt8(ascii: "*") || marker == UInt8(ascii: "+") else {
            return nil
        }
        let rest = content.index(after: content.startIndex)
        if content[rest...].allSatisfy({ $0 == .space || $0 == .tab }) {
            return rest == content.endIndex || marker == UInt8(ascii: "-") ? content.endIndex : nil
        }
        guard content[rest] == .space || content[rest] == .tab else { return nil }
        // `* * *` and `- - -` are rules, not items.
        if content.allSatisfy({ $0 == marker || $0 == .space || $0 == .tab }) { return nil }
        return content.index(after: rest)
    }

    /// A Logseq property line `key:: value` (the key: a letter or `_`, then letters, digits,
    /// `-`, `_`), as its key and value; nil for any other line.
    static func property(_ line: Substring) -> (key: String, value: String)? {
        // (By bytes: every line of every page is asked. The key ends at the first byte that
        // cannot be in one, which must start `::`.)
        let bytes = line.utf8
        guard let firstByte = bytes.first else { return nil }
        if firstByte < 0x80 {
            guard firstByte.isASCIILetter || firstByte == UInt8(ascii: "_") else { return nil }
        } else {
            guard let first = line.unicodeScalars.first, first.properties.isAlphabetic else { return nil }
        }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte >= 0x80 else { break }
            index = bytes.index(after: index)
        }
        guard bytes[index...].starts(with: "::".utf8) else { return nil }
        let key = line[line.startIndex..<index]
        guard
            key.utf8.allSatisfy({ $0 < 0x80 })
                || key.unicodeScalars.allSatisfy({ $0.isASCII || $0.properties.isAlphabetic || $0.properties.numericType != nil })
        else { return nil }
        let rest = line[bytes.index(index, offsetBy: 2)...]
        guard rest.isEmpty || rest.first == " " else { return nil }
        return (String(key), rest.trimmed)
    }

    /// A heading's marker at the start of a title line (`## Usage`): its level.
    static func headingLevel(_ title: Substring) -> Int? {
        let hashes = title.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let rest = title.dropFirst(hashes)
        return rest.isEmpty || rest.first == " " || rest.first == "\t" ? hashes : nil
    }

    /// A title line without its heading marker.
    static func strippingHeading(_ title: Substring) -> Substring {
        guard let level = headingLevel(title) else { return title }
        return title.dropFirst(level).drop { $0 == " " || $0 == "\t" }
    }
}

/// The writer's reversible escape for text lines that would read as something else: a
/// body line (outside fenced code) that would be an item (`- x`), its first line a property
/// (`key:: value`), or in the preamble a heading at the margin, is written with one more
/// `\` before it, and read back with one less, whatever backslashes it already had.
enum OutlinerEscapes {
    /// Whether a line (without its indentation) is escaped when written; `first`: the text's
    /// first line; `preamble`: the text before the first item.
    static func isEscaped(_ content: Substring, first: Bool, preamble: Bool) -> Bool {
        let bare = content.drop { $0 == "\\" }
        return OutlinerMarkdownParser.itemText(bare) != nil || (first && OutlinerMarkdownParser.property(bare) != nil)
            || (preamble && OutlinerMarkdownParser.headingLevel(bare) != nil)
    }

    /// `lines` with each line that needs it escaped (`adding`) or unescaped.
    static func apply(_ lines: [Substring], adding: Bool, preamble: Bool) -> [Substring] {
        var result: [Substring] = []
        result.reserveCapacity(lines.count)
        var fence: Fence?
        var isFirst = true
        for line in lines {
            let (indent, content) = OutlinerMarkdownParser.indentation(of: line)
            defer { isFirst = isFirst && content.isEmpty }
            if let open = fence {
                if open.isClosed(by: content) { fence = nil }
                result.append(line)
                continue
            }
            fence = Fence(opening: content)
            let start = content.startIndex
            if !isEscaped(content, first: isFirst, preamble: preamble && indent == 0) {
                result.append(line)
            } else if adding {
                result.append(line[..<start] + "\\" + content)
            } else if content.first == "\\" {
                result.append(line[..<start] + content.dropFirst())
            } else {
                result.append(line)
            }
        }
        return result
    }
}

/// A fenced code block's opening line (three or more backticks or tildes), closed by a
/// line of at least as many of the same.
struct Fence {
    let marker: UInt8
    let length: Int

    // (By bytes: asked of every line, and cmark reads a backtick followed by a combining
    // mark as a backtick.)
    init?(opening content: Substring) {
        let bytes = content.utf8
        guard let marker = bytes.first, marker == UInt8(ascii: "`") || marker == UInt8(ascii: "~") else { return nil }
        let length = bytes.prefix { $0 == marker }.count
        guard length >= 3, marker == UInt8(ascii: "~") || !bytes.dropFirst(length).contains(UInt8(ascii: "`")) else { return nil }
        self.marker = marker
        self.length = length
    }

    func isClosed(by content: Substring) -> Bool {
        let bytes = content.utf8
        guard bytes.first == marker else { return false }
        let run = bytes.prefix { $0 == marker }.count
        return run >= length && bytes.dropFirst(run).allSatisfy { $0 == .space || $0 == .tab }
    }
}

/// Builds the outline line by line: a stack of the open items, each with its indentation.
private struct Builder {
    let file: String
    private var stack: [Item] = []
    private var roots: [OutlineNode] = []
    private var preamble: [Substring] = []
    private var pageProperties: [(key: String, value: String, line: Int)] = []
    private var warnings: [Diagnostic] = []
    /// The fence open in the item being read (or in the preamble), if any.
    private var fence: Fence?
    private var fenceIndent = 0

    /// An item being read: where it starts, the column its content starts at, its lines.
    private struct Item {
        let indent: Int
        let contentColumn: Int
        let line: Int
        var lines: [Substring]
        var children: [OutlineNode] = []
    }

    init(file: String) { self.file = file }

    mutating func add(_ line: Substring, line number: Int) throws {
        let (indent, content) = OutlinerMarkdownParser.indentation(of: line)
        if let open = fence {
            // An item left of the code's item ends an unclosed fence, as it ends the item.
            if !(indent < fenceIndent && OutlinerMarkdownParser.itemText(content) != nil) {
                if open.isClosed(by: content) && indent <= fenceIndent + 3 { fence = nil }
                appendContent(line, indent: indent)
                return
            }
            fence = nil
        }
        if let text = OutlinerMarkdownParser.itemText(content) {
            // (Continuation lines are two columns in, as Logseq writes them, or where the text starts.)
            let contentColumn = indent + max(2, content.utf8.count - text.utf8.count)
            try open(Item(indent: indent, contentColumn: contentColumn, line: number, lines: [text]))
            if let opened = Fence(opening: text) {
                fence = opened
                fenceIndent = contentColumn
            }
            return
        }
        if indent == 0, OutlinerMarkdownParser.headingLevel(content) != nil {
            // A heading at the margin is an item of its own (Logseq writes them so).
            try open(Item(indent: 0, contentColumn: 0, line: number, lines: [content]))
            return
        }
        if let opened = Fence(opening: content) {
            fence = opened
            fenceIndent = indent
        }
        if stack.isEmpty && roots.isEmpty, let property = OutlinerMarkdownParser.property(content), indent == 0,
            preamble.allSatisfy({ $0.trimmed.isEmpty }), fence == nil
        {
            pageProperties.append((property.key, property.value, number))
            return
        }
        appendContent(line, indent: indent)
    }

    /// A line that belongs to the open item (its indentation up to the item's content
    /// column taken off), or to the preamble.
    private mutating func appendContent(_ line: Substring, indent: Int) {
        guard !stack.isEmpty else {
            preamble.append(line)
            return
        }
        let column = stack[stack.count - 1].contentColumn
        stack[stack.count - 1].lines.append(Self.dropping(columns: min(indent, column), from: line))
    }

    /// `line` without its first `columns` columns of indentation (a tab that straddles the
    /// limit is kept as the spaces left of it).
    private static func dropping(columns: Int, from line: Substring) -> Substring {
        var width = 0
        let bytes = line.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex, width < columns, bytes[index] == .space || bytes[index] == .tab {
            let next = bytes[index] == .tab ? width + 4 - width % 4 : width + 1
            if next > columns { return Substring(String(repeating: " ", count: next - columns)) + line[bytes.index(after: index)...] }
            width = next
            index = bytes.index(after: index)
        }
        return line[index...]
    }

    private mutating func open(_ item: Item) throws {
        while let top = stack.last, top.indent >= item.indent { close() }
        guard stack.count < XMLReader.maxDepth else {
            throw ConversionError.refused(
                SourceLocation(file: file, line: item.line, column: item.indent + 1),
                "items nest deeper than \(XMLReader.maxDepth) levels, the limit for outlines")
        }
        stack.append(item)
    }

    private mutating func close() {
        guard let item = stack.popLast() else { return }
        var node = Self.node(of: item, warnings: &warnings, file: file)
        node.children = item.children
        if stack.isEmpty { roots.append(node) } else { stack[stack.count - 1].children.append(node) }
    }

    /// An item's node: title, properties and body from its lines (its title's plain text is
    /// found later for all items at once).
    private static func node(of item: Item, warnings: inout [Diagnostic], file: String) -> OutlineNode {
        var lines = item.lines[...]
        var title: Substring? = nil
        if let first = lines.first {
            // A bare `-` has no title line; nor has an item that starts with a property or
            // a block (a fence, Logseq's `#+BEGIN_…`): its lines are all properties and body.
            if first.isEmpty {
                lines = lines.dropFirst()
            } else if OutlinerMarkdownParser.property(first) == nil, Fence(opening: first) == nil, !first.hasPrefix("#+BEGIN_") {
                title = first
                lines = lines.dropFirst()
            }
        }
        var node = OutlineNode(title: "", line: item.line)
        while let line = lines.first, let property = OutlinerMarkdownParser.property(line) {
            lines = lines.dropFirst()
            switch property.key.lowercased() {
            case "collapsed": node.collapsed = property.value.lowercased() == "true"
            case "id": node.id = property.value
            default:
                if node.attributes[property.key] != nil {
                    warnings.append(
                        Diagnostic(
                            SourceLocation(file: file, line: item.line),
                            "the property '\(Quote.snippet(property.key))' is given twice; the first is kept"))
                } else {
                    node.attributes[property.key] = property.value
                }
            }
        }
        node.body = Self.withoutBlankEnds(OutlinerEscapes.apply(Array(lines), adding: false, preamble: false))
        // The title's source, until its plain text is known (see `Builder.finish`).
        node.attributes[AttributeKey.outlinerTitle] = title.map(String.init) ?? ""
        return node
    }

    /// Lines as a body: without the blank lines at either end, the rest exactly as written
    /// (its indentation is the text's: a blank line first must not change it).
    private static func withoutBlankEnds(_ lines: [Substring]) -> String {
        func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }
        guard let first = lines.firstIndex(where: { !isBlank($0) }), let last = lines.lastIndex(where: { !isBlank($0) }) else { return "" }
        return lines[first...last].joined(separator: "\n")
    }

    mutating func finish(blocks: ((String) -> String?)?) -> (Outline, [Diagnostic]) {
        while !stack.isEmpty { close() }
        var outline = Outline(body: Self.withoutBlankEnds(OutlinerEscapes.apply(preamble, adding: false, preamble: true)))
        // A first item of properties only holds the page's (Logseq writes them so too).
        if pageProperties.isEmpty, let first = roots.first, first.attributes[AttributeKey.outlinerTitle] == "",
            first.body.isEmpty, first.children.isEmpty, first.id.isEmpty, first.collapsed == nil
        {
            roots.removeFirst()
            pageProperties = first.attributes.filter { $0.key != AttributeKey.outlinerTitle }.sorted { $0.key < $1.key }
                .map { ($0.key, $0.value, first.line) }
        }
        for property in pageProperties where property.key != OutlinerMarkdownParser.markerKey {
            if property.key.lowercased() == "title", !property.value.isEmpty {
                outline.title = TitleText.normalized(property.value)
            } else {
                outline.attributes[property.key] = property.value
            }
        }
        OutlinerTitles.resolve(&roots, blocks: blocks)
        outline.nodes = roots
        return (outline, warnings)
    }
}
