/// A YAML front matter block at the very top of a Markdown file (`---` … `---` or `...`),
/// when libyaml reads its content as one mapping (docs/formats.md). Anything else (`---`,
/// `Foo`, `---` is a rule and a setext heading; `---` `---` two rules; a YAML list) is
/// Markdown, and the block is left to cmark; so is a block YAML cannot read, with a located
/// warning when it starts like a mapping (`key: …`). `{}` alone is YAML's empty mapping:
/// front matter without keys, as pandoc reads it too. A scalar value is its text as YAML
/// reads it (quotes, escapes, block scalars and comments resolved; types are not: `1.0` and
/// `yes` stay text); a nested value is kept as YAML on one line (`[a, "b c"]`).
struct FrontMatter {
    /// How many lines the block takes, delimiters included (0 when there is none).
    private(set) var lineCount = 0
    private(set) var title: String?
    private(set) var collapseDepth: Int?
    private(set) var attributes: [String: String] = [:]
    /// Each key's value as YAML read it, for the keys that hold lists (`tags: [a, b]`).
    private(set) var values: [String: YAMLNode] = [:]
    /// What was kept but is not as expected (an `order:` that is not a number).
    private(set) var warnings: [Diagnostic] = []
    /// Why the block cannot be taken (a `collapse-depth` that is not a number).
    private var problem: ConversionError?

    /// The front matter of `lines`, the file's first lines through the closing line; throws
    /// when a key the reader acts on has a value it cannot take.
    init(_ lines: [Substring], file: String) throws {
        self.init(reading: lines, file: file)
        if let problem { throw problem }
    }

    /// The front matter at the top of `lines`, closed within their first 20,000 (the
    /// problems of its values aside: see `init(_:file:)`).
    static func atTop(of lines: [Substring], file: String = "") -> FrontMatter {
        // (`init(reading:)` finds the closing line.)
        guard lines.first?.trimmingTrailingSpaces == "---" else { return FrontMatter() }
        return FrontMatter(reading: Array(lines.prefix(20_001)), file: file)
    }

    /// How many lines a front matter block at the top of `lines` takes (0 when none).
    static func lineCount(of lines: [Substring]) -> Int { atTop(of: lines).lineCount }

    private init() {}

    private init(reading lines: [Substring], file: String) {
        // Like pandoc: the opening line is exactly `---` and is not followed by a blank line.
        guard lines.count > 2, lines[0].trimmingTrailingSpaces == "---",
            !lines[1].trimmingTrailingSpaces.isEmpty,
            let close = lines.indices.dropFirst().first(where: {
                ["---", "..."].contains(lines[$0].trimmingTrailingSpaces)
            })
        else { return }
        // (YAML's line n is the file's line n + 1, which is `lines[n]`.)
        let block = lines[1..<close]
        let documents: [YAMLNode]
        do {
            documents = try YAMLReader.documents(Array((block.joined(separator: "\n") + "\n").utf8), file: file)
        } catch {
            // A block that starts like a mapping was meant as front matter: say where YAML
            // stops reading it. (Any other is Markdown that looks like nothing else.)
            if let error = error as? ConversionError, let first = block.first(where: { !$0.hasPrefix("#") && !$0.trimmed.isEmpty }),
                Self.keyEnd(first) != nil
            {
                let place = error.location
                warnings.append(
                    Diagnostic(
                        SourceLocation(file: file, line: place.line + 1, column: place.column),
                        "the front matter is not read: \(error.reason); the block is read as Markdown"))
            }
            return
        }
        guard documents.count == 1, let entries = documents[0].entries else { return }
        lineCount = close + 1
        for entry in entries {
            guard let key = entry.key.text else {
                warnings.append(Diagnostic(place(of: entry.key, file: file), "a front-matter key that is not text is left out"))
                continue
            }
            let text = entry.value.text ?? YAMLText.flow(entry.value)
            // (YAML's escapes can make what no text of an outline holds.)
            if key.utf8.contains(0) || text.utf8.contains(0) {
                problem = problem ?? .invalid(place(of: entry.value, file: file), "a NUL character (\\0) is not allowed in an outline's text")
                continue
            }
            values[key] = entry.value
            store(key, text, isNull: entry.value.isNull, at: place(of: entry.value, file: file))
        }
    }

    private func place(of node: YAMLNode, file: String) -> SourceLocation {
        SourceLocation(file: file, line: node.line + 1, column: node.column)
    }

    /// Where a `key:` ends: a colon followed by white space or the end of the line, after
    /// a key that does not start with YAML punctuation.
    private static func keyEnd(_ line: Substring) -> Substring.Index? {
        guard let first = line.first, !"-?:,[]{}#&*!|>'\"%@`".contains(first) else { return nil }
        var index = line.startIndex
        while let colon = line[index...].firstIndex(of: ":") {
            let after = line.index(after: colon)
            if after == line.endIndex || line[after] == " " || line[after] == "\t" { return colon }
            index = after
        }
        return nil
    }

    /// Takes a key's value. (An attribute keeps a null as written, `~` or nothing, as YAML's
    /// base loaders do.)
    private mutating func store(_ key: String, _ text: String, isNull: Bool, at place: SourceLocation) {
        switch key {
        case "title":
            // An empty title (`title:`, `title: ""`, `title: null`) is no title, not an empty heading.
            let title = isNull ? "" : TitleText.normalized(text)
            self.title = title.isEmpty ? nil : title
        case "collapse-depth":
            guard let depth = Int(text), depth >= 0 else {
                problem = problem ?? .invalid(place, "collapse-depth must be a whole number, 0 or more; found '\(Quote.snippet(text))'")
                return
            }
            collapseDepth = depth
        case OutlinerMarkdownParser.markerKey:
            break  // (It says how the page reads, and is no attribute.)
        case "order":
            // (A docs site orders its pages by it: docs/sites.md.)
            attributes[key] = text
            if Double(text) == nil {
                warnings.append(
                    Diagnostic(place, "order must be a number (it places the page in a docs site's navigation); found '\(Quote.snippet(text))'"))
            }
        default:
            attributes[key] = text
        }
    }

    /// The texts a key holds as a list: a sequence's scalars, or a scalar's comma-separated
    /// parts (`tags: a, b`, as Obsidian reads it).
    func list(_ key: String) -> [String] {
        guard let value = values[key] else { return [] }
        let texts = value.items?.compactMap(\.text) ?? value.text.map { $0.split(separator: ",").map(String.init) } ?? []
        return texts.map(\.trimmed).filter { !$0.isEmpty }
    }
}

extension StringProtocol {
    /// The text without trailing spaces and tabs.
    var trimmingTrailingSpaces: String {
        guard let last = lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(self[...last])
    }

    /// The text without leading and trailing white space (spaces, tabs, line breaks).
    var trimmed: String {
        // Bytes first: ASCII white space is a character of its own unless a combining mark
        // follows, so when both new edges are ASCII the answer is that of the characters.
        let edges: (start: Int, end: Int, ascii: Bool)?? = utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.firstIndex(where: { !$0.isASCIIWhiteSpace }),
                let last = bytes.lastIndex(where: { !$0.isASCIIWhiteSpace })
            else { return nil }
            return (first, last + 1, bytes[first] < 0x80 && bytes[last] < 0x80)
        }
        switch edges {
        case .some(.none): return ""
        case .some(.some(let edges)) where edges.ascii:
            return String(self[utf8.index(utf8.startIndex, offsetBy: edges.start)..<utf8.index(utf8.startIndex, offsetBy: edges.end)])
        default: break
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

extension UInt8 {
    /// Tab, line feed, vertical tab, form feed, carriage return or space.
    fileprivate var isASCIIWhiteSpace: Bool { self == .space || (9...13).contains(self) }
}
