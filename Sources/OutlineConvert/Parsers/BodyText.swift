/// Body text that comes from XML values (plist strings, XML section text): made into a
/// CommonMark slice like a Markdown body, so that indentation from pretty-printed XML does
/// not turn prose into a code block.
enum BodyText {
    /// LF line endings, the indentation common to all non-blank lines removed, and no
    /// leading or trailing blank lines; "" when only white space.
    static func normalized(_ text: String) -> String {
        let lines = SourceText.normalizingLineEndings(text).split(separator: "\n", omittingEmptySubsequences: false)
        let content = lines.filter { !$0.trimmed.isEmpty }
        guard !content.isEmpty else { return "" }
        let indent = content.map { $0.prefix { $0 == " " || $0 == "\t" }.count }.min() ?? 0
        guard let first = lines.firstIndex(where: { !$0.trimmed.isEmpty }),
              let last = lines.lastIndex(where: { !$0.trimmed.isEmpty })
        else { return "" }
        return lines[first...last]
            .map { $0.trimmed.isEmpty ? "" : String($0.dropFirst(indent)) }
            .joined(separator: "\n")
    }
}
