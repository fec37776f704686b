/// A YAML front matter block at the very top of a Markdown file (`---` … `---` or `...`),
/// when its content is a YAML mapping (docs/formats.md): top-level `key: value` lines, with
/// indented or `- ` continuation lines, comments and blank lines. Anything else (`---`,
/// `Foo`, `---` is a rule and a setext heading; `---` `---` two rules) is Markdown, and the
/// block is left to cmark. `{}` alone is YAML's empty mapping: front matter without keys,
/// as pandoc reads it too. Only top-level pairs are read; a nested value is kept as text.
struct FrontMatter {
    /// How many lines the block takes, delimiters included (0 when there is none).
    private(set) var lineCount = 0
    private(set) var title: String?
    private(set) var collapseDepth: Int?
    private(set) var attributes: [String: String] = [:]
    /// What was kept but is not as expected (an `order:` that is not a number).
    private(set) var warnings: [Diagnostic] = []

    init(_ lines: [Substring], file: String) throws {
        // Like pandoc: the opening line is exactly `---` and is not followed by a blank line.
        guard lines.count > 2, lines[0].trimmingTrailingSpaces == "---",
            !lines[1].trimmingTrailingSpaces.isEmpty,
            let close = lines.indices.dropFirst().first(where: {
                ["---", "..."].contains(lines[$0].trimmingTrailingSpaces)
            }),
            let pairs = Self.mapping(lines[1..<close])
        else { return }
        lineCount = close + 1
        for (key, value) in pairs { try store(key, value, file: file) }
    }

    /// The block's top-level keys (with their 1-based line) and value lines, or nil when
    /// it is not a mapping: a line that is neither a key, a continuation of one, a comment
    /// nor blank; or no key at all.
    private static func mapping(_ lines: ArraySlice<Substring>) -> [((name: String, line: Int), [Substring])]? {
        var pairs: [((name: String, line: Int), [Substring])] = []
        var emptyMapping = false
        for (index, line) in zip(lines.indices, lines) {
            if line.trimmingTrailingSpaces == "{}" && pairs.isEmpty && !emptyMapping {
                emptyMapping = true  // YAML's empty mapping, as the Markdown writer uses it
                continue
            }
            if emptyMapping && !line.hasPrefix("#") && !line.trimmingTrailingSpaces.isEmpty { return nil }
            let continues = line.first == " " || line.first == "\t" || line.first == "-" || line.trimmingTrailingSpaces.isEmpty
            if continues && !pairs.isEmpty {
                pairs[pairs.count - 1].1.append(line)  // part of a nested value
            } else if line.hasPrefix("#") || line.trimmingTrailingSpaces.isEmpty {
                continue  // a comment, or a blank line before the first key
            } else if let colon = keyEnd(line) {
                pairs.append(((String(line[..<colon]).trimmingTrailingSpaces, index + 1), [line[line.index(after: colon)...]]))
            } else {
                return nil
            }
        }
        return emptyMapping ? [] : pairs.isEmpty ? nil : pairs
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

    private mutating func store(_ key: (name: String, line: Int), _ value: [Substring], file: String) throws {
        // (Blank lines after a value belong to no value.)
        var value = value
        while value.count > 1, value.last?.trimmingTrailingSpaces.isEmpty == true { value.removeLast() }
        let first = value.first.map { String($0).trimmed } ?? ""
        let text =
            value.count <= 1
            ? Self.unquoted(first)
            : value.dropFirst().map(String.init).joined(separator: "\n")
        switch key.name {
        case "title":
            // An empty title (`title:` or `title: ""`) is no title, not an empty heading.
            let title = TitleText.normalized(text)
            self.title = title.isEmpty ? nil : title
        case "collapse-depth":
            guard let depth = Int(text), depth >= 0 else {
                throw ConversionError.invalid(
                    SourceLocation(file: file, line: key.line, column: key.name.count + 3),
                    "collapse-depth must be a whole number, 0 or more; found '\(Quote.snippet(text))'")
            }
            collapseDepth = depth
        case OutlinerMarkdownParser.markerKey:
            break  // (It says how the page reads, and is no attribute.)
        case "order":
            // (A docs site orders its pages by it: docs/sites.md.)
            attributes[key.name] = text
            if Double(text) == nil {
                warnings.append(
                    Diagnostic(
                        SourceLocation(file: file, line: key.line, column: key.name.count + 3),
                        "order must be a number (it places the page in a docs site's navigation); found '\(Quote.snippet(text))'"))
            }
        default:
            attributes[key.name] = text
        }
    }

    private static func unquoted(_ text: String) -> String {
        // By scalars, not characters: a quote or a backslash followed by a combining mark is
        // one character, and still a quote or a backslash (as the writer escapes them).
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 2, let quote = scalars.first, quote == "\"" || quote == "'", scalars.last == quote
        else { return text }
        let inner = scalars[1..<(scalars.count - 1)]
        var result = String.UnicodeScalarView()
        guard quote == "\"" else {
            result.append(contentsOf: inner)
            return String(result).replacing("''", with: "'")
        }
        // YAML's double-quoted escapes: `\\`, `\"`, `\n`, `\t`, `\r`; others stay as written.
        var escaping = false
        for scalar in inner {
            if escaping {
                switch scalar {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "\\", "\"": result.append(scalar)
                default: result.append(contentsOf: ["\\", scalar])
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.append(scalar)
            }
        }
        if escaping { result.append("\\") }
        return String(result)
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
