internal import CCmark

/// Code blocks' info strings as the tools that write them read them, so that the language
/// is the block's class (`language-rust`) and Prism highlights it (`CodeHighlighting`):
/// mdBook's attributes after a comma (```` ```rust,editable ````, `rust,ignore`) and
/// Python-Markdown's (```` ```py title="x.py" ````, ```` ```{ .python title="x.py" } ````,
/// as pymdownx superfences reads them: the first class is the language, an attribute is no
/// language). cmark would make the class `language-rust,editable`, `language-{` or
/// `language-title="x.py"`. A `title` shows above the code as mkdocs-material shows it:
/// `<div class="outline-code-title">x.py</div>`. The Markdown writer keeps the fence as
/// written; plain text shows the code alone, as it does any code block.
struct CodeInfoExtension: MarkdownExtension {
    var name: String { "fenced_code_attributes" }

    /// What an info string says, as its tool reads it.
    struct Info: Equatable {
        /// The language (`""`: none).
        var language: String
        var title: String?
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
            // blanks made `titleBlank`, after `titleStart`, for `rewriteHTML` (cmark escapes it).
            let word =
                read.language + (read.title.map { "\u{1}" + String($0.map { $0 == " " || $0 == "\t" ? "\u{2}" : $0 }) } ?? "")
            if word != written.prefix(while: { $0 != " " && $0 != "\t" }) { cmark_node_set_fence_info(node, word) }
        }
    }

    func rewriteHTML(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        var copied = 0
        var at = 0
        while let found = html.firstIndex(ofByte: Self.titleStart, from: at) {
            at = found + 1
            // `<pre><code class="language-LANG\u{1}TITLE">` → the title, then the block without
            // it. (Any other U+0001, in code or text, stays.)
            guard let open = Self.classStart(before: found, in: html), let close = Self.classEnd(after: found, in: html) else { continue }
            if output.isEmpty { output.reserveCapacity(html.count + 64) }
            output += html[copied..<open]
            output += "<div class=\"outline-code-title\">".utf8
            output += html[at..<close].map { $0 == Self.titleBlank ? .space : $0 }
            output += "</div>\n".utf8
            let language = html[(open + Self.cmarkStart.count)..<found]
            output += language.isEmpty ? Array("<pre><code".utf8) : Self.cmarkStart + language + [UInt8(ascii: "\"")]
            copied = close + 1
            at = copied
        }
        guard copied > 0 else { return nil }
        output += html[copied...]
        return output
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
        let words = info.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { return Info(language: "") }
        if first.hasPrefix("{") {
            let inner = info.drop { $0 != "{" }.dropFirst().prefix { $0 != "}" }
            let language = inner.split(whereSeparator: { $0 == " " || $0 == "\t" }).first { $0.hasPrefix(".") && $0.count > 1 }
            return Info(language: language.map { String($0.dropFirst()) } ?? "", title: attribute("title", in: inner))
        }
        let title = attribute("title", in: info[...])
        if first.contains("=") { return Info(language: "", title: title) }
        let language = first.firstIndex(of: ",").map { $0 == first.startIndex ? first : first[..<$0] } ?? first
        return Info(language: String(language), title: title)
    }

    /// The value of `name="value"` (or `'value'`, or a bare word) among the words of `text`.
    private static func attribute(_ name: String, in text: Substring) -> String? {
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
    /// What stands for the title's start and its blanks in the class (see `beforeHTML`).
    private static let titleStart = UInt8(ascii: "\u{1}")
    private static let titleBlank = UInt8(ascii: "\u{2}")
}
