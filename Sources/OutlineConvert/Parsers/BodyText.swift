/// Body text that comes from values of other formats (plist strings, XML and OPML text,
/// JSON strings), made into a CommonMark slice like a Markdown body.
enum BodyText {
    /// LF line endings and no leading or trailing blank lines; "" when only white space.
    /// Text that starts on a new line (`<detail>` then an indented block, as pretty-printed
    /// XML has it) also loses the indentation common to its lines, so that it does not
    /// become a code block; text that starts at once is kept exactly, indentation and all.
    static func normalized(_ text: String) -> String {
        let lines = SourceText.normalizingLineEndings(text).split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { !isBlank($0) }),
              let last = lines.lastIndex(where: { !isBlank($0) })
        else { return "" }
        if first == lines.startIndex {
            return lines[first...last].joined(separator: "\n")
        }
        let indent = lines[first...last].filter { !isBlank($0) }.map { $0.prefix { $0 == " " || $0 == "\t" }.count }.min() ?? 0
        return lines[first...last]
            .map { isBlank($0) ? "" : String($0.dropFirst(indent)) }
            .joined(separator: "\n")
    }

    private static func isBlank(_ line: Substring) -> Bool {
        line.utf8.allSatisfy { $0 == 32 || $0 == 9 }
    }
}

/// A title from any format: plain text on one line, without white space at either end
/// and with each run of white space (line breaks included) made one space, as Markdown
/// headings read. "" when there is nothing but white space.
enum TitleText {
    static func normalized(_ text: String) -> String {
        let plain = !text.utf8.contains { $0 == 9 || $0 == 10 || $0 == 13 }
            && text.utf8.first != 32 && text.utf8.last != 32 && !text.contains("  ")
        return plain ? text : text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).joined(separator: " ")
    }
}
