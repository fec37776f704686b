/// The files a site build writes besides its pages, through the runner (so that they are
/// written, compared with `check`, and recorded as pages are): the `--index` page, the
/// `404.html` page, the site's shared files, its search index, and the assets pages link to.
extension BatchRunner {
    /// Writes (or with `check`, compares) `index.html` in `outputDirectory`: every page by
    /// title, in folder order, converted like the pages themselves. Nil when one of the
    /// pages is that `index.html` already.
    func index(of pages: [BatchResult], outputDirectory: String) -> BatchResult? {
        let path = Path.join(outputDirectory, "index.html")
        guard !pages.contains(where: { BatchPlan.absolute($0.job.output) == BatchPlan.absolute(path) }) else { return nil }
        let entries = pages.compactMap { page in page.title.map { (page.job.output, $0) } }
        let markdown = DocsIndex.markdown(title: "Index", pages: entries, outputDirectory: outputDirectory)
        var options = converter.options
        options.from = .markdown
        options.title = nil
        options.collapse = CollapseOptions()
        let indexConverter = Converter(options: options)
        // Like every page of the site, it has the site's navigation and search (its links
        // point at outputs already: none is rewritten).
        let page = site?.page(BatchJob(input: Path.join(outputDirectory, "index.md"), output: path, root: outputDirectory))
        return finish(BatchJob(input: "index", output: path)) {
            var conversion = try indexConverter.convert(Array(markdown.utf8), file: "index.md", site: page)
            conversion.bytes = Self.splice("", into: conversion.bytes)
            return conversion
        }
    }

    /// Writes (or with `check`, compares) `404.html` in `outputDirectory`, the page a web
    /// server shows for an address the site does not have: in the site's look, with its
    /// navigation and search. With `--site-url` its links start from that address, so that
    /// they work wherever the server shows it (`/docs/a/b/missing`). Nil when one of the
    /// pages is that `404.html` already.
    func notFoundPage(of pages: [BatchResult], outputDirectory: String) -> BatchResult? {
        let path = Path.join(outputDirectory, "404.html")
        guard let site, !pages.contains(where: { BatchPlan.absolute($0.job.output) == BatchPlan.absolute(path) }) else { return nil }
        var options = converter.options
        options.from = .markdown
        options.title = nil
        options.collapse = CollapseOptions()
        let notFoundConverter = Converter(options: options)
        var page = site.page(BatchJob(input: Path.join(outputDirectory, "404.md"), output: path, root: outputDirectory))
        if let siteURL = site.siteURL {
            page.root = siteURL
            page.homeLink = page.homeLink.map { _ in siteURL + "index.html" }
            page.stylesheets = site.extras.stylesheets.map { SiteLinks.hasScheme($0) ? $0 : siteURL + $0 }
            page.scripts = site.extras.scripts.map { (SiteLinks.hasScheme($0.url) ? $0.url : siteURL + $0.url, $0.isModule) }
        }
        page.canonical = nil
        page.editLink = nil
        let markdown =
            "# Page not found\n\nThere is no page at this address. The site's pages are all in its navigation, and its search finds what they say.\n"
        return finish(BatchJob(input: "404", output: path)) {
            var conversion = try notFoundConverter.convert(Array(markdown.utf8), file: "404.md", site: page)
            conversion.bytes = Self.splice("", into: conversion.bytes)
            return conversion
        }
    }

    /// Writes (or with `check`, compares) a file the run makes itself (a docs site's shared
    /// files) at `output`.
    func write(_ bytes: [UInt8], to output: String) -> BatchResult {
        finish(BatchJob(input: "the site's pages", output: output)) { Conversion(bytes: bytes, warnings: [], title: "") }
    }

    /// The search index in the build record: an input of its own, of which the navigation's
    /// key stands for the content.
    static func searchIndexEntry(of site: DocsSite) -> BatchJob {
        BatchJob(input: "\u{1}search index", output: site.sharedFile("search.js"))
    }

    /// Writes (or with `check`, compares) a docs site's search index for `navigation` and
    /// `pages` (in job order). It is not rebuilt when no page was converted and the
    /// navigation is what it was when the index was last written and left as it is; else
    /// each page's part comes from its facts when it was converted, else from the index
    /// written last time (when it was left as it was), else from the page read again.
    func writeSearchIndex(of site: DocsSite, navigation: SiteNavigation, pages: [BatchResult]) -> BatchResult {
        let recorded = Self.searchIndexEntry(of: site)
        let output = recorded.output
        let job = BatchJob(input: "the site's pages", output: output)
        let key = Array(navigation.key.utf8)
        let lookup = FileStatusLookup()
        let converted = pages.contains(where: \.converted)
        if !converted, record?.unchanged(recorded, status: "", input: key, lookup: lookup) != nil {
            return BatchResult(job: job, outcome: check ? .upToDate : .unchanged, warnings: [], title: nil)
        }
        var index = SearchIndex(previous: record?.isAsLeft(recorded, lookup: lookup) == true ? output : nil)
        for page in pages {
            let url = site.href(of: page.job)
            if page.converted {
                index.set(page.facts?.search ?? [], for: url)
            } else if index.parts[url] == nil {
                let read = try? converter.convert(converter.load(page.job.input), file: page.job.input, site: site.page(page.job))
                index.set(read?.facts?.search ?? [], for: url)
            }
        }
        let result = finish(job) { Conversion(bytes: index.script(navigation: navigation), warnings: [], title: "") }
        if case .failed = result.outcome { return result }
        if !check {
            record?.record(recorded, inputHash: BuildRecord.hash(key), status: "", title: "", facts: nil, warnings: [], lookup: lookup)
        }
        return result
    }

    /// Copies an asset of a docs site to `output` (atomically, only when it differs; with
    /// `check` only compared). A file that is its own destination is left alone.
    package func copy(_ source: String, to output: String) -> BatchOutcome {
        if let identity = FileIdentity(path: output), identity == FileIdentity(path: source) { return check ? .upToDate : .unchanged }
        do {
            let bytes = try Files.read(source, limit: 1 << 30)
            if !check { try folders.make(Path.parent(output)) }
            return try Self.deliver(bytes, to: output, check: check, temporaries: temporaries, protected: protected, replacingLinks: true)
        } catch {
            return .failed(.unexpected(error, file: output))
        }
    }
}
