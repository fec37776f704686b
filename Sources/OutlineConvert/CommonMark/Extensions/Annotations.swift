internal import CCmark

/// mkdocs-material's annotations, read as its script reads them (`mountAnnotationList`,
/// mkdocs-material 9): a code block, or a paragraph given the class `.annotate` by an
/// attribute list, followed by an ordered list holds markers `(1)`, `(2)`, … each standing
/// for that item of the list. A marker whose number the list has no item for stays text.
/// In code, markers are read in comments: one followed by `!` (`# (1)!`) takes its whole
/// comment's place, one without keeps the comment around it.
///
/// mkdocs-material moves each item into a tooltip; here, with no script needed, a marker is
/// a numbered bubble (`<span class="outline-annotation">1</span>`) and the list stays under
/// the block, numbered alike (as mkdocs-material prints it). Which text of code is a
/// comment is told by the last opening mark before the marker (`#` or `//` after a blank,
/// `/*`, `<!--`, `{#`, ` -- `, a line's first `;`), not by a lexer: a marker with none
/// before it stays text.
enum Annotations {
    /// The number of items of the ordered list after `code` (a code block); 0 when none
    /// follows, or when the code holds no marker at all.
    static func count(for code: OpaquePointer) -> Int {
        mayHoldMarker(CommonMarkDocument.literalBytes(code)[...]) ? items(after: code) : 0
    }

    /// The number of items of the ordered list after `node`; 0 when none follows. As
    /// mkdocs-material finds the list, paragraphs of text alone (no element: code, emphasis,
    /// a link) may stand between.
    static func items(after node: OpaquePointer) -> Int {
        var next = cmark_node_next(node)
        while let paragraph = next, cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH, isTextAlone(paragraph) {
            next = cmark_node_next(paragraph)
        }
        guard let list = next, cmark_node_get_type(list) == CMARK_NODE_LIST, cmark_node_get_list_type(list) == CMARK_ORDERED_LIST
        else { return 0 }
        var items = 0
        var item = cmark_node_first_child(list)
        while let current = item {
            items += 1
            item = cmark_node_next(current)
        }
        return items
    }

    /// Each marker in the text of `paragraph` (not in its code) numbered up to `count`,
    /// made a bubble by `make`, given the marker's text node (`(N)` alone) and its number.
    static func markText(of paragraph: OpaquePointer, count: Int, tree: MarkdownTree, make: (OpaquePointer, Int) -> Void) {
        var found: [(node: OpaquePointer, markers: [(range: Range<Int>, number: Int)])] = []
        MarkdownTree.walk(under: paragraph) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_TEXT else { return }
            let literal = CommonMarkDocument.literalBytes(node)
            var markers: [(range: Range<Int>, number: Int)] = []
            var at = 0
            while let (range, number, forced) = nextMarker(in: literal, from: at) {
                at = range.upperBound
                if number <= count { markers.append((forced ? range.lowerBound..<(range.upperBound - 1) : range, number)) }
            }
            if !markers.isEmpty { found.append((node, markers)) }
        }
        for (node, markers) in found {
            for (index, piece) in tree.split(node, at: markers.map { ($0.range.lowerBound, $0.range.count) }) {
                make(piece, markers[index].number)
            }
        }
    }

    /// The HTML of marker `number`.
    static func bubble(_ number: Int) -> [UInt8] {
        Array("<span class=\"outline-annotation\">\(number)</span>".utf8)
    }

    /// Whether `paragraph` holds text and soft line breaks only.
    private static func isTextAlone(_ paragraph: OpaquePointer) -> Bool {
        var child = cmark_node_first_child(paragraph)
        while let current = child {
            let type = cmark_node_get_type(current)
            guard type == CMARK_NODE_TEXT || type == CMARK_NODE_SOFTBREAK else { return false }
            child = cmark_node_next(current)
        }
        return true
    }

    /// One line of the block's escaped HTML (`&lt;` for `<`), its markers numbered bubbles.
    static func markingUp(_ line: [UInt8], count: Int) -> [UInt8] {
        var output: [UInt8] = []
        var at = 0
        var copied = 0
        // The last opening mark before `at` (the line is read once, however many markers).
        var comment: Int?
        var scanned = 0
        let indent = line.prefix { $0 == .space || $0 == .tab }.count
        while let (marker, number, forced) = nextMarker(in: line, from: at) {
            while scanned < marker.lowerBound {
                if opensComment(line, at: scanned, indent: indent) { comment = scanned }
                scanned += 1
            }
            at = marker.upperBound
            guard number <= count, let comment else { continue }
            if forced {
                // The whole comment becomes the marker: its opening mark through its end.
                output += line[copied..<max(comment, copied)]
                output += bubble(number)
                output += line[commentEnd(in: line, opening: comment, after: marker.upperBound)...]
                return output
            }
            output += line[copied..<marker.lowerBound]
            output += bubble(number)
            copied = marker.upperBound
        }
        guard copied > 0 else { return line }
        output += line[copied...]
        return output
    }

    /// Whether `code` holds `(` digits `)` anywhere: a cheap test before any list is counted.
    private static func mayHoldMarker(_ code: ArraySlice<UInt8>) -> Bool {
        var at = code.startIndex
        while let open = code[at...].firstIndex(of: UInt8(ascii: "(")) {
            let digits = code[(open + 1)...].prefix(while: \.isASCIIDigit)
            if !digits.isEmpty, digits.endIndex < code.endIndex, code[digits.endIndex] == UInt8(ascii: ")") { return true }
            at = open + 1
        }
        return false
    }

    /// The next `(N)` (N from 1) at or after `from`, whether `!` follows it (then the
    /// range takes it in).
    private static func nextMarker(in line: [UInt8], from: Int) -> (range: Range<Int>, number: Int, forced: Bool)? {
        var at = from
        while let open = line[at...].firstIndex(of: UInt8(ascii: "(")) {
            let digits = line[(open + 1)...].prefix(while: \.isASCIIDigit)
            at = open + 1
            guard !digits.isEmpty, digits.count < 6, digits.endIndex < line.count, line[digits.endIndex] == UInt8(ascii: ")"),
                let number = Int(String(decoding: digits, as: UTF8.self)), number > 0
            else { continue }
            let forced = digits.endIndex + 1 < line.count && line[digits.endIndex + 1] == UInt8(ascii: "!")
            return (open..<(digits.endIndex + (forced ? 2 : 1)), number, forced)
        }
        return nil
    }

    /// Whether a comment opens at `index` of `line` (whose indent is `indent` bytes).
    private static func opensComment(_ line: [UInt8], at index: Int, indent: Int) -> Bool {
        let afterBlank = index == 0 || line[index - 1] == .space || line[index - 1] == .tab
        let rest = line[index...]
        switch line[index] {
        case UInt8(ascii: "#"): return afterBlank
        case UInt8(ascii: "/"): return rest.starts(with: "/*".utf8) || (afterBlank && rest.starts(with: "//".utf8))
        case UInt8(ascii: "&"): return rest.starts(with: "&lt;!--".utf8)
        case UInt8(ascii: "{"): return rest.starts(with: "{#".utf8)
        case UInt8(ascii: "-"): return afterBlank && rest.starts(with: "-- ".utf8)
        case UInt8(ascii: ";"): return index == indent
        default: return false
        }
    }

    /// Where the comment opened at `opening` ends, looking from `after`: past its closing mark
    /// (`*/`, `-->`, `#}`), else at the line's end (its line break kept).
    private static func commentEnd(in line: [UInt8], opening: Int, after: Int) -> Int {
        let closing: [UInt8]? =
            switch line[opening] {
            case UInt8(ascii: "/") where line[opening + 1] == UInt8(ascii: "*"): Array("*/".utf8)
            case UInt8(ascii: "&"): Array("--&gt;".utf8)
            case UInt8(ascii: "{"): Array("#}".utf8)
            default: nil
            }
        if let closing, let found = line.withUnsafeBufferPointer({ $0.firstIndex(of: closing, from: after) }) { return found + closing.count }
        var end = line.count
        while end > after, line[end - 1] == .lineFeed || line[end - 1] == .carriageReturn { end -= 1 }
        return end
    }
}
