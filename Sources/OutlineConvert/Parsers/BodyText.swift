#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Body text that comes from values of other formats (plist strings, XML and OPML text,
/// JSON strings), made into a CommonMark slice like a Markdown body.
enum BodyText {
    /// LF line endings and no leading or trailing blank lines; "" when only white space.
    /// Text that starts on a new line (`<detail>` then an indented block, as pretty-printed
    /// XML has it) also loses the indentation common to its lines, so that it does not
    /// become a code block; text that starts at once is kept exactly, indentation and all.
    static func normalized(_ text: String) -> String {
        if isNormal(text) { return text }
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

    /// Already normal (most text): no CR, and neither the first nor the last line blank.
    private static func isNormal(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return true }
            guard bytes.firstIndex(ofByte: .carriageReturn) == nil else { return false }
            var first = 0
            while first < bytes.count && bytes[first] != .lineFeed && (bytes[first] == .space || bytes[first] == .tab) { first += 1 }
            var last = bytes.count - 1
            while last >= 0 && bytes[last] != .lineFeed && (bytes[last] == .space || bytes[last] == .tab) { last -= 1 }
            // Neither run of blanks reached the end of its line (or of the text).
            return first < bytes.count && bytes[first] != .lineFeed && last >= 0 && bytes[last] != .lineFeed
        }
    }

    private static func isBlank(_ line: Substring) -> Bool {
        line.utf8.allSatisfy { $0 == .space || $0 == .tab }
    }
}

/// A title from any format: plain text on one line, without white space at either end
/// and with each run of white space (line breaks included) made one space, as Markdown
/// headings read. White space is cmark's: space, tab, LF, CR, and the vertical tab and form
/// feed, which cmark also strips from a heading's ends (so a title that kept them would not
/// read back the same from Markdown). "" when there is nothing but white space.
enum TitleText {
    static func normalized(_ text: String) -> String {
        var text = text
        let (plain, previous) = text.withUTF8 { bytes in
            var previous: UInt8 = 32
            for byte in bytes {
                if (byte >= 9 && byte <= 13) || (byte == .space && previous == .space) { return (false, previous) }
                previous = byte
            }
            return (true, previous)
        }
        if plain && previous != .space { return text }
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(text.utf8.count)
        var space = false
        for byte in text.utf8 {
            if byte == .space || (byte >= 9 && byte <= 13) {
                space = !collapsed.isEmpty
            } else {
                if space { collapsed.append(.space) }
                space = false
                collapsed.append(byte)
            }
        }
        return String(decoding: collapsed, as: UTF8.self)
    }
}
