internal import CCmark

/// The parsed text by lines, and the cheap tests that let most documents skip an extension.
struct SourceLines {
    let bytes: ArraySlice<UInt8>
    private let starts: [Int]

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        var starts = [bytes.startIndex]
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while let found = buffer.firstIndex(ofByte: .lineFeed, from: offset) {
                offset = found + 1
                starts.append(bytes.startIndex + offset)
            }
        }
        self.starts = starts
    }

    /// The number of lines (the text after the last line break counts as one).
    var count: Int { starts.count }

    /// Line `number` (1-based) without its line break; empty past the end.
    func line(_ number: Int) -> ArraySlice<UInt8> {
        guard number >= 1, number <= starts.count else { return bytes[bytes.endIndex...] }
        let end = number < starts.count ? starts[number] - 1 : bytes.endIndex
        return bytes[starts[number - 1]..<max(end, starts[number - 1])]
    }

    /// Lines `first` through `last` (1-based), with the line breaks between them.
    func lines(_ first: Int, through last: Int) -> ArraySlice<UInt8> {
        let from = line(first).startIndex
        return bytes[from..<max(line(last).endIndex, from)]
    }

    /// The index just past the line holding `index` (its line break excluded).
    func lineEnd(containing index: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return line(low + 1).endIndex
    }

    /// Whether some line may be a table's delimiter row.
    var mayHoldTables: Bool {
        // (Only a line whose content starts with `|`, `:` or `-` can be one: the others are
        // passed over on the bytes.)
        bytes.withUnsafeBufferPointer { buffer in
            starts.indices.contains { index in
                var at = starts[index] - bytes.startIndex
                while at < buffer.count, buffer[at] == .space || buffer[at] == .tab || buffer[at] == UInt8(ascii: ">") { at += 1 }
                guard at < buffer.count, buffer[at] == UInt8(ascii: "|") || buffer[at] == UInt8(ascii: ":") || buffer[at] == UInt8(ascii: "-")
                else { return false }
                return hasDelimiterRow(in: (index + 1)...(index + 1))
            }
        }
    }

    /// The underline of the setext heading that starts on line `start` (cmark reports its
    /// end on the line after it): the first line of only `=` or only `-` after container
    /// markers; nil for an ATX heading.
    func setextUnderline(after start: Int, through end: Int) -> Int? {
        guard start < end else { return nil }
        for number in (start + 1)...end {
            var content = line(number)
            while let first = content.first, first == .space || first == .tab || first == UInt8(ascii: ">") {
                content = content.dropFirst()
            }
            while let last = content.last, last == .space || last == .tab { content = content.dropLast() }
            if let mark = content.first, mark == UInt8(ascii: "=") || mark == UInt8(ascii: "-"), content.allSatisfy({ $0 == mark }) {
                return number
            }
        }
        return nil
    }

    /// Whether a line in `lines` is a delimiter row once container markers are set aside,
    /// and one that can stand inside a paragraph: with a `|` or a `:` (a line of dashes
    /// alone underlines a setext heading).
    func hasDelimiterRow(in lines: ClosedRange<Int>) -> Bool {
        lines.contains { number in
            var content = line(number)
            while let first = content.first, first == .space || first == .tab || first == UInt8(ascii: ">") {
                content = content.dropFirst()
            }
            return TableSource.alignments(ofDelimiterRow: content) != nil
                && content.contains { $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: ":") }
        }
    }

    /// The source bytes of a node on one line, by its source position; nil if it has none.
    func slice(of node: OpaquePointer) -> ArraySlice<UInt8>? {
        let number = Int(cmark_node_get_start_line(node))
        guard number >= 1, number == Int(cmark_node_get_end_line(node)) else { return nil }
        let text = line(number)
        let start = text.startIndex + Int(cmark_node_get_start_column(node)) - 1
        let end = text.startIndex + Int(cmark_node_get_end_column(node))
        guard start >= text.startIndex, start < end, end <= text.endIndex else { return nil }
        return text[start..<end]
    }

    /// Whether the node is the first inline content of its line.
    func startsLine(_ node: OpaquePointer) -> Bool {
        if let previous = cmark_node_previous(node) {
            let type = cmark_node_get_type(previous)
            return type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK
        }
        guard let parent = cmark_node_parent(node) else { return true }
        switch cmark_node_get_type(parent) {
        case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING, CMARK_NODE_CUSTOM_INLINE: return true
        default: return false
        }
    }

    /// The character that ends just before `index` (a line break at the start of a line).
    func scalar(before index: Int, in all: ArraySlice<UInt8>) -> Unicode.Scalar {
        guard index > all.startIndex, all[index - 1] != .lineFeed else { return "\n" }
        var start = index - 1
        while start > all.startIndex, all[start] & 0xC0 == 0x80, index - start < 4 { start -= 1 }
        return Self.decode(all[start..<index]) ?? "a"
    }

    /// The character that starts at `index` (a line break at `lineEnd`).
    func scalar(at index: Int, in all: ArraySlice<UInt8>, lineEnd: Int) -> Unicode.Scalar {
        guard index < lineEnd else { return "\n" }
        var end = index + 1
        while end < lineEnd, all[end] & 0xC0 == 0x80, end - index < 4 { end += 1 }
        return Self.decode(all[index..<end]) ?? "a"
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> Unicode.Scalar? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }

    /// The lines that may define link references (`[label]: destination`, after container
    /// markers), with a following line that may hold the title: cells are parsed apart from
    /// the document, with these definitions.
    func referenceDefinitionLines() -> [ArraySlice<UInt8>] {
        guard bytes.contains(bytes: "]:") else { return [] }
        var found: [ArraySlice<UInt8>] = []
        for number in 1...starts.count {
            // (After block quote markers and list markers: `1. [x]: /url` defines `x`.)
            var content = line(number)
            while true {
                content = content.drop { $0 == .space || $0 == .tab || $0 == UInt8(ascii: ">") }
                let digits = content.prefix { $0.isASCIIDigit }.count
                let marker = content.dropFirst(digits).first
                let isMarker =
                    digits > 0
                    ? marker == UInt8(ascii: ".") || marker == UInt8(ascii: ")")
                    : marker == UInt8(ascii: "-") || marker == UInt8(ascii: "*") || marker == UInt8(ascii: "+")
                let after = content.dropFirst(digits + 1).first
                guard isMarker, after == .space || after == .tab else { break }
                content = content.dropFirst(digits + 1)
            }
            guard content.first == UInt8(ascii: "["), content.contains(bytes: "]:") else { continue }
            found.append(content)
            var next = line(number + 1)
            while let first = next.first, first == .space || first == .tab || first == UInt8(ascii: ">") { next = next.dropFirst() }
            if let first = next.first, first == .quote || first == UInt8(ascii: "'") || first == UInt8(ascii: "(") {
                found.append(next)
            }
            found.append([])
        }
        return found
    }
}
