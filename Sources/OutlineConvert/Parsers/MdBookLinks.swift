/// The notation of mdBook's includes (`MdBookIncludes`), read as mdBook's `links`
/// preprocessor reads it (its `find_links` expression and `take_lines` functions), by hand.
enum MdBookLinks {
    /// A `{{#…}}` found in a text: where it is and what it asks for.
    struct Link {
        var range: Range<Int>
        var kind: Kind
    }

    enum Kind: Equatable {
        /// `\{{#…}}`: the text without its backslash.
        case escaped
        /// `{{#title …}}`: the page's `<title>`.
        case title(String)
        /// `{{#include}}`, `{{#rustdoc_include}}` or `{{#playground}}` of a file.
        case file(path: String, use: FileUse)
    }

    enum FileUse: Equatable {
        case include(Selection)
        case rustdocInclude(Selection)
        case playground(attributes: [String])
    }

    /// Lines `start..<end` (0-based, either end open), or the lines of an anchor.
    enum Selection: Equatable {
        case lines(start: Int?, end: Int?)
        case anchor(String)
    }

    /// Every link of `text`, in order, as mdBook's expression finds them (one that names
    /// no known kind is skipped, and its text is no other's).
    static func all(in text: [UInt8]) -> [Link] {
        var links: [Link] = []
        var index = 0
        var search = Search()
        while index + 3 < text.count {
            guard text[index] == .backslash || text[index] == UInt8(ascii: "{"), text[index + 1] == UInt8(ascii: "{") else {
                index += 1
                continue
            }
            if let (end, kind) = escaped(text, at: index, &search) ?? link(text, at: index, &search) {
                if let kind { links.append(Link(range: index..<end, kind: kind)) }
                index = end
            } else {
                index += 1
            }
        }
        return links
    }

    /// What a scan of a text found ahead of where it is, kept so that each byte is looked at
    /// a bounded number of times (a text of many `{{#` and no `}` is not read again for each).
    private struct Search {
        /// The first `}` at or after the last place looked from (nil: none to the end).
        var brace: Int? = -1
        /// The end of the line last looked at, and the end of its last `}}`.
        var line: (end: Int, lastClose: Int?) = (-1, nil)
    }

    /// `\\\{\{\#.*\}\}`: from a backslash to the last `}}` of its line.
    private static func escaped(_ text: [UInt8], at index: Int, _ search: inout Search) -> (Int, Kind?)? {
        guard text[index] == .backslash, starts(text, at: index + 1, with: "{{#") else { return nil }
        if index >= search.line.end {
            var lineEnd = index + 4
            while lineEnd < text.count, text[lineEnd] != .lineFeed { lineEnd += 1 }
            var close: Int?
            var end = lineEnd
            while end >= index + 6 {
                if text[end - 1] == UInt8(ascii: "}"), text[end - 2] == UInt8(ascii: "}") {
                    close = end
                    break
                }
                end -= 1
            }
            search.line = (lineEnd, close)
        }
        guard let close = search.line.lastClose, close >= index + 6 else { return nil }
        return (close, .escaped)
    }

    /// `\{\{\s*\#([a-zA-Z0-9_]+)\s+([^}]+)\}\}`, and what it names (nil for no known kind).
    private static func link(_ text: [UInt8], at index: Int, _ search: inout Search) -> (Int, Kind?)? {
        guard starts(text, at: index, with: "{{") else { return nil }
        var at = index + 2
        while at < text.count, isSpace(text[at]) { at += 1 }
        guard at < text.count, text[at] == UInt8(ascii: "#") else { return nil }
        at += 1
        let typeStart = at
        while at < text.count, text[at].isASCIILetter || text[at].isASCIIDigit || text[at] == UInt8(ascii: "_") { at += 1 }
        guard at > typeStart, at < text.count, isSpace(text[at]) else { return nil }
        let type = String(decoding: text[typeStart..<at], as: UTF8.self)
        let restStart = at
        if let known = search.brace, known < restStart {
            search.brace = text[restStart...].firstIndex(of: UInt8(ascii: "}"))
        }
        guard let brace = search.brace, brace - restStart >= 2, brace + 1 < text.count,
            text[brace + 1] == UInt8(ascii: "}")
        else { return nil }
        let rest = String(decoding: text[restStart..<brace], as: UTF8.self)
        let words = rest.split(whereSeparator: \.isWhitespace).map(String.init)
        let end = brace + 2
        if type == "title" { return (end, .title(rest.trimmed)) }
        guard let file = words.first else { return nil }
        switch type {
        case "include", "rustdoc_include":
            let colon = file.firstIndex(of: ":")
            let path = String(file[..<(colon ?? file.endIndex)])
            let selection = selection(colon.map { String(file[file.index(after: $0)...]) } ?? "")
            return (end, .file(path: path, use: type == "include" ? .include(selection) : .rustdocInclude(selection)))
        case "playground", "playpen": return (end, .file(path: file, use: .playground(attributes: Array(words.dropFirst()))))
        default: return (end, nil)
        }
    }

    /// mdBook's `parse_range_or_anchor` of what follows the path's first `:`.
    static func selection(_ spec: String) -> Selection {
        let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        let first = parts[0]
        var start: Int?
        if let value = UInt(first) {
            start = Int(value > 0 ? value - 1 : 0)
        } else if !first.isEmpty {
            return .anchor(first)
        }
        let end: Int?? = parts.count > 1 ? .some(UInt(parts[1]).map { Int($0) }) : nil
        switch (start, end) {
        case (let start?, let end??): return .lines(start: start, end: end)
        case (let start?, .some(nil)): return .lines(start: start, end: nil)
        case (let start?, nil): return .lines(start: start, end: start + 1)
        case (nil, let end??): return .lines(start: nil, end: end)
        default: return .lines(start: nil, end: nil)
        }
    }

    /// What `use` takes of the file `bytes` (`file` as written): its text, and where each
    /// of its lines comes from (the include's own `origin` for lines mdBook adds).
    static func select(_ use: FileUse, of bytes: [UInt8], origin: ExpandedSource.Origin, file: String) -> (
        text: [UInt8], origins: [ExpandedSource.Origin]
    ) {
        let lines = rustLines(of: bytes)
        func from(_ index: Int) -> ExpandedSource.Origin { .init(file: file, line: index + 1, indent: 0) }
        var kept: [(bytes: ArraySlice<UInt8>, origin: ExpandedSource.Origin)] = []
        switch use {
        case .include(.lines(let start, let end)):
            let first = min(start ?? 0, lines.count)
            let last = max(min(end ?? lines.count, lines.count), first)
            kept = (first..<last).map { (lines[$0], from($0)) }
        case .include(.anchor(let name)):
            var inside = false
            for (index, line) in lines.enumerated() {
                if inside {
                    if let end = anchor("ANCHOR_END:", in: line) {
                        if end == name { break }
                    } else if anchor("ANCHOR:", in: line) == nil {
                        kept.append((line, from(index)))
                    }
                } else if anchor("ANCHOR:", in: line) == name {
                    inside = true
                }
            }
        case .rustdocInclude(.lines(let start, let end)):
            kept = lines.enumerated().map { index, line in
                let shown = index >= (start ?? 0) && end.map { index < $0 } ?? true
                return (shown ? line : hidden(line), from(index))
            }
        case .rustdocInclude(.anchor(let name)):
            var inside = false
            for (index, line) in lines.enumerated() {
                if inside {
                    if let end = anchor("ANCHOR_END:", in: line) {
                        if end == name { inside = false }
                    } else if anchor("ANCHOR:", in: line) == nil {
                        kept.append((line, from(index)))
                    }
                } else if let start = anchor("ANCHOR:", in: line) {
                    if start == name { inside = true }
                } else if anchor("ANCHOR_END:", in: line) == nil {
                    kept.append((hidden(line), from(index)))
                }
            }
        case .playground(let attributes):
            var text =
                Array("```rust".utf8) + (attributes.isEmpty ? [] : [UInt8(ascii: ",")] + Array(attributes.joined(separator: ",").utf8)) + [.lineFeed]
            text += bytes
            if bytes.last != .lineFeed { text.append(.lineFeed) }
            text += Array("```\n".utf8)
            let count = bytes.filter { $0 == .lineFeed }.count + (bytes.last == .lineFeed ? 0 : 1)
            return (text, [origin] + (0..<count).map(from) + [origin, origin])
        }
        guard !kept.isEmpty else { return ([], [origin]) }
        var text: [UInt8] = []
        for (index, line) in kept.enumerated() {
            if index > 0 { text.append(.lineFeed) }
            text += line.bytes
        }
        return (text, kept.map(\.origin))
    }

    /// A line hidden as mdBook hides a Rust line: `# ` before it.
    private static func hidden(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> { ArraySlice(Array("# ".utf8) + line) }

    /// The name of the first `marker` (`ANCHOR:` or `ANCHOR_END:`) in `line` that names one:
    /// `marker\s*([\w_-]+)`.
    private static func anchor(_ marker: String, in line: ArraySlice<UInt8>) -> String? {
        let marker = Array(marker.utf8)
        var from = line.startIndex
        while let offset = line.withUnsafeBufferPointer({ $0.firstIndex(of: marker, from: from - line.startIndex) }) {
            let found = (line.startIndex + offset)..<(line.startIndex + offset + marker.count)
            var at = found.upperBound
            while at < line.endIndex, isSpace(line[at]) { at += 1 }
            let start = at
            while at < line.endIndex,
                line[at].isASCIILetter || line[at].isASCIIDigit || line[at] >= 0x80 || line[at] == UInt8(ascii: "_")
                    || line[at] == UInt8(ascii: "-")
            {
                at += 1
            }
            if at > start { return String(decoding: line[start..<at], as: UTF8.self) }
            from = found.upperBound
        }
        return nil
    }

    /// Rust's `str::lines`: split at `\n` (a `\r` before it taken off), no last empty line.
    static func rustLines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines = bytes.split(separator: .lineFeed, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.enumerated().map { index, line in
            index < lines.count - 1 || bytes.last == .lineFeed ? (line.last == .carriageReturn ? line.dropLast() : line) : line
        }
    }

    /// `lines` (a text's, split at `\n`) as `str::lines` gives them.
    static func rustLines(_ lines: [ExpandedSource.Line]) -> [ExpandedSource.Line] {
        var lines = lines
        let endsWithLineFeed = lines.count > 1 && lines.last?.bytes.isEmpty == true
        if lines.last?.bytes.isEmpty == true { lines.removeLast() }
        for index in lines.indices where (index < lines.count - 1 || endsWithLineFeed) && lines[index].bytes.last == .carriageReturn {
            lines[index].bytes.removeLast()
        }
        return lines
    }

    private static func starts(_ text: [UInt8], at index: Int, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        return index + count <= text.count && UnsafeBufferPointer(start: prefix.utf8Start, count: count).elementsEqual(text[index..<(index + count)])
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == .space || (0x09...0x0D).contains(byte) }
}
