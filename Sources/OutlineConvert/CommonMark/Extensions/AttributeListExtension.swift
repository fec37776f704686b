internal import CCmark

/// mkdocs' attribute lists (`attr_list`) after links, images and icons, and on the last line of
/// a paragraph or a list item, applied to the HTML cmark renders for a block (`AttributeLists`).
/// A paragraph given the class `.annotate` holds mkdocs-material's annotations (`Annotations`).
struct AttributeListExtension: MarkdownExtension {
    var name: String { "attr_list" }

    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        guard text.contains(bytes: "annotate") else { return }
        var hosts: [(paragraph: OpaquePointer, count: Int)] = []
        MarkdownTree.walk(under: block, inlines: false) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH, Self.isAnnotated(node) else { return }
            let count = Annotations.items(after: node)
            if count > 0 { hosts.append((node, count)) }
        }
        for (paragraph, count) in hosts {
            Annotations.markText(of: paragraph, count: count, tree: tree) { piece, number in
                guard let marker = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: String(decoding: Annotations.bubble(number), as: UTF8.self))
                else { return }
                tree.tag(marker, by: self, kind: 0)
                cmark_node_insert_before(piece, marker)
                cmark_node_free(piece)
            }
        }
    }

    /// A marker's plain text: `(N)`, as written.
    func plainText(of node: OpaquePointer, kind: UInt8, entering: Bool) -> PlainTextPiece? {
        guard entering, let enter = cmark_node_get_on_enter(node) else { return nil }
        let number = String(cString: enter).utf8.filter(\.isASCIIDigit)
        return .inline(Array("(".utf8) + number + Array(")".utf8))
    }

    /// Whether `paragraph` ends with a line that is an attribute list of the class
    /// `annotate`, and is the element the list is given to (a tight list item's text gives
    /// it to the item, which an ordered list never follows).
    private static func isAnnotated(_ paragraph: OpaquePointer) -> Bool {
        guard let last = cmark_node_last_child(paragraph), cmark_node_get_type(last) == CMARK_NODE_TEXT,
            let before = cmark_node_previous(last), cmark_node_get_type(before) == CMARK_NODE_SOFTBREAK,
            let list = AttributeLists.list(inLine: CommonMarkDocument.literalBytes(last)),
            list.contains(where: { $0.name == "class" && $0.value == "annotate" })
        else { return false }
        if let item = cmark_node_parent(paragraph), cmark_node_get_type(item) == CMARK_NODE_ITEM, let list = cmark_node_parent(item),
            cmark_node_get_list_tight(list) != 0
        {
            return false
        }
        return true
    }

    func rewriteHTML(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let blocks = AttributeLists.applyToBlocks(html) else { return AttributeLists.apply(html) }
        return blocks.withUnsafeBufferPointer { AttributeLists.apply($0) } ?? blocks
    }
}

/// Attribute lists on links, images and icons, as mkdocs pages write them (Python-Markdown's
/// `attr_list`): `[Install](install.md){ .md-button }`, `![Logo](logo.png){ width="200" }`,
/// and mkdocs-autorefs' anchors `[](){#name}`. cmark leaves the list as text right after the
/// element, so it is applied to the HTML cmark renders for a block: the list that follows a
/// link's `</a>` or an image's ` />` becomes attributes of that element (an empty link to
/// nowhere with an id becomes the anchor `<a id="name"></a>`). Text in braces that is not a
/// list (any token but `#id`, `.class` and `key=value`) stays text. Attributes that would
/// run script or change where the element points (`on…`, `href`, `src`, `srcset`, `style`,
/// …) are dropped; the others' values are escaped.
enum AttributeLists {
    /// `html`, one block as cmark rendered it, with its attribute lists applied; nil when it
    /// has none.
    static func apply(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard html.firstIndex(ofByte: UInt8(ascii: "{")) != nil else { return nil }
        var out: [UInt8] = []
        var copied = 0  // (html[..<copied] is in `out`)
        var index = 0
        while let open = html.firstIndex(ofByte: UInt8(ascii: "{"), from: index) {
            index = open + 1
            if let (tagStart, tagEnd) = icon(in: html, before: open), tagStart >= copied, let close = listEnd(in: html, after: open),
                let list = parse(html[(open + 1)..<close])
            {
                // (An icon's class is kept, the list's added to it.)
                out += html[copied..<tagStart]
                out += "<span".utf8
                out += attributes([("class", "twemoji")] + list)
                out += html[tagEnd..<open]
                copied = close + 1
                index = close + 1
                continue
            }
            let isLink = matches("</a>", in: html, at: open - 4)
            guard isLink || matches(" />", in: html, at: open - 3),
                let close = listEnd(in: html, after: open),
                let list = parse(html[(open + 1)..<close]),
                let tagStart = openingTag(isLink ? "<a " : "<img ", in: html, before: open - (isLink ? 4 : 3), stop: isLink ? "</a>" : "<"),
                tagStart >= copied
            else { continue }
            // The element's opening tag ends at `tagEnd` (its `>`, or the image's ` />`).
            let tagEnd = isLink ? html.firstIndex(ofByte: UInt8(ascii: ">"), from: tagStart) ?? open : open - 3
            out += html[copied..<tagStart]
            if isLink, tagEnd + 1 == open - 4, tagEnd - tagStart == 10, matches("<a href=\"\"", in: html, at: tagStart),
                list.contains(where: { $0.name == "id" })
            {
                out += "<a".utf8  // (an empty link to nowhere: an anchor)
                out += attributes(list)
                out += "></a>".utf8
            } else {
                // (An attribute cmark wrote already — the image's `alt`, a title — is kept:
                // one name twice is not HTML.)
                let written = String(decoding: UnsafeBufferPointer(rebasing: html[tagStart..<tagEnd]), as: UTF8.self)
                out += html[tagStart..<tagEnd]
                out += attributes(list.filter { !written.contains(" \($0.name)=\"") })
                out += html[tagEnd..<open]
            }
            copied = close + 1
            index = close + 1
        }
        guard copied > 0 else { return nil }
        out += html[copied...]
        return out
    }

    /// `html` with the lists that end a paragraph or a list item's text (before its own
    /// list, if any) on a line of their own (`…\n{ .annotate }</p>`) made the attributes of
    /// that `<p>` or `<li>`, as Python-Markdown's `attr_list` reads a block's last line; nil
    /// when it has none.
    static func applyToBlocks(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var copied = 0
        var index = 0
        while let close = html.firstIndex(ofByte: UInt8(ascii: "}"), from: index) {
            index = close + 1
            var end = close + 1
            while end < html.count, html[end] == .space { end += 1 }
            // (A tight item's text ends before the item ends or its own list starts.)
            let isItem = matches("</li>", in: html, at: end) || matches("\n<ul>", in: html, at: end) || matches("\n<ol", in: html, at: end)
            guard isItem || matches("</p>", in: html, at: end) else { continue }
            // The list's `{`, on the same line, and the line break before it.
            var open = close - 1
            while open >= copied, html[open] != UInt8(ascii: "{"), html[open] != .lineFeed, html[open] != UInt8(ascii: "<"),
                html[open] != UInt8(ascii: "}")
            {
                open -= 1
            }
            guard open >= copied, html[open] == UInt8(ascii: "{") else { continue }
            var lineStart = open
            while lineStart > copied, html[lineStart - 1] == .space { lineStart -= 1 }
            guard lineStart > copied, html[lineStart - 1] == .lineFeed, let list = parse(html[(open + 1)..<close]),
                let tagStart = openingTag(isItem ? "<li>" : "<p>", in: html, before: lineStart, stop: isItem ? "</li>" : "</p>"),
                tagStart >= copied
            else { continue }
            let tagName: StaticString = isItem ? "<li" : "<p"
            out += html[copied..<tagStart]
            out += tagName.withUTF8Buffer { Array($0) }
            out += attributes(list)
            out.append(UInt8(ascii: ">"))
            // (The text without the list's line: its line break too.)
            out += html[(tagStart + (isItem ? 4 : 3))..<(lineStart - 1)]
            copied = end
        }
        guard copied > 0 else { return nil }
        out += html[copied...]
        return out
    }

    /// The list a line of text is (`{ .annotate }`, blanks around it), as `applyToBlocks`
    /// reads it; nil when the line is not one.
    static func list(inLine line: [UInt8]) -> [(name: String, value: String)]? {
        let trimmed = line.drop { $0 == .space }.reversed().drop { $0 == .space }.reversed()
        guard trimmed.first == UInt8(ascii: "{"), trimmed.last == UInt8(ascii: "}"), trimmed.count >= 2 else { return nil }
        let inner = Array(trimmed.dropFirst().dropLast())
        return inner.withUnsafeBufferPointer { parse($0[...]) }
    }

    /// The attributes to add: the list's, but those that run script or point elsewhere.
    private static func attributes(_ list: [(name: String, value: String)]) -> [UInt8] {
        var id: String?
        var classes: [String] = []
        var others: [(String, String)] = []
        for (name, value) in list {
            switch name {
            case "id": id = value
            case "class": classes.append(value)
            default:
                let lowered = name.lowercased()
                guard !lowered.hasPrefix("on"), !refused.contains(lowered) else { continue }
                others.append((name, value))
            }
        }
        var bytes = ByteBuffer()
        for (name, value) in (id.map { [("id", $0)] } ?? []) + (classes.isEmpty ? [] : [("class", classes.joined(separator: " "))]) + others {
            bytes.write(" " + name + "=\"")
            bytes.write(escaping: value)
            bytes.write("\"" as StaticString)
        }
        return bytes.finish()
    }

    /// Attributes an attribute list may not set: where the element points, its style, and
    /// what would be script.
    private static let refused: Set<String> = ["href", "src", "srcset", "style", "action", "formaction", "xlink:href", "srcdoc"]

    /// The list between braces (as cmark escaped it: `&quot;` for `"`), as Python-Markdown
    /// reads it: an optional `:`, then tokens `#id`, `.class`, `key=value`, `key="value"`
    /// or `key='value'`, separated by spaces; nil if anything else is there (Python-Markdown
    /// also takes a bare word as an attribute: here it keeps the braces as text).
    private static func parse(_ escaped: Slice<UnsafeBufferPointer<UInt8>>) -> [(name: String, value: String)]? {
        var text = Substring(unescaped(escaped))
        if text.first == ":" { text.removeFirst() }
        var list: [(name: String, value: String)] = []
        while true {
            text = text.drop(while: { $0 == " " || $0 == "\t" })
            guard let first = text.first else { break }
            if first == "#" || first == "." {
                // (As Python-Markdown reads them: anything but a space, `=` or `}`, such as `3.x`.)
                let name = text.dropFirst().prefix(while: { !$0.isWhitespace && $0 != "=" })
                guard !name.isEmpty else { return nil }
                list.append((first == "#" ? "id" : "class", String(name)))
                text = text.dropFirst(name.count + 1)
                continue
            }
            let key = text.prefix(while: { isNameCharacter($0) || $0 == ":" })
            guard !key.isEmpty, key.first?.isLetter == true, text.dropFirst(key.count).first == "=" else { return nil }
            text = text.dropFirst(key.count + 1)
            let value: Substring
            if let quote = text.first, quote == "\"" || quote == "'" {
                guard let end = text.dropFirst().firstIndex(of: quote) else { return nil }
                value = text[text.index(after: text.startIndex)..<end]
                text = text[text.index(after: end)...]
            } else {
                value = text.prefix(while: { !$0.isWhitespace })
                guard !value.isEmpty else { return nil }
                text = text.dropFirst(value.count)
            }
            list.append((String(key), String(value)))
        }
        return list.isEmpty ? nil : list
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "-" || character == "_"
    }

    /// The text of escaped HTML, its character references decoded (`CharacterReference`).
    private static func unescaped(_ escaped: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        CharacterReference.decodeAll(ArraySlice(escaped))
    }

    /// Whether `html` holds `text` at `index`.
    private static func matches(_ text: StaticString, in html: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        text.withUTF8Buffer { text in
            index >= 0 && index + text.count <= html.count && (0..<text.count).allSatisfy { html[index + $0] == text[$0] }
        }
    }

    /// The `}` that ends the list opened at `open`: before the line or the text ends (the
    /// next tag). (So each byte is looked at once, whatever the number of braces.)
    private static func listEnd(in html: UnsafeBufferPointer<UInt8>, after open: Int) -> Int? {
        var index = open + 1
        while index < html.count {
            switch html[index] {
            case UInt8(ascii: "}"): return index
            case UInt8(ascii: "<"), .lineFeed: return nil
            default: index += 1
            }
        }
        return nil
    }

    /// Where the opening tag of an icon (`IconExtension`) that ends at `end` starts, and
    /// where its `>` is; nil when no icon ends there.
    private static func icon(in html: UnsafeBufferPointer<UInt8>, before end: Int) -> (Int, Int)? {
        let open: StaticString = "<span class=\"twemoji\">"
        guard matches("</svg></span>", in: html, at: end - 13),
            let start = openingTag(open, in: html, before: end - 13, stop: "</span>")
        else { return nil }
        return (start, start + open.utf8CodeUnitCount - 1)
    }

    /// Where `tag` starts, looking back from `end`; nil when `stop` comes first (an image's
    /// tag is the nearest `<`; a link's is after the link before it).
    private static func openingTag(_ tag: StaticString, in html: UnsafeBufferPointer<UInt8>, before end: Int, stop: StaticString) -> Int? {
        var index = end - 1
        while index >= 0 {
            if html[index] == UInt8(ascii: "<") {
                if matches(tag, in: html, at: index) { return index }
                if matches(stop, in: html, at: index) { return nil }
            }
            index -= 1
        }
        return nil
    }
}
