/// pymdownx.blocks' fenced blocks, read in mkdocs' dialect (SPEC §3.1.3): a header line
/// `/// name | Title` (three or more slashes), options on the lines right after it indented
/// four spaces (`type: warning`, `open: true`, `new: true`, `select: true`), the content as
/// it is, and a line of as many slashes alone that ends it (none: the document does). The
/// first end of the same length ends the block and any block opened inside it, as
/// pymdownx reads it; so nested blocks are written with more slashes outside.
///
/// A name is an admonition (`admonition` or one of its types: `/// note`), a collapsible
/// block (`details` or one of its types) or a tab; any other name stays text, as it does in
/// mkdocs. Like `MkDocsBlocks`' headers, a header or end counts only on a line cmark read as
/// part of a paragraph (never in code). Its lines are rewritten one for one: the header into
/// the block's marker, the end into `endMarker`, the options into blank lines.
enum FencedBlocks {
    private static let slashMark = UInt8(ascii: "/")

    /// The names that start a block.
    struct Names: Equatable, Sendable {
        /// `admonition` (its type an option) and its types (`note`, `tip`…).
        var admonitions: Set<String>
        /// `details` (its type an option) and its types.
        var details: Set<String>
        /// Whether `tab` starts a content tab.
        var tabs: Bool

        /// pymdownx's types of admonitions, with mkdocs-material's (which its users add in
        /// `types`: `info`, `check`, `success`…). Details have no types unless configured.
        static let types: Set<String> = [
            "note", "attention", "caution", "danger", "error", "tip", "hint", "warning", "important", "abstract", "summary",
            "tldr", "info", "todo", "success", "check", "done", "question", "help", "faq", "failure", "fail", "missing", "bug",
            "example", "quote", "cite",
        ]
        /// Every block pymdownx.blocks names.
        static let all = Names(admonitions: types.union(["admonition"]), details: ["details"], tabs: true)
    }

    /// What stands for an end line in the rewritten text.
    static let endMarker = Array("<!--outline-block-end-->".utf8)

    /// Whether an HTML block's text is an end's marker.
    static func isEnd(_ html: [UInt8]) -> Bool {
        html.drop { $0 == .space || $0 == .tab }.starts(with: endMarker)
    }

    /// A line that may be a header or an end: its number, and where its slashes start.
    struct Candidate {
        let line: Int
        let start: Int
    }

    /// The lines of a paragraph that start, after the paragraph's own indent (its first
    /// line) or after any spaces and `>` (the others), with `///`.
    static func candidates(in paragraph: ParagraphLines, source: SourceLines) -> [Candidate] {
        var found: [Candidate] = []
        for number in paragraph.first...paragraph.last where number <= source.count {
            let line = source.line(number)
            var start = number == paragraph.first ? line.startIndex + paragraph.column - 1 : line.startIndex
            if number != paragraph.first {
                while start < line.endIndex, line[start] == .space || line[start] == .tab || line[start] == UInt8(ascii: ">") { start += 1 }
            }
            guard start >= line.startIndex, start + 3 <= line.endIndex, line[start] == slashMark, line[start + 1] == slashMark,
                line[start + 2] == slashMark
            else { continue }
            found.append(Candidate(line: number, start: start - line.startIndex))
        }
        return found
    }

    /// Reads the blocks that `candidates` (in line order) start and end, rewrites their
    /// lines in `lines`, and returns each block with the number its marker is given (from
    /// `firstNumber` on).
    static func read(
        _ candidates: [Candidate], names: Names, lines: inout [ArraySlice<UInt8>], firstNumber: Int
    ) -> [MkDocsBlocks.Block] {
        var blocks: [(header: MkDocsBlocks.Header, line: Int, lastLine: Int?)] = []
        var open: [(block: Int, length: Int)] = []
        for candidate in candidates {
            let text = lines[candidate.line - 1][(lines[candidate.line - 1].startIndex + candidate.start)...]
            let length = text.prefix { $0 == slashMark }.count
            let rest = text.dropFirst(length)
            if rest.allSatisfy({ $0 == .space || $0 == .tab || $0 == .carriageReturn }) {
                // An end: of the outermost open block of its length, and all inside it.
                guard let outer = open.firstIndex(where: { $0.length == length }) else { continue }
                for (block, _) in open[outer...] { blocks[block].lastLine = candidate.line - 1 }
                open.removeSubrange(outer...)
                lines[candidate.line - 1] = (Array(lines[candidate.line - 1].prefix(candidate.start)) + endMarker)[...]
                continue
            }
            var options: [String: String] = [:]
            var next = candidate.line + 1
            while next <= lines.count, let option = option(lines[next - 1], indent: candidate.start) {
                options[option.key] = option.value
                lines[next - 1] = lines[next - 1].prefix(candidate.start)
                next += 1
            }
            guard let header = header(String(decoding: rest, as: UTF8.self), options: options, names: names) else { continue }
            lines[candidate.line - 1] =
                (Array(lines[candidate.line - 1].prefix(candidate.start)) + MkDocsBlocks.marker(firstNumber + blocks.count))[...]
            open.append((blocks.count, length))
            blocks.append((header, candidate.line, nil))
        }
        return blocks.map { MkDocsBlocks.Block(header: $0.header, line: $0.line, lastLine: max($0.lastLine ?? lines.count, $0.line)) }
    }

    /// An option line (`    key: value`, indented four spaces or more past the header).
    private static func option(_ line: ArraySlice<UInt8>, indent: Int) -> (key: String, value: String)? {
        let text = String(decoding: line, as: UTF8.self)
        let body = text.drop { $0 == " " || $0 == ">" }
        guard text.count - body.count >= indent + 4, let colon = body.firstIndex(of: ":") else { return nil }
        let key = body[..<colon].trimmed
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else { return nil }
        return (key, body[body.index(after: colon)...].trimmed)
    }

    /// The header after the slashes (` note | Title`), with its options; nil when its name
    /// starts no block.
    static func header(_ text: String, options: [String: String], names: Names) -> MkDocsBlocks.Header? {
        let trimmed = Substring(text.trimmed)
        let name: Substring
        let title: String?
        if let bar = trimmed.firstIndex(of: "|") {
            name = Substring(trimmed[..<bar].trimmed)
            title = trimmed[trimmed.index(after: bar)...].trimmed
        } else {
            name = trimmed
            title = nil
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else { return nil }
        let key = name.lowercased()
        let type = options["type"].map { $0.filter { $0 != "\"" && $0 != "'" } } ?? ""
        // (An option of YAML's booleans.)
        func flag(_ option: String) -> Bool { ["true", "yes", "on"].contains(options[option]?.lowercased() ?? "") }
        // (Without a title, a block of a type shows the type's name; `admonition` and
        // `details` without either show none: the empty title.)
        if names.admonitions.contains(key) {
            let classes = key == "admonition" ? (type.isEmpty ? [] : [type]) : [key]
            return MkDocsBlocks.Header(kind: .callout, classes: classes, title: title ?? (classes.isEmpty ? "" : nil))
        }
        if names.details.contains(key) {
            let classes = key == "details" ? (type.isEmpty ? [] : [type]) : [key]
            return MkDocsBlocks.Header(kind: .details(open: flag("open")), classes: classes, title: title ?? (classes.isEmpty ? "" : nil))
        }
        if names.tabs, key == "tab", let title, !title.isEmpty {
            return MkDocsBlocks.Header(kind: .tab(selected: flag("select"), startsGroup: flag("new")), classes: [], title: title)
        }
        return nil
    }
}

/// The lines a paragraph spans, and the column its first line starts at (cmark's, from 1).
struct ParagraphLines {
    let first: Int
    let last: Int
    let column: Int
}
