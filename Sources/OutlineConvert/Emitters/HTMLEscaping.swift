extension String {
    /// The text with `&`, `<`, `>`, `"` and `'` escaped, safe in HTML text and attribute values.
    var htmlEscaped: String {
        guard utf8.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 34 || $0 == 39 }) else { return self }
        var escaped = ""
        escaped.reserveCapacity(utf8.count + 16)
        for character in unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
