/// A folder converted to HTML as a docs site (docs/sites.md): what each page needs of the
/// site (its links, where the site's shared files are, its canonical URL), its navigation
/// once every page has been read, and the shared files: the pages' style and script
/// (`outline-site/outline.css`, `.js`), the navigation for the script
/// (`outline-site/nav.js`) and without it (`outline-site/nav.html`), the search index
/// (`outline-site/search.js`) and, with `--site-url`, `sitemap.xml`.
struct DocsSite: Sendable {
    /// The run's links.
    package let links: SiteLinks
    /// The output folder, the site's root.
    package let outputDirectory: String
    /// Where the index page is written, with `--index`.
    package let index: String?
    /// `--site-url`, ending with `/`.
    package let siteURL: String?
    /// Whether pages reload themselves after a rebuild (`SiteOptions.reloads`).
    let reloads: Bool
    /// The `mkdocs.yml` of the site's project, if any: its navigation (`nav`, `not_in_nav`)
    /// and what every page shows of it (its name, repository, edit links).
    var project: MkDocsConfig? {
        didSet { labels = project?.labels ?? [:] }
    }
    /// The labels the project's `nav` gives pages, by input (`MkDocsConfig.labels`).
    private var labels: [String: String] = [:]
    /// The mdBook project the site is the pages of, if any: its `SUMMARY.md` lays out the
    /// navigation.
    var book: MdBookProject? {
        didSet { labels = book?.labels ?? project?.labels ?? [:] }
    }
    /// Whether the site has a home page: an `index.html` at its top.
    var home = false
    /// The project's stylesheets and scripts every page loads (`Extras`).
    var extras = Extras()

    /// The project's `extra_css` and `extra_javascript`, as every page loads them: an
    /// `http:`/`https:` address as it is, a file of the docs folder by its path from the
    /// site's root, where it is copied (`assets`).
    struct Extras: Sendable {
        var stylesheets: [String] = []
        /// Scripts, each with whether it is a module (`type: module`).
        var scripts: [(url: String, isModule: Bool)] = []
        /// `theme.logo`.
        var logo: String?
        /// Else `theme.icon.logo`: the icon's SVG.
        var logoIcon: String?
        var assets: [(source: String, output: String)] = []

        /// The extras of `project` for a site in `outputDirectory`, scripts only when they
        /// may run (`--unsafe`), and what is wrong with them: a file that is not there or
        /// not in the docs folder, scripts left out.
        static func of(_ project: MkDocsConfig, outputDirectory: String, scripts allowed: Bool, icons: IconStore) -> (Extras, [Diagnostic]) {
            var extras = Extras()
            var warnings: [Diagnostic] = []
            let docs = BatchPlan.absolute(project.docsFolder)
            func add(_ entry: (path: String, location: SourceLocation), as what: String) -> String? {
                let lower = entry.path.lowercased()
                if lower.hasPrefix("https://") || lower.hasPrefix("http://") { return entry.path }
                let source = BatchPlan.absolute(entry.path, in: docs)
                guard !SiteLinks.hasScheme(entry.path), Path.isWithin(source, docs), let relative = Path.relative(source, below: docs) else {
                    warnings.append(
                        Diagnostic(entry.location, "\(what) '\(Quote.snippet(entry.path))' is not a file of the docs folder; it is left out"))
                    return nil
                }
                guard Files.isRegularFile(source) else {
                    warnings.append(Diagnostic(entry.location, "\(what) '\(Quote.snippet(entry.path))' is not there; it is left out"))
                    return nil
                }
                extras.assets.append((source, Path.join(outputDirectory, relative)))
                return relative.split(separator: "/").map { PercentEncoding.unreserved.encoded(String($0)) }.joined(separator: "/")
            }
            extras.stylesheets = project.extraCSS.compactMap { add($0, as: "extra_css") }
            extras.logo = project.logo.flatMap { add($0, as: "theme.logo") }
            if project.logo == nil, let icon = project.logoIcon {
                // (`material/library` is the shortcode `:material-library:`.)
                extras.logoIcon = icons.svg(named: Array(icon.name.replacing("/", with: "-").utf8))
                if extras.logoIcon == nil {
                    warnings.append(
                        Diagnostic(
                            icon.location,
                            "theme.icon.logo '\(Quote.snippet(icon.name))' is no icon of the bundled sets or custom_icons; it is left out"))
                }
            }
            if allowed {
                extras.scripts = project.extraJavaScript.compactMap { script in
                    add(script, as: "extra_javascript").map { ($0, project.moduleScripts.contains(script.path)) }
                }
            } else if let first = project.extraJavaScript.first {
                warnings.append(
                    Diagnostic(first.location, "extra_javascript is left out: its scripts would run in every reader's browser (--unsafe keeps them)"))
            }
            return (extras, warnings)
        }
    }

    /// The folder of the site's shared files, under the output folder.
    static let sharedFolder = "outline-site"

    /// A site written into `outputDirectory`.
    package init(links: SiteLinks, outputDirectory: String, options: SiteOptions) {
        self.links = links
        self.outputDirectory = outputDirectory
        index = options.index ? Path.join(outputDirectory, "index.html") : nil
        siteURL = options.siteURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        reloads = options.reloads
    }

    /// What the page of `job` needs of the site.
    package func page(_ job: BatchJob) -> PageSite {
        let output = BatchPlan.absolute(job.output)
        var page = PageSite(
            links: links.page(job),
            indexLink: index.flatMap { index in
                // (The index page itself needs no link to itself.)
                BatchPlan.absolute(index) == output ? nil : SiteLinks.relative(from: Path.parent(output), to: BatchPlan.absolute(index))
            })
        let components = place(of: output)
        page.root = String(repeating: "../", count: components.count - 1)
        page.href = Self.href(components)
        page.navigation = true
        page.search = SearchText()
        page.code = CodeLanguages()
        page.canonical = siteURL.map { $0 + page.href }
        page.siteName = project?.siteName ?? book?.title
        page.homeTitledByName = project != nil || book == nil
        page.language = project?.language ?? book?.language
        page.reloads = reloads
        page.navLabel = labels[BatchPlan.absolute(job.input)]
        page.logo = extras.logo.map { Self.isAddress($0) ? $0 : page.root + $0 }
        page.logoIcon = extras.logoIcon
        page.stylesheets = extras.stylesheets.map { Self.isAddress($0) ? $0 : page.root + $0 }
        page.scripts = extras.scripts.map { (Self.isAddress($0.url) ? $0.url : page.root + $0.url, $0.isModule) }
        if let project {
            page.repository = project.repository
            page.editLink = Path.relative(BatchPlan.absolute(job.input), below: BatchPlan.absolute(project.docsFolder)).flatMap(
                project.editLink(path:))
        } else if let book {
            page.repository = book.repository
            page.editLink = Path.relative(BatchPlan.absolute(job.input), below: BatchPlan.absolute(book.sourceFolder)).flatMap(book.editLink(path:))
        }
        if home {
            page.homeLink = page.href == "index.html" ? "index.html" : page.root + "index.html"
        }
        return page
    }

    /// The URL of `job`'s page from the output folder.
    func href(of job: BatchJob) -> String {
        Self.href(place(of: BatchPlan.absolute(job.output)))
    }

    private static func isAddress(_ href: String) -> Bool { SiteLinks.hasScheme(href) }

    /// The URL of the output `output` (a path) from the output folder.
    func href(ofOutput output: String) -> String {
        Self.href(place(of: BatchPlan.absolute(output)))
    }

    private static func href(_ components: [String]) -> String {
        components.map(PercentEncoding.unreserved.encoded).joined(separator: "/")
    }

    /// One of the site's own files, in `outline-site/`.
    func sharedFile(_ name: String) -> String {
        Path.join(Path.join(outputDirectory, Self.sharedFolder), name)
    }

    /// The path of `output` (absolute) under the output folder, by components.
    private func place(of output: String) -> [String] {
        let base = BatchPlan.absolute(outputDirectory)
        let relative = output.hasPrefix(base + "/") ? String(output.dropFirst(base.count + 1)) : Path.lastComponent(output)
        return relative.split(separator: "/").map(String.init)
    }

    /// The navigation of the pages of `jobs` that converted (with their drafts' titles and
    /// orders), ordered by the `SUMMARY.md` files among them, which are not pages of it, or
    /// laid out by the project's `nav`.
    func navigation(of jobs: [BatchJob], drafts: [BatchRunner.Draft]) -> SiteNavigation {
        var sources: [SiteNavigation.Source] = []
        var summaries: [(job: BatchJob, text: String)] = []
        var bookSummary: (MdBookSummary, folder: String)?
        for (job, draft) in zip(jobs, drafts) {
            if Path.lastComponent(job.input) == "SUMMARY.md" {
                guard let bytes = try? Files.read(job.input, limit: 16 << 20) else { continue }
                let text = String(decoding: bytes, as: UTF8.self)
                if let book, Path.same(BatchPlan.absolute(job.input), BatchPlan.absolute(book.summary)) {
                    bookSummary = (MdBookSummary(text, file: job.input), BatchPlan.absolute(book.sourceFolder))
                } else {
                    summaries.append((job, text))
                }
                continue
            }
            let (title, facts) = draft.result
            guard let title else { continue }  // (a page that failed is in no navigation)
            sources.append(SiteNavigation.Source(job: job, title: title, order: facts?.order, titleHTML: facts?.titleHTML))
        }
        return SiteNavigation(sources, outputDirectory: outputDirectory, summaries: summaries, project: project, book: bookSummary)
    }

    /// The files this site makes itself at its root, whatever its options: no asset may be
    /// copied over one (nor into `outline-site/`).
    static let ownFiles = ["sitemap.xml", "404.html"]

    /// Why `assets` (source, output) cannot be copied: one whose output is a page's (of
    /// `jobs`), a file the site makes, or another asset's. Empty when all can.
    func conflicts(of assets: [(source: String, output: String)], pages jobs: [BatchJob]) -> [String] {
        var taken: [PathKey: String] = [:]
        for job in jobs { taken[PathKey(BatchPlan.absolute(job.output))] = "the page of \(job.input)" }
        for name in Self.ownFiles { taken[PathKey(BatchPlan.absolute(Path.join(outputDirectory, name)))] = "a file the site makes" }
        if let index, taken[PathKey(BatchPlan.absolute(index))] == nil {
            taken[PathKey(BatchPlan.absolute(index))] = "the index page (--index)"
        }
        let shared = BatchPlan.absolute(Path.join(outputDirectory, Self.sharedFolder))
        var problems: [String] = []
        for asset in assets {
            let output = BatchPlan.absolute(asset.output)
            if Path.isWithin(output, shared) {
                problems.append("\(asset.source) would be copied to \(asset.output), in the folder of the site's own files")
            } else if let owner = taken[PathKey(output)] {
                problems.append("\(asset.source) would be copied to \(asset.output), which is \(owner); rename one of them")
            } else {
                taken[PathKey(output)] = "where \(asset.source) is copied"
            }
        }
        return problems
    }

    /// The site's shared files (path and content) but for the search index
    /// (`BatchRunner.writeSearchIndex`): the pages' style and script, the navigation, the
    /// Prism files of the pages' `codeLanguages` (`CodeHighlighting`), KaTeX's when a page
    /// holds math (`MathTypesetting`), and with `--site-url` the sitemap.
    func sharedFiles(navigation: SiteNavigation, codeLanguages: Set<String>) -> [(path: String, bytes: [UInt8])] {
        var files = [
            (sharedFile("outline.css"), Array(PageTemplate.defaultStyle.utf8)),
            (sharedFile("outline.js"), Array(PageTemplate.defaultScript.utf8)),
            (sharedFile("nav.js"), navigation.script),
            (sharedFile("nav.html"), navigation.page()),
        ]
        files += CodeHighlighting.siteFiles(for: codeLanguages).map { (sharedFile("prism/" + $0.name), Array($0.text.utf8)) }
        files += MathTypesetting.siteFiles(for: codeLanguages).map { (sharedFile("katex/" + $0.name), Array($0.text.utf8)) }
        if let siteURL { files.append((Path.join(outputDirectory, "sitemap.xml"), sitemap(siteURL, navigation: navigation))) }
        return files
    }

    /// `sitemap.xml`: every page of the navigation (the index first) under `siteURL`.
    private func sitemap(_ siteURL: String, navigation: SiteNavigation) -> [UInt8] {
        var xml = ByteBuffer()
        xml.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n" as StaticString)
        var urls = navigation.readingOrder.map { siteURL + navigation.pages[$0].href }
        if let index, !navigation.pages.contains(where: { $0.output == BatchPlan.absolute(index) }) { urls.insert(siteURL + "index.html", at: 0) }
        for url in urls {
            xml.write("<url><loc>" as StaticString)
            xml.write(escaping: url)
            xml.write("</loc></url>\n" as StaticString)
        }
        xml.write("</urlset>\n" as StaticString)
        return xml.finish()
    }
}
