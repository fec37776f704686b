/// A YAML front matter block at the very top of a Markdown file (`---` … `---` or `...`).
/// Only top-level `key: value` pairs are read; a nested value is kept as its raw text.
struct FrontMatter {
    /// How many lines the block takes, delimiters included (0 when there is none).
    private(set) var lineCount = 0
    private(set) var title: String?
    private(set) var collapseDepth: Int?
    private(set) var attributes: [String: String] = [:]

    init(_ lines: [Substring], file: String) throws {
        // Like pandoc: the opening line is exactly `---` and is not followed by a blank line.
        guard lines.count > 2, lines[0].trimmingTrailingSpaces == "---",
              !lines[1].trimmingTrailingSpaces.isEmpty,
              let close = lines.indices.dropFirst().first(where: {
                  ["---", "..."].contains(lines[$0].trimmingTrailingSpaces)
              })
        else { return }
        lineCount = close + 1
        var key: (name: String, line: Int)?
        var value: [Substring] = []
        for index in 1..<close {
            let line = lines[index]
            if line.first == " " || line.first == "\t" || line.first == "-" || key != nil && line.isEmpty {
                value.append(line)  // continuation of a nested value
                continue
            }
            if let key { try store(key, value, file: file) }
            guard let colon = line.firstIndex(of: ":") else {
                if line.hasPrefix("#") { key = nil; value = []; continue }  // a YAML comment
                throw ConversionError.malformed(
                    SourceLocation(file: file, line: index + 1, column: 1),
                    "front matter line is not `key: value`")
            }
            key = (String(line[..<colon]).trimmingTrailingSpaces, index + 1)
            value = [line[line.index(after: colon)...]]
        }
        if let key { try store(key, value, file: file) }
    }

    private mutating func store(_ key: (name: String, line: Int), _ value: [Substring], file: String) throws {
        let first = value.first.map { String($0).trimmed } ?? ""
        let text = value.count <= 1
            ? Self.unquoted(first)
            : value.dropFirst().map(String.init).joined(separator: "\n")
        switch key.name {
        case "title":
            // An empty title (`title:` or `title: ""`) is no title, not an empty heading.
            title = text.trimmed.isEmpty ? nil : text
        case "collapse-depth":
            guard let depth = Int(text), depth >= 0 else {
                throw ConversionError.invalid(
                    SourceLocation(file: file, line: key.line, column: key.name.count + 3),
                    "collapse-depth must be a whole number, 0 or more; found '\(Quote.snippet(text))'")
            }
            collapseDepth = depth
        default:
            attributes[key.name] = text
        }
    }

    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let quote = text.first, quote == "\"" || quote == "'", text.last == quote
        else { return text }
        let inner = String(text.dropFirst().dropLast())
        return quote == "'"
            ? inner.replacingOccurrences(of: "''", with: "'")
            : inner.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
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
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
