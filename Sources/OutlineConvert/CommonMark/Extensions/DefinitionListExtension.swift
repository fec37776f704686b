internal import CCmark

/// Python-Markdown's definition lists (`def_list`), in mkdocs' dialect: the lines of a
/// paragraph (or a block of raw HTML) are terms, and each line after them that starts with `:` and one to three
/// spaces starts a definition, its content indented four columns (also after a blank line:
/// a loose definition, its paragraphs in `<p>`). Lists next to each other are one `<dl>`.
///
/// cmark reads a definition as part of the paragraph, and its indented content as code. So
/// the text is rewritten before mkdocs' blocks are read, one character for one: each
/// definition's `:` becomes `-`, a list item that cmark reads with its content. Once every
/// rewrite is done, the list is made a `<dl>`, the paragraph's lines its `<dt>`s, the items
/// its `<dd>`s. A `:` that no paragraph comes before, or that is in code, stays text; so
/// does one in the content of an indented mkdocs block (`!!!`, `???`, `===`), which is
/// code when this step reads the text.
struct DefinitionListExtension: MarkdownExtension {
    var name: String { "def_list" }

    /// Marks, in the HTML of a term or a tight definition, the `<p>` to take out (cmark
    /// writes a paragraph in a custom block with one).
    private static let unwrap = "\u{1}"

    func rewriteSource(of tree: MarkdownTree) {
        guard Self.mayHold(tree.source.bytes) else { return }
        // The definitions' lines, each loose or not.
        var definitions: [Int: Bool] = [:]
        let source = tree.source
        CommonMarkDocument.walk(tree.root) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH else { return }
            let first = Int(cmark_node_get_start_line(node))
            let column = Int(cmark_node_get_start_column(node)) - 1
            let afterParagraph = cmark_node_previous(node).map(Self.mayBeTerms) ?? false
            for number in first...Int(cmark_node_get_end_line(node)) where number <= source.count {
                guard number > first || afterParagraph, Self.startsDefinition(source.line(number), column: column) else { continue }
                definitions[number] = number == first
            }
        }
        guard !definitions.isEmpty else { return }
        var text = Array(tree.source.bytes)
        let base = tree.source.bytes.startIndex
        for number in definitions.keys {
            let line = source.line(number)
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            text[colon - base] = UInt8(ascii: "-")
        }
        guard let again = CommonMarkDocument.tree(of: text[...], memory: tree.memory, smart: tree.flavor.smartPunctuation) else { return }
        tree.replace(source: text[...], root: again)
        tree.definitions = definitions
    }

    func makeBlocks(of tree: MarkdownTree) {
        if !tree.definitions.isEmpty { make(tree.definitions, in: tree) }
    }

    /// Whether a block may be the terms of the definitions after it: a paragraph, or raw
    /// HTML (Python-Markdown reads it as a paragraph; mkdocs-material's docs write their
    /// options' terms as `<!-- md:option name -->`, which a hook of theirs draws).
    private static func mayBeTerms(_ node: OpaquePointer) -> Bool {
        let type = cmark_node_get_type(node)
        return type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HTML_BLOCK
    }

    /// Whether a line may start a definition somewhere in the text: most texts have none.
    private static func mayHold(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while let colon = bytes[index...].firstIndex(of: UInt8(ascii: ":")) {
            index = colon + 1
            guard colon + 1 < bytes.endIndex, bytes[colon + 1] == .space || bytes[colon + 1] == .tab else { continue }
            var start = colon
            while start > bytes.startIndex, bytes[start - 1] == .space || bytes[start - 1] == UInt8(ascii: ">") { start -= 1 }
            if start == bytes.startIndex || bytes[start - 1] == .lineFeed { return true }
        }
        return false
    }

    /// Whether `line` starts a definition: up to three spaces past `column` (a container's
    /// indent and `>` markers before), `:`, then one to three spaces and text.
    private static func startsDefinition(_ line: ArraySlice<UInt8>, column: Int) -> Bool {
        var index = line.startIndex
        while index < line.endIndex, line[index] == .space || line[index] == UInt8(ascii: ">") { index += 1 }
        guard index < line.endIndex, line[index] == UInt8(ascii: ":"), index - line.startIndex <= column + 3 else { return false }
        let after = line[(index + 1)...].prefix { $0 == .space || $0 == .tab }
        guard (1...4).contains(after.count), after.count < line.endIndex - index - 1 else { return false }
        return true
    }

    /// Makes a `<dl>` of each list whose items are all `definitions`, with the paragraph
    /// before it as its terms (and adds to the `<dl>` before them, if any).
    private func make(_ definitions: [Int: Bool], in tree: MarkdownTree) {
        var lists: [OpaquePointer] = []
        CommonMarkDocument.walk(tree.root) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_LIST, let terms = cmark_node_previous(node), Self.mayBeTerms(terms)
            else { return }
            var item = cmark_node_first_child(node)
            while let each = item {
                guard definitions[Int(cmark_node_get_start_line(each))] != nil else { return }
                item = cmark_node_next(each)
            }
            lists.append(node)
        }
        var made: Set<OpaquePointer> = []
        for list in lists {
            guard let terms = cmark_node_previous(list) else { continue }
            let dl: OpaquePointer
            if let before = cmark_node_previous(terms), made.contains(before) {
                dl = before
            } else {
                guard let new = tree.newNode(CMARK_NODE_CUSTOM_BLOCK, enter: "<dl>", exit: "</dl>") else { continue }
                cmark_node_insert_before(terms, new)
                made.insert(new)
                dl = new
            }
            for line in cmark_node_get_type(terms) == CMARK_NODE_PARAGRAPH ? lines(of: terms, in: tree) : [terms] {
                guard let dt = tree.newNode(CMARK_NODE_CUSTOM_BLOCK, enter: "<dt>" + Self.unwrap, exit: Self.unwrap + "</dt>") else { continue }
                cmark_node_append_child(dt, line)
                cmark_node_append_child(dl, dt)
            }
            while let item = cmark_node_first_child(list) {
                let loose = definitions[Int(cmark_node_get_start_line(item))] ?? false
                if let dd = tree.newNode(CMARK_NODE_CUSTOM_BLOCK, enter: "<dd>", exit: "</dd>") {
                    while let child = cmark_node_first_child(item) { cmark_node_append_child(dd, child) }
                    cmark_node_append_child(dl, dd)
                    inlineHTML(startingParagraphOf: dd, in: tree)
                    // (A tight definition of one paragraph is its text, as a tight list item's.)
                    if !loose, let only = cmark_node_first_child(dd), cmark_node_next(only) == nil, cmark_node_get_type(only) == CMARK_NODE_PARAGRAPH
                    {
                        cmark_node_set_on_enter(dd, "<dd>" + Self.unwrap)
                        cmark_node_set_on_exit(dd, Self.unwrap + "</dd>")
                    }
                }
                cmark_node_free(item)
            }
            cmark_node_free(list)
            if cmark_node_get_type(terms) == CMARK_NODE_PARAGRAPH { cmark_node_free(terms) }
        }
    }

    /// A definition whose text starts with inline HTML (`:   <!-- md:default --> Text`) is a
    /// list item whose first line cmark reads as a block of HTML, where Python-Markdown reads
    /// a paragraph: that line is read again as a paragraph's text, and starts the paragraph
    /// on the lines after it. (Its nodes' source places are those of a text of that line
    /// alone.)
    private func inlineHTML(startingParagraphOf dd: OpaquePointer, in tree: MarkdownTree) {
        guard let html = cmark_node_first_child(dd), cmark_node_get_type(html) == CMARK_NODE_HTML_BLOCK else { return }
        // (cmark gives such a block no end line: its text tells it is one line.)
        let literal = CommonMarkDocument.literalBytes(html)
        let line = literal.prefix { $0 != .lineFeed && $0 != .carriageReturn }
        let next = cmark_node_next(html).flatMap { next in
            cmark_node_get_type(next) == CMARK_NODE_PARAGRAPH && cmark_node_get_start_line(next) == cmark_node_get_start_line(html) + 1
                ? next : nil
        }
        // (A line of HTML alone, with no paragraph right after it, is a block of HTML there too.)
        guard literal.dropFirst(line.count).allSatisfy({ $0 == .lineFeed || $0 == .carriageReturn }),
            next != nil || line.last != UInt8(ascii: ">"),
            let alone = CommonMarkDocument.tree(of: [UInt8(ascii: "x")] + line, memory: tree.memory)
        else { return }
        defer { cmark_node_free(alone) }
        // (Read after a letter, the line is a paragraph's text; the letter is then dropped.)
        guard let paragraph = cmark_node_first_child(alone), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH,
            let letter = cmark_node_first_child(paragraph), CommonMarkDocument.literalBytes(letter) == [UInt8(ascii: "x")]
        else { return }
        cmark_node_free(letter)
        if let first = next.flatMap(cmark_node_first_child), let softBreak = tree.newNode(CMARK_NODE_SOFTBREAK) {
            cmark_node_insert_before(first, softBreak)
            while let child = cmark_node_first_child(paragraph) { cmark_node_insert_before(softBreak, child) }
        } else {
            cmark_node_insert_before(html, paragraph)
        }
        cmark_node_free(html)
    }

    /// The paragraph `terms` as one paragraph a line: itself for its first line, new ones
    /// for the others (its line breaks dropped).
    private func lines(of terms: OpaquePointer, in tree: MarkdownTree) -> [OpaquePointer] {
        var paragraphs: [OpaquePointer] = []
        var current: OpaquePointer?
        while let child = cmark_node_first_child(terms) {
            let type = cmark_node_get_type(child)
            if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                cmark_node_free(child)
                current = nil
                continue
            }
            if current == nil, let paragraph = tree.newNode(CMARK_NODE_PARAGRAPH) {
                paragraphs.append(paragraph)
                current = paragraph
            }
            if let current { cmark_node_append_child(current, child) } else { cmark_node_free(child) }
        }
        return paragraphs
    }

    func rewriteHTML(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // (By bytes: a search of the page's text as a `String` cost a fifth of an mkdocs
        // site's build.)
        guard html.firstIndex(ofByte: 1) != nil,
            html.firstIndex(of: Array("<dt>\(Self.unwrap)".utf8)) != nil || html.firstIndex(of: Array("<dd>\(Self.unwrap)".utf8)) != nil
        else { return nil }
        var unwrapped = Array(html)
        for tag in ["dt", "dd"] {
            for (pattern, replacement) in [
                ("<\(tag)>\(Self.unwrap)\n<p>", "<\(tag)>"), ("<\(tag)>\(Self.unwrap)", "<\(tag)>"),
                ("</p>\n\(Self.unwrap)</\(tag)>", "</\(tag)>"), ("\(Self.unwrap)</\(tag)>", "</\(tag)>"),
            ] {
                unwrapped = unwrapped.replacingBytes(Array(pattern.utf8), with: Array(replacement.utf8))
            }
        }
        return unwrapped
    }
}
