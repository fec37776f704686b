#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a folder build says as it goes; the command line prints it (its `Reporter`).
package protocol BuildReporter: AnyObject, Sendable {
    /// Input `done` of `total` is being converted.
    func progress(_ done: Int, of total: Int, _ path: String)
    /// The progress line is done with.
    func clearProgress()
    /// A `-v` note.
    func note(_ message: @autoclosure () -> String)
    func warning(_ diagnostic: Diagnostic)
    func error(_ error: ConversionError)
    /// A problem that is not tied to an input's content (a stale output).
    func error(file: String, _ message: String)
    /// How one output ended.
    func outcome(_ outcome: BatchOutcome, input: String, output: String)
    /// A line of the summary (always shown but with `-q`).
    func summary(_ message: String)
    /// Why the build did not start, or stopped before writing: the run is refused (exit 2).
    func refusal(_ message: String)
    /// Warnings counted as errors (`--strict`).
    var promoted: Int { get }
}

/// How a folder build runs, apart from what it converts (`ConversionOptions`) and what is
/// site-wide (`SiteOptions`).
package struct BuildSettings: Sendable {
    /// The files and folders named on the command line.
    package var inputs: [String]
    /// The folder the tree is mirrored into (`-o`).
    package var outputDirectory: String
    /// Write nothing: report what is missing, differs or is stale (`--check`).
    package var check = false
    /// Files converted at once; nil: every core.
    package var jobs: Int?
    /// Where the build record is kept (`--cache-dir`); nil: the default.
    package var cacheDirectory: String?
    /// Keep no record (`--no-cache`).
    package var noCache = false
    /// What tells this program's builds apart (a rebuilt program may write other bytes).
    package var programIdentity: String
    /// Which project configuration is read (`--config`, `--no-config`).
    package var projectConfig = ProjectConfig.found

    package init(inputs: [String], outputDirectory: String, programIdentity: String) {
        self.inputs = inputs
        self.outputDirectory = outputDirectory
        self.programIdentity = programIdentity
    }
}

/// Which project configuration a folder build reads (docs/sites.md).
package enum ProjectConfig: Sendable, Equatable {
    /// The `mkdocs.yml` (or `book.toml`) in the folder or the one above, as mkdocs and
    /// mdBook find theirs.
    case found
    /// This `mkdocs.yml` (`--config FILE`).
    case file(String)
    /// None: the folder as it is (`--no-config`).
    case none
}

/// How a build ended.
package enum BuildStatus: Equatable, Sendable {
    /// Everything converted (and with `--check`, up to date).
    case succeeded
    /// An input failed, an output is stale or missing, or a warning counted as an error.
    case failed
    /// Nothing was written: the plan or the site's check refused the run.
    case refused
}

/// A folder (or several inputs) converted into an output folder; in HTML, a docs site. The
/// steps, in order (`build`): plan the jobs → read the last run's record → convert the
/// pages, holding each until the site's check has run (links, assets, conflicts) and its
/// previous / next links are known → copy the assets → write the shared files and the
/// search index → write the index page → save the record → remove what is stale →
/// summarise. The worker pool (`BatchRunner`) runs the jobs.
package struct SiteBuilder {
    package let conversion: ConversionOptions
    package let site: SiteOptions
    package let settings: BuildSettings
    package let reporter: any BuildReporter
    package let temporaries: TemporaryFiles

    package init(
        conversion: ConversionOptions, site: SiteOptions, settings: BuildSettings, reporter: any BuildReporter, temporaries: TemporaryFiles
    ) {
        self.conversion = conversion
        self.site = site
        var settings = settings
        // (A site of an mkdocs project is its pages' folder, as mkdocs builds it.)
        if conversion.to == .html, settings.inputs.count == 1,
            let docs = MkDocsConfig.docsFolder(ofProject: settings.inputs[0], config: settings.projectConfig)
        {
            settings.inputs = [docs]
        } else if conversion.to == .html, settings.inputs.count == 1, settings.projectConfig == .found,
            Files.isRegularFile(Path.join(settings.inputs[0], "book.toml")),
            let book = MdBookProject.load(forTreeAt: settings.inputs[0]), Files.isDirectory(book.sourceFolder)
        {
            // (And a book's, its `src`.)
            settings.inputs = [book.sourceFolder]
        }
        self.settings = settings
        self.reporter = reporter
        self.temporaries = temporaries
    }

    private var outputDirectory: String { settings.outputDirectory }

    /// The folders a `--watch` of this build watches: its inputs' (a file's folder), and the
    /// folder of the `mkdocs.yml` or `book.toml` found for the tree, whose configuration
    /// and includes are part of its pages.
    package var foldersToWatch: [String] {
        let roots = settings.inputs.map { Files.isDirectory($0) ? $0 : Path.parent($0) }
        guard conversion.to == .html, settings.projectConfig == .found, settings.inputs.count == 1,
            let file = (try? MkDocsConfig.load(forTreeAt: settings.inputs[0]))??.file ?? MdBookProject.load(forTreeAt: settings.inputs[0])?.file
        else { return roots }
        let project = Path.parent(file)
        let inside = roots.allSatisfy { Path.isWithin(BatchPlan.absolute($0), BatchPlan.absolute(project)) }
        return inside ? [project] : roots + [project]
    }

    /// Runs the build.
    package func build() -> BuildStatus {
        let cacheFile = settings.noCache ? nil : BuildRecord.cacheFile(outputDirectory: outputDirectory, cacheDirectory: settings.cacheDirectory)
        // The last run's record is read while the jobs are planned. `--check` compares every
        // output's bytes, whatever the record says.
        let reading = settings.check ? nil : cacheFile.map(BuildRecord.Reading.init)
        guard case .some(let config) = projectConfig() else { return .refused }
        guard var plan = plan(excluding: config?.docsFolderIs(settings.inputs) == true ? config?.excluded : nil) else { return .refused }
        let book = settings.projectConfig == .found && settings.inputs.count == 1 ? MdBookProject.load(forTreeAt: settings.inputs[0]) : nil
        book?.warnings.forEach(reporter.warning)
        let (conversion, project) = withProject(plan, config: config, book: book)
        for page in conversion.wikiIndex?.tagPages ?? [] {
            plan.addGenerated(page.relative, root: settings.inputs[0], outputDirectory: outputDirectory, format: conversion.to)
        }
        // HTML into a folder is a docs site: links between pages, assets, the link check.
        let docs = conversion.to == .html ? docsSite(plan, project: project, book: book, conversion: conversion) : nil
        let record = reading.map { BuildRecord($0, key: recordKey(plan, conversion: conversion, site: docs)) }
        if !settings.check {
            // Earlier versions kept the record in the output folder, where a deploy published it.
            unlink(Path.join(outputDirectory, BuildRecord.legacyFileName))
        }
        let runner = BatchRunner(
            converter: Converter(options: conversion), workers: workers,
            check: settings.check, temporaries: temporaries, record: record, protected: plan.inputIdentities, site: docs,
            outputDirectory: outputDirectory)
        let tally = BuildTally(keepsPages: site.index || docs != nil, failed: plan.failures.count)
        guard let (navigation, linkCheck) = convertPages(plan, site: docs, runner: runner, tally: tally) else { return .refused }
        if let index = conversion.wikiIndex {
            let shown = Dictionary(plan.jobs.map { (BatchPlan.absolute($0.input), $0.input) }, uniquingKeysWith: { a, _ in a })
            index.missingPageWarnings(shown: { shown[$0] ?? $0 }).forEach(reporter.warning)
        }
        var made = plan.jobs.map(\.output)
        // (When no page converted, there is no site to navigate or search.)
        if let docs, let navigation, !tally.pages.isEmpty {
            navigation.warnings.forEach(reporter.warning)
            // (An mkdocs project's `validation` sets how loud each kind is; elsewhere all warn.)
            let levels = docs.project?.validation
            navigation.navWarnings.forEach { report($0, at: levels?.navNotFound ?? .warn) }
            navigation.omittedPages.forEach { report($0, at: levels?.omittedFiles ?? .ignore) }
            for (problem, diagnostic) in linkCheck.warnings {
                // (Outside a project, a link from the root is left as it is, unremarked.)
                let level: MkDocsConfig.Validation.Level? =
                    switch problem {
                    case .notFound: levels?.notFound
                    case .anchor: levels?.anchors
                    case .absolute: levels?.absoluteLinks ?? .ignore
                    case .unrecognized: levels?.unrecognizedLinks
                    }
                report(diagnostic, at: level ?? .warn)
            }
            made += copyAssets(linkCheck.assets, runner: runner, tally: tally)
            let shared = writeSharedFiles(of: docs, navigation: navigation, runner: runner, tally: tally)
            made += shared.map(\.job.output)
            made += writeRedirects(of: docs, plan: plan, made: made, runner: runner, tally: tally)
            if let notFound = runner.notFoundPage(of: tally.pages, outputDirectory: outputDirectory) {
                tally.add(notFound, countsAsPage: false)
                Self.report(notFound, to: reporter)
                made.append(notFound.job.output)
            }
            if site.reloads, !settings.check {
                // (Not for the search index alone: a page shows none of it until searched.)
                let search = docs.sharedFile("search.js")
                let all = shared.contains { result in
                    if case .written = result.outcome { !Path.same(result.job.output, search) } else { false }
                }
                made.append(writeReloadStamp(of: docs, pages: tally.pages, all: all, runner: runner))
            }
        }
        if site.index, let index = writeIndex(tally.pages, runner: runner, tally: tally) { made.append(index) }
        if !settings.check { record?.save(temporaries: temporaries) }
        removeStale(
            list: cacheFile.map(OutputList.init(recordFile:)), made: made,
            complete: plan.failures.isEmpty && settings.inputs.allSatisfy { FileIdentity(path: $0) != nil }, tally: tally)
        reporter.summary(tally.summary(check: settings.check, skipped: plan.skipped.count))
        return tally.failed + tally.stale + tally.missing + reporter.promoted > 0 ? .failed : .succeeded
    }

    /// `diagnostic` as a warning, a `-v` note or nothing, by `level`.
    private func report(_ diagnostic: Diagnostic, at level: MkDocsConfig.Validation.Level) {
        switch level {
        case .warn: reporter.warning(diagnostic)
        case .info: reporter.note("\(diagnostic.location): info: \(diagnostic.message)")
        case .ignore: break
        }
    }

    /// The jobs: every input and what it writes; nil (and said) when the plan is refused.
    private func plan(excluding excluded: GitIgnorePatterns?) -> BatchPlan? {
        let plan: BatchPlan
        do {
            plan = try BatchPlan(inputs: settings.inputs, outputDirectory: outputDirectory, format: conversion.to, excluding: excluded)
        } catch {
            reporter.refusal("\(error)")
            return nil
        }
        for skipped in plan.skipped { reporter.note("\(skipped.path): skipped: \(skipped.reason)") }
        plan.warnings.forEach(reporter.warning)
        plan.failures.forEach(reporter.error)
        if !settings.check {
            TemporaryFiles.removeStale(inFoldersOf: plan.jobs.map(\.output))
        }
        return plan
    }

    /// The `mkdocs.yml` of the run's project, when it is one folder (or `--config` names
    /// one): none with `--no-config`, and when it is not YAML (a located warning: mkdocs
    /// stops; the site is built here, in GitHub's flavour, and says why). Nil, the run
    /// refused, when the file `--config` names cannot be read.
    private func projectConfig() -> MkDocsConfig?? {
        guard settings.inputs.count == 1, let root = settings.inputs.first, Files.isDirectory(root) else { return .some(nil) }
        do {
            let config = try MkDocsConfig.load(settings.projectConfig, forTreeAt: root)
            config?.warnings.forEach(reporter.warning)
            return config
        } catch let error as ConversionError {
            if case .io = error {
                reporter.refusal("\(error)")
                return nil
            }
            reporter.warning(Diagnostic(error.location, error.reason + "; the tree is read as GitHub's Markdown"))
        } catch {}
        return .some(nil)
    }

    /// How many pages are read or converted at once (`-j`, else one a processor).
    private var workers: Int { settings.jobs ?? max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }

    /// The conversion options, with what the tree's project says when the run is one folder:
    /// the dialect its `mkdocs.yml` configures, mdBook's reading, the index of the graph or vault (a single
    /// folder holding `logseq/config.edn` or `.obsidian/`: docs/sites.md); and the
    /// `mkdocs.yml` that lays out the site, if any.
    private func withProject(_ plan: BatchPlan, config: MkDocsConfig?, book: MdBookProject?) -> (ConversionOptions, MkDocsConfig?) {
        var conversion = self.conversion
        var project: MkDocsConfig?
        guard settings.inputs.count == 1, let root = settings.inputs.first, Files.isDirectory(root) else { return (conversion, nil) }
        if let configured = config?.extensions {
            conversion.mkDocsExtensions = configured
            let (icons, warnings) = CustomIcons.store(
                folders: config?.customIcons ?? [], project: Path.parent(config?.file ?? "."), raw: conversion.html.unsafe)
            warnings.forEach(reporter.warning)
            conversion.icons = icons
            conversion.snippets = config?.snippets
            conversion.magicLinks = config?.magicLinks
            reporter.note("\(root): its mkdocs.yml names markdown_extensions: Markdown is read in mkdocs' dialect")
        }
        if let config { conversion.slugStyle = config.slugStyle }
        if let config, conversion.to == .html {
            project = config
            conversion.html.permalink = config.permalink
            if config.nav != nil { reporter.note("\(root): its mkdocs.yml has a nav: it is the site's navigation") }
        }
        if let book {
            conversion.isMdBook = true
            conversion.mdBookSmartPunctuation = book.smartPunctuation
            conversion.mdBookIncludes = MdBookIncludes(project: book.folder)
            reporter.note("\(root): a book.toml is beside it: Markdown is read as mdBook reads it")
        }
        guard conversion.to == .html, let app = WikiIndex.app(of: root) else { return (conversion, project) }
        let here = Files.currentDirectory()
        conversion.wikiIndex = WikiIndex(
            app: app, root: BatchPlan.absolute(root, in: here), inputs: plan.jobs.map { BatchPlan.absolute($0.input, in: here) },
            workers: workers)
        return (conversion, project)
    }

    /// The docs site of an HTML run of `plan`: its links, and what its project shows on
    /// every page (scripts only when `unsafe`).
    private func docsSite(_ plan: BatchPlan, project: MkDocsConfig?, book: MdBookProject?, conversion: ConversionOptions) -> DocsSite {
        var options = site
        // (`--site-url`, else the project's `site_url`.)
        options.siteURL = options.siteURL ?? project?.siteURL
        var links = SiteLinks(jobs: plan.jobs, outputDirectory: outputDirectory)
        links.absoluteFromRoot = project?.validation.absoluteFromDocs ?? false
        var docs = DocsSite(links: links, outputDirectory: outputDirectory, options: options)
        docs.project = project
        if let book, book.sourceFolderIs(settings.inputs) { docs.book = book }
        if let project {
            let (extras, warnings) = DocsSite.Extras.of(
                project, outputDirectory: outputDirectory, scripts: conversion.html.unsafe, icons: conversion.icons ?? IconStore())
            docs.extras = extras
            warnings.forEach(reporter.warning)
        }
        let home = BatchPlan.absolute(Path.join(outputDirectory, "index.html"))
        docs.home = site.index || plan.jobs.contains { BatchPlan.absolute($0.output) == home }
        return docs
    }

    /// What the record of a run is valid for: the options, this program, and in a site
    /// which files are inputs (its pages' links point at them), the site's options and what
    /// every page shows of its project (its name, its pages' labels).
    private func recordKey(_ plan: BatchPlan, conversion: ConversionOptions, site docs: DocsSite?) -> String {
        let inputs = docs.map { docs in
            [
                BuildRecord.hash(Array(plan.jobs.map(\.input).joined(separator: "\u{0}").utf8)), site.fingerprint,
                docs.project?.pageFingerprint ?? "", docs.book?.pageFingerprint ?? "",
            ]
            .joined(separator: "\u{0}")
        }
        return [conversion.fingerprint, settings.programIdentity, inputs ?? ""].joined(separator: "\u{0}")
    }

    /// Converts every job and writes its output, reporting each result in order. In a site,
    /// the link check runs once every page is read, before any is written: an asset that
    /// would land on a page or on a file the site makes stops the run (nil, nothing written).
    private func convertPages(_ plan: BatchPlan, site: DocsSite?, runner: BatchRunner, tally: BuildTally) -> (
        navigation: SiteNavigation?, linkCheck: (warnings: [(SiteCheck.Problem, Diagnostic)], assets: [(source: String, output: String)])
    )? {
        var linkCheck: (warnings: [(SiteCheck.Problem, Diagnostic)], assets: [(source: String, output: String)]) = ([], [])
        var conflicts: [String] = []
        let total = plan.jobs.count
        let reporter = reporter
        let navigation = runner.run(
            plan.jobs,
            started: { index, job in
                reporter.progress(index + 1, of: total, job.input)
            },
            beforeWriting: { pages, _ in
                guard let site else { return true }
                linkCheck = SiteCheck.run(pages, links: site.links)
                // (The project's own stylesheets and scripts, unless a page links one too.)
                let linked = Set(linkCheck.assets.map { PathKey(BatchPlan.absolute($0.output)) })
                linkCheck.assets += site.extras.assets.filter { !linked.contains(PathKey(BatchPlan.absolute($0.output))) }
                conflicts = site.conflicts(of: linkCheck.assets, pages: plan.jobs)
                return conflicts.isEmpty
            },
            report: { result in
                tally.add(result)
                Self.report(result, to: reporter)
            })
        reporter.clearProgress()
        guard conflicts.isEmpty else {
            reporter.refusal(conflicts.map(Quote.oneLine).joined(separator: "\n"))
            return nil
        }
        return (navigation, linkCheck)
    }

    /// Copies the files pages link to; returns their outputs.
    private func copyAssets(_ assets: [(source: String, output: String)], runner: BatchRunner, tally: BuildTally) -> [String] {
        for asset in assets {
            let outcome = runner.copy(asset.source, to: asset.output)
            tally.addAsset(outcome)
            reporter.outcome(outcome, input: asset.source, output: asset.output)
        }
        return assets.map(\.output)
    }

    /// The site's navigation and style (`outline-site/`), its sitemap and its search index;
    /// returns their paths.
    private func writeSharedFiles(of site: DocsSite, navigation: SiteNavigation, runner: BatchRunner, tally: BuildTally) -> [BatchResult] {
        let codeLanguages = Set(tally.pages.lazy.compactMap(\.facts).flatMap(\.codeLanguages))
        var results = site.sharedFiles(navigation: navigation, codeLanguages: codeLanguages).map { runner.write($0.bytes, to: $0.path) }
        results.append(runner.writeSearchIndex(of: site, navigation: navigation, pages: tally.pages))
        for result in results {
            tally.add(result, countsAsPage: false)
            Self.report(result, to: reporter)
        }
        return results
    }

    /// With `--watch`, `outline-site/reload.js` (`SiteOptions.reloads`), which every open
    /// page polls: rewritten with a new stamp when this build wrote pages (their URLs), or
    /// a file every page loads (`all`); returns its path.
    private func writeReloadStamp(of site: DocsSite, pages: [BatchResult], all: Bool, runner: BatchRunner) -> String {
        let path = site.sharedFile("reload.js")
        let changed = pages.filter { if case .written = $0.outcome { true } else { false } }.map { site.href(ofOutput: $0.job.output) }
        guard !changed.isEmpty || all || !Files.isRegularFile(path) else { return path }
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let stamp = JSONEmitter.quoted("\(time.tv_sec).\(time.tv_nsec)")
        let text = "outlineReload(\(stamp), [" + changed.map(JSONEmitter.quoted).joined(separator: ",") + "], \(all));\n"
        let result = runner.write(Array(text.utf8), to: path)
        if case .failed = result.outcome { Self.report(result, to: reporter) }
        return path
    }

    /// The redirect pages of the site's mkdocs or mdBook project (`SiteRedirects`), none
    /// over what `made` holds; returns their paths.
    private func writeRedirects(of site: DocsSite, plan: BatchPlan, made: [String], runner: BatchRunner, tally: BuildTally) -> [String] {
        let taken = Set(made.map { PathKey(BatchPlan.absolute($0)) })
        let (files, warnings): (files: [(path: String, bytes: [UInt8])], warnings: [Diagnostic])
        if let project = site.project, !project.redirects.isEmpty {
            let pages = Dictionary(
                plan.jobs.map { (PathKey(BatchPlan.absolute($0.input)), BatchPlan.absolute($0.output)) }, uniquingKeysWith: { a, _ in a })
            (files, warnings) = SiteRedirects.files(of: project, outputDirectory: outputDirectory, pages: pages, taken: taken)
        } else if let book = site.book, !book.redirects.isEmpty {
            (files, warnings) = SiteRedirects.files(ofBook: book, outputDirectory: outputDirectory, taken: taken)
        } else {
            return []
        }
        warnings.forEach(reporter.warning)
        return files.map { file in
            let result = runner.write(file.bytes, to: file.path)
            tally.add(result, countsAsPage: false)
            Self.report(result, to: reporter)
            return result.job.output
        }
    }

    /// `index.html` in the output folder, unless the tree makes one itself; returns its path
    /// when it made one.
    private func writeIndex(_ pages: [BatchResult], runner: BatchRunner, tally: BuildTally) -> String? {
        guard let result = runner.index(of: pages, outputDirectory: outputDirectory) else {
            reporter.note("\(outputDirectory)/index.html: made by the tree itself; no index written")
            return nil
        }
        tally.add(result, countsAsPage: false)
        Self.report(result, to: reporter)
        return result.job.output
    }

    /// Removes what an earlier run wrote into the output folder and this one did not (its
    /// source is gone), or with `--check` reports it as stale: what the list kept beside
    /// the build record names, and in a site every page that carries outline-render's
    /// generator mark (so that a fresh clone, or `--no-cache`, which keeps no list, finds
    /// them too). `complete` is false when part of the tree could not be read, and then
    /// nothing is removed.
    private func removeStale(list: OutputList?, made: [String], complete: Bool, tally: BuildTally) {
        let previous = list?.read() ?? []
        let pagesAside = conversion.to == .html && settings.inputs.allSatisfy(Files.isDirectory)
        let (current, gone) = OutputList.stale(
            made: made, previous: previous, in: outputDirectory, pagesAside: pagesAside ? settings.inputs : nil)
        if settings.check {
            for relative in gone {
                reporter.error(file: Path.join(outputDirectory, relative), "stale: no input makes it any more; a build removes it")
                tally.addStale()
            }
            return
        }
        let left = complete ? OutputList.remove(gone, from: outputDirectory) : gone
        for relative in gone where complete && !left.contains(relative) {
            reporter.summary("\(Quote.oneLine(Path.join(outputDirectory, relative))): removed, no input makes it any more")
        }
        if complete && !gone.isEmpty { tally.addRemoved(gone.count - left.count) }
        guard let list, !(previous.isEmpty && current.isEmpty) else { return }
        list.save(current + left, temporaries: temporaries)
    }

    private static func report(_ result: BatchResult, to reporter: any BuildReporter) {
        result.warnings.forEach(reporter.warning)
        reporter.outcome(result.outcome, input: result.job.input, output: result.job.output)
    }
}
