internal import CCmark

/// Code blocks' info strings as the tools that write them read them, so that the language
/// is the block's class (`language-rust`) and Prism highlights it (`CodeHighlighting`):
/// mdBook's attributes after a comma (```` ```rust,editable ````, `rust,ignore`) and
/// Python-Markdown's (```` ```py title="x.py" ````, ```` ```{ .python title="x.py" } ````,
/// as pymdownx superfences reads them: the first class is the language, an attribute is no
/// language). cmark would make the class `language-rust,editable`, `language-{` or
/// `language-title="x.py"`. A `title` shows above the code as mkdocs-material shows it:
/// `<div class="outline-code-title">x.py</div>`. `linenums="1"` numbers the lines and
/// `hl_lines="2 4-5"` marks lines (pymdownx.highlight); in an mdBook project (`hidesRustLines`)
/// a Rust block's lines that start with `#` and a space, or are `#` alone (mdBook's "boring" lines), are
/// hidden, with a button that shows them. mkdocs-material's code annotations (`# (1)!`, with
/// the ordered list after the block: `Annotations`) are numbered markers when
/// `annotates` (its `content.code.annotate`) or the block's class `.annotate` says so.
/// Such a block is written a line a span
/// (`<span class="outline-line">`), which Prism keeps (its keep-markup plugin). The
/// Markdown writer keeps the fence as written; plain text shows the code alone, as it does
/// any code block.
struct CodeInfoExtension: MarkdownExtension {
    /// Whether a Rust block's boring lines are hidden, as mdBook hides them.
    var hidesRustLines = false
    /// Whether every code block's annotations are read (mkdocs-material's
    /// `content.code.annotate`), not only those of blocks of class `.annotate`.
    var annotates = false
    /// mkdocs-material's name of the feature that sets `annotates`.
    static let annotateFeature = "content.code.annotate"

    var name: String {
        "fenced_code_attributes" + (hidesRustLines ? "+mdbook" : "") + (annotates ? "+annotate" : "")
    }

    /// What an info string says, as its tool reads it.
    struct Info: Equatable {
        /// The language (`""`: none).
        var language: String
        var title: String?
        /// The first line's number, when the lines are numbered (`linenums`).
        var firstLine: Int?
        /// The lines marked (`hl_lines`), counted from 1 whatever `linenums` says.
        var markedLines: [ClosedRange<Int>] = []
        /// Whether a class of its attribute list is `.annotate`.
        var annotated = false
    }

    func prepared(for source: SourceLines) -> CodeInfoExtension? {
        Self.mayHoldFence(source.bytes) ? self : nil
    }

    func beforeHTML(of block: OpaquePointer, text: ArraySlice<UInt8>?, keepsRawHTML: Bool) {
        guard MarkdownTree.mayHoldCode(block), text.map(Self.mayHoldFence) ?? true else { return }
        MarkdownTree.walk(under: block, inlines: false) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK, let info = cmark_node_get_fence_info(node) else { return }
            let written = String(cString: info)
            let read = Self.read(written)
            // cmark writes the info's first word as the class: the title rides in it, its
            // blanks made `titleBlank`, after `titleStart`, and then how its lines are
            // written, after `linesStart`, for `rewriteHTML` (cmark escapes it).
            let hides = hidesRustLines && CodeHighlighting.languageID(read.language) == "rust"
            let notes = annotates || read.annotated ? Annotations.count(for: node) : 0
            let lines =
                read.firstLine != nil || !read.markedLines.isEmpty || hides || notes > 0
                ? "\u{3}" + (read.firstLine.map(String.init) ?? "") + ";"
                    + read.markedLines.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",") + (hides ? ";h" : ";")
                    + (notes > 0 ? ";\(notes)" : "")
                : ""
            let word =
                read.language + (read.title.map { "\u{1}" + String($0.map { $0 == " " || $0 == "\t" ? "\u{2}" : $0 }) } ?? "")
                + lines
            if word != written.prefix(while: { $0 != " " && $0 != "\t" }) { cmark_node_set_fence_info(node, word) }
        }
    }

    func rewriteHTML(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        var copied = 0
        var at = 0
        // (Two searches by memchr: most blocks hold neither.)
        func next() -> Int? {
            let title = html.firstIndex(ofByte: Self.titleStart, from: at)
            let lines = html.firstIndex(ofByte: Self.linesStart, from: at)
            return [title, lines].compactMap { $0 }.min()
        }
        while let found = next() {
            at = found + 1
            // `<pre><code class="language-LANG\u{1}TITLE\u{3}LINES">` → the title, then the
            // block without them. (Any other U+0001 or U+0003, in code or text, stays.)
            guard let open = Self.classStart(before: found, in: html), let close = Self.classEnd(after: found, in: html) else { continue }
            if output.isEmpty { output.reserveCapacity(html.count + 64) }
            output += html[copied..<open]
            let lines = html[found..<close].firstIndex(of: Self.linesStart)
            if html[found] == Self.titleStart {
                output += "<div class=\"outline-code-title\">".utf8
                output += html[(found + 1)..<(lines ?? close)].map { $0 == Self.titleBlank ? .space : $0 }
                output += "</div>\n".utf8
            }
            let language = html[(open + Self.cmarkStart.count)..<found]
            copied = close + 1
            at = copied
            if let lines, let end = html.firstIndex(of: Array("</code></pre>".utf8), from: copied) {
                let layout = LineLayout(String(decoding: UnsafeBufferPointer(rebasing: html[(lines + 1)..<close]), as: UTF8.self))
                output += layout.openingTags(language: Array(language))
                layout.writeLines(UnsafeBufferPointer(rebasing: html[(close + 2)..<end]), into: &output)
                copied = end
                at = end
                continue
            }
            output += language.isEmpty ? Array("<pre><code".utf8) : Self.cmarkStart + language + [UInt8(ascii: "\"")]
        }
        guard copied > 0 else { return nil }
        output += html[copied...]
        return output
    }

    /// How a block's lines are written: numbered from a line, marked, boring ones hidden.
    struct LineLayout {
        var firstLine: Int?
        var marked: [ClosedRange<Int>] = []
        var hidesBoringLines = false
        /// The number of annotations (items of the list after the block), 0 for none.
        var annotations = 0

        /// From its form in the class (`"1;2-3,5-5;h;2"`).
        init(_ text: String) {
            let parts = text.split(separator: ";", omittingEmptySubsequences: false)
            firstLine = parts.first.flatMap { Int($0) }
            if parts.count > 1 {
                marked = parts[1].split(separator: ",").compactMap { range in
                    let ends = range.split(separator: "-").compactMap { Int($0) }
                    return ends.count == 2 && ends[0] <= ends[1] ? ends[0]...ends[1] : nil
                }
            }
            hidesBoringLines = parts.count > 2 && parts[2] == "h"
            annotations = parts.count > 3 ? Int(parts[3]) ?? 0 : 0
        }

        /// `<pre …><code class="language-…">`.
        func openingTags(language: [UInt8]) -> [UInt8] {
            var classes = "outline-lines"
            if firstLine != nil { classes += " outline-numbered" }
            if hidesBoringLines { classes += " outline-hides-lines" }
            if annotations > 0 { classes += " outline-annotated" }
            var tag = "<pre class=\"\(classes)\""
            if let firstLine, firstLine != 1 { tag += " style=\"counter-reset: outline-line \(firstLine - 1)\"" }
            tag += "><code"
            return Array(tag.utf8) + (language.isEmpty ? [] : Array(" class=\"language-".utf8) + language + [UInt8(ascii: "\"")])
                + [UInt8(ascii: ">")]
        }

        /// The code's escaped text, a line a span (its line feed inside it).
        func writeLines(_ code: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
            var start = 0
            var number = 1
            while start < code.count {
                let end = code.firstIndex(ofByte: .lineFeed, from: start).map { $0 + 1 } ?? code.count
                var line = Array(code[start..<end])
                var classes = "outline-line"
                if marked.contains(where: { $0.contains(number) }) { classes += " outline-line-marked" }
                if hidesBoringLines, let shown = Self.boring(line) {
                    line = shown.line
                    if shown.hidden { classes += " outline-line-hidden" }
                }
                if annotations > 0 { line = Annotations.markingUp(line, count: annotations) }
                output += "<span class=\"\(classes)\">".utf8
                output += line
                output += "</span>".utf8
                start = end
                number += 1
            }
        }

        /// mdBook's reading of a Rust line (its `^(\s*)#(.?)(.*)$`, mdBook 0.5): `# x` and a
        /// `#` alone are hidden, shown without the `#` and the space; `##x` is `#x` shown;
        /// any other (`#!`, `#[`, `#x`) is code. Nil when the line is code.
        static func boring(_ line: [UInt8]) -> (line: [UInt8], hidden: Bool)? {
            let indent = line.prefix { $0 == .space || $0 == .tab }.count
            guard indent < line.count, line[indent] == UInt8(ascii: "#") else { return nil }
            let next = indent + 1 < line.count ? line[indent + 1] : .lineFeed
            switch next {
            case UInt8(ascii: "#"): return (Array(line[..<indent]) + line[(indent + 1)...], false)
            case .lineFeed, .carriageReturn: return (Array(line[..<indent]) + line[(indent + 1)...], true)
            case .space: return (Array(line[..<indent]) + line[(indent + 2)...], true)
            default: return nil
            }
        }
    }

    /// Where cmark's `<pre><code class="language-` starts, when `marker` is in that class
    /// after the language (a name of at most 128 bytes).
    private static func classStart(before marker: Int, in html: UnsafeBufferPointer<UInt8>) -> Int? {
        var at = marker - cmarkStart.count
        while at >= max(0, marker - cmarkStart.count - 128) {
            if html[at..<(at + cmarkStart.count)].elementsEqual(cmarkStart) { return at }
            let byte = html[at + cmarkStart.count - 1]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: ">") { return nil }
            at -= 1
        }
        return nil
    }

    /// The `"` that ends the class holding `marker` (cmark escapes the title's `"`, `<`, `>`).
    private static func classEnd(after marker: Int, in html: UnsafeBufferPointer<UInt8>) -> Int? {
        var at = marker + 1
        while at < html.count {
            switch html[at] {
            case UInt8(ascii: "\""): return at
            case UInt8(ascii: "<"), UInt8(ascii: ">"), .lineFeed: return nil
            default: at += 1
            }
        }
        return nil
    }

    /// Whether `text` may hold a fenced code block (the only kind with an info string).
    static func mayHoldFence(_ text: ArraySlice<UInt8>) -> Bool {
        text.contains(bytes: "```") || text.contains(bytes: "~~~")
    }

    /// What `info` says: its language (before a comma; the first class of an attribute
    /// list; none when its first word is an attribute) and its `title`.
    static func read(_ info: String) -> Info {
        let first = info.drop { $0 == " " || $0 == "\t" }.prefix { $0 != " " && $0 != "\t" }
        guard !first.isEmpty else { return Info(language: "") }
        if first.hasPrefix("{") {
            let inner = info.drop { $0 != "{" }.dropFirst().prefix { $0 != "}" }
            let language = inner.split(whereSeparator: { $0 == " " || $0 == "\t" }).first { $0.hasPrefix(".") && $0.count > 1 }
            var read = Info(language: language.map { String($0.dropFirst()) } ?? "", title: attribute("title", in: inner))
            read.annotated = inner.split(whereSeparator: { $0 == " " || $0 == "\t" }).contains(".annotate")
            read.readLines(from: inner)
            return read
        }
        var read = Info(language: "", title: attribute("title", in: info[...]))
        if !first.contains("=") {
            read.language = String(first.firstIndex(of: ",").map { $0 == first.startIndex ? first : first[..<$0] } ?? first)
        }
        read.readLines(from: info[...])
        return read
    }

    /// The value of `name="value"` (or `'value'`, or a bare word) among the words of `text`.
    fileprivate static func attribute(_ name: String, in text: Substring) -> String? {
        // (A byte search first: most info strings hold no attribute, and `firstRange(of:)` is
        // the string processing library's.)
        guard text.contains(bytes: name + "=") else { return nil }
        var rest = text
        while let range = rest.firstRange(of: name + "=") {
            let before = rest[..<range.lowerBound].last
            rest = rest[range.upperBound...]
            guard before == nil || before == " " || before == "\t" || before == "{" || before == "," else { continue }
            guard let quote = rest.first, quote == "\"" || quote == "'" else {
                return String(rest.prefix { $0 != " " && $0 != "\t" && $0 != "}" })
            }
            return String(rest.dropFirst().prefix { $0 != quote })
        }
        return nil
    }

    private static let cmarkStart = Array("<pre><code class=\"language-".utf8)
    /// What stands for the title's start and its blanks, and for the start of how the
    /// lines are written, in the class (see `beforeHTML`).
    private static let titleStart = UInt8(ascii: "\u{1}")
    private static let titleBlank = UInt8(ascii: "\u{2}")
    private static let linesStart = UInt8(ascii: "\u{3}")
}

extension CodeInfoExtension.Info {
    /// Reads pymdownx.highlight's `linenums="1"` (its first number: the first line's) and
    /// `hl_lines="2 4-5"` (lines counted from 1) among the info's words.
    fileprivate mutating func readLines(from text: Substring) {
        if let start = CodeInfoExtension.attribute("linenums", in: text)?.split(separator: " ").first.flatMap({ Int($0) }), start >= 0 {
            firstLine = start
        }
        guard let marked = CodeInfoExtension.attribute("hl_lines", in: text) else { return }
        markedLines = marked.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { item in
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            if ends.count == 1, let line = ends[0], line > 0 { return line...line }
            if ends.count == 2, let low = ends[0], let high = ends[1], low > 0, low <= high { return low...high }
            return nil
        }
    }
}
