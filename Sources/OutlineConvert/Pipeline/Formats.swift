/// A format outline-render reads. Each reader is one file; `InputFormat.all` lists them,
/// and the `--from` names, extensions, content sniffing, help text and folder rules all
/// come from that list.
protocol OutlineReader: Sendable {
    /// The `--from` name.
    var name: String { get }
    /// File extensions, lowercase, without the dot.
    var extensions: [String] { get }
    /// Whether content that has no telling extension looks like this format.
    func sniff(_ head: ArraySlice<UInt8>) -> Bool
    /// Inside a folder: why a file with one of `extensions` is not an outline of this format
    /// (a pom.xml, a package.json), from its first bytes, which `head` reads only when
    /// asked (nil when they cannot be read); nil to convert it.
    func reasonToSkip(_ head: () -> ArraySlice<UInt8>?) -> String?
    /// Whether the format is text (a NUL byte then means a binary file, refused early).
    var isText: Bool { get }
    /// Reads an outline as its source states it (ids and collapse state not yet resolved).
    func read(_ bytes: [UInt8], file: String, options: ConversionOptions) throws -> ParsedDocument
    /// `read` from a file a chunk at a time, never holding it whole, when the format can
    /// and the file's first bytes (`head`) allow; nil to be given the whole file instead.
    func read(streaming file: InputFile, head: ArraySlice<UInt8>, options: ConversionOptions) throws -> ParsedDocument?
}

extension OutlineReader {
    func read(streaming file: InputFile, head: ArraySlice<UInt8>, options: ConversionOptions) throws -> ParsedDocument? { nil }
    func reasonToSkip(_ head: () -> ArraySlice<UInt8>?) -> String? { nil }
    var isText: Bool { false }
}

/// What a writer is given: the resolved outline and everything about the run it may need.
struct WriteContext {
    let options: ConversionOptions
    /// The input's name, for messages.
    let file: String
    /// The page title (outline title, else first node, else file name).
    let pageTitle: String
    /// The input's size in bytes, to size the output buffer once.
    let inputSize: Int
    /// When the page is part of a docs site: its links and its index.
    var site: PageSite? = nil
    /// Where the output goes as it is written, instead of being returned whole.
    var sink: OutputSink? = nil
    /// The bodies as the reader parsed them, for writers that render bodies.
    var bodies: ParsedBodies? = nil
    /// How a body not among `bodies` is read.
    var bodyFlavor = MarkdownFlavor.gitHub
    /// Whether the outline was read from outliners' Markdown (in a graph or vault, HTML shows
    /// its items as text with bullets).
    var isBulletOutline = false
}

/// What a page of a docs site needs besides its outline (docs/sites.md).
struct PageSite: Sendable {
    /// Rewrites and collects the page's links.
    package let links: PageLinks
    /// The index page's URL relative to this page, when there is an index.
    let indexLink: String?
    /// The output folder's URL relative to this page (`""`, `"../"`, …): where the site's
    /// shared files are.
    package var root = ""
    /// The page's URL from the output folder.
    var href = ""
    /// With the site's navigation: the navigation block, and the pager's place held by
    /// `pagerSlot` (the pager depends on every page's title, known only once all are read).
    var navigation = false
    /// With `--site-url`: the page's full URL.
    package var canonical: String?
    /// The site's name (mkdocs' `site_name`), shown on every page and in its title.
    var siteName: String?
    /// The language of the project's pages (mkdocs' `theme.language`, mdBook's
    /// `book.language`), unless a page's front matter says.
    var language: String?
    /// The site's logo (mkdocs-material's `theme.logo`) from this page, before its name.
    var logo: String?
    /// Else the SVG of its logo icon (`theme.icon.logo`).
    var logoIcon: String?
    /// With `--watch`: the page reloads itself after a rebuild that changed it.
    var reloads = false
    /// The site's home page (its top `index.html`) from this page, when it has one.
    var homeLink: String?
    /// The label the project's `nav` gives this page, if any: its title in `<title>`.
    var navLabel: String?
    /// The project's repository (mkdocs' `repo_url`, `repo_name`), linked from every page.
    var repository: (url: String, name: String)?
    /// Where this page's source is edited in the repository (mkdocs' `edit_uri`).
    var editLink: String?
    /// The project's own stylesheets and scripts (mkdocs' `extra_css`, `extra_javascript`),
    /// from this page, loaded after the site's.
    var stylesheets: [String] = []
    var scripts: [(url: String, isModule: Bool)] = []
    /// With the site's navigation: the page's sections for the site search, as written.
    var search: SearchText?
    /// With the site's navigation: the languages of the page's code blocks, as written (the
    /// site copies the Prism files of every page's languages).
    var code: CodeLanguages?

    /// The `<title>` the page sets itself (mdBook's `{{#title …}}`), whatever its title.
    var fixedTitle: String?

    /// Whether the home page's `<title>` is the site's name alone (mkdocs-material's way;
    /// mdBook titles it as any chapter).
    var homeTitledByName = true

    /// The page's `<title>` for its own title: the one it sets, else its `nav` label if it
    /// has one; with a site name, `Title - Site`, and the home page the site's name alone
    /// (as mkdocs-material titles them) unless `homeTitledByName` is off.
    func title(for title: String) -> String {
        if let fixedTitle { return fixedTitle }
        let title = navLabel ?? title
        guard let siteName else { return title }
        return (href == "index.html" && homeTitledByName) || title.isEmpty ? siteName : title + " - " + siteName
    }

    /// Where a page of a site with navigation holds the place of its previous / next links.
    static let pagerSlot = "<!--outline-render:pager-->"

    /// A page of a docs site with these links and index.
    package init(links: PageLinks, indexLink: String?) {
        self.links = links
        self.indexLink = indexLink
    }
}

/// A format outline-render writes. Each writer is one file; `OutputFormat.all` lists them.
protocol OutlineWriter: Sendable {
    /// The `--to` name.
    var name: String { get }
    /// The extension of files written, then other extensions that choose this format for `-o`.
    var extensions: [String] { get }
    /// The command-line options only this writer uses, for the help text.
    var optionNames: [String] { get }
    /// Whether bodies are rendered (HTML, text) rather than written as they are, so that
    /// they are parsed as CommonMark first.
    var rendersBodies: Bool { get }
    /// The output bytes, and warnings (what the format could not hold).
    func write(_ outline: Outline, context: WriteContext) -> (bytes: [UInt8], warnings: [Diagnostic])
}

extension OutlineWriter {
    var optionNames: [String] { [] }
    var rendersBodies: Bool { false }
}

/// One of the formats outline-render reads (`--from`).
public struct InputFormat: Hashable, Sendable, CustomStringConvertible {
    let reader: any OutlineReader

    private init(reader: any OutlineReader) { self.reader = reader }

    /// Every input format, in sniffing order (Markdown, which takes anything, last).
    public static let all: [InputFormat] = [
        InputFormat(reader: PlistParser()), InputFormat(reader: OPMLParser()), InputFormat(reader: XMLSectionParser()),
        InputFormat(reader: JSONOutlineParser()), InputFormat(reader: OutlinerMarkdownParser()),
        InputFormat(reader: MarkdownParser(flavor: .commonMark)), InputFormat(reader: MarkdownParser(flavor: .mkDocs())),
        InputFormat(reader: MarkdownParser(flavor: .mdBook)),
        InputFormat(reader: MarkdownParser()),
    ]

    /// Markdown as mdBook reads it (an mdBook project's pages).
    static let mdBook = named("mdbook")
    /// The same, its `smart-punctuation` turned off.
    static let mdBookWithoutSmartPunctuation = InputFormat(reader: MarkdownParser(flavor: .mdBook(smartPunctuation: false)))
    /// The `markdown` format.
    public static let markdown = named("markdown")
    /// The `plist` format.
    public static let plist = named("plist")
    /// The `xml` format.
    public static let xml = named("xml")
    /// The `json` format.
    public static let json = named("json")
    /// The `opml` format.
    public static let opml = named("opml")
    /// The `outline` format: outliners' Markdown, bullets as the outline.
    public static let outline = named("outline")

    /// Markdown in mkdocs' dialect with the extensions `configured` names (a tree's
    /// `mkdocs.yml`); its name is `mkdocs`, as every one's.
    static func mkDocs(_ configured: Set<String>, icons: IconStore? = nil, magicLinks: MagicLinkExtension? = nil) -> InputFormat {
        InputFormat(reader: MarkdownParser(flavor: .mkDocs(configured, icons: icons, magicLinks: magicLinks)))
    }

    private static func named(_ name: String) -> InputFormat {
        guard let format = InputFormat(name: name) else { preconditionFailure("no input format \(name)") }
        return format
    }

    /// The format of a `--from` name or an extension, if any.
    public init?(name: String) {
        let key = name.lowercased()
        guard let format = Self.all.first(where: { $0.reader.name == key || $0.reader.extensions.contains(key) }) else { return nil }
        self = format
    }

    /// The format a file name's extension stands for, if any.
    public init?(pathExtension: String) {
        let key = pathExtension.lowercased()
        guard let format = Self.all.first(where: { $0.reader.extensions.contains(key) }) else { return nil }
        self = format
    }

    /// The format the content looks like, from its first 64 KiB; Markdown when nothing else does.
    public init(sniffing bytes: ArraySlice<UInt8>) {
        self = Self.all.first { $0.reader.sniff(bytes.prefix(65_536)) } ?? Self.markdown
    }

    /// The format of a file whose extension says `self`, refined by its first bytes: a
    /// Markdown file that is a bullet outline (docs/formats.md) is read as one.
    func refined(by head: ArraySlice<UInt8>) -> InputFormat {
        self == .markdown && Self.outline.reader.sniff(head) ? .outline : self
    }

    /// The `--from` name.
    public var name: String { reader.name }
    /// The file extensions read as this format, lowercase, without the dot.
    public var extensions: [String] { reader.extensions }
    /// The name, as `--from`/`--to` take it.
    public var description: String { name }

    /// Formats are equal by name.
    public static func == (a: InputFormat, b: InputFormat) -> Bool { a.name == b.name }
    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// One of the formats outline-render writes (`--to`).
public struct OutputFormat: Hashable, Sendable, CustomStringConvertible {
    let writer: any OutlineWriter

    private init(writer: any OutlineWriter) { self.writer = writer }

    /// Every output format.
    public static let all: [OutputFormat] = [
        OutputFormat(writer: HTMLEmitter()), OutputFormat(writer: TextEmitter()), OutputFormat(writer: JSONEmitter()),
        OutputFormat(writer: MarkdownEmitter()), OutputFormat(writer: XMLSectionEmitter()),
        OutputFormat(writer: OPMLEmitter()), OutputFormat(writer: PlistEmitter()), OutputFormat(writer: OutlinerMarkdownEmitter()),
    ]

    /// The `html` format.
    public static let html = named("html")
    /// The `text` format.
    public static let text = named("text")
    /// The `json` format.
    public static let json = named("json")
    /// The `markdown` format.
    public static let markdown = named("markdown")
    /// The `xml` format.
    public static let xml = named("xml")
    /// The `opml` format.
    public static let opml = named("opml")
    /// The `plist` format.
    public static let plist = named("plist")
    /// The `outline` format: outliners' Markdown, bullets as the outline.
    public static let outline = named("outline")

    private static func named(_ name: String) -> OutputFormat {
        guard let format = OutputFormat(name: name) else { preconditionFailure("no output format \(name)") }
        return format
    }

    /// The format of a `--to` name or an extension, if any.
    public init?(name: String) {
        let key = name.lowercased()
        guard let format = Self.all.first(where: { $0.writer.name == key || $0.writer.extensions.contains(key) }) else { return nil }
        self = format
    }

    /// The format an output file's extension stands for, if any.
    public init?(pathExtension: String) {
        let key = pathExtension.lowercased()
        guard let format = Self.all.first(where: { $0.writer.extensions.contains(key) }) else { return nil }
        self = format
    }

    /// The `--to` name.
    public var name: String { writer.name }
    /// The name, as `--from`/`--to` take it.
    public var description: String { name }
    /// The extension of files written in this format.
    public var fileExtension: String { writer.extensions.first ?? name }
    /// The options only this format uses (`--ascii` for text, …).
    public var optionNames: [String] { writer.optionNames }

    /// Formats are equal by name.
    public static func == (a: OutputFormat, b: OutputFormat) -> Bool { a.name == b.name }
    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
