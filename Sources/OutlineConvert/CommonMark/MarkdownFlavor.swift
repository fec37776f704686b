/// How Markdown is read: cmark's CommonMark with an ordered list of extensions (as pandoc
/// names its `Ext_…` and cmark-gfm its `-e` extensions). Adding an extension is its file in
/// `Extensions/` and its line in a list here. Every heading of a body gets an id in any
/// flavour (`BodyHeadings`): that is not an extension.
struct MarkdownFlavor: Equatable, Sendable {
    /// The extensions, in the order their steps run (see `MarkdownExtension`).
    let extensions: [any MarkdownExtension]
    /// The names of its extensions, in order (kept: the HTML writer asks for every node).
    let names: [String]
    /// Straight quotes as curly ones, `--` and `---` as dashes, `...` as an ellipsis
    /// (cmark's `--smart`, as mdBook's smart punctuation).
    let smartPunctuation: Bool
    /// The icons the flavour draws, when it was given a project's (nil: the bundled sets').
    let icons: IconStore?
    /// Its mkdocs blocks, if it reads them (their text is rewritten before cmark reads it).
    let admonition: AdmonitionExtension?

    init(extensions: [any MarkdownExtension], smartPunctuation: Bool = false) {
        self.extensions = extensions
        names = extensions.map(\.name)
        self.smartPunctuation = smartPunctuation
        icons = extensions.lazy.compactMap { ($0 as? IconExtension)?.icons }.first
        admonition = extensions.lazy.compactMap { $0 as? AdmonitionExtension }.first
    }

    /// GitHub Flavored Markdown as GitHub renders it (`cmark-gfm -e table -e strikethrough
    /// -e autolink -e tasklist -e footnotes`, the raw HTML its sanitizer keeps, the tag
    /// filter, and its emoji shortcodes), with the blocks people write in docs: GitHub's
    /// alerts and `<details>`, Obsidian's callouts, mkdocs' blocks and attribute lists, and
    /// mermaid fences as mkdocs-material writes them, and code blocks' info strings as mdBook
    /// and pymdownx read them.
    static let gitHub = MarkdownFlavor(extensions: gitHubExtensions())

    /// GitHub's extensions, in order, with the three that other flavours read otherwise.
    private static func gitHubExtensions(
        admonition: AdmonitionExtension = AdmonitionExtension(), spans: DelimiterExtension = .strikethrough,
        code: CodeInfoExtension = CodeInfoExtension()
    ) -> [any MarkdownExtension] {
        [
            // (First: before any other inline step cuts text, none then reads the math's text.)
            MathExtension(),
            // (Its text is rewritten before mkdocs' blocks are read, and its notes are made
            // before any other step reads their list items.)
            FootnoteExtension(),
            admonition,
            TableExtension(),
            TaskListExtension(),
            spans,
            AutolinkExtension(),
            AlertExtension(),
            CalloutExtension(),
            DetailsExtension(),
            RawHTMLExtension(),
            TagFilterExtension(),
            AttributeListExtension(),
            MermaidExtension(),
            EmojiExtension(),
            code,
        ]
    }

    /// mkdocs' dialect (SPEC §3.1.3): GitHub's flavour with what the extensions of
    /// Python-Markdown and pymdown-extensions add, those that `configured` names as
    /// `mkdocs.yml`'s `markdown_extensions` does (`pymdownx.blocks.admonition`), or all of
    /// them when nil (`--from mkdocs`); with mkdocs-material's code annotations when it names
    /// their feature (`content.code.annotate`, of `theme.features`).
    /// `icons`, when given, is a project's: its own icons, and the bundled icons' chunks
    /// inflated, kept for every document read in this flavour; else each document inflates
    /// its own. `magicLinks`, when given, is the project's magiclink shorthand.
    static func mkDocs(_ configured: Set<String>? = nil, icons: IconStore? = nil, magicLinks: MagicLinkExtension? = nil) -> MarkdownFlavor {
        func on(_ name: String) -> Bool { configured?.contains(name) ?? true }
        let fenced = FencedBlocks.Names(
            admonitions: on("pymdownx.blocks.admonition") ? FencedBlocks.Names.all.admonitions : [],
            details: on("pymdownx.blocks.details") ? FencedBlocks.Names.all.details : [],
            tabs: on("pymdownx.blocks.tab"))
        let spans = [on("pymdownx.tilde") ? DelimiterExtension.Span.tilde : .strikethrough] + [.mark, .caret].filter { on($0.name) }
        var extensions = gitHubExtensions(
            admonition: AdmonitionExtension(fenced: fenced), spans: DelimiterExtension(spans: spans),
            code: CodeInfoExtension(annotates: on(CodeInfoExtension.annotateFeature)))
        if on("pymdownx.keys") { extensions.append(KeysExtension()) }
        if on("pymdownx.smartsymbols") { extensions.append(SmartSymbolsExtension()) }
        if on("pymdownx.emoji") { extensions.append(IconExtension(icons: icons)) }
        if let magicLinks, on("pymdownx.magiclink") { extensions.append(magicLinks) }
        // (Last: it cuts text the others have read.)
        if on("abbr") { extensions.append(AbbreviationExtension()) }
        // (Its text is rewritten before the footnotes' and mkdocs' blocks are read: a note
        // next to definitions then gets a list marker of its own.)
        if on("def_list") { extensions.insert(DefinitionListExtension(), at: 0) }
        return MarkdownFlavor(extensions: extensions)
    }

    /// mdBook's reading of GitHub's flavour: a Rust block's boring lines (`# `) hidden, and
    /// smart punctuation, mdBook 0.5's default (`output.html.smart-punctuation`).
    static let mdBook = mdBook(smartPunctuation: true)

    /// `mdBook`, with or without smart punctuation.
    static func mdBook(smartPunctuation: Bool) -> MarkdownFlavor {
        MarkdownFlavor(extensions: gitHubExtensions(code: CodeInfoExtension(hidesRustLines: true)), smartPunctuation: smartPunctuation)
    }

    /// Strict CommonMark (`--from commonmark`): cmark's own reading, no extension.
    static let commonMark = MarkdownFlavor(extensions: [])

    /// A title as plain text shows it: without the icons the flavour draws (a picture has
    /// no text).
    func plainTitle(_ title: String) -> String {
        guard title.containsByte(UInt8(ascii: ":")), names.contains("pymdownx.emoji") else { return title }
        return IconExtension.removingShortcodes(title, icons: icons).trimmed
    }

    static func == (lhs: MarkdownFlavor, rhs: MarkdownFlavor) -> Bool {
        lhs.names == rhs.names && lhs.smartPunctuation == rhs.smartPunctuation
    }
}
