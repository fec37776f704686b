#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything that decides how one document converts.
public struct ConversionOptions: Equatable, Sendable {
    /// The input format; nil: from the extension, else sniffed from the content.
    public var from: InputFormat?
    /// The output format.
    public var to: OutputFormat = .html
    /// Overrides the outline's title.
    public var title: String?
    /// The command line's collapse rules.
    public var collapse = CollapseOptions()
    /// HTML-only options.
    public var html = HTMLOptions()
    /// ASCII markers in text output.
    public var ascii = false
    /// How an OPML `<expansionState>` is read and written: nil reads it the way the file was
    /// written and writes the spec's way (`--opml-expansion`).
    public var opmlExpansion: OPMLExpansionReading?
    /// The largest input read, in bytes (`--max-input-size`); larger files are refused unread.
    public var maxInputSize = ConversionOptions.defaultMaxInputSize
    /// In a site of a Logseq graph or an Obsidian vault: its page names, for wiki links.
    var wikiIndex: WikiIndex?
    /// In a tree whose `mkdocs.yml` names `markdown_extensions`: their names (its Markdown
    /// is read in mkdocs' dialect, docs/formats.md).
    var mkDocsExtensions: Set<String>?
    /// In an mkdocs project: pymdownx.magiclink's shorthand for its repository, if configured.
    var magicLinks: MagicLinkExtension?
    /// In an mkdocs project: the icons' chunks its pages have inflated, kept for the others
    /// (a cache: no part of the options' fingerprint).
    var icons: IconStore?
    /// How mkdocs makes headings' ids (in an mkdocs project, its `toc` options).
    var slugStyle = SlugStyle()
    /// In an mdBook project (a `book.toml` beside the tree): its Markdown is read as mdBook
    /// reads it.
    var isMdBook = false
    /// In an mdBook project: its `smart-punctuation` (on by default, as in mdBook 0.5).
    var mdBookSmartPunctuation = true
    /// In an mkdocs project that turns on pymdownx snippets: how its Markdown pages pull
    /// other files in (`SnippetIncludes`).
    var snippets: SnippetIncludes?
    /// In an mdBook project: its includes (`MdBookIncludes`).
    var mdBookIncludes: MdBookIncludes?
    /// The default `maxInputSize`: 256 MiB.
    public static let defaultMaxInputSize = 256 << 20

    /// The defaults: format from the file, HTML out, no collapse rules.
    public init() {}
}

/// One converted document: the output and the warnings met on the way.
public struct Conversion: Sendable {
    /// The output, UTF-8.
    public var bytes: [UInt8]
    /// Warnings met while converting (the output is still complete).
    public var warnings: [Diagnostic]
    /// The document's title as a page shows it (for a docs index).
    public var title: String
    /// In a docs site: the page's ids and local links, for the link check.
    var facts: PageFacts?
    /// The files other than the input that the output was made from (snippets), absolute.
    var includedFiles: [String] = []

    /// The output as text.
    public var output: String { String(decoding: bytes, as: UTF8.self) }
}

/// The per-document pipeline: bytes → parser → ids → collapse rules → emitter. A batch is
/// a loop over `convert`.
public struct Converter: Sendable {
    /// How every document is converted.
    public let options: ConversionOptions

    /// A converter for `options`.
    public init(options: ConversionOptions) {
        self.options = options
    }

    /// Reads the input file `path` (a regular file, at most `maxInputSize` bytes), refusing a
    /// Markdown file with a NUL byte in its first 64 KiB before reading the rest of it.
    package func load(_ path: String) throws -> [UInt8] {
        // (A graph's tag page has no file: the index makes its text.)
        if let index = options.wikiIndex, !index.tagPages.isEmpty, let page = index.tagPage(BatchPlan.absolute(path)) { return page }
        return try Files.read(path, limit: options.maxInputSize) { try refuseBinary($0, file: path) }
    }

    /// Opens the input file `path` for `body` (closed after), with `load`'s checks; for
    /// `convertBeforeExit(_:streamingTo:)`.
    package func withInput<Result>(_ path: String, _ body: (InputFile) throws -> Result) throws -> Result {
        try Files.withInput(path, limit: options.maxInputSize, body)
    }

    /// Reads standard input, like `load`.
    package func loadStandardInput() throws -> [UInt8] {
        try Files.readStandardInput(limit: options.maxInputSize) { try refuseBinary($0, file: "<stdin>") }
    }

    /// A text format: a NUL byte means a binary file (XML may be UTF-16, with NULs).
    private func refuseBinary(_ head: ArraySlice<UInt8>, file: String) throws {
        guard let nul = head.firstIndex(ofByte: 0), format(of: file, head).reader.isText else { return }
        throw ConversionError.malformed(
            SourceText.location(of: nul, in: head, file: file), "the file contains a NUL byte; it is not text")
    }

    /// The format from `--from`, else the file's extension, else its content.
    private func format(of file: String, _ bytes: ArraySlice<UInt8>) -> InputFormat {
        if let from = options.from { return from }
        guard let byExtension = InputFormat(pathExtension: Path.fileExtension(file)) else { return InputFormat(sniffing: bytes) }
        // (Every page of a Logseq graph is an outline, a flat list too.)
        if let configured = options.mkDocsExtensions, byExtension == .markdown {
            return .mkDocs(configured, icons: options.icons, magicLinks: options.magicLinks)
        }
        if options.isMdBook, byExtension == .markdown { return options.mdBookSmartPunctuation ? .mdBook : .mdBookWithoutSmartPunctuation }
        return options.wikiIndex?.app == .logseq && byExtension == .markdown ? .outline : byExtension.refined(by: bytes)
    }

    /// Converts one input. `file` names it in messages and gives its extension; `site`,
    /// when the page is part of a docs site, rewrites its links and collects them.
    public func convert(_ bytes: consuming [UInt8], file: String) throws -> Conversion {
        try convert(bytes, file: file, site: nil)
    }

    /// `convert` for a page of a docs site, whose links `site` rewrites and collects.
    func convert(_ bytes: consuming [UInt8], file: String, site: PageSite?) throws -> Conversion {
        let inputSize = bytes.count
        guard let expanded = try expandingIncludes(bytes, file: file) else {
            let document = try read(consume bytes, file: file)
            return emit(document, file: file, inputSize: inputSize, site: site)
        }
        var site = site
        if let title = expanded.pageTitle { site?.fixedTitle = title }
        do {
            let document = try read(expanded.text, file: file)
            return expanded.relocated(emit(document, file: file, inputSize: expanded.text.count, site: site), page: file)
        } catch {
            throw expanded.relocated(error, page: file)
        }
    }

    /// The page `bytes` of `file` with the files it includes pulled in, in a project that
    /// has includes (pymdownx snippets, mdBook's `{{#include}}`); nil in any other.
    private func expandingIncludes(_ bytes: borrowing [UInt8], file: String) throws -> ExpandedSource? {
        guard options.snippets != nil || options.mdBookIncludes != nil else { return nil }
        switch format(of: file, ArraySlice<UInt8>()).reader.name {
        case "mkdocs": return try options.snippets?.expand(copy bytes, file: file, limit: options.maxInputSize)
        case "mdbook": return try options.mdBookIncludes?.expand(copy bytes, file: file, limit: options.maxInputSize)
        default: return nil
        }
    }

    /// `convert` for a process that exits right after writing the output: the parsed tree is
    /// left to the operating system at exit instead of being freed node by node, as
    /// compilers do (docs/performance.md has what it saves). Anything that goes on
    /// running, a batch or a watch, uses `convert`.
    ///
    /// With `streamingTo`, the output goes to the sink it gives as it is written, a chunk at
    /// a time, and the conversion's `bytes` are empty: an output of hundreds of megabytes is
    /// never held whole. The sink is asked for only once the input has been read without
    /// error, so a bad input leaves nothing behind.
    package func convertBeforeExit(
        _ bytes: consuming [UInt8], file: String, streamingTo sink: (() throws -> OutputSink)? = nil
    ) throws -> Conversion {
        let inputSize = bytes.count
        let document = try read(consume bytes, file: file)
        MemoryPolicy.keepUntilExit(document)
        return emit(document, file: file, inputSize: inputSize, site: nil, sink: try sink?())
    }

    /// `convertBeforeExit` for an input file: a format that can read it a chunk at a time
    /// (XML, XML plists, OPML) does, so that the input is never held whole; any other reads
    /// it whole, as `load` does.
    package func convertBeforeExit(_ file: InputFile, streamingTo sink: (() throws -> OutputSink)? = nil) throws -> Conversion {
        let head = try Files.head(of: file, count: 65_536)
        try refuseBinary(head[...], file: file.path)
        guard !head.isEmpty, head != [0xEF, 0xBB, 0xBF],
            var document = try format(of: file.path, head[...]).reader.read(streaming: file, head: head[...], options: options)
        else {
            return try convertBeforeExit(Files.read(file), file: file.path, streamingTo: sink)
        }
        finish(&document, file: file.path)
        MemoryPolicy.keepUntilExit(document)
        return emit(document, file: file.path, inputSize: file.size, site: nil, sink: try sink?())
    }

    /// Writes an outline in the output format: one read with `read` and then changed, or
    /// one built by hand. Ids and collapse state are resolved as for a read (explicit ids and
    /// states kept); `file` names the outline in warnings.
    public func write(_ outline: Outline, file: String = "<outline>") -> Conversion {
        var outline = outline
        let warnings = resolve(&outline, file: file)
        return emit(ParsedDocument(outline: outline, warnings: warnings), file: file, inputSize: 0, site: nil)
    }

    /// Gives every node its id and initial state (docs/formats.md).
    private func resolve(_ outline: inout Outline, file: String) -> [Diagnostic] {
        IdentifierAssigner.assign(&outline, file: file) + CollapseRules.apply(options.collapse, to: &outline, file: file)
    }

    /// The writer's output for a resolved outline, with the page's facts in a docs site; the
    /// document's warnings come first.
    private func emit(_ document: ParsedDocument, file: String, inputSize: Int, site: PageSite?, sink: OutputSink? = nil) -> Conversion {
        var outline = document.outline
        if document.isBulletOutline, options.to.writer.rendersBodies, let index = options.wikiIndex {
            OutlinerPages.name(&outline, file: file, index: index)
        }
        let title = (document.bodies?.flavor ?? document.bodyFlavor).plainTitle(pageTitle(document, outline: outline, file: file))
        var context = WriteContext(options: options, file: file, pageTitle: title, inputSize: inputSize)
        context.site = site
        context.sink = sink
        if options.to.writer.rendersBodies {
            context.bodies = document.bodies ?? ParsedBodies.together(outline, maxInputSize: options.maxInputSize, flavor: document.bodyFlavor)
            context.bodyFlavor = document.bodyFlavor
            context.isBulletOutline = document.isBulletOutline
        }
        let (output, warnings) = options.to.writer.write(outline, context: context)
        var facts: PageFacts?
        if let site {
            // The sections', and every other id of the page: the headings bodies hold, and with
            // --unsafe, the anchors of raw HTML (`<a id="x">`).
            var ids: [String] = []
            outline.forEachNode { ids.append($0.id) }
            ids += Self.htmlIDs(in: output)
            facts = PageFacts(
                ids: ids, links: site.links.facts, order: outline.order,
                search: site.search?.finish() ?? [], codeLanguages: site.code?.ids.sorted() ?? [])
            facts?.titleHTML = site.search?.pageTitleHTML
        }
        return Conversion(bytes: output, warnings: document.warnings + warnings, title: title, facts: facts)
    }

    /// Parses one input and resolves its ids and collapse state. An empty input (nothing,
    /// or only a byte-order mark) is an error in every format.
    public func read(_ bytes: consuming [UInt8], file: String) throws -> ParsedDocument {
        guard !bytes.isEmpty, bytes != [0xEF, 0xBB, 0xBF] else {
            throw ConversionError.malformed(SourceLocation(file: file, line: 1, column: 1), "the file is empty; there is no outline in it")
        }
        let reader = format(of: file, bytes[...]).reader
        // (Consumed: the input is let go as soon as the reader is done with it, unless it keeps
        // a part, as Markdown bodies do.)
        var document = try reader.read(consume bytes, file: file, options: options)
        finish(&document, file: file)
        return document
    }

    /// A document as read, with `--title` applied, then its ids and states resolved.
    private func finish(_ document: inout ParsedDocument, file: String) {
        if let title = options.title { document.outline.title = title.isEmpty ? nil : title }
        document.warnings += resolve(&document.outline, file: file)
    }

    /// The values of every ` id="…"` attribute in an HTML page, and of ` name="…"` in an
    /// `<a>` tag (an anchor raw HTML may hold, as the sanitizer writes it).
    private static func htmlIDs(in html: [UInt8]) -> [String] {
        var ids: [String] = []
        html.withUnsafeBufferPointer { html in
            // ` id="`, found by its `=`: far rarer in a page than the space it starts with.
            var index = 5
            while let equals = html.firstIndex(ofByte: UInt8(ascii: "="), from: index) {
                index = equals + 1
                guard equals + 1 < html.count, html[equals + 1] == UInt8(ascii: "\""),
                    Self.endsWith(html, at: equals, " id") || (Self.endsWith(html, at: equals, " name") && Self.isInLinkTag(html, at: equals))
                else { continue }
                let start = equals + 2
                guard let end = html.firstIndex(ofByte: UInt8(ascii: "\""), from: start) else { break }
                ids.append(String(decoding: UnsafeBufferPointer(rebasing: html[start..<end]), as: UTF8.self))
                index = end
            }
        }
        return ids
    }

    /// Whether the bytes before `index` are `text`.
    private static func endsWith(_ html: UnsafeBufferPointer<UInt8>, at index: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index >= count else { return false }
        return UnsafeBufferPointer(start: text.utf8Start, count: count).elementsEqual(html[(index - count)..<index])
    }

    /// Whether `index` is inside an `<a …>` start tag.
    private static func isInLinkTag(_ html: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var at = index - 1
        while at >= 0, html[at] != UInt8(ascii: "<"), html[at] != UInt8(ascii: ">") { at -= 1 }
        return at >= 0 && at + 2 < index && html[at] == UInt8(ascii: "<") && html[at + 1] == UInt8(ascii: "a") && html[at + 2] == .space
    }

    /// The page's `<title>`: the outline's title, else its first node's, else the file's
    /// name as mkdocs titles a page by it (`getting-started.md` → "Getting started"). A
    /// README (Markdown, read as headings) is titled as GitHub shows it: by its first level-1
    /// heading, else by its folder's name, as the repository's; never by a lower heading.
    private func pageTitle(_ document: ParsedDocument, outline: Outline, file: String) -> String {
        let name = Path.deletingExtension(Path.lastComponent(file))
        if name.lowercased() == "readme", InputFormat(pathExtension: Path.fileExtension(file)) == .markdown, !document.isBulletOutline {
            let folder = Path.lastComponent(Path.parent(BatchPlan.absolute(file)))
            if let title = outline.title ?? document.levelOneTitle ?? (folder.isEmpty || folder == "/" ? nil : folder) { return title }
        }
        return outline.title ?? outline.nodes.first?.title ?? Path.title(ofName: name)
    }
}
