#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The links of a folder converted to HTML, as a site (docs/sites.md): a relative link or image
/// whose target is another input of the run points at that input's output, keeping its
/// query and fragment; a local file that is not an input is an asset, copied to the same
/// place under the output folder; everything a check needs is kept as `LinkFact`s.
struct SiteLinks: Sendable {
    /// Every input's output, both as absolute paths with `.` and `..` resolved.
    private let outputs: [PathKey: String]
    /// And the other way: each output's input, for links written to the pages' outputs
    /// (`guide.html` next to `guide.md`), which are right as they are.
    private let inputsByOutput: [PathKey: String]
    /// The real path (symbolic links resolved) of each folder the inputs were found in: an
    /// asset is copied only when its real path lies inside its page's.
    private let realRoots: [PathKey: String]
    /// The output folder as the user named it (assets' outputs are shown under it).
    private let outputDirectory: String
    /// A link from the server's root (`/guide/setup.md`) is from the folder the pages were
    /// found in (an mkdocs project's `validation.links.absolute_links: relative_to_docs`);
    /// else it is left as it is.
    var absoluteFromRoot = false

    /// The links of the jobs of one run into `outputDirectory`.
    package init(jobs: [BatchJob], outputDirectory: String) {
        var outputs: [PathKey: String] = [:]
        var inputsByOutput: [PathKey: String] = [:]
        var realRoots: [PathKey: String] = [:]
        let here = Files.currentDirectory()
        for job in jobs {
            let (input, output) = (BatchPlan.absolute(job.input, in: here), BatchPlan.absolute(job.output, in: here))
            outputs[PathKey(input)] = output
            if inputsByOutput[PathKey(output)] == nil { inputsByOutput[PathKey(output)] = input }
            if realRoots[PathKey(job.root)] == nil { realRoots[PathKey(job.root)] = BatchPlan.resolved(job.root) }
        }
        self.outputs = outputs
        self.inputsByOutput = inputsByOutput
        self.realRoots = realRoots
        self.outputDirectory = outputDirectory
    }

    /// A collector for the links of `job`'s page.
    package func page(_ job: BatchJob) -> PageLinks {
        PageLinks(site: self, job: job)
    }

    /// Where a page is, as every link of it needs: its folders as absolute paths, made
    /// once a page (not once a link: a page may have thousands).
    struct Place {
        let job: BatchJob
        let inputFolder: String
        let root: String
        let outputFolder: String
        /// `outputFolder`'s components, where relative URLs start.
        let outputParts: [ArraySlice<UInt8>]

        init(_ job: BatchJob) {
            let here = Files.currentDirectory()
            self.job = job
            inputFolder = Path.parent(BatchPlan.absolute(job.input, in: here))
            root = BatchPlan.absolute(job.root, in: here)
            outputFolder = Path.parent(BatchPlan.absolute(job.output, in: here))
            outputParts = PercentEncoding.components(of: outputFolder)
        }
    }

    /// What `url`, met in `job`'s source, points at (see `resolve(_:at:)`).
    func resolve(_ url: String, in job: BatchJob) -> (target: LinkFact.Target, href: String?)? {
        resolve(url, at: Place(job))
    }

    /// What `url`, met in the source of the page at `place`, points at; nil when it is not
    /// a local link (a scheme such as `https:` or `mailto:`, `//host`). A path from the
    /// site's root is `absolute`, left as it is, unless `absoluteFromRoot`.
    func resolve(_ url: String, at place: Place) -> (target: LinkFact.Target, href: String?)? {
        // (A scheme ends before any `/`, `?` or `#`, so the whole URL can be asked: most
        // links of real pages are `https:`, and they are let go before any copy is made.)
        var fromRoot = false
        if url.utf8.first == UInt8(ascii: "/") {
            guard !url.hasPrefix("//") else { return nil }
            guard absoluteFromRoot else { return (.absolute(url), nil) }
            fromRoot = true
        } else if Self.hasScheme(url) {
            return nil
        }
        let (path, query, fragment) = Self.split(url)
        if path.isEmpty {
            return fragment.map { (.samePage(fragment: Self.decoded($0)), nil) }
        }
        var decodedPath = Self.decoded(path)
        let job = place.job
        // (From the root: `/x.md` is `x.md` in the pages' folder.)
        if fromRoot { decodedPath = String(decodedPath.drop { $0 == "/" }) }
        let target = BatchPlan.absolute(decodedPath, in: fromRoot ? place.root : place.inputFolder)
        let root = place.root
        guard Path.isWithin(target, root) else { return (.outside(decodedPath), nil) }
        if let output = outputs[PathKey(target)] {
            let href =
                Self.relative(from: place.outputParts, to: output) + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
            return (.page(input: target, fragment: fragment.map(Self.decoded)), href)
        }
        var info = stat()
        guard stat(target, &info) == 0 else {
            let output = BatchPlan.absolute(decodedPath, in: fromRoot ? BatchPlan.absolute(outputDirectory) : place.outputFolder)
            if let input = inputsByOutput[PathKey(output)] { return (.page(input: input, fragment: fragment.map(Self.decoded)), nil) }
            return (.missing(target), nil)
        }
        switch FileKind(mode: info.st_mode) {
        case .regular:
            // (Whether a symbolic link leads it out of the tree is `assetProblem`'s question,
            // asked on every run by the link check, whatever run found the link.)
            // Shown as the user would write them: under the folder named and the output folder.
            let place = String(target.dropFirst(root.count + 1))
            return (.asset(source: Path.join(job.root, place), output: Path.join(outputDirectory, place)), nil)
        case .directory:
            // A folder with an index page in the run: its `index.html`, named, so that the link
            // works from `file://` too (where a folder shows as a listing).
            let index = Path.join(
                BatchPlan.absolute(decodedPath, in: fromRoot ? BatchPlan.absolute(outputDirectory) : place.outputFolder), "index.html")
            guard let input = inputsByOutput[PathKey(index)] else { return nil }
            let folder = fromRoot ? Self.relative(from: place.outputParts, to: Path.parent(index)) : path
            let href =
                (folder.hasSuffix("/") ? folder : folder + "/") + "index.html" + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
            return (.page(input: input, fragment: fragment.map(Self.decoded)), href)
        default:
            return nil
        }
    }

    /// The relative URL from the page at `place` to the page the run makes of `input`
    /// (absolute); nil when `input` is not a page of the run. (What `resolve` gives a link
    /// to it, without reading a URL: back-links know their pages.)
    func href(toPage input: String, at place: Place) -> String? {
        outputs[PathKey(input)].map { Self.relative(from: place.outputParts, to: $0) }
    }

    /// What keeps the asset `source` (of a page found in `root`) from being copied now,
    /// whatever an earlier run found: nil when it is a regular file whose real path (every
    /// symbolic link on the way resolved) lies inside the real path of `root`.
    func assetProblem(_ source: String, root: String) -> LinkFact.Target? {
        var info = stat()
        guard stat(source, &info) == 0, let real = Files.realPath(source) else { return .missing(source) }
        guard Path.isWithin(real, realRoots[PathKey(root)] ?? BatchPlan.resolved(root)) else { return .outside(source) }
        return FileKind(mode: info.st_mode).unreadableKind == nil ? nil : .missing(source)
    }

    /// Path, query and fragment of a URL (split at bytes: `#` and `?` are ASCII, so a mark
    /// that combines with one does not hide it, as it would from a search by `Character`).
    static func split(_ url: String) -> (path: String, query: String?, fragment: String?) {
        var rest = url[...]
        var fragment: String?
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(rest[rest.utf8.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = String(rest[rest.utf8.index(after: mark)...])
            rest = rest[..<mark]
        }
        return (String(rest), query, fragment)
    }

    /// `scheme:` at the start (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`).
    static func hasScheme(_ url: String) -> Bool {
        var bytes = url.utf8.makeIterator()
        guard let first = bytes.next(), first.isASCIILetter else { return false }
        while let byte = bytes.next() {
            if byte == UInt8(ascii: ":") { return true }
            guard byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return false }
        }
        return false
    }

    /// `%XX` sequences decoded (invalid UTF-8 left as written).
    static func decoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let source = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.count)
        var index = 0
        while index < source.count {
            guard source[index] == UInt8(ascii: "%") else {
                bytes.append(source[index])
                index += 1
                continue
            }
            guard index + 2 < source.count, let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2]) else { return text }
            bytes.append(high << 4 | low)
            index += 3
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The relative URL from `folder` to `file` (both absolute), each segment percent-encoded.
    static func relative(from folder: String, to file: String) -> String {
        relative(from: PercentEncoding.components(of: folder), to: file)
    }

    /// `relative(from:to:)` from a folder given by its components.
    static func relative(from folder: [ArraySlice<UInt8>], to file: String) -> String {
        PercentEncoding.unreserved.relativeURL(from: folder, to: file)
    }
}

/// One local link of a page, and where it is in the page's source.
struct LinkFact: Sendable, Equatable {
    /// What the link points at.
    enum Target: Sendable, Equatable {
        /// Another input of the run (absolute path), with the section named, if any.
        case page(input: String, fragment: String?)
        /// A section of the same page.
        case samePage(fragment: String)
        /// A file that is not an input: copied from `source` to `output` (absolute paths).
        case asset(source: String, output: String)
        /// A path that leaves the input folder: neither followed nor copied.
        case outside(String)
        /// A file that does not exist (absolute path).
        case missing(String)
        /// A path from the server's root, left as it is (see `SiteLinks.absoluteFromRoot`).
        case absolute(String)
    }

    /// What it points at.
    let target: Target
    /// The link as written.
    package let url: String
    /// Where it is: the 1-based line in the page's source.
    package let line: Int
    /// And the 1-based column (0 when not known).
    package let column: Int
    /// The file the link is written in, when it is not the page's own: a snippet's.
    var file: String? = nil
}

/// Collects the links of one page as it is rendered, and says how to write each.
final class PageLinks: @unchecked Sendable {
    // (Unchecked: one page is rendered by one thread.)
    private let site: SiteLinks
    private let place: SiteLinks.Place
    /// The local links met that the link check needs, in order (all but those to a whole
    /// page of the run).
    private(set) var facts: [LinkFact] = []

    init(site: SiteLinks, job: BatchJob) {
        self.site = site
        place = SiteLinks.Place(job)
    }

    /// The destination to write for a link to the page the run makes of `input` (absolute),
    /// if it is one (nothing to check: see `href(for:line:column:)`).
    func href(toPage input: String) -> String? {
        site.href(toPage: input, at: place)
    }

    /// The destination to write for `url` found at `line`/`column` of the page's source,
    /// or nil to write it as it is.
    func href(for url: String, line: Int, column: Int) -> String? {
        guard let (target, href) = site.resolve(url, at: place) else { return nil }
        // A link to a whole page of the run has nothing left to check: a run in which that
        // page is gone has other inputs, and converts every page again. (Not kept, a page
        // of thousands of such links costs nothing in memory or in the build record.)
        if case .page(_, let fragment) = target, fragment?.isEmpty ?? true { return href }
        facts.append(LinkFact(target: target, url: url, line: line, column: column))
        return href
    }
}
