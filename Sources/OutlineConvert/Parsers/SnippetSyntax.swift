/// The notation of pymdownx snippets (`SnippetIncludes`), read as pymdown-extensions'
/// regular expressions read it, by hand and in linear time: snippet lines (`--8<-- "file"`,
/// a `--8<--` block of paths), section markers (`--8<-- [start:name]`) and the path's line
/// ranges or section (`file.md:3:8,12:`, `file.md:name`).
enum SnippetSyntax {
    /// A snippet line (`RE_ALL_SNIPPETS`): its indentation, whether it is escaped (`;--8<--`),
    /// and the quoted path of a one-line snippet (nil for a block's `--8<--`), with its
    /// 1-based column.
    struct Marker {
        var indent: [UInt8]
        var isEscaped: Bool
        var path: (text: String, column: Int)?
    }

    /// The snippet line `line` is, if it is one.
    static func marker(in line: [UInt8]) -> Marker? {
        var end = line.count
        if end > 0, line[end - 1] == .carriageReturn { end -= 1 }
        var index = 0
        while index < end, line[index] == .space || line[index] == .tab { index += 1 }
        let indentEnd = index
        while index < end, line[index] == UInt8(ascii: ";") { index += 1 }
        let isEscaped = index > indentEnd
        guard let afterMarker = scissors(line, from: index, end: end) else { return nil }
        let indent = Array(line[..<indentEnd])
        if afterMarker == end { return Marker(indent: indent, isEscaped: isEscaped, path: nil) }
        guard line[afterMarker] == .space || line[afterMarker] == .tab else { return nil }
        var start = afterMarker
        while start < end, line[start] == .space || line[start] == .tab { start += 1 }
        // A quoted path to the end of the line; a quote inside it follows a backslash.
        guard start < end, line[start] == UInt8(ascii: "\"") || line[start] == UInt8(ascii: "'"), end - start >= 3, line[end - 1] == line[start]
        else { return nil }
        let quote = line[start]
        var at = start + 1
        while at < end - 1 {
            if line[at] == UInt8(ascii: "\\"), line[at + 1] == quote, at + 1 < end - 1 {
                at += 2
            } else if line[at] == quote || line[at] == .carriageReturn {
                return nil
            } else {
                at += 1
            }
        }
        let text = stripped(String(decoding: line[(start + 1)..<(end - 1)], as: UTF8.self))
        return Marker(indent: indent, isEscaped: isEscaped, path: (text, start + 2))
    }

    /// Where `-+8<-+` starting at `index` ends, if it is there.
    private static func scissors(_ line: [UInt8], from index: Int, end: Int) -> Int? {
        var at = index
        while at < end, line[at] == UInt8(ascii: "-") { at += 1 }
        guard at > index, at + 1 < end, line[at] == UInt8(ascii: "8"), line[at + 1] == UInt8(ascii: "<") else { return nil }
        let dashes = at + 2
        at = dashes
        while at < end, line[at] == UInt8(ascii: "-") { at += 1 }
        return at > dashes ? at : nil
    }

    /// A line of a `--8<--` block (`RE_SNIPPET`): its indentation and its path, trimmed,
    /// with the path's 1-based column.
    static func blockPath(_ line: [UInt8]) -> (indent: [UInt8], path: String, column: Int) {
        var index = 0
        while index < line.count, line[index] == .space || line[index] == .tab { index += 1 }
        var end = line.count
        if end > index, line[end - 1] == .carriageReturn { end -= 1 }
        return (Array(line[..<index]), stripped(String(decoding: line[index..<end], as: UTF8.self)), index + 1)
    }

    /// Whether `line` holds `8<`, without which it is no snippet line nor section marker.
    static func holdsScissors(_ line: [UInt8]) -> Bool {
        line.withUnsafeBufferPointer { $0.firstIndex(of: scissorsBytes) != nil }
    }

    private static let scissorsBytes = Array("8<".utf8)

    /// `line` without its first `;` (an escaped snippet line, as written).
    static func removingFirstSemicolon(_ line: [UInt8]) -> [UInt8] {
        guard let semicolon = line.firstIndex(of: UInt8(ascii: ";")) else { return line }
        var line = line
        line.remove(at: semicolon)
        return line
    }

    /// A section marker (`RE_SNIPPET_SECTION`, `--8<-- [start:name]` anywhere in a line):
    /// whether it starts or ends (as written: pymdownx compares it with `start` and `end`
    /// exactly), its name, and the line with its first escaping `;` taken out when it is
    /// escaped.
    struct SectionMarker {
        var type: String
        var name: String
        var unescaped: [UInt8]?
    }

    /// The first section marker in `line`, if there is one.
    static func sectionMarker(in line: [UInt8]) -> SectionMarker? {
        guard holdsScissors(line) else { return nil }
        for start in line.indices where line[start] == UInt8(ascii: ";") || line[start] == UInt8(ascii: "-") {
            // (Not inside a run of `;`, nor of `-`: the marker would have taken them.)
            if start > 0, line[start - 1] == UInt8(ascii: ";") || (line[start - 1] == UInt8(ascii: "-") && line[start] == UInt8(ascii: "-")) {
                continue
            }
            if let marker = sectionMarker(in: line, at: start) { return marker }
        }
        return nil
    }

    private static func sectionMarker(in line: [UInt8], at start: Int) -> SectionMarker? {
        let end = line.count
        var at = start
        while at < end, line[at] == UInt8(ascii: ";") { at += 1 }
        let escapes = at - start
        guard var index = scissors(line, from: at, end: end), index < end, line[index] == .space || line[index] == .tab else { return nil }
        func blanks() { while index < end, line[index] == .space || line[index] == .tab { index += 1 } }
        blanks()
        guard index < end, line[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        blanks()
        let typeStart = index
        while index < end, line[index].isASCIILetter { index += 1 }
        let type = String(decoding: line[typeStart..<index], as: UTF8.self)
        guard ["start", "end"].contains(type.lowercased()) else { return nil }
        blanks()
        guard index < end, line[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        blanks()
        let nameStart = index
        guard index < end, line[index].isASCIILetter else { return nil }
        while index < end, isSectionCharacter(line[index]) { index += 1 }
        let name = String(decoding: line[nameStart..<index], as: UTF8.self)
        blanks()
        guard index < end, line[index] == UInt8(ascii: "]") else { return nil }
        var unescaped: [UInt8]?
        if escapes > 0 {
            var bytes = line
            bytes.remove(at: start)
            unescaped = bytes
        }
        return SectionMarker(type: type, name: name, unescaped: unescaped)
    }

    private static func isSectionCharacter(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// What a snippet line names (`parse_snippet_target`): a path, then line ranges
    /// (`:start:end` pairs, 0-based starts as pymdownx keeps them) or a section.
    struct Target {
        var path: String
        var ranges: [(start: Int?, end: Int?)] = []
        var section: String?

        /// The target `spec` names; nil when it names no path.
        init?(_ spec: String) {
            let (path, ranges, section) = SnippetSyntax.split(Array(spec.utf8))
            self.path = SnippetSyntax.stripped(String(decoding: path, as: UTF8.self))
            guard !self.path.isEmpty else { return nil }
            if let ranges {
                for item in ranges.dropFirst().split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                    let span = item.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
                    let start = span.first.flatMap { Int(String(decoding: $0, as: UTF8.self)) }
                    let end = span.count > 1 ? Int(String(decoding: span[1], as: UTF8.self)) : nil
                    self.ranges.append((start.map { $0 < 0 ? $0 : max(0, $0 - 1) }, end))
                }
            } else if let section {
                self.section = String(decoding: section.dropFirst(), as: UTF8.self)
            }
        }
    }

    /// pymdownx's `split_path`: the path, then its line ranges or section (each starting at
    /// its `:`), found in one pass from the end.
    static func split(_ path: [UInt8]) -> (path: ArraySlice<UInt8>, ranges: ArraySlice<UInt8>?, section: ArraySlice<UInt8>?) {
        guard var colon = path.firstIndex(of: UInt8(ascii: ":")) else { return (path[...], nil, nil) }
        let size = path.count
        // (Where the run of digits from each index ends.)
        var digits = [Int](repeating: size, count: size + 1)
        for index in stride(from: size - 1, through: 0, by: -1) { digits[index] = path[index].isASCIIDigit ? digits[index + 1] : index }
        func numberEnd(_ index: Int) -> Int { index < size && path[index] == UInt8(ascii: "-") ? digits[index + 1] : digits[index] }
        // (Whether everything from each index is a series of `,N` or `,N:N`.)
        var tail = [Bool](repeating: false, count: size + 1)
        tail[size] = true
        for index in stride(from: size - 1, through: 0, by: -1) where path[index] == UInt8(ascii: ",") && index + 1 < size {
            guard path[index + 1].isASCIIDigit || path[index + 1] == UInt8(ascii: "-") || path[index + 1] == UInt8(ascii: ":") else { continue }
            var end = numberEnd(index + 1)
            if end < size, path[end] == UInt8(ascii: ":") { end = numberEnd(end + 1) }
            tail[index] = tail[end]
        }
        var name = size
        while name > 0, isSectionCharacter(path[name - 1]) { name -= 1 }
        while true {
            var end = numberEnd(colon + 1)
            if end < size, path[end] == UInt8(ascii: ":") { end = numberEnd(end + 1) }
            if tail[end] { return (path[..<colon], path[colon...], nil) }
            if name <= colon + 1, colon + 1 < size, path[colon + 1].isASCIILetter { return (path[..<colon], nil, path[colon...]) }
            guard let next = path[(colon + 1)...].firstIndex(of: UInt8(ascii: ":")) else { return (path[...], nil, nil) }
            colon = next
        }
    }

    /// The indices of `count` lines that `ranges` select, in order (`extract_lines`).
    static func select(_ ranges: [(start: Int?, end: Int?)], count total: Int) -> [Int] {
        var selected: [Int] = []
        for (start, end) in ranges {
            let from = start.map { $0 < 0 ? min(max(total + $0, 0), total) : $0 } ?? 0
            let to = end.map { $0 < 0 ? min(max(total + 1 + $0, 0), total) : $0 } ?? total
            let (a, b) = (min(from, total), min(to, total))
            if a < b { selected += a..<b }
        }
        return selected
    }

    /// The section `name` of `lines` (`extract_section`): the indices of its lines and the
    /// lines as they read there (an escaped marker unescaped); nil when it has no start.
    static func section(_ name: String, of lines: [[UInt8]]) -> [(index: Int, bytes: [UInt8])]? {
        var selected: [(index: Int, bytes: [UInt8])] = []
        var inside = false
        var found = false
        for (index, line) in lines.enumerated() {
            var line = line
            if let marker = sectionMarker(in: line) {
                if let unescaped = marker.unescaped {
                    line = unescaped
                } else if marker.name == name {
                    // (A second start is ignored; an end, or a start in another case, stops.)
                    guard marker.type == "start" else { break }
                    found = true
                    inside = true
                    continue
                } else if inside {
                    continue
                }
            }
            if inside { selected.append((index, line)) }
        }
        return found ? selected : nil
    }

    /// `textwrap.dedent`: blank lines emptied, and the indentation all others share taken off.
    static func dedented(_ lines: [[UInt8]]) -> [[UInt8]] {
        func indent(_ line: [UInt8]) -> ArraySlice<UInt8> { line.prefix { $0 == .space || $0 == .tab } }
        let lines = lines.map { indent($0).count == $0.count ? [] : $0 }
        var margin: ArraySlice<UInt8>?
        for line in lines where !line.isEmpty {
            let own = indent(line)
            guard let shared = margin else {
                margin = own
                continue
            }
            margin = shared.prefix(zip(shared, own).prefix { $0.0 == $0.1 }.count)
        }
        guard let count = margin?.count, count > 0 else { return lines }
        return lines.map { $0.isEmpty ? $0 : Array($0.dropFirst(count)) }
    }

    /// A snippet file's lines, as Python reads a text file: `\r\n` and `\r` end lines too;
    /// a final line ending leaves an empty last line, and an empty file has none.
    static func lines(of bytes: [UInt8]) -> [[UInt8]] {
        guard !bytes.isEmpty else { return [] }
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .lineFeed || byte == .carriageReturn {
                lines.append(line)
                line.removeAll(keepingCapacity: true)
                if byte == .carriageReturn, index + 1 < bytes.count, bytes[index + 1] == .lineFeed { index += 1 }
            } else {
                line.append(byte)
            }
            index += 1
        }
        lines.append(line)
        return lines
    }

    /// Leading white space as `str.expandtabs(4)` writes it: spaces to the next stop.
    static func expandingTabs(_ indent: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for byte in indent {
            if byte == .tab {
                out += [UInt8](repeating: .space, count: 4 - out.count % 4)
            } else {
                out.append(byte)
            }
        }
        return out
    }

    /// `text` without the white space around it (`str.strip`).
    static func stripped(_ text: String) -> String {
        // (Most paths start and end with a visible ASCII character: nothing to strip.)
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) { return text }
        return String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
