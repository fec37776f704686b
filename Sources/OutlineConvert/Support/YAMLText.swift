/// YAML that reads back as the text or the value it was made from: by libyaml, PyYAML
/// and pandoc alike (the front matter the Markdown writers write, a nested front-matter
/// value as one line).
enum YAMLText {
    /// `text` as a plain scalar when it is a plain word (letters, digits, `-`, `_`, `.`,
    /// `/`), else double-quoted.
    static func scalar(_ text: String) -> String {
        let plain =
            text.unicodeScalars.first.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) } == true
            && text.unicodeScalars.allSatisfy {
                $0.isASCII ? ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./".unicodeScalars.contains($0)) : !needsEscape($0)
            }
        return plain ? text : quoted(text)
    }

    /// `"text"` in YAML's double-quoted style: `\`, `"`, line breaks, tabs and the characters
    /// YAML does not allow as they are (controls, U+0085, U+2028, U+2029, U+FEFF, U+FFFE,
    /// U+FFFF) escaped. By scalars, not characters: `"` followed by a combining mark is one
    /// character, and still a quote.
    static func quoted(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        result.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
            case "\"": result.append(contentsOf: "\\\"".unicodeScalars)
            case "\n": result.append(contentsOf: "\\n".unicodeScalars)
            case "\r": result.append(contentsOf: "\\r".unicodeScalars)
            case "\t": result.append(contentsOf: "\\t".unicodeScalars)
            case _ where needsEscape(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
            default: result.append(scalar)
            }
        }
        result.append("\"")
        return String(result)
    }

    /// A node in flow style on one line (`[a, "b c"]`, `{x: 1}`): its scalars as `scalar`
    /// writes them, its tags left out.
    static func flow(_ node: YAMLNode) -> String {
        switch node.kind {
        case .scalar(let text, _): scalar(text)
        case .sequence(let items): "[" + items.map(flow).joined(separator: ", ") + "]"
        case .mapping(let entries): "{" + entries.map { flow($0.key) + ": " + flow($0.value) }.joined(separator: ", ") + "}"
        }
    }

    /// A character YAML reads only escaped: outside its printable set, or a line break.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...: false
        default: true
        }
    }
}
