/// The attributes that more than one reader or writer gives a meaning to, by key, and typed
/// accessors for them. Any other attribute is carried as it is (docs/formats.md).
enum AttributeKey {
    /// A node's classes, space-separated (`{.note .wide}` in Markdown, `class` in XML).
    static let classes = "class"
    /// The Markdown writer's depth of a node past six levels (`###### x {outline-depth="9"}`),
    /// read back by the Markdown reader.
    static let depth = "outline-depth"
    /// An outliner item's title line as written, when it holds markup that its plain title
    /// loses (`Read [[Intro]] **first**`), or "" for an item with no title line. HTML
    /// renders the title from it; the outliner writer writes it back.
    static let outlinerTitle = "outline-title"
    /// An outliner's link type (OPML's `type`: `link`, `include`, `rss`; see `TitleLinks`).
    static let linkType = "type"
    /// Front matter `toc: true`: a table of contents on this page.
    static let tableOfContents = "toc"
    /// Front matter `lang`: the page's language.
    static let language = "lang"
    /// Front matter `order`: the page's place among its folder's pages in a site.
    static let order = "order"
}

extension Outline {
    /// Whether the document asks for a table of contents (front matter `toc: true`).
    var asksForTableOfContents: Bool { attributes[AttributeKey.tableOfContents]?.lowercased() == "true" }
    /// The document's language (front matter `lang`), if given.
    var language: String? { attributes[AttributeKey.language] }
    /// The page's place in a site's navigation (front matter `order`), if it is a number.
    var order: Double? { attributes[AttributeKey.order].flatMap { Double($0.trimmed) } }
}

extension OutlineNode {
    /// The outliner's link type (`link`, `include`, `rss`), lowercased, if any.
    var linkType: String? { attributes[AttributeKey.linkType]?.lowercased() }
}
