internal import CCmark

/// Outliners' and vaults' links (`wikilinks`), for outliners' Markdown and the pages of a
/// graph or vault (docs/formats.md): `[[Page]]`, `[[Page|label]]`, `[[Page#Heading]]` and
/// `[[#Heading]]` become links, `![[image.png]]` an image and `![[Note]]` a link to the note;
/// Logseq's `((block-id))` links to its block, labelled with the block's title, and `#tag`
/// or `#[[tag]]` links to the tag's page when there is one. With an index (a site of a graph
/// or vault), a name resolves as the app resolves it, to a relative link between inputs
/// that the site rewrites and checks; without one, `[[Page]]` links to `Page.md` beside the
/// page (`a/b` to `a___b.md`, Logseq's file name).
struct WikiLinkExtension: MarkdownExtension {
    var name: String { "wikilinks" }
    let index: WikiIndex?
    /// The page's own path (absolute), where relative links start.
    let page: String
    /// The page's folder, as `PercentEncoding.folder(of:)`.
    private let folder: [ArraySlice<UInt8>]
    /// Whether an Obsidian block id (`^id`) leaves an anchor at the start of its paragraph,
    /// which `[[Note#^id]]` links to (not in embedded content: the page it comes from has it).
    let anchors: Bool

    init(index: WikiIndex?, page: String, anchors: Bool = true) {
        self.index = index
        self.page = page
        self.anchors = anchors
        folder = PercentEncoding.folder(of: page)
    }

    /// The relative URL from the page to `target` (absolute).
    private func url(to target: String, fragment: String? = nil) -> String {
        PercentEncoding.pathSegment.relativeURL(from: folder, to: target, fragment: fragment)
    }

    func prepared(for source: SourceLines) -> WikiLinkExtension? {
        source.bytes.contains(bytes: "[[") || source.bytes.contains(bytes: "((") || source.bytes.contains(bytes: "#")
            || (index?.app == .obsidian && source.bytes.contains(bytes: " ^")) ? self : nil
    }

    /// One link found in a text: to `url`, or with none to a page that does not exist
    /// (shown as its label).
    private struct Found {
        let range: Range<Int>
        let url: String?
        let label: String
        var isImage = false
        /// What it embeds, when it is an embed of a page or block (see `Embeds.spec(ofLine:)`).
        var embed: String?
    }

    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        var texts: [OpaquePointer] = []
        var links: [OpaquePointer] = []
        var blockAnchors: [(paragraph: OpaquePointer, id: ArraySlice<UInt8>)] = []
        var linkDepth = 0
        MarkdownTree.walk(under: block) { node, entering in
            switch cmark_node_get_type(node) {
            case CMARK_NODE_LINK where entering:
                linkDepth += 1
                // Logseq's labelled references: `[label]([[Page]])`, `[label](((block-id)))`.
                if let url = cmark_node_get_url(node), url.pointee == 0x5B || url.pointee == 0x28 { links.append(node) }
            case CMARK_NODE_TEXT:
                guard linkDepth == 0 else { return }
                var literal = CommonMarkDocument.literalBytes(node)[...]
                if index?.app == .obsidian, cmark_node_next(node) == nil,
                    let id = Self.blockID(ending: literal, first: cmark_node_previous(node) == nil)
                {
                    // Obsidian's block id (`text ^id` at a paragraph's end) is not shown.
                    if anchors, let paragraph = cmark_node_parent(node), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH {
                        blockAnchors.append((paragraph, literal.suffix(id)))
                    }
                    literal = literal.dropLast(id + 1)
                    while literal.last == .space { literal = literal.dropLast() }
                    MarkdownTree.setLiteral(node, literal)
                }
                if literal.contains(bytes: "[[") || literal.contains(bytes: "((") || literal.contains(UInt8(ascii: "#")) { texts.append(node) }
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                linkDepth += entering ? 1 : -1
            default:
                break
            }
        }
        for (paragraph, id) in blockAnchors {
            // (The id is letters, digits and `-`: nothing to escape.)
            let anchor = Self.anchorStart + String(decoding: id, as: UTF8.self) + "\"></span>"
            if let node = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: anchor, exit: "") { cmark_node_prepend_child(paragraph, node) }
        }
        for link in links {
            let url = String(cString: cmark_node_get_url(link))
            guard let found = find(in: url).first, found.range == 0..<url.utf8.count else { continue }
            if let target = found.url {
                cmark_node_set_url(link, target)
            } else if let text = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: Self.missingStart, exit: "</span>") {
                // (A page that does not exist: its label as text.)
                while let child = cmark_node_first_child(link) { cmark_node_append_child(text, child) }
                cmark_node_insert_before(link, text)
                cmark_node_free(link)
            }
        }
        var embeds: [(OpaquePointer, String)] = []
        for text in texts {
            let links = find(in: String(decoding: CommonMarkDocument.literalBytes(text), as: UTF8.self))
            guard !links.isEmpty else { continue }
            for (index, piece) in tree.split(text, at: links.map { ($0.range.lowerBound, $0.range.count) }) {
                let link = links[index]
                let node: OpaquePointer?
                if let url = link.url {
                    node = tree.newNode(link.isImage ? CMARK_NODE_IMAGE : CMARK_NODE_LINK)
                    if let node { cmark_node_set_url(node, url) }
                } else {
                    node = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: Self.missingStart, exit: "</span>")
                }
                guard let node else { continue }
                MarkdownTree.setLiteral(piece, Array(link.label.utf8)[...])
                cmark_node_insert_before(piece, node)
                cmark_node_append_child(node, piece)
                if let embed = link.embed, link.url != nil { embeds.append((node, embed)) }
            }
        }
        // A paragraph of embeds only (one a line) is marked for the page to write what they embed.
        guard index != nil, !embeds.isEmpty else { return }
        let embedLinks = Set(embeds.map(\.0))
        for (link, spec) in embeds {
            guard let paragraph = cmark_node_parent(link), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH,
                MarkdownTree.children(of: paragraph).allSatisfy({ embedLinks.contains($0) || Self.isSpace($0) || Self.embedSpec(ofMarker: $0) != nil }
                ),
                let marker = tree.newNode(
                    CMARK_NODE_CUSTOM_INLINE, enter: Self.embedStart + PercentEncoding.pathSegment.encoded(spec) + "\">", exit: "</span>")
            else { continue }
            cmark_node_insert_before(link, marker)
            cmark_node_append_child(marker, link)
        }
    }

    /// What a top-level paragraph of embeds only embeds, in order (see `Embeds`); nil for any other block.
    static func embedSpecs(of block: OpaquePointer) -> [String]? {
        guard cmark_node_get_type(block) == CMARK_NODE_PARAGRAPH else { return nil }
        var specs: [String] = []
        for child in MarkdownTree.children(of: block) {
            if let spec = embedSpec(ofMarker: child) {
                specs.append(spec)
            } else if !isSpace(child) {
                return nil
            }
        }
        return specs.isEmpty ? nil : specs
    }

    private static func embedSpec(ofMarker node: OpaquePointer) -> String? {
        guard cmark_node_get_type(node) == CMARK_NODE_CUSTOM_INLINE, let enter = cmark_node_get_on_enter(node) else { return nil }
        let marker = String(cString: enter)
        guard marker.hasPrefix(embedStart), marker.hasSuffix("\">") else { return nil }
        return SiteLinks.decoded(String(marker.dropFirst(embedStart.count).dropLast(2)))
    }

    /// A line break, or a text of spaces only.
    /// Whether a paragraph's child shows nothing: white space, or a block id's anchor.
    private static func isSpace(_ node: OpaquePointer) -> Bool {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: true
        case CMARK_NODE_TEXT: CommonMarkDocument.literalBytes(node).allSatisfy { $0 == .space || $0 == .tab }
        case CMARK_NODE_CUSTOM_INLINE: cmark_node_get_on_enter(node).map { String(cString: $0).hasPrefix(anchorStart) } ?? false
        default: false
        }
    }

    private static let anchorStart = "<span id=\"^"

    private static let embedStart = "<span class=\"outline-embed-link\" data-embed=\""

    /// The length of the Obsidian block id (`^id`, letters, digits and `-`) that `text`
    /// ends with, after a space or `]]` or at its start (unless it is the `first` of its paragraph);
    /// nil when it ends otherwise.
    private static func blockID(ending text: ArraySlice<UInt8>, first: Bool) -> Int? {
        let id = text.reversed().prefix { $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "-") }.count
        let caret = text.endIndex - id - 1
        guard id > 0, caret >= text.startIndex, text[caret] == UInt8(ascii: "^") else { return nil }
        return caret == text.startIndex ? (first ? nil : id) : (text[caret - 1] == .space || text[caret - 1] == UInt8(ascii: "]") ? id : nil)
    }

    /// The links in a text, in order, with their byte ranges.
    private func find(in text: String) -> [Found] {
        let bytes = Array(text.utf8)
        var found: [Found] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "["), let (end, inner) = Self.enclosed(bytes, at: index, open: "[[", close: "]]") {
                let embed = index > 0 && bytes[index - 1] == UInt8(ascii: "!")
                let start = embed ? index - 1 : index
                if let link = wikiLink(inner, embed: embed) {
                    let spec = embed && !link.isImage ? Embeds.spec(ofLine: "![[" + inner + "]]") : nil
                    found.append(Found(range: start..<end, url: link.url, label: link.label, isImage: link.isImage, embed: spec))
                }
                index = end
                continue
            }
            if byte == UInt8(ascii: "("), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "("),
                let (end, inner) = Self.enclosed(bytes, at: index, open: "((", close: "))"), let pages = self.index,
                inner.utf8.count == 36, inner.allSatisfy({ $0.isHexDigit || $0 == "-" })
            {
                if let target = pages.block(inner) {
                    found.append(Found(range: index..<end, url: url(to: target.page, fragment: inner.lowercased()), label: target.title))
                } else {
                    pages.noteMissing("((\(inner)))", from: page)
                    found.append(Found(range: index..<end, url: nil, label: inner))
                }
                index = end
                continue
            }
            // Logseq's `{{embed [[Page]]}}` and `{{embed ((block-id))}}`: the link to what it embeds.
            if byte == UInt8(ascii: "{"), let (end, inner) = Self.enclosed(bytes, at: index, open: "{{", close: "}}"), inner.hasPrefix("embed "),
                let embedded = find(in: inner.dropFirst(6).trimmed).first, embedded.range.count == inner.dropFirst(6).trimmed.utf8.count
            {
                found.append(Found(range: index..<end, url: embedded.url, label: embedded.label, embed: Embeds.spec(ofLine: "{{" + inner + "}}")))
                index = end
                continue
            }
            if byte == UInt8(ascii: "#"), index == 0 || bytes[index - 1] == .space || bytes[index - 1] == .tab, let tag = tag(bytes, at: index) {
                found.append(tag)
                index = tag.range.upperBound
                continue
            }
            index += 1
        }
        return found
    }

    /// `open` … `close` (two bytes each) at `index`, on one line and not empty: the end
    /// after `close`, and the text between.
    private static func enclosed(_ bytes: [UInt8], at index: Int, open: String, close: String) -> (Int, String)? {
        // (Byte by byte: asked at every bracket of every title and body of a graph.)
        let (open, close) = (Array(open.utf8), Array(close.utf8))
        func isOpen(_ at: Int) -> Bool { bytes[at] == open[0] && bytes[at + 1] == open[1] }
        func isClose(_ at: Int) -> Bool { bytes[at] == close[0] && bytes[at + 1] == close[1] }
        guard index + 1 < bytes.count, isOpen(index) else { return nil }
        let start = index + 2
        var end = start
        while end + 1 < bytes.count {
            if bytes[end] == .lineFeed || isOpen(end) { return nil }
            if isClose(end) { break }
            end += 1
        }
        guard end + 1 < bytes.count, isClose(end), end > start else { return nil }
        return (end + 2, String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// What `[[inner]]` (or `![[inner]]`) links to and shows.
    private func wikiLink(_ inner: String, embed: Bool) -> (url: String?, label: String, isImage: Bool)? {
        var target = inner
        var label: String?
        // (By bytes: `|` and `#` are ASCII, and a search by `Character` costs more than the rest.)
        if let bar = inner.utf8.firstIndex(of: UInt8(ascii: "|")) {
            target = String(inner[..<bar])
            label = String(inner[inner.utf8.index(after: bar)...])
        }
        var heading: String?
        if let hash = target.utf8.firstIndex(of: UInt8(ascii: "#")) {
            heading = String(target[target.utf8.index(after: hash)...])
            target = String(target[..<hash])
        }
        target = target.trimmed
        // `#A#B` names heading B under A: the last is the one linked to. Obsidian's block
        // links (`#^id`) link to the block's anchor (`^id`).
        let lastHeading = heading.flatMap { $0.split(separator: "#").last.map { String($0).trimmed } }
        let fragment = lastHeading.flatMap { $0.hasPrefix("^") ? $0 : IdentifierAssigner.slug($0) }
        let shown =
            label?.trimmed
            ?? (target.isEmpty
                ? lastHeading ?? "" : target + (heading.map { " › " + $0.split(separator: "#").joined(separator: " › ").trimmed } ?? ""))
        if target.isEmpty { return fragment.map { ("#" + PercentEncoding.pathSegment.encoded($0), shown, false) } }
        let fileExtension = Path.fileExtension(target).lowercased()
        let isImage = embed && Self.imageExtensions.contains(fileExtension)
        if embed && !fileExtension.isEmpty && fileExtension != "md" {
            // An attachment, by its name anywhere in the vault.
            let file = index?.file(named: target)
            let link =
                file.map { url(to: $0) }
                ?? target.split(separator: "/").map { PercentEncoding.pathSegment.encoded(String($0)) }.joined(separator: "/")
            return (link, label?.trimmed ?? (isImage ? target : Path.lastComponent(target)), isImage)
        }
        let name = fileExtension == "md" ? Path.deletingExtension(target) : target
        if let input = index?.page(named: name) {
            return (url(to: input, fragment: fragment), shown, false)
        }
        if let index {
            // No such page: the app shows an empty one; here it is text, and a warning.
            index.noteMissing(name, from: page)
            return (nil, shown, false)
        }
        // Without an index (one page on its own): the page's file beside it.
        let file = PercentEncoding.pathSegment.encoded(name.replacing("/", with: "___")) + ".md"
        return (file + (fragment.map { "#" + PercentEncoding.pathSegment.encoded($0) } ?? ""), shown, false)
    }

    /// Logseq's `#tag` or `#[[tag]]` at `index`, when a page has that name; Obsidian's `#tag`.
    private func tag(_ bytes: [UInt8], at index: Int) -> Found? {
        guard let pages = self.index else { return nil }
        if pages.app == .obsidian {
            // Obsidian's `#tag` (never a note's name) links to its tag page.
            let end = WikiPageScan.obsidianTagEnd(bytes, at: index)
            let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            guard end > index + 1, let input = pages.tagPage(named: name) else { return nil }
            return Found(range: index..<end, url: url(to: input), label: "#" + name)
        }
        var end = index + 1
        var name: String
        if let (close, inner) = Self.enclosed(bytes, at: index + 1, open: "[[", close: "]]") {
            end = close
            name = inner
        } else {
            end = WikiPageScan.tagEnd(bytes, at: index)
            name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        }
        guard !name.isEmpty, let input = pages.page(named: name) else { return nil }
        return Found(range: index..<end, url: url(to: input), label: "#" + name)
    }

    /// The HTML of a line of `LiteralLine.wikiPieces`, as cmark writes it after
    /// `makeInlines` (each link's destination through `rewrite`, kept when it gives nil);
    /// nil when a link is not one to write here (an unreadable one, or one `rewrite` gives
    /// a scheme): the line is read by cmark then.
    func html(of pieces: [(text: ArraySlice<UInt8>, kind: LiteralLine.PieceKind)], rewrite: (String) -> String?) -> [UInt8]? {
        var html: [UInt8] = []
        for (text, kind) in pieces {
            let link: (url: String?, label: String)
            switch kind {
            case .text:
                LiteralLine.append(text, to: &html)
                continue
            case .link:
                guard let found = wikiLink(String(decoding: text, as: UTF8.self), embed: false) else { return nil }
                link = (found.url, found.label)
            case .blockReference:
                let inner = String(decoding: text, as: UTF8.self)
                guard let pages = index else {
                    // (Without an index a reference is text.)
                    html += "((".utf8
                    LiteralLine.append(text, to: &html)
                    html += "))".utf8
                    continue
                }
                if let target = pages.block(inner) {
                    link = (url(to: target.page, fragment: inner.lowercased()), target.title)
                } else {
                    pages.noteMissing("((\(inner)))", from: page)
                    link = (nil, inner)
                }
            }
            guard let url = link.url else {
                html += Self.missingStart.utf8
                LiteralLine.append(link.label.utf8, to: &html)
                html += "</span>".utf8
                continue
            }
            let href = rewrite(url) ?? url
            guard !SiteLinks.hasScheme(href) else { return nil }
            html += "<a href=\"".utf8
            PercentEncoding.appendEscapedHref(href.utf8, to: &html)
            html += "\">".utf8
            LiteralLine.append(link.label.utf8, to: &html)
            html += "</a>".utf8
        }
        return html
    }

    /// What a link to a page that does not exist is shown as.
    private static let missingStart = "<span class=\"outline-missing-page\">"

    private static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "avif", "ico", "tif", "tiff"]
}

extension MarkdownFlavor {
    /// GitHub's flavour with Logseq's blocks and wiki links, for the page at `page`:
    /// outliners' Markdown, and every page of a graph or vault (`index`). Not GitHub's emoji
    /// shortcodes: Logseq and Obsidian show `:smile:` as written (their pickers write the
    /// emoji itself).
    static func withWikiLinks(index: WikiIndex?, page: String, anchors: Bool = true) -> MarkdownFlavor {
        MarkdownFlavor(
            extensions: [LogseqBlockExtension()] + gitHub.extensions.filter { !($0 is EmojiExtension) } + [
                WikiLinkExtension(index: index, page: BatchPlan.absolute(page), anchors: anchors)
            ])
    }
}
