/// An mdBook project (docs/sites.md): the folder holding `book.toml`, given as the folder
/// or as its pages' folder (`src`). Its `SUMMARY.md` lays out the site's navigation, its
/// pages' includes are pulled in (`MdBookIncludes`) and its Rust blocks read as mdBook
/// reads them. Of `book.toml` (read by `TOMLReader`), `[book] title` names the site,
/// `[book] language` is its pages' language, `[output.html] smart-punctuation` its text's
/// quotes and dashes,
/// `[book] src` is the pages' folder, `[output.html] git-repository-url` and
/// `edit-url-template` give every page its repository and edit links, and
/// `[output.html.redirect]` maps old pages to new places (`SiteRedirects`).
struct MdBookProject: Sendable {
    /// The `book.toml` read.
    let file: String
    /// The folder of the pages: `[book] src`, by default `src` beside `book.toml`.
    let sourceFolder: String
    /// `[book] title`.
    let title: String?
    /// `[book] language`: the pages' `lang`.
    let language: String?
    /// `[output.html] smart-punctuation` (mdBook 0.5: on unless set to false).
    let smartPunctuation: Bool
    /// `[output.html] git-repository-url`, named as a repository link is (`GitHub`, …).
    let repository: (url: String, name: String)?
    /// `[output.html] edit-url-template`: `{path}` is the page's path from the book's folder.
    private let editTemplate: String?
    /// The titles `SUMMARY.md` gives pages, by the page's absolute path (read once, with
    /// the book: a page's title and the build record's key both use them).
    let labels: [String: String]
    /// `src` as written: the start of a page's path from the book's folder.
    private let sourceName: String
    /// `[output.html.redirect]`: an old page's path from the site's root (`/old.html`) and
    /// where it now is (from the old page's folder, or an address), with where it is named.
    let redirects: [(old: String, new: String, location: SourceLocation)]
    /// What `book.toml` holds that cannot be used: located.
    let warnings: [Diagnostic]

    /// The folder holding `file`: nothing outside it is read for the book.
    var folder: String { Path.parent(file) }
    /// The `SUMMARY.md` of the book.
    var summary: String { Path.join(sourceFolder, "SUMMARY.md") }

    /// The project of the tree at `root`: a `book.toml` in it or in the folder above.
    static func load(forTreeAt root: String) -> MdBookProject? {
        for folder in [root, MkDocsConfig.folderAbove(root)] {
            let file = folder == "." ? "book.toml" : Path.join(folder, "book.toml")
            guard Files.isRegularFile(file) else { continue }
            return MdBookProject(file: file)
        }
        return nil
    }

    /// The book whose `book.toml` is `file`; one that cannot be read is a located warning,
    /// and the book is read with mdBook's defaults.
    private init(file: String) {
        self.file = file
        var warnings: [Diagnostic] = []
        var settings: TOMLValue = .table([])
        var locations: [[String]: SourceLocation] = [:]
        do {
            (settings, locations) = try TOMLReader.readWithLocations(Files.read(file, limit: 1 << 20), file: file)
        } catch {
            let problem = ConversionError.unexpected(error, file: file)
            warnings.append(Diagnostic(problem.location, problem.reason + "; the book is read with mdBook's defaults"))
        }
        func text(_ keys: String...) -> String? {
            var value: TOMLValue? = settings
            for key in keys { value = value?[key] }
            guard let value else { return nil }
            guard let text = value.text else {
                warnings.append(
                    Diagnostic(locations[keys] ?? SourceLocation(file: file), "\(keys.joined(separator: ".")) is not a string; it is not used"))
                return nil
            }
            return text
        }
        let folder = Path.parent(file)
        var source = text("book", "src") ?? "src"
        if source.hasPrefix("/") || !Path.isWithin(BatchPlan.absolute(Path.join(folder, source)), BatchPlan.absolute(folder)) {
            warnings.append(
                Diagnostic(
                    locations[["book", "src"]] ?? SourceLocation(file: file),
                    "book.src '\(Quote.snippet(source))' is not inside the book's folder; src is used"))
            source = "src"
        }
        sourceName = source
        sourceFolder = folder == "." ? source : Path.join(folder, source)
        title = text("book", "title").map(TitleText.normalized).flatMap { $0.isEmpty ? nil : $0 }
        language = text("book", "language").flatMap { $0.isEmpty ? nil : $0 }
        var smart = true
        if let value = settings["output"]?["html"]?["smart-punctuation"] {
            if case .boolean(let on) = value {
                smart = on
            } else {
                warnings.append(
                    Diagnostic(
                        locations[["output", "html", "smart-punctuation"]] ?? SourceLocation(file: file),
                        "output.html.smart-punctuation is not true or false; it is not used"))
            }
        }
        smartPunctuation = smart
        repository = text("output", "html", "git-repository-url").flatMap { url in
            MkDocsConfig.repositoryName(of: url).map { (url, $0) }
        }
        editTemplate = text("output", "html", "edit-url-template")
        labels = Self.labels(summary: Path.join(sourceFolder, "SUMMARY.md"), sourceFolder: sourceFolder)
        redirects = Self.redirects(settings["output"]?["html"]?["redirect"], file: file, locations: locations, warnings: &warnings)
        self.warnings = warnings
    }

    /// Whether `inputs` are this book's pages' folder alone.
    func sourceFolderIs(_ inputs: [String]) -> Bool {
        inputs.count == 1 && Path.same(BatchPlan.absolute(inputs[0]), BatchPlan.absolute(sourceFolder))
    }

    /// The link to edit the page `path` (from the pages' folder, `/` between its parts).
    func editLink(path: String) -> String? {
        editTemplate.map { $0.replacing("{path}", with: sourceName + "/" + path) }
    }

    /// The titles the `SUMMARY.md` at `summary` gives pages (of `sourceFolder`), by the
    /// page's absolute path.
    private static func labels(summary: String, sourceFolder: String) -> [String: String] {
        guard let bytes = try? Files.read(summary, limit: 16 << 20) else { return [:] }
        var labels: [String: String] = [:]
        let base = BatchPlan.absolute(sourceFolder)
        func collect(_ chapter: MdBookSummary.Chapter) {
            if let target = chapter.target, !chapter.title.isEmpty {
                let key = BatchPlan.absolute(SiteLinks.decoded(SiteLinks.split(target).0), in: base)
                if labels[key] == nil { labels[key] = chapter.title }
            }
            chapter.children.forEach(collect)
        }
        for case .chapter(let chapter, _) in MdBookSummary(String(decoding: bytes, as: UTF8.self), file: summary).items { collect(chapter) }
        return labels
    }

    /// The entries of `[output.html.redirect]`, each a string; any other is a warning.
    private static func redirects(
        _ table: TOMLValue?, file: String, locations: [[String]: SourceLocation], warnings: inout [Diagnostic]
    ) -> [(old: String, new: String, location: SourceLocation)] {
        guard case .table(let entries)? = table else { return [] }
        return entries.compactMap { entry in
            let location = locations[["output", "html", "redirect", entry.key]] ?? SourceLocation(file: file)
            guard let new = entry.value.text else {
                warnings.append(Diagnostic(location, "output.html.redirect '\(Quote.snippet(entry.key))' is not a string; it is not used"))
                return nil
            }
            return (entry.key, new, location)
        }
    }

    /// What every page shows of the book (see `MkDocsConfig.pageFingerprint`).
    var pageFingerprint: String {
        ([title ?? "", language ?? "", repository?.url ?? "", editTemplate ?? "", sourceName] + labels.map { $0.key + "\u{1}" + $0.value }.sorted())
            .joined(separator: "\u{0}")
    }
}
