internal import CCmark

/// Math as GitHub and mkdocs (pymdownx.arithmatex) write it: `$…$` inline, `$$…$$` display,
/// and ```` ```math ```` fences (which cmark writes as `<code class="language-math">`), typeset
/// in the page by KaTeX (`MathTypesetting`). A dollar opens math when a non-space follows it
/// and the next dollar closes it when a non-space comes before it and no digit after it,
/// as pandoc's `tex_math_dollars` reads them (so `$20 and $30` is no math); `\$` is a
/// dollar. Code spans and Markdown's other inline syntax around the math win over it
/// (pandoc reads the math first). The math's TeX is its source text, whatever Markdown would have made of it
/// (`$a_1 * b_2$`, `\{`), written as arithmatex's generic form: `<span
/// class="arithmatex">\(…\)</span>`, display math `\[…\]`; plain text shows it as written. Math that Markdown read as
/// part of emphasis or a link around it (`*$a*b$`) stays as Markdown read it.
struct MathExtension: MarkdownExtension {
    var name: String { "math" }

    func prepared(for source: SourceLines) -> MathExtension? {
        source.bytes.firstIndex(ofByte: UInt8(ascii: "$")) != nil ? self : nil
    }

    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        guard text.firstIndex(ofByte: UInt8(ascii: "$")) != nil else { return }
        var paragraphs: [OpaquePointer] = []
        MarkdownTree.walk(under: block, inlines: false) { node, entering in
            if entering, cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH, cmark_node_get_start_line(node) > 0 { paragraphs.append(node) }
        }
        for paragraph in paragraphs { typeset(paragraph, in: tree) }
    }

    /// A span of math in the source: its delimiters' places (absolute byte offsets: the
    /// opening `$` and the byte after the closing one) and whether it is display math.
    struct Span: Equatable {
        let start: Int
        let end: Int
        let display: Bool
    }

    private func typeset(_ paragraph: OpaquePointer, in tree: MarkdownTree) {
        let source = tree.source
        let first = Int(cmark_node_get_start_line(paragraph))
        let last = Int(cmark_node_get_end_line(paragraph))
        guard first >= 1, last <= source.count else { return }
        let start = source.line(first).startIndex + Int(cmark_node_get_start_column(paragraph)) - 1
        let end = source.line(last).endIndex
        guard start < end else { return }
        let text = source.bytes[start..<end]
        let spans = Self.spans(in: text)
        guard !spans.isEmpty else { return }
        // The source's dollars are the literals' in order (an escaped `\$` is one in both, in
        // code too): each dollar, by its number, with the child of the paragraph holding it
        // in its own text and the offset there (nil for one inside a child's child: no
        // delimiter of math here). A dollar where the source has none (`&#36;`), or one in a
        // link's address, leaves the paragraph as Markdown read it.
        var children: [OpaquePointer] = []
        var places: [(child: Int, offset: Int)?] = []
        var child = cmark_node_first_child(paragraph)
        while let node = child {
            MarkdownTree.walk(under: node) { inner, entering in
                guard entering else { return }
                let literal = CommonMarkDocument.literalBytes(inner)
                for offset in literal.indices where literal[offset] == UInt8(ascii: "$") {
                    places.append(inner == node ? (children.count, offset) : nil)
                }
            }
            children.append(node)
            child = cmark_node_next(node)
        }
        guard places.count == text.filter({ $0 == UInt8(ascii: "$") }).count else { return }
        let numbers = text.indices.filter { text[$0] == UInt8(ascii: "$") }
        var made: [(from: Int, to: Int, before: Int, after: Int, span: Span)] = []
        for span in spans {
            guard let open = numbers.firstIndex(of: span.start), let close = numbers.firstIndex(of: span.end - 1),
                let head = places[open], let tail = places[close],
                cmark_node_get_type(children[head.child]) == CMARK_NODE_TEXT,
                cmark_node_get_type(children[tail.child]) == CMARK_NODE_TEXT, made.last.map({ $0.to <= head.child }) ?? true
            else { continue }
            made.append((head.child, tail.child, head.offset, tail.offset, span))
        }
        // Last first: what stays of a text before a span (a text node may hold several) takes
        // its place among the children for the spans before.
        for (from, to, before, after, span) in made.reversed() {
            guard let math = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: Self.html(of: span, in: source.bytes)) else { continue }
            // (The TeX is in the element's HTML, not a text node: no other step reads it.)
            tree.tag(math, by: self, kind: 0)
            let (head, tail) = (children[from], children[to])
            cmark_node_insert_before(head, math)
            let tailLiteral = CommonMarkDocument.literalBytes(tail)
            if after + 1 < tailLiteral.count, let kept = tree.newNode(CMARK_NODE_TEXT) {
                MarkdownTree.setLiteral(kept, tailLiteral[(after + 1)...])
                cmark_node_insert_after(math, kept)
            }
            var keptBefore: OpaquePointer?
            if before > 0, let kept = tree.newNode(CMARK_NODE_TEXT) {
                MarkdownTree.setLiteral(kept, CommonMarkDocument.literalBytes(head)[..<before])
                cmark_node_insert_before(math, kept)
                keptBefore = kept
            }
            for index in from...to { cmark_node_free(children[index]) }
            children[from] = keptBefore ?? math
        }
    }

    /// The HTML of a span: arithmatex's generic form, `<span class="arithmatex">\(…\)</span>`
    /// (`\[…\]` for display math), its TeX escaped.
    private static func html(of span: Span, in source: ArraySlice<UInt8>) -> String {
        let tex = String(decoding: source[(span.start + (span.display ? 2 : 1))..<(span.end - (span.display ? 2 : 1))], as: UTF8.self)
        return "<span class=\"arithmatex\">" + (span.display ? "\\[" : "\\(") + CollapsibleBlocks.escaped(tex)
            + (span.display ? "\\]" : "\\)") + "</span>"
    }

    /// Plain text shows the TeX between its dollars, as written.
    func plainText(of node: OpaquePointer, kind: UInt8, entering: Bool) -> PlainTextPiece? {
        guard entering, let enter = cmark_node_get_on_enter(node) else { return nil }
        let html = String(cString: enter)
        let prefix = "<span class=\"arithmatex\">"
        guard html.hasPrefix(prefix), html.hasSuffix("</span>") else { return nil }
        let marked = html.dropFirst(prefix.count).dropLast("</span>".count)
        let dollars = marked.hasPrefix("\\[") ? "$$" : "$"
        return .inline(Array((dollars + CharacterReference.decodeAll(Array(marked.dropFirst(2).dropLast(2).utf8)[...]) + dollars).utf8))
    }

    /// The spans of math in `text` (a paragraph's source), in order, as pandoc's
    /// `tex_math_dollars` finds them; code spans skipped.
    static func spans(in text: ArraySlice<UInt8>) -> [Span] {
        let dollar = UInt8(ascii: "$")
        let isSpace: (UInt8) -> Bool = { $0 == .space || $0 == .tab || $0 == .lineFeed || $0 == .carriageReturn }
        var spans: [Span] = []
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == .backslash {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "`") {
                // A code span: its closing run of as many backticks, else the run is text.
                let run = text[index...].prefix { $0 == byte }.count
                var at = index + run
                var closed = false
                while at < text.endIndex {
                    guard text[at] == byte else {
                        at += 1
                        continue
                    }
                    let other = text[at...].prefix { $0 == byte }.count
                    if other == run {
                        closed = true
                        at += other
                        break
                    }
                    at += other
                }
                index = closed ? at : index + run
                continue
            }
            guard byte == dollar else {
                index += 1
                continue
            }
            let display = index + 1 < text.endIndex && text[index + 1] == dollar
            let open = index + (display ? 2 : 1)
            guard open < text.endIndex, display || !isSpace(text[open]) else {
                index = open
                continue
            }
            // The closing delimiter: `$$` for display; for inline, a `$` after a non-space and
            // before no digit.
            var at = open
            var close: Int?
            while at < text.endIndex {
                if text[at] == .backslash {
                    at += 2
                    continue
                }
                if text[at] == dollar {
                    if display {
                        if at + 1 < text.endIndex, text[at + 1] == dollar, at > open {
                            close = at
                            break
                        }
                    } else {
                        // (Inline math holds no dollar: the first one closes it, or there is none.)
                        if !isSpace(text[at - 1]), at + 1 >= text.endIndex || !text[at + 1].isASCIIDigit { close = at }
                        break
                    }
                }
                // (Inline math ends at a blank line: a paragraph has none.)
                at += 1
            }
            guard let close else {
                index = open
                continue
            }
            let end = close + (display ? 2 : 1)
            spans.append(Span(start: index, end: end, display: display))
            index = end
        }
        return spans
    }
}
