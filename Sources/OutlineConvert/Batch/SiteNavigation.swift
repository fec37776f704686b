/// The navigation of a docs site (docs/sites.md): its pages as an outline of folders, in
/// reading order, from which every page gets previous / next links and the site its shared
/// navigation files.
///
/// Order, in each folder: its index page first; then the pages and folders an mdBook
/// `SUMMARY.md` names (of that folder or one above it), in its order and with its titles;
/// then those with a front matter `order:` (a number), smallest first; then the rest by
/// title. A folder sorts by its index page's title and order, else by its name.
///
/// A site whose `mkdocs.yml` has a `nav` is laid out by it instead, as mkdocs lays it out:
/// its sections, pages (a label is the page's title in the navigation) and links, in its
/// order; the pages it leaves out are built but in no navigation. Without `nav`, the
/// pages its `not_in_nav` names are left out of the folders' outline.
struct SiteNavigation: Sendable {
    /// One page: its output (absolute), its URL from the output folder, its title, and the
    /// title's HTML when it has markup (`NavigationTitle`).
    package struct Page: Sendable, Equatable {
        package let output: String
        let href: String
        package let title: String
        var titleHTML: String? = nil
    }

    /// A folder of the outline: its index page (if any), then its entries in order. A
    /// section of `nav` is a folder with a title and no index page.
    struct Folder: Sendable, Equatable {
        package var name: String
        package var index: Int?
        var title: String? = nil
        var entries: [Entry] = []
    }

    /// An entry of a folder: a page (by its number in `pages`), a folder, or a link out
    /// of the site (from `nav`; without a URL, an mdBook draft chapter).
    enum Entry: Sendable, Equatable {
        case page(Int)
        case folder(Folder)
        case link(title: String, url: String)
    }

    /// The pages, in the order given.
    package let pages: [Page]
    /// The outline of the output folder.
    package let root: Folder
    /// The pages in reading order (numbers in `pages`).
    let readingOrder: [Int]
    /// What `SUMMARY.md` files name wrongly: missing or outside files, pages named twice.
    package let warnings: [Diagnostic]
    /// What an mkdocs project's `nav` names wrongly (a page that is not there, a link the
    /// site does not follow), at the level its `validation` gives `nav.not_found`.
    package private(set) var navWarnings: [Diagnostic] = []
    /// The pages an mkdocs project's `nav` leaves out (and `not_in_nav` does not name), at
    /// the level its `validation` gives `nav.omitted_files`.
    package private(set) var omittedPages: [Diagnostic] = []
    /// The place of each page's output (absolute) in reading order.
    private let places: [PathKey: Int]
    /// `nav.js` (see `makeScript`), and a hash of it: two runs with the same key have the
    /// same pages, titles and order.
    package private(set) var script: [UInt8] = []
    private(set) var key = ""

    /// What the navigation needs of one page of the run.
    struct Source: Sendable {
        let job: BatchJob
        package let title: String
        package let order: Double?
        let titleHTML: String?

        /// A page `job` titled `title` (`titleHTML`: with markup), with front matter
        /// `order:` if any.
        package init(job: BatchJob, title: String, order: Double?, titleHTML: String? = nil) {
            self.job = job
            self.title = title
            self.order = order
            self.titleHTML = titleHTML
        }
    }

    /// The navigation of `sources` (the run's pages), written into `outputDirectory`;
    /// `summaries` are the `SUMMARY.md` inputs with their text; `project` the `mkdocs.yml`
    /// whose `nav` lays the site out, if any.
    package init(
        _ sources: [Source], outputDirectory: String, summaries: [(job: BatchJob, text: String)] = [], project: MkDocsConfig? = nil,
        book: (summary: MdBookSummary, folder: String)? = nil
    ) {
        let base = BatchPlan.absolute(outputDirectory)
        var pages: [Page] = []
        var byInput: [PathKey: Int] = [:]
        for source in sources {
            let output = BatchPlan.absolute(source.job.output)
            guard Path.isWithin(output, base), !Path.same(output, base) else { continue }
            byInput[PathKey(BatchPlan.absolute(source.job.input))] = pages.count
            let path = output.dropFirst(base.count + 1).split(separator: "/").map { PercentEncoding.unreserved.encoded(String($0)) }
            pages.append(Page(output: output, href: path.joined(separator: "/"), title: source.title, titleHTML: source.titleHTML))
        }
        // What the SUMMARY.md files say: a rank (which orders the entries of the summary's
        // folder and the folders below it) and a title for the pages they name.
        var rank: [Int: Rank] = [:]
        var titles: [Int: String] = [:]
        var warnings: [Diagnostic] = []
        for summary in summaries {
            let folder = Path.parent(BatchPlan.absolute(summary.job.input))
            let outputFolder = Path.parent(BatchPlan.absolute(summary.job.output))
            let scope = outputFolder.hasPrefix(base + "/") ? String(outputFolder.dropFirst(base.count + 1)) : ""
            let root = BatchPlan.absolute(summary.job.root)
            for link in Self.summaryLinks(summary.text) {
                let location = SourceLocation(file: summary.job.input, line: link.line, column: link.column)
                let (path, _, _) = SiteLinks.split(link.target)
                guard !path.isEmpty else { continue }  // (a draft chapter: `[Title]()`)
                let target = BatchPlan.absolute(SiteLinks.decoded(path), in: folder)
                guard Path.isWithin(target, root) else {
                    warnings.append(Diagnostic(location, "SUMMARY.md names '\(Quote.snippet(path))', which is outside the site"))
                    continue
                }
                guard let page = byInput[PathKey(target)] else {
                    warnings.append(Diagnostic(location, "SUMMARY.md names '\(Quote.snippet(path))', which is not a page of the site"))
                    continue
                }
                guard rank[page] == nil else {
                    warnings.append(Diagnostic(location, "SUMMARY.md names '\(Quote.snippet(path))' a second time; its first place is kept"))
                    continue
                }
                rank[page] = Rank(scope: scope, value: rank.count)
                if !link.text.isEmpty { titles[page] = link.text }
            }
        }
        var configured: Folder?
        if let book {
            warnings += book.summary.warnings
            configured = Self.tree(book.summary, folder: book.folder, pages: byInput, titles: &titles, warnings: &warnings)
        } else if let project, let nav = project.nav {
            let docsFolder = BatchPlan.absolute(project.docsFolder)
            var navWarnings: [Diagnostic] = []
            configured = Self.tree(nav, docsFolder: docsFolder, pages: byInput, titles: &titles, warnings: &navWarnings)
            self.navWarnings = navWarnings
            // (As mkdocs: the pages `nav` leaves out and `not_in_nav` does not name.)
            var named: Set<Int> = []
            configured.map { Self.collectPages(of: $0, into: &named) }
            omittedPages = sources.compactMap { source in
                let input = BatchPlan.absolute(source.job.input)
                guard let page = byInput[PathKey(input)], !named.contains(page),
                    let relative = Path.relative(input, below: docsFolder), project.notInNav?.matches(relative) != true
                else { return nil }
                return Diagnostic(SourceLocation(file: source.job.input), "the page is not in mkdocs.yml's nav: it is built, and in no navigation")
            }
        }
        let titled = pages.enumerated().map { number, page in
            // (A title `SUMMARY.md` or `nav` gives is its link's text, or its label.)
            Page(output: page.output, href: page.href, title: titles[number] ?? page.title, titleHTML: titles[number] == nil ? page.titleHTML : nil)
        }
        self.pages = titled
        let orders = Dictionary(
            uniqueKeysWithValues: sources.compactMap { source in
                byInput[PathKey(BatchPlan.absolute(source.job.input))].flatMap { page in source.order.map { (page, $0) } }
            })
        if let configured {
            root = configured
        } else {
            // (Pages `not_in_nav` matches are in no navigation, as in mkdocs' own.)
            var hidden: Set<Int> = []
            if let project, let notInNav = project.notInNav {
                let docsFolder = BatchPlan.absolute(project.docsFolder)
                for source in sources {
                    let input = BatchPlan.absolute(source.job.input)
                    if let page = byInput[PathKey(input)], let relative = Path.relative(input, below: docsFolder), notInNav.matches(relative) {
                        hidden.insert(page)
                    }
                }
            }
            var tree = Self.tree(titled, leavingOut: hidden)
            Self.sort(&tree, pages: titled, rank: rank, orders: orders)
            root = tree
        }
        var order: [Int] = []
        Self.read(root, into: &order)
        readingOrder = order
        places = Dictionary(order.enumerated().map { (PathKey(titled[$1].output), $0) }, uniquingKeysWith: { first, _ in first })
        self.warnings = warnings
        script = makeScript()
        key = BuildRecord.hash(script)
    }

    // MARK: - The outline

    /// The numbers of the pages in `folder`, at any depth.
    private static func collectPages(of folder: Folder, into pages: inout Set<Int>) {
        if let index = folder.index { pages.insert(index) }
        for entry in folder.entries {
            switch entry {
            case .page(let page): pages.insert(page)
            case .folder(let inner): collectPages(of: inner, into: &pages)
            case .link: break
            }
        }
    }

    private static func tree(_ pages: [Page], leavingOut hidden: Set<Int>) -> Folder {
        var root = Folder(name: "")
        for (number, page) in pages.enumerated() where !hidden.contains(number) {
            let components = page.href.split(separator: "/").map { SiteLinks.decoded(String($0)) }
            insert(number, components: components[...], isIndex: components.last == "index.html", into: &root)
        }
        return root
    }

    private static func insert(_ page: Int, components: ArraySlice<String>, isIndex: Bool, into folder: inout Folder) {
        guard components.count > 1, let first = components.first else {
            if isIndex && folder.index == nil { folder.index = page } else { folder.entries.append(.page(page)) }
            return
        }
        let at =
            folder.entries.firstIndex { if case .folder(let sub) = $0 { Path.same(sub.name, first) } else { false } }
            ?? {
                folder.entries.append(.folder(Folder(name: first)))
                return folder.entries.count - 1
            }()
        guard case .folder(var sub) = folder.entries[at] else { return }
        folder.entries[at] = .page(-1)  // (so that `sub` is the only reference while it changes)
        insert(page, components: components.dropFirst(), isIndex: isIndex, into: &sub)
        folder.entries[at] = .folder(sub)
    }

    /// A place given by a `SUMMARY.md`: it orders the entries of the summary's folder
    /// (`scope`, under the output folder) and of the folders below it.
    private struct Rank {
        let scope: String
        let value: Int

        func applies(in path: String) -> Bool {
            scope.isEmpty || path == scope || path.hasPrefix(scope + "/")
        }
    }

    /// Sorts each folder's entries (`path` is the folder's under the output folder): by
    /// SUMMARY.md rank, then `order:`, then title.
    private static func sort(_ folder: inout Folder, path: String = "", pages: [Page], rank allRanks: [Int: Rank], orders: [Int: Double]) {
        for index in folder.entries.indices {
            guard case .folder(var sub) = folder.entries[index] else { continue }
            folder.entries[index] = .page(-1)
            sort(&sub, path: path.isEmpty ? sub.name : path + "/" + sub.name, pages: pages, rank: allRanks, orders: orders)
            folder.entries[index] = .folder(sub)
        }
        let rank = allRanks.compactMapValues { $0.applies(in: path) ? $0.value : nil }
        func key(_ entry: Entry) -> (rank: Int?, order: Double?, title: String) {
            switch entry {
            case .page(let page):
                return (rank[page], orders[page], pages[page].title.lowercased())
            case .folder(let sub):
                var ranks: [Int] = []
                collectRanks(sub, rank: rank, into: &ranks)
                return (ranks.min(), sub.index.flatMap { orders[$0] }, title(of: sub, pages: pages).lowercased())
            case .link(let title, _):
                return (nil, nil, title.lowercased())
            }
        }
        let keys = folder.entries.map(key)
        let sorted = folder.entries.indices.sorted { a, b in
            let (x, y) = (keys[a], keys[b])
            if x.rank != y.rank { return (x.rank ?? .max) < (y.rank ?? .max) }
            if x.order != y.order { return (x.order ?? .infinity) < (y.order ?? .infinity) }
            if x.title != y.title { return x.title < y.title }
            return a < b
        }
        folder.entries = sorted.map { folder.entries[$0] }
    }

    private static func collectRanks(_ folder: Folder, rank: [Int: Int], into ranks: inout [Int]) {
        if let index = folder.index, let value = rank[index] { ranks.append(value) }
        for entry in folder.entries {
            switch entry {
            case .page(let page): if let value = rank[page] { ranks.append(value) }
            case .folder(let sub): collectRanks(sub, rank: rank, into: &ranks)
            case .link: break
            }
        }
    }

    /// A folder's title: its index page's, else its name as a title.
    package static func title(of folder: Folder, pages: [Page]) -> String {
        folder.title ?? folder.index.map { pages[$0].title } ?? Path.title(ofName: folder.name)
    }

    private static func read(_ folder: Folder, into order: inout [Int]) {
        if let index = folder.index { order.append(index) }
        for entry in folder.entries {
            switch entry {
            case .page(let page): order.append(page)
            case .folder(let sub): read(sub, into: &order)
            case .link: break
            }
        }
    }

    // MARK: - mkdocs' nav

    /// The outline `nav` lays out: its sections as titled folders, its pages (a label is
    /// the page's title, the first one when `nav` names a page twice, as mkdocs keeps it)
    /// and its links out of the site (`https:`, `http:`, `mailto:`, or a path from the
    /// server's root), in its order. Anything else it names is left out with a warning:
    /// a file that is no page of the site, another kind of URL.
    private static func tree(
        _ nav: [MkDocsConfig.NavItem], label: String? = nil, docsFolder: String, pages: [PathKey: Int], titles: inout [Int: String],
        warnings: inout [Diagnostic]
    ) -> Folder {
        var folder = Folder(name: label ?? "", title: label)
        for item in nav {
            switch item {
            case .section(let label, let children):
                let section = tree(children, label: label, docsFolder: docsFolder, pages: pages, titles: &titles, warnings: &warnings)
                folder.entries.append(.folder(section))
            case .target(let label, let target, let location):
                let hasScheme = SiteLinks.hasScheme(target)
                if !hasScheme, !target.hasPrefix("/"), let page = pages[PathKey(BatchPlan.absolute(target, in: docsFolder))] {
                    if let label, titles[page] == nil { titles[page] = label }
                    // (A section labelled "" is titled and linked by its index page when that
                    // comes first, as FastAPI's docs have mkdocs-material show them.)
                    let name = Path.deletingExtension(Path.lastComponent(target)).lowercased()
                    if folder.title == "", folder.entries.isEmpty, folder.index == nil, name == "index" || name == "readme" {
                        folder.index = page
                        folder.title = nil
                    } else {
                        folder.entries.append(.page(page))
                    }
                } else if target.hasPrefix("/") || ["https:", "http:", "mailto:"].contains(where: target.lowercased().hasPrefix) {
                    folder.entries.append(.link(title: label ?? target, url: target))
                } else {
                    let what = hasScheme ? "a link the site does not follow" : "which is not a page of the site"
                    warnings.append(Diagnostic(location, "nav names '\(Quote.snippet(target))', \(what); it is left out"))
                }
            }
        }
        return folder
    }

    // MARK: - SUMMARY.md

    /// The outline an mdBook project's `summary` lays out (its pages from `folder`): its
    /// chapters in order, a chapter with sub-chapters a folder whose index page it is, its
    /// parts titled folders, its drafts entries without a link; prefix and suffix chapters
    /// at the top. A chapter whose file is no page of the site is left out with a warning
    /// (its sub-chapters kept, under its title).
    private static func tree(
        _ summary: MdBookSummary, folder: String, pages: [PathKey: Int], titles: inout [Int: String], warnings: inout [Diagnostic]
    ) -> Folder {
        func entry(_ chapter: MdBookSummary.Chapter) -> Entry? {
            var page: Int?
            if let target = chapter.target {
                let (path, _, _) = SiteLinks.split(target)
                page = pages[PathKey(BatchPlan.absolute(SiteLinks.decoded(path), in: folder))]
                if let page {
                    if titles[page] == nil, !chapter.title.isEmpty { titles[page] = chapter.title }
                } else {
                    warnings.append(Diagnostic(chapter.location, "SUMMARY.md names '\(Quote.snippet(path))', which is not a page of the site"))
                }
            }
            let children = chapter.children.compactMap(entry)
            if children.isEmpty { return page.map(Entry.page) ?? (chapter.target == nil ? .link(title: chapter.title, url: "") : nil) }
            return .folder(Folder(name: "", index: page, title: page == nil ? chapter.title : nil, entries: children))
        }
        var root = Folder(name: "")
        var part: Folder?
        for item in summary.items {
            switch item {
            case .part(let title):
                if let part { root.entries.append(.folder(part)) }
                part = Folder(name: title, title: title)
            case .chapter(let chapter, let numbered):
                guard let made = entry(chapter) else { continue }
                if numbered, part != nil {
                    part?.entries.append(made)
                } else {
                    if let open = part { root.entries.append(.folder(open)) }  // (the suffix chapters follow every part)
                    part = nil
                    root.entries.append(made)
                }
            case .separator: break
            }
        }
        if let part { root.entries.append(.folder(part)) }
        return root
    }

    /// The links of an mdBook `SUMMARY.md` (`[Title](path.md)`, in lists or alone), in
    /// order, with their 1-based line and column, as cmark reads them.
    static func summaryLinks(_ text: String) -> [(text: String, target: String, line: Int, column: Int)] {
        MarkdownLinks.links(in: text).map { ($0.text, $0.target, $0.line, $0.column) }
    }

    // MARK: - What pages and the site's shared files hold

    /// The previous / next links of the page written to `output`, as HTML (empty when the
    /// page is not in the navigation).
    package func pager(for output: String) -> String {
        guard let place = places[PathKey(BatchPlan.absolute(output))] else { return "" }
        let from = pages[readingOrder[place]].href.split(separator: "/").dropLast()
        var html = ByteBuffer()
        html.write("<nav class=\"outline-pager\" aria-label=\"Previous and next page\">" as StaticString)
        for (step, rel, label) in [(-1, "prev", "Previous"), (1, "next", "Next")] {
            guard readingOrder.indices.contains(place + step) else { continue }
            let other = pages[readingOrder[place + step]]
            html.write("<a rel=\"\(rel)\" href=\"")
            html.write(escaping: Self.relative(from: from, to: other.href))
            html.write("\"><span class=\"outline-pager-label\">\(label)</span> ")
            if let title = other.titleHTML { html.write(title) } else { html.write(escaping: other.title) }
            html.write("</a>" as StaticString)
        }
        html.write("</nav>" as StaticString)
        return String(decoding: html.finish(), as: UTF8.self)
    }

    /// The URL of `href` (from the output folder) from the folder `from` (its components).
    private static func relative(from: ArraySlice<Substring>, to href: String) -> String {
        let to = href.split(separator: "/")
        var common = 0
        while common < from.count, common < to.count - 1, from[from.startIndex + common] == to[common] { common += 1 }
        return (Array(repeating: "..", count: from.count - common) + to[common...].map(String.init)).joined(separator: "/")
    }

    /// `nav.js`: the outline as data for the pages' script (`outlineSiteNavigation(…)`),
    /// a JSON value: the paths and titles of the pages (with the title's HTML when it has
    /// markup), then the tree, in which a page is
    /// its number and a folder `[title, index page or -1, entries…]`.
    private func makeScript() -> [UInt8] {
        var json = "outlineSiteNavigation({\"pages\":["
        json += pages.map { page in
            "[" + JSONEmitter.quoted(page.href) + "," + JSONEmitter.quoted(page.title) + (page.titleHTML.map { "," + JSONEmitter.quoted($0) } ?? "")
                + "]"
        }.joined(separator: ",")
        json += "],\"tree\":" + folderJSON(root) + "});\n"
        return Array(json.utf8)
    }

    private func folderJSON(_ folder: Folder) -> String {
        var parts = [JSONEmitter.quoted(Self.title(of: folder, pages: pages)), String(folder.index ?? -1)]
        for entry in folder.entries {
            switch entry {
            case .page(let page): parts.append(String(page))
            case .folder(let sub): parts.append(folderJSON(sub))
            case .link(let title, let url): parts.append("{\"title\":" + JSONEmitter.quoted(title) + ",\"url\":" + JSONEmitter.quoted(url) + "}")
            }
        }
        return "[" + parts.joined(separator: ",") + "]"
    }

    /// `nav.html`: the outline as a page of its own, for readers without script (each page
    /// shows it in a frame then): folders as open sections, pages as links.
    package func page() -> [UInt8] {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="color-scheme" content="light dark">
            <title>Site navigation</title>
            <base target="_top">
            <link rel="stylesheet" href="outline.css">
            </head>
            <body>
            <nav class="outline-site-tree" aria-label="Site">

            """
        html += folderHTML(root, top: true)
        html += "</nav>\n</body>\n</html>\n"
        return Array(html.utf8)
    }

    private func folderHTML(_ folder: Folder, top: Bool) -> String {
        func link(_ page: Int, title: String? = nil) -> String {
            "<a href=\"../\(escaped(pages[page].href))\">\(title.map(escaped) ?? pages[page].titleHTML ?? escaped(pages[page].title))</a>"
        }
        var html = "<ul>\n"
        if let index = folder.index, top { html += "<li>" + link(index) + "</li>\n" }
        for entry in folder.entries {
            switch entry {
            case .page(let page):
                html += "<li>" + link(page) + "</li>\n"
            case .folder(let sub):
                let title = Self.title(of: sub, pages: pages)
                html += "<li><details open><summary>" + (sub.index.map { link($0, title: title) } ?? escaped(title))
                html += "</summary>\n" + folderHTML(sub, top: false) + "</details></li>\n"
            case .link(let title, let url) where url.isEmpty:
                html += "<li><span class=\"outline-draft\">\(escaped(title))</span></li>\n"
            case .link(let title, let url):
                html += "<li><a href=\"\(escaped(url))\">\(escaped(title))</a></li>\n"
            }
        }
        return html + "</ul>\n"
    }

    private func escaped(_ text: String) -> String {
        var html = ByteBuffer()
        html.write(escaping: text)
        return String(decoding: html.finish(), as: UTF8.self)
    }
}
