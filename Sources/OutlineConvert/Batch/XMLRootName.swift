#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The name of an XML file's root element, read from its first few kilobytes (`Files.head`)
/// without parsing it: enough to tell an outline from a pom.xml or an SVG.
enum XMLRootName {
    /// The root's name in the first bytes of a file, if they start like XML (after white
    /// space and a byte-order mark).
    static func of(_ head: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: head, as: UTF8.self)
        guard text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).hasPrefix("<") else { return nil }
        return of(text)
    }

    /// Skips the XML declaration, comments, processing instructions and the doctype.
    static func of(_ text: String) -> String? {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            if rest.hasPrefix("?") {
                guard let end = rest.firstRange(of: "?>") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("!--") {
                guard let end = rest.firstRange(of: "-->") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("!") {
                // A doctype, possibly with an internal subset in brackets.
                var depth = 0
                guard
                    let end = rest.firstIndex(where: { character in
                        if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
                        return character == ">" && depth == 0
                    })
                else { return nil }
                rest = rest[rest.index(after: end)...]
            } else {
                let name = rest.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
                return name.isEmpty ? nil : String(name.split(separator: ":").last ?? name)
            }
        }
        return nil
    }
}
