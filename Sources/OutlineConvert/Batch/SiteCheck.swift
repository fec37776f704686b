#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a docs site needs to know of one page: its ids and its local links (for the link
/// check), its front matter `order:` (for the navigation) and its part of the search index.
/// Kept in the build record (the search part in the search index's own file:
/// `SearchIndex`), so that a page skipped as unchanged counts too.
struct PageFacts: Sendable, Equatable {
    /// The ids of the page's sections.
    var ids: [String]
    /// The page's local links that the link check needs, in order (`PageLinks.facts`).
    package var links: [LinkFact]
    /// Front matter `order:`, when it is a number.
    package var order: Double?
    /// The page's part of the site search's index (`SearchText`): its sections as a JSON
    /// array of `[id, title, text]` in UTF-8, made as the page is written (on its worker);
    /// empty when not known.
    var search: [UInt8] = []
    /// The languages of the page's code blocks that Prism knows (its ids), sorted.
    var codeLanguages: [String] = []
    /// The page's title as the navigation shows it, when it has markup (`NavigationTitle`).
    var titleHTML: String?

    /// The facts of a page.
    package init(ids: [String], links: [LinkFact], order: Double? = nil, search: [UInt8] = [], codeLanguages: [String] = []) {
        self.ids = ids
        self.links = links
        self.order = order
        self.search = search
        self.codeLanguages = codeLanguages
    }

    // MARK: - In the build record: one field, parts separated by control characters

    private static let part: UInt8 = 1
    private static let field: UInt8 = 2

    /// The facts as one line of text (no tab, line feed or backslash of their own).
    var encoded: String {
        var parts = [ids.joined(separator: String(UnicodeScalar(Self.field)))]
        for link in links {
            let target: [String]
            switch link.target {
            case .page(let input, let fragment): target = ["page", input, fragment.map { "#" + $0 } ?? ""]
            case .samePage(let fragment): target = ["same", fragment, ""]
            case .asset(let source, let output): target = ["asset", source, output]
            case .outside(let path): target = ["outside", path, ""]
            case .missing(let path): target = ["missing", path, ""]
            case .absolute(let url): target = ["absolute", url, ""]
            }
            let place = [link.url, String(link.line), String(link.column)] + (link.file.map { [$0] } ?? [])
            parts.append((target + place).joined(separator: String(UnicodeScalar(Self.field))))
        }
        if let order { parts.append("order" + String(UnicodeScalar(Self.field)) + String(order)) }
        if !codeLanguages.isEmpty { parts.append((["code"] + codeLanguages).joined(separator: String(UnicodeScalar(Self.field)))) }
        if let titleHTML { parts.append("title" + String(UnicodeScalar(Self.field)) + titleHTML) }
        return parts.joined(separator: String(UnicodeScalar(Self.part)))
    }

    init?(encoded: String) {
        // Split as bytes: a record holds thousands of these.
        var encoded = encoded
        var order: Double?
        var codeLanguages: [String] = []
        var titleHTML: String?
        let decoded: (ids: [String], links: [LinkFact])? = encoded.withUTF8 { bytes in
            func fields(_ part: Slice<UnsafeBufferPointer<UInt8>>) -> [String] {
                part.split(separator: Self.field, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            }
            let parts = bytes.split(separator: Self.part, omittingEmptySubsequences: false)
            guard let first = parts.first else { return nil }
            var links: [LinkFact] = []
            for part in parts.dropFirst() {
                let fields = fields(part)
                if fields.count == 2, fields[0] == "order" {
                    order = Double(fields[1])
                    continue
                }
                if fields.first == "code" {
                    codeLanguages = Array(fields.dropFirst())
                    continue
                }
                if fields.count == 2, fields[0] == "title" {
                    titleHTML = fields[1]
                    continue
                }
                guard fields.count == 6 || fields.count == 7, let line = Int(fields[4]), let column = Int(fields[5]) else { return nil }
                let target: LinkFact.Target
                switch fields[0] {
                case "page": target = .page(input: fields[1], fragment: fields[2].isEmpty ? nil : String(fields[2].dropFirst()))
                case "same": target = .samePage(fragment: fields[1])
                case "asset": target = .asset(source: fields[1], output: fields[2])
                case "outside": target = .outside(fields[1])
                case "missing": target = .missing(fields[1])
                case "absolute": target = .absolute(fields[1])
                default: return nil
                }
                links.append(LinkFact(target: target, url: fields[3], line: line, column: column, file: fields.count == 7 ? fields[6] : nil))
            }
            return (first.isEmpty ? [] : fields(first), links)
        }
        guard let decoded else { return nil }
        (ids, links) = decoded
        self.order = order
        self.codeLanguages = codeLanguages
        self.titleHTML = titleHTML
    }
}

/// The link check of a docs site (docs/sites.md), once every page is converted: a link to a
/// missing file, to a section no page has, or out of the input folder is a warning at the
/// link; assets are listed for copying. Assets are looked at again here, whatever the run
/// that found them saw, so a rerun says what a clean run says.
enum SiteCheck {
    /// What a warning of the check is about, for the levels an mkdocs project's
    /// `validation` gives them.
    enum Problem {
        /// A link to a file that is not there, or out of the input folder.
        case notFound
        /// A link to a section that is not there.
        case anchor
        /// A link from the server's root, left as it is.
        case absolute
        /// A link to no file, whose name has no extension (`guide/`, `setup`).
        case unrecognized
    }

    /// Warnings for `pages` (each input with its facts), and the assets to copy (each once,
    /// in order of first mention). `links` looks at each asset as it is now.
    package static func run(
        _ pages: [(job: BatchJob, facts: PageFacts)], links: SiteLinks
    ) -> (warnings: [(Problem, Diagnostic)], assets: [(source: String, output: String)]) {
        // Each page's ids become a set only when a link asks for one of them.
        var ids: [PathKey: (index: Int, set: Set<String>?)] = [:]
        var names: [PathKey: String] = [:]
        let here = Files.currentDirectory()
        for (index, (job, _)) in pages.enumerated() {
            let input = PathKey(BatchPlan.absolute(job.input, in: here))
            ids[input] = (index, nil)
            names[input] = job.input
        }
        func idSet(_ input: String) -> Set<String>? {
            guard let entry = ids[PathKey(input)] else { return nil }
            if let set = entry.set { return set }
            let set = Set(pages[entry.index].facts.ids)
            ids[PathKey(input)]?.set = set
            return set
        }
        var warnings: [(Problem, Diagnostic)] = []
        var assets: [(source: String, output: String)] = []
        var seenAssets: [PathKey: LinkFact.Target?] = [:]
        for (job, facts) in pages {
            var ownSet: Set<String>?
            func own() -> Set<String> {
                if let ownSet { return ownSet }
                let set = Set(facts.ids)
                ownSet = set
                return set
            }
            for link in facts.links {
                let location = SourceLocation(file: link.file ?? job.input, line: link.line, column: link.column)
                var target = link.target
                if case .asset(let source, let output) = target {
                    // (Each asset looked at once; a problem found is reported at every link.)
                    let problem: LinkFact.Target?
                    if let seen = seenAssets[PathKey(source)] {
                        problem = seen
                    } else {
                        problem = links.assetProblem(source, root: job.root)
                        seenAssets[PathKey(source)] = .some(problem)
                        if problem == nil { assets.append((source, output)) }
                    }
                    target = problem ?? target
                }
                switch target {
                case .page(let input, let fragment?):
                    if !fragment.isEmpty, let targetIDs = idSet(input), !targetIDs.contains(fragment) {
                        warnings.append(
                            (
                                .anchor,
                                Diagnostic(location, "no section '\(Quote.snippet(fragment))' in \(Quote.oneLine(names[PathKey(input)] ?? input))")
                            ))
                    }
                case .page, .asset:
                    break
                case .samePage(let fragment):
                    if !fragment.isEmpty && !own().contains(fragment) {
                        warnings.append((.anchor, Diagnostic(location, "no section '\(Quote.snippet(fragment))' in this page")))
                    }
                case .outside:
                    warnings.append(
                        (
                            .notFound,
                            Diagnostic(
                                location,
                                "'\(Quote.snippet(SiteLinks.decoded(Self.path(of: link.url))))' is outside \(Quote.oneLine(job.root)); it is neither linked to nor copied"
                            )
                        ))
                case .missing:
                    let path = SiteLinks.decoded(Self.path(of: link.url))
                    let lastName = path.split(separator: "/").last ?? ""
                    warnings.append(
                        (
                            lastName.contains(".") ? .notFound : .unrecognized,
                            Diagnostic(location, "no file '\(Quote.snippet(path))' (linked from here)")
                        )
                    )
                case .absolute(let url):
                    warnings.append(
                        (.absolute, Diagnostic(location, "'\(Quote.snippet(url))' is a link from the server's root; it is left as it is")))
                }
            }
        }
        return (warnings, assets)
    }

    private static func path(of url: String) -> String {
        String(url.prefix { $0 != "#" && $0 != "?" })
    }
}
