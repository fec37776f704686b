/// A Markdown extension that outline-render makes on cmark's tree, by name (as pandoc names
/// its `Ext_…` and cmark-gfm its `-e` extensions). Where each is made is named with it.
/// Every heading of a body gets an id in any flavour (`BodyHeadings`): that is not an
/// extension.
enum MarkdownExtension: String, CaseIterable, Sendable {
    /// mkdocs' indented blocks: `!!!` admonitions, `???` / `???+` collapsible blocks and `===`
    /// content tabs (`MkDocsBlocks`, made into blocks by `CollapsibleBlocks.make`).
    case mkdocsBlocks = "admonition"
    /// GFM tables (`GitHubExtensions.makeTables`, `GitHubTables.swift`).
    case tables = "table"
    /// GFM task list items, `[ ]` / `[x]` (`GitHubExtensions.makeTask`).
    case taskLists = "tasklist"
    /// GFM strikethrough, `~~text~~` (`GitHubExtensions.strikethrough`).
    case strikethrough
    /// GFM's extended autolinks: `www.`, URLs and e-mail addresses (`Autolinks`).
    case autolinks = "autolink"
    /// GitHub's alerts, `> [!NOTE]` (`CollapsibleBlocks.makeAlerts`).
    case alerts
    /// `<details>` / `<summary>` written as HTML, made collapsible blocks (`CollapsibleBlocks.pairDetails`).
    case details
    /// GitHub's tag filter on raw HTML written with `--unsafe` (`TagFilter`).
    case tagFilter = "tagfilter"
    /// mkdocs' attribute lists after links and images, `{ .md-button }` (`AttributeLists`).
    case attributeLists = "attr_list"
}

/// How Markdown is read: cmark's CommonMark with an ordered list of extensions.
struct MarkdownFlavor: Equatable, Sendable {
    /// The extensions made, in the order they are listed here.
    let extensions: [MarkdownExtension]

    /// Whether the flavour makes `feature`.
    func has(_ feature: MarkdownExtension) -> Bool { extensions.contains(feature) }

    /// GitHub Flavored Markdown as GitHub renders it (`cmark-gfm -e table -e strikethrough
    /// -e autolink -e tasklist`, and the tag filter), with the blocks people write in docs:
    /// GitHub's alerts and `<details>`, and mkdocs' blocks and attribute lists.
    static let gitHub = MarkdownFlavor(extensions: [
        .mkdocsBlocks, .tables, .taskLists, .strikethrough, .autolinks, .alerts, .details, .tagFilter, .attributeLists,
    ])
    /// Strict CommonMark (`--from commonmark`): cmark's own reading, no extension.
    static let commonMark = MarkdownFlavor(extensions: [])
}
