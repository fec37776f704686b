/// Writes an outline as Markdown (docs/formats.md) that reads back to the same outline: front
/// matter for the title and the outline's attributes, the preamble, then an ATX heading
/// per node with pandoc attributes (`{#id .collapsed .class key="value"}`): the id only
/// where reading the title back would give another, `.collapsed` on a collapsed node.
/// Titles are escaped so that they read back as the same plain text. Two fallbacks:
/// a node deeper than six levels is a `######` heading carrying `outline-depth="N"`, which
/// the reader honours; a body line that would read as a heading is escaped with `\`
/// (a warning), so that it stays body text. A preamble that would make the page read as a
/// bullet outline gets `outline-render: markdown` in front matter, which the reader takes off.
struct MarkdownEmitter: OutlineWriter {
    let name = "markdown"
    let extensions = ["md", "markdown"]
    /// Front-matter keys the reader takes for itself.
    private static let reservedFrontMatter: Set<String> = ["title", "collapse-depth", OutlinerMarkdownParser.markerKey]
    /// Classes the reader takes as collapse markers.
    private static let markerClasses: Set<String> = ["collapsed", "folded", "expanded", "open"]

    func write(_ outline: Outline, context: WriteContext) -> (bytes: [UInt8], warnings: [Diagnostic]) {
        var markdown = ByteBuffer(capacity: context.inputSize + 4096, sink: context.sink)
        var warnings = WriterWarnings(file: context.file, format: "Markdown")
        var frontMatter: [String] = []
        if let title = outline.title { frontMatter.append("title: " + YAMLText.quoted(title)) }
        let attributes = warnings.writable(outline.attributes, of: nil, reserved: Self.reservedFrontMatter, isName: { _ in true }, what: "")
        frontMatter += attributes.map { YAMLText.scalar($0.name) + ": " + YAMLText.quoted($0.value) }
        // A preamble that starts with `---` could read back as front matter: an empty one
        // (`{}`, YAML's empty mapping) goes first then.
        if frontMatter.isEmpty && outline.body.lines.first?.trimmingTrailingSpaces == "---" { frontMatter = ["{}"] }
        let preamble = Self.escapingHeadingLines(outline.body, of: nil, warnings: &warnings)
        if OutlinerMarkdownParser().sniff(Array(preamble.utf8.prefix(65_536))[...]) {
            frontMatter = frontMatter.filter { $0 != "{}" } + [OutlinerMarkdownParser.markerKey + ": markdown"]
        }
        if !frontMatter.isEmpty { markdown.write("---\n" + frontMatter.joined(separator: "\n") + "\n---\n") }
        if !outline.body.isEmpty { block(preamble, into: &markdown) }
        write(outline.nodes, depth: 1, definitions: BodyRenderer.linkDefinitions(of: outline), into: &markdown, warnings: &warnings)
        // An empty outline is one empty line: an empty file would be refused as input.
        if markdown.isEmpty { markdown.write("\n" as StaticString) }
        return (markdown.finish(), warnings.list)
    }

    /// A block of lines, after a blank line unless it starts the file.
    private func block(_ text: String, into markdown: inout ByteBuffer) {
        if !markdown.isEmpty { markdown.write("\n" as StaticString) }
        markdown.write(text)
        markdown.write("\n" as StaticString)
    }

    /// Writes `nodes` at `depth`; `definitions` are the link reference definitions of the
    /// outline's bodies, which a title's Markdown may use.
    private func write(_ nodes: [OutlineNode], depth: Int, definitions: String, into markdown: inout ByteBuffer, warnings: inout WriterWarnings) {
        for node in nodes {
            var heading = String(repeating: "#", count: min(depth, 6)) + " "
            // A title's Markdown (`outline-title`) is the heading's text when it reads back as
            // the same title and Markdown; otherwise the plain title, its Markdown in the block.
            let titleMarkdown = node.attributes[AttributeKey.outlinerTitle].flatMap {
                Self.readsBack($0, as: node.title, definitions: definitions) ? $0 : nil
            }
            let title = titleMarkdown ?? Self.escapedTitle(node.title)
            heading += title
            let attributes = attributeBlock(
                node, depth: depth, skipping: titleMarkdown == nil ? nil : AttributeKey.outlinerTitle, warnings: &warnings)
            // A title ending in `}` needs a block after it, or its end would read as one.
            if !attributes.isEmpty || title.hasSuffix("}") { heading += " {" + attributes.joined(separator: " ") + "}" }
            block(heading, into: &markdown)
            if !node.body.isEmpty { block(Self.escapingHeadingLines(node.body, of: node, warnings: &warnings), into: &markdown) }
            write(node.children, depth: depth + 1, definitions: definitions, into: &markdown, warnings: &warnings)
        }
    }

    /// Whether `# markdown`, with the outline's `definitions`, reads as a heading titled
    /// `title` whose Markdown is `markdown`.
    private static func readsBack(_ markdown: String, as title: String, definitions: String) -> Bool {
        guard !markdown.contains(where: \.isNewline), !markdown.hasSuffix("}"),
            let parsed = try? MarkdownParser().parse(bytes: Array("# \(markdown)\n\n\(definitions)\n".utf8), file: "", structureOnly: true),
            parsed.outline.nodes.count == 1,
            let node = parsed.outline.nodes.first
        else { return false }
        return node.title == title && node.attributes == [AttributeKey.outlinerTitle: markdown] && node.children.isEmpty
    }

    /// The pieces of the node's `{…}` block: id, classes, pairs (each readable by the
    /// reader), but the attribute `skipping`.
    private func attributeBlock(_ node: OutlineNode, depth: Int, skipping: String?, warnings: inout WriterWarnings) -> [String] {
        var pieces: [String] = []
        if node.id != IdentifierAssigner.slug(node.title) {
            if Self.isAttributeWord(node.id) {
                pieces.append("#" + Self.escapedInline(node.id))
            } else {
                warnings.add(
                    Diagnostic(
                        SourceLocation(file: warnings.file, line: node.line),
                        "the id '\(Quote.snippet(node.id))' of section '\(Quote.snippet(node.title))' cannot be written in Markdown; it will read back as '\(IdentifierAssigner.slug(node.title))'"
                    ))
            }
        }
        if node.isCollapsed { pieces.append(".collapsed") }
        // Ids and classes as before: each inline-syntax character escaped for cmark, which
        // reads the heading first.
        for key in node.attributes.keys.sorted() where key != skipping {
            let value = node.attributes[key] ?? ""
            if key == AttributeKey.classes {
                for name in value.split(separator: " ").map(String.init) {
                    if Self.markerClasses.contains(name) || !Self.isAttributeWord(name) {
                        warnings.dropped("class \(name)", of: node, because: "the reader would take it as something else")
                    } else {
                        pieces.append("." + Self.escapedInline(name))
                    }
                }
            } else if key == AttributeKey.depth || (key == "visibility" && value == "folded") {
                warnings.dropped(key, of: node, because: "the reader takes it as a marker")
            } else if !Self.isAttributeKey(key) {
                warnings.dropped(key, of: node, because: "it is not a pandoc attribute name")
            } else if value.contains(where: \.isNewline) {
                warnings.dropped(key, of: node, because: "a heading's attributes cannot hold a line break")
            } else {
                pieces.append(Self.escapedKey(key) + "=" + Self.quotedValue(value))
            }
        }
        if depth > 6 { pieces.append(AttributeKey.depth + "=\"\(depth)\"") }
        return pieces
    }

    /// A key (letters, digits, `-`, `_`, `:`) with each `_` that could open or close emphasis
    /// in cmark escaped: one not between two ASCII letters or digits. Pandoc reads `a_b` but
    /// not `a\\_b`, and cmark can read no emphasis into `a_b`.
    private static func escapedKey(_ key: String) -> String {
        let bytes = Array(key.utf8)
        var result: [UInt8] = []
        func inWord(_ index: Int) -> Bool { bytes.indices.contains(index) && (bytes[index].isASCIILetter || bytes[index].isASCIIDigit) }
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "_") && !(inWord(index - 1) && inWord(index + 1)) { result.append(.backslash) }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// A value as pandoc's attribute syntax quotes it, read back the same by pandoc and by our
    /// reader: in single quotes when it holds `"` and no `'`, else in double quotes; inside,
    /// `\\` and the quote are escaped with `\\`, and so is each character cmark would take as
    /// inline syntax (both readers take `\\` before ASCII punctuation as that character).
    static func quotedValue(_ value: String) -> String {
        let quote = value.contains("\"") && !value.contains("'") ? UInt8(ascii: "'") : UInt8(ascii: "\"")
        var result: [UInt8] = [quote]
        for byte in value.utf8 {
            if byte == quote || byte == UInt8(ascii: "\\") || inlineSyntax[Int(byte)] { result.append(UInt8(ascii: "\\")) }
            result.append(byte)
        }
        result.append(quote)
        return String(decoding: result, as: UTF8.self)
    }

    /// A word the attribute reader takes after `#` or `.`.
    private static func isAttributeWord(_ word: String) -> Bool {
        !word.isEmpty && !word.contains { $0.isWhitespace || "{}\"'=#".contains($0) }
    }

    private static func isAttributeKey(_ key: String) -> Bool {
        !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || "-_:".contains($0) }
    }

    /// A plain title as heading text that reads back as the same plain text: inline syntax
    /// escaped, and a final `#` (which would close the heading).
    static func escapedTitle(_ title: String) -> String {
        var result = escapedInline(title)
        if result.hasSuffix("#") { result.insert("\\", at: result.index(before: result.endIndex)) }
        return result
    }

    /// Text in a heading (its title or its `{…}` block) that cmark reads back as exactly
    /// this text: backslash, emphasis, code, link, HTML and entity characters escaped (a
    /// table by byte).
    private static let inlineSyntax: [Bool] = (0...255).map { "\\`*_[]<&".utf8.contains(UInt8($0)) }

    static func escapedInline(_ text: String) -> String {
        guard text.utf8.contains(where: { inlineSyntax[Int($0)] }) else { return text }
        // By bytes, not characters: cmark reads bytes, and a backtick followed by a combining
        // mark is one character, but still a backtick.
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if inlineSyntax[Int(byte)] { result.append(.backslash) }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The body, with each line that would start a heading of its own (an ATX heading, or
    /// a setext underline) escaped with `\`: a section cannot hold a heading.
    static func escapingHeadingLines(_ body: String, of node: OutlineNode?, warnings: inout WriterWarnings) -> String {
        guard body.utf8.contains(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "-") }) else { return body }
        var lines = body.lines.map(String.init)
        var escaped: Set<Int> = []
        func escape(_ line: Int) {
            guard !escaped.contains(line + 1) else { return }
            let indent = lines[line].prefix { $0 == " " }.count
            lines[line].insert("\\", at: lines[line].index(lines[line].startIndex, offsetBy: indent))
            escaped.insert(line + 1)
        }
        // Escaping a line can make another a heading (`\## x` joins the paragraph above it,
        // which a following `===` then underlines): parse again until none is left. Past a
        // few rounds (only a contrived body gets there), every line that could take part
        // in a heading is escaped at once.
        for round in 1... {
            let found = headingLines(lines)
            if found.isEmpty { break }
            if round > 4 {
                for line in lines.indices where isUnderline(lines[line]) || isATXStart(lines[line]) {
                    escape(line)
                }
                break
            }
            found.forEach(escape)
        }
        guard !escaped.isEmpty else { return body }
        let owner = node.map { "section '\(Quote.snippet($0.title))'" } ?? "the preamble"
        let numbers = escaped.sorted().prefix(10).map(String.init).joined(separator: ", ") + (escaped.count > 10 ? ", …" : "")
        warnings.add(
            Diagnostic(
                SourceLocation(file: warnings.file, line: node?.line ?? 0),
                "in Markdown, line \(numbers) of the body of \(owner) would be a heading; it is escaped with '\\' and stays text"))
        return lines.joined(separator: "\n")
    }

    /// The indexes of the lines that make top-level headings in `lines`: each ATX
    /// heading's line; each setext heading's underline, with the `=`/`-` lines right after
    /// it (which would underline the paragraph once the first is escaped). Read as Markdown
    /// is read back by default, GitHub's flavour: a `---` after a table is a rule there.
    private static func headingLines(_ lines: [String]) -> [Int] {
        let document = CommonMarkDocument(parsing: lines.joined(separator: "\n"), structureOnly: true)
        var found: [Int] = []
        for index in 0..<document.blockCount {
            guard let block = document.heading(at: index) else { continue }
            let start = block.startLine - 1
            guard start >= 0, start < lines.count else { continue }
            if isATXStart(lines[start]) {
                found.append(start)
                continue
            }
            let end = min(block.endLine, lines.count)
            var line = (start + 1..<end).first { isUnderline(lines[$0]) } ?? end - 1
            while line < lines.count && isUnderline(lines[line]) {
                found.append(line)
                line += 1
            }
        }
        return found
    }

    /// Up to three spaces, then `#`.
    private static func isATXStart(_ line: String) -> Bool {
        let indent = line.prefix { $0 == " " }.count
        return indent < 4 && line.dropFirst(indent).hasPrefix("#")
    }

    private static func isUnderline(_ line: String) -> Bool {
        let content = line.trimmed
        guard let mark = content.first, mark == "=" || mark == "-" else { return false }
        return content.allSatisfy { $0 == mark }
    }
}

extension String {
    /// The text's lines, split at LF only (by bytes: no grapheme breaking).
    fileprivate var lines: [Substring] {
        var lines: [Substring] = []
        var start = utf8.startIndex
        for index in utf8.indices where utf8[index] == .lineFeed {
            lines.append(self[start..<index])
            start = utf8.index(after: index)
        }
        lines.append(self[start...])
        return lines
    }
}
