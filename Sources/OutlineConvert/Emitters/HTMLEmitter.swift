/// Options of the HTML output (docs/formats.md).
public struct HTMLOptions: Equatable, Sendable {
    /// Only the outline markup, no page around it.
    public var fragment = false
    /// Pass raw HTML in Markdown through (cmark's `--unsafe`).
    public var unsafe = false
    /// Siblings exclude each other: opening one closes the others (`<details name=…>`).
    public var accordion = false
    /// A user page template to use instead of the default.
    public var template: PageTemplate?
    /// A table of contents (`--toc`; front matter `toc: true` turns it on per document).
    public var toc = false
    /// The link beside each section's title to the section; nil for none (an mkdocs project
    /// whose `toc` has no `permalink`).
    var permalink: Permalink? = .ours

    /// A section's link to itself: its text, and what it says to a screen reader.
    struct Permalink: Equatable, Sendable {
        var text: String
        var label: String
        /// `#`, shown when the title is hovered.
        static let ours = Permalink(text: "#", label: "Link to this section")
    }

    /// HTML options; every one off by default.
    public init(fragment: Bool = false, unsafe: Bool = false, accordion: Bool = false, template: PageTemplate? = nil, toc: Bool = false) {
        self.fragment = fragment
        self.unsafe = unsafe
        self.accordion = accordion
        self.template = template
        self.toc = toc
    }
}

/// Writes an outline as HTML: a collapsible node is `<details id=…>` (with `open` exactly
/// when expanded) whose `<summary>` holds the title, then the body's HTML, then the
/// children; a node with neither body nor children is just its heading.
///
/// Screen readers get a heading outline: a node at depth d is `h(d)`, or `h(d+1)` when the
/// page has a title (its `h1`); past `h6`, `role=heading` with `aria-level`. For a
/// collapsible node the heading stands just before its `<details>`, visually hidden,
/// because JAWS and VoiceOver drop headings placed inside `<summary>` (it is exposed as a
/// button, whose children are presentational). The page's language is the front
/// matter's `lang`, else its project's language, else `en`.
struct HTMLEmitter: OutlineWriter {
    var rendersBodies: Bool { true }
    let name = "html"
    let extensions = ["html", "htm"]
    let optionNames = ["--fragment", "--template", "--unsafe", "--accordion", "--toc"]

    func write(_ outline: Outline, context: WriteContext) -> (bytes: [UInt8], warnings: [Diagnostic]) {
        var page = Page(
            options: context.options.html, links: context.site?.links, site: context.site,
            bodies: BodyRenderer(
                bodies: context.bodies, headingIds: PageHeadingIdentifiers(outline, style: context.options.slugStyle, icons: context.options.icons),
                forcedOpen: context.options.collapse.all,
                flavor: context.bodyFlavor, readers: HTMLReaders(search: context.site?.search, code: context.site?.code ?? CodeLanguages())))
        // (In a graph or vault only: anywhere else a page's look follows its outline, not the
        // format it was read from, so that A → outline → HTML is A → HTML.)
        page.isBulletOutline = context.isBulletOutline && context.options.wikiIndex != nil
        page.backlinks = context.options.wikiIndex.map { $0.backlinks(of: BatchPlan.absolute(context.file)) } ?? []
        if let index = context.options.wikiIndex {
            let embeds = Embeds(page: BatchPlan.absolute(context.file), shownPage: context.file, index: index, options: context.options)
            page.embeds = embeds
            page.chain = embeds.chain
            page.file = embeds.page
        }
        // (Only where a title holds a link that may need one of the page's definitions.)
        if Self.mayHoldReferenceLinks(outline) { page.bodies.titleDefinitions = BodyRenderer.linkDefinitions(of: outline) }
        page.richTitles = page.renderedRichTitles(outline)
        var warnings = context.options.html.accordion ? Self.accordionWarnings(outline.nodes, file: context.file) : []
        let bytes = page.render(outline, pageTitle: context.pageTitle, sizeHint: context.inputSize, sink: context.sink)
        warnings += page.embeds?.warnings ?? []
        return (bytes, warnings)
    }

    /// Whether a title's Markdown may hold a reference link (`[x]`, `[x][y]`: a `]` that no
    /// `(` follows).
    private static func mayHoldReferenceLinks(_ outline: Outline) -> Bool {
        var found = false
        outline.forEachNode { node in
            guard !found, let title = node.attributes[AttributeKey.outlinerTitle], title.containsByte(UInt8(ascii: "]")) else { return }
            let bytes = Array(title.utf8)
            found = bytes.indices.contains { bytes[$0] == UInt8(ascii: "]") && ($0 + 1 == bytes.count || bytes[$0 + 1] != UInt8(ascii: "(")) }
        }
        return found
    }

    /// A browser opens only the first of several `open` members of a `<details name>` group.
    private static func accordionWarnings(_ nodes: [OutlineNode], file: String) -> [Diagnostic] {
        let open = nodes.filter { $0.isCollapsible && !$0.isCollapsed }
        var warnings = open.dropFirst().prefix(1).map {
            Diagnostic(
                SourceLocation(file: file, line: $0.line),
                "with --accordion only one of these siblings can start open; '\(Quote.snippet($0.title))' will start closed")
        }
        for node in nodes { warnings += accordionWarnings(node.children, file: file) }
        return warnings
    }
}

/// One page being written.
private struct Page {
    let options: HTMLOptions
    /// In a docs site: the page's links, rewritten and collected as bodies are written.
    let links: PageLinks?
    /// In a docs site: its index, navigation and URL.
    let site: PageSite?
    var bodies: BodyRenderer
    /// A page of a graph or vault: the items are wrapped in `outline-bullets`, which the
    /// style shows as text with bullets, as the apps do.
    var isBulletOutline = false
    /// In a graph or vault: the pages that link to this one (names, relative URLs, paths).
    var backlinks: [(name: String, url: String, input: String)] = []
    /// In a graph or vault: what embeds show, and the embeds this page is written inside
    /// (see `Embeds.chain`).
    var embeds: Embeds?
    var chain: [String] = []
    /// The file whose outline this is (absolute): the page's, or an embedded page's.
    var file = ""
    /// Inside an embed: the line of the page's own embed, where warnings point; and no ids
    /// (the page has them where they are written).
    var embedLine: Int?
    /// The HTML of the nodes' title lines with markup, by position, rendered together
    /// (see `renderedRichTitles`); a node not here renders its own.
    var richTitles: [Int: [UInt8]] = [:]

    /// The whole page, or only the outline markup with `fragment` (the table of contents,
    /// when there is one, first, as an element of its own).
    func render(_ outline: Outline, pageTitle: String, sizeHint: Int = 0, sink: OutputSink? = nil) -> [UInt8] {
        var html = ByteBuffer(capacity: sink == nil ? Self.estimatedSize(outline, sourceSize: sizeHint) : 0, sink: sink)
        let toc = options.toc || outline.asksForTableOfContents
        // (A docs site's page with sections has one anyway, on wide screens only, as
        // mkdocs-material shows one beside every page; not a graph's page, whose items are
        // bullets, as in the app.)
        let wideTOC =
            !toc && !isBulletOutline && site?.navigation == true && (outline.nodes.count > 1 || outline.nodes.first?.children.isEmpty == false)
        if options.fragment {
            if toc { TableOfContents.write(outline, titles: richTitles, into: &html) }
            writeContent(outline, pageTitle: pageTitle, into: &html)
        } else {
            let lang = outline.language ?? site?.language ?? "en"
            (options.template ?? .default).render(
                title: pageTitle, lang: lang, site: site, into: &html,
                toc: { toc || wideTOC ? TableOfContents.write(outline, wideOnly: wideTOC, titles: richTitles, into: &$0) : () },
                code: {
                    let (ids, root) = (bodies.readers.code?.ids ?? [], site?.navigation == true ? site?.root : nil)
                    CodeHighlighting.writeScript(for: ids, root: root, into: &$0)
                    MathTypesetting.writeScript(for: ids, root: root, into: &$0)
                },
                content: { writeContent(outline, pageTitle: pageTitle, into: &$0) })
        }
        return html.finish()
    }

    /// About the size of the page, so the buffer is allocated once, not grown by doubling:
    /// bodies take about 1.25× their source; each node's markup is counted as written.
    private static func estimatedSize(_ outline: Outline, sourceSize: Int) -> Int {
        var markup = 0
        var titles = 0
        outline.forEachNode { node in
            let text = node.id.utf8.count + node.title.utf8.count
            titles += node.title.utf8.count
            markup += node.isCollapsible ? 240 + 2 * text : 50 + text
        }
        return max(sourceSize - titles, 0) * 5 / 4 + markup + 24_576
    }

    private func writeContent(_ outline: Outline, pageTitle: String, into html: inout ByteBuffer) {
        let offset = outline.title == nil ? 0 : 1
        if let title = outline.title {
            html.write("<h1 class=\"outline-page-title\">" as StaticString)
            html.write(escaping: title)
            html.write("</h1>\n" as StaticString)
        }
        bodies.readers.search?.begin(id: "", title: pageTitle)
        bodies.appendHTML(
            outline.body, at: 0, line: 0, unsafe: options.unsafe, links: links, to: &html, writing: embedParagraphs(depth: 1, offset: offset))
        var position = 1
        if isBulletOutline { html.write("<div class=\"outline-bullets\">\n" as StaticString) }
        write(outline.nodes, depth: 1, offset: offset, group: "outline", position: &position, into: &html)
        if isBulletOutline { html.write("</div>\n" as StaticString) }
        writeBacklinks(into: &html)
    }

    /// In a graph or vault: the pages that link to this one ("Linked references", as the
    /// apps list them), each by its name.
    private func writeBacklinks(into html: inout ByteBuffer) {
        guard !backlinks.isEmpty, let links else { return }
        html.write("<section class=\"outline-backlinks\" aria-label=\"Linked references\">\n<h2>Linked references</h2>\n<ul>\n" as StaticString)
        for (name, url, input) in backlinks {
            html.write("<li><a href=\"" as StaticString)
            html.write(escaping: links.href(toPage: input) ?? links.href(for: url, line: 0, column: 0) ?? url)
            html.write("\">" as StaticString)
            html.write(escaping: name)
            html.write("</a></li>\n" as StaticString)
        }
        html.write("</ul>\n</section>\n" as StaticString)
    }

    /// `position` is the next node's in document order (see `ParsedBodies`).
    private func write(
        _ nodes: [OutlineNode], depth: Int, offset: Int, group: String, position: inout Int, into html: inout ByteBuffer
    ) {
        for node in nodes {
            let here = position
            position += 1
            let level = depth + offset
            var titleLinks = TitleLinks(node, unsafe: options.unsafe)
            // In a site, a title's link to another input (an OPML link outline) is rewritten
            // and checked like a body's.
            if let url = titleLinks.title, let href = links?.href(for: url, line: embedLine ?? node.line, column: 0) { titleLinks.title = href }
            let mkdocsID = bodies.headingIds.mkdocsID(of: node)
            // An outliner's title line with markup renders as its Markdown (unless the node
            // links its title itself).
            let richTitle = titleLinks.isEmpty ? richTitles[here] ?? richTitle(of: node) : nil
            // (Math in a title is math of the page, for KaTeX.)
            richTitle?.withUnsafeBufferPointer { bodies.readers.code?.collectMath(from: $0) }
            let plainTitle = bodies.pageFlavor.plainTitle(node.title)
            bodies.readers.search?.begin(id: node.id, title: plainTitle, html: richTitle.flatMap { NavigationTitle.html($0, title: plainTitle) })
            let ids = embedLine == nil ? (node.id, mkdocsID) : nil
            // An item that is an embed (`{{embed [[Page]]}}`): what it embeds, under its link.
            let embed = embeds == nil ? nil : Embeds.spec(ofLine: node.attributes[AttributeKey.outlinerTitle] ?? node.title)
            guard node.isCollapsible else {
                heading(node.title, rich: richTitle, level: level, ids: ids, links: titleLinks, className: "outline-leaf", into: &html)
                embed.flatMap { embedWriter($0, line: node.line, depth: depth + 1, offset: offset) }?(&html)
                continue
            }
            // (The hidden heading holds no link: a link there would take focus unseen. It
            // says the emoji a title's shortcodes name, as the title shows them, and leaves
            // its icons out.)
            let hiddenTitle =
                plainTitle.containsByte(UInt8(ascii: ":")) && bodies.pageFlavor.names.contains("emoji")
                ? Emoji.replacingShortcodes(in: plainTitle) : plainTitle
            heading(hiddenTitle, rich: nil, level: level, ids: nil, links: .none, className: "outline-heading", into: &html)
            let title = node.title
            let open = !node.isCollapsed
            let accordionGroup = options.accordion ? group : nil
            Self.summary(
                ids: ids, title: title, rich: richTitle, links: titleLinks, level: level, open: open, group: accordionGroup,
                permalink: options.permalink, into: &html)
            embed.flatMap { embedWriter($0, line: node.line, depth: depth + 1, offset: offset) }?(&html)
            bodies.appendHTML(
                node.body, at: here, line: embedLine ?? node.line, unsafe: options.unsafe, links: links, to: &html,
                writing: embedParagraphs(depth: depth + 1, offset: offset))
            write(
                node.children, depth: depth + 1, offset: offset, group: options.accordion ? node.id : "", position: &position,
                into: &html)
            html.write("</details>\n" as StaticString)
        }
    }

    /// In a graph or vault: a body's paragraphs of embeds only (`![[Note]]`), written as
    /// what they embed (when all of them show it; else as their links).
    private func embedParagraphs(depth: Int, offset: Int) -> ((OpaquePointer, Int) -> ((inout ByteBuffer) -> Void)?)? {
        guard embeds != nil else { return nil }
        return { block, line in
            guard let specs = WikiLinkExtension.embedSpecs(of: block) else { return nil }
            let writers = specs.compactMap { embedWriter($0, line: line, depth: depth, offset: offset) }
            guard writers.count == specs.count else { return nil }
            return { html in for write in writers { write(&html) } }
        }
    }

    /// What writes what `spec` embeds (see `Embeds`), its nodes at `depth`, in an
    /// `outline-embed` box; nil when it shows only its link.
    private func embedWriter(_ spec: String, line: Int, depth: Int, offset: Int) -> ((inout ByteBuffer) -> Void)? {
        let line = embedLine ?? line
        guard let embeds, let content = embeds.content(of: spec, from: file, chain: chain, line: line) else { return nil }
        var inner = Page(
            options: options, links: links, site: nil,
            bodies: BodyRenderer(bodies: nil, headingIds: bodies.headingIds, forcedOpen: bodies.forcedOpen, flavor: content.flavor))
        inner.isBulletOutline = content.isBulletOutline
        inner.embeds = embeds
        inner.chain = chain + [content.key]
        inner.file = content.file
        inner.embedLine = line
        return { html in
            html.write(
                content.isBulletOutline ? "<div class=\"outline-embed outline-bullets\">\n" as StaticString : "<div class=\"outline-embed\">\n")
            inner.bodies.appendHTML(
                content.body, at: 0, line: line, unsafe: options.unsafe, links: links, to: &html,
                writing: inner.embedParagraphs(depth: depth, offset: offset))
            var position = 0
            inner.write(content.nodes, depth: depth, offset: offset, group: "embed", position: &position, into: &html)
            html.write("</div>\n" as StaticString)
        }
    }

    /// `richTitle` of every node with a title line, by position, for those the one
    /// document of them all renders (`BodyRenderer.inlineHTMLs`).
    func renderedRichTitles(_ outline: Outline) -> [Int: [UInt8]] {
        var sources: [(markdown: String, line: Int)] = []
        var positions: [Int] = []
        var position = 0
        outline.forEachNode { node in
            position += 1
            guard let source = richTitleSource(of: node), !source.isEmpty else { return }
            sources.append((String(OutlinerMarkdownParser.strippingHeading(source[...])), embedLine ?? node.line))
            positions.append(position)
        }
        var titles: [Int: [UInt8]] = [:]
        for (position, html) in zip(positions, bodies.inlineHTMLs(sources, unsafe: options.unsafe, links: links)) {
            if let html { titles[position] = html }
        }
        return titles
    }

    /// The title line a node renders from: its `outline-title`, or its title when that
    /// holds links, emoji or icon shortcodes or math of the page's flavour; nil for a plain
    /// title.
    private func richTitleSource(of node: OutlineNode) -> String? {
        if let source = node.attributes[AttributeKey.outlinerTitle] { return source }
        if Emoji.holdsShortcode(node.title), bodies.pageFlavor.names.contains("emoji") { return MarkdownEmitter.escapedTitle(node.title) }
        if bodies.pageFlavor.names.contains("pymdownx.emoji"), IconExtension.holdsShortcode(node.title, icons: bodies.pageFlavor.icons) {
            return MarkdownEmitter.escapedTitle(node.title)
        }
        // (Math is read by the flavour, not the parse for the structure: a title with a
        // dollar is read again, which makes it math, or the same text.)
        if node.title.containsByte(UInt8(ascii: "$")), bodies.pageFlavor.names.contains("math") {
            return MarkdownEmitter.escapedTitle(node.title)
        }
        // A plain title can hold links of the page's flavour too (`((block-id))`, `#tag`).
        guard bodies.pageFlavor.names.contains("wikilinks"),
            node.title.containsByte(UInt8(ascii: "#")) || node.title.contains(bytes: "((") || node.title.contains(bytes: "{{")
        else { return nil }
        return MarkdownEmitter.escapedTitle(node.title)
    }

    /// The HTML of an outliner item's title line (`outline-title`), without its heading
    /// marker; nil for any other title.
    private func richTitle(of node: OutlineNode) -> [UInt8]? {
        let source = richTitleSource(of: node)
        // An outliner's item with no title line and nothing to be titled by (an empty item,
        // or one of properties only) shows as the app shows it: a bullet and no text.
        if isBulletOutline, source == "", node.title == HeadingMarkers.untitled { return [] }
        guard let source, !source.isEmpty else { return nil }
        let line = String(OutlinerMarkdownParser.strippingHeading(source[...]))
        return bodies.inlineHTML(line, line: embedLine ?? node.line, unsafe: options.unsafe, links: links)
    }

    /// A collapsible node's `<details>` start tag and its `<summary>`; `ids` are the node's
    /// and the one mkdocs would give it, if another.
    private static func summary(
        ids: (id: String, mkdocs: String?)?, title: String, rich: [UInt8]?, links: TitleLinks, level: Int, open: Bool, group: String?,
        permalink: HTMLOptions.Permalink?, into html: inout ByteBuffer
    ) {
        html.write("<details" as StaticString)
        if let id = ids?.id {
            html.write(" id=\"" as StaticString)
            html.write(escaping: id)
            html.write("\"" as StaticString)
        }
        if let group {
            html.write(" name=\"" as StaticString)
            html.write(escaping: group)
            html.write("\"" as StaticString)
        }
        if open { html.write(" open" as StaticString) }
        html.write("><summary><span class=\"outline-title outline-level-" as StaticString)
        html.append(UInt8(ascii: "0") + UInt8(min(level, 6)))
        html.write("\">" as StaticString)
        MkDocsSlug.writeAnchor(ids?.mkdocs, into: &html)
        if let rich { html.write(rich) } else { writeTitle(title, links: links, into: &html) }
        html.write("</span>" as StaticString)
        if let id = ids?.id, let permalink {
            html.write("<a class=\"outline-permalink\" href=\"#" as StaticString)
            html.write(escaping: id)
            html.write("\" aria-label=\"" as StaticString)
            html.write(escaping: permalink.label)
            html.write("\">" as StaticString)
            html.write(escaping: permalink.text)
            html.write("</a>" as StaticString)
        }
        html.write("</summary>\n" as StaticString)
    }

    /// The title, a link where its node says so, and a feed's link beside it.
    private static func writeTitle(_ title: String, links: TitleLinks, into html: inout ByteBuffer) {
        guard !links.isEmpty else { return html.write(escaping: title) }
        if let href = links.title {
            html.write("<a class=\"outline-link\" href=\"" as StaticString)
            html.write(escaping: href)
            html.write("\">" as StaticString)
            html.write(escaping: title)
            html.write("</a>" as StaticString)
        } else {
            html.write(escaping: title)
        }
        if let feed = links.feed {
            html.write(" <a class=\"outline-feed\" href=\"" as StaticString)
            html.write(escaping: feed)
            html.write("\">feed</a>" as StaticString)
        }
    }

    /// `<hN>` up to h6, then `<div role="heading" aria-level="N">`; with `ids`, the node's,
    /// and the one mkdocs would give it, if another.
    private func heading(
        _ title: String, rich: [UInt8]?, level: Int, ids: (id: String, mkdocs: String?)?, links: TitleLinks, className: StaticString,
        into html: inout ByteBuffer
    ) {
        if level <= 6 {
            html.write("<h" as StaticString)
            html.append(UInt8(ascii: "0") + UInt8(level))
        } else {
            html.write("<div role=\"heading\" aria-level=\"\(level)\"")
        }
        if let ids {
            html.write(" id=\"" as StaticString)
            html.write(escaping: ids.id)
            html.write("\"" as StaticString)
        }
        html.write(" class=\"" as StaticString)
        html.write(className)
        html.write("\">" as StaticString)
        MkDocsSlug.writeAnchor(ids?.mkdocs, into: &html)
        if let rich { html.write(rich) } else { Self.writeTitle(title, links: links, into: &html) }
        if level <= 6 {
            html.write("</h" as StaticString)
            html.append(UInt8(ascii: "0") + UInt8(level))
            html.write(">\n" as StaticString)
        } else {
            html.write("</div>\n" as StaticString)
        }
    }
}

/// The table of contents (`--toc`): the outline's titles as nested links, built from
/// `<details>`/`<summary>` like the outline itself, so that it collapses without script; a
/// group starts open exactly when its section does. One a docs site gives every page
/// (`wideOnly`) shows on wide screens only. A title with markup shows it as the navigation
/// does (`NavigationTitle`: `cfg` as code, a link's text without the link).
enum TableOfContents {
    /// `titles`: the HTML of the titles with markup, by position in document order (from 1),
    /// as the page renders them (`Page.richTitles`).
    static func write(_ outline: Outline, wideOnly: Bool = false, titles: [Int: [UInt8]] = [:], into html: inout ByteBuffer) {
        guard !outline.nodes.isEmpty else { return }
        html.write(wideOnly ? "<nav class=\"outline-toc outline-toc-wide\"" as StaticString : "<nav class=\"outline-toc\"" as StaticString)
        html.write(" aria-label=\"Table of contents\">\n<details open><summary>Contents</summary>\n" as StaticString)
        var position = 1
        write(outline.nodes, titles: titles, position: &position, into: &html)
        html.write("</details>\n</nav>\n" as StaticString)
    }

    private static func write(_ nodes: [OutlineNode], titles: [Int: [UInt8]], position: inout Int, into html: inout ByteBuffer) {
        html.write("<ul>\n" as StaticString)
        for node in nodes {
            let rich = titles[position].flatMap { NavigationTitle.html($0, title: node.title) }
            position += 1
            html.write("<li>" as StaticString)
            if node.children.isEmpty {
                link(node, rich: rich, into: &html)
            } else {
                // Open whatever the section's state: every entry can be reached from the start.
                html.write("<details open><summary>" as StaticString)
                link(node, rich: rich, into: &html)
                html.write("</summary>\n" as StaticString)
                write(node.children, titles: titles, position: &position, into: &html)
                html.write("</details>" as StaticString)
            }
            html.write("</li>\n" as StaticString)
        }
        html.write("</ul>\n" as StaticString)
    }

    private static func link(_ node: OutlineNode, rich: String?, into html: inout ByteBuffer) {
        html.write("<a href=\"#" as StaticString)
        html.write(escaping: node.id)
        html.write("\">" as StaticString)
        if let rich { html.write(rich) } else { html.write(escaping: node.title) }
        html.write("</a>" as StaticString)
    }
}
