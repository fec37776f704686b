#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names a Logseq graph or an Obsidian vault links by (docs/sites.md, "Graphs and
/// vaults"), found before any page is converted: each page's name as the app resolves it,
/// case aside (a Logseq page by its file name, `a___b.md` being `a/b`, and by its `title::`
/// and `alias::`; an Obsidian note by its file name and its path), every other file by its
/// name (attachments), and each Logseq block id with its page and its title line. Wiki
/// links are resolved against it to relative links between the inputs, which the site then
/// rewrites, copies and checks like any other link.
final class WikiIndex: Sendable, Equatable {
    /// Two indexes are equal when they index the same names.
    static func == (a: WikiIndex, b: WikiIndex) -> Bool { a.fingerprint == b.fingerprint }

    /// Which app's rules apply.
    enum App: String, Sendable {
        case logseq
        case obsidian
    }

    let app: App
    /// The folder of the graph or vault (absolute).
    let root: String
    /// How Logseq names journal pages (`:journal/page-title-format` in `logseq/config.edn`).
    let journalFormat: String
    /// Page names, lowercased, to their input (absolute).
    private let pages: [String: String]
    /// Each input (absolute) to its page's name, as its file names it.
    private let names: [String: String]
    /// Other files by their name, lowercased, to their path (absolute): the shortest path
    /// wins, as Obsidian resolves an attachment.
    private let files: [String: String]
    /// Logseq block ids to their page (absolute) and their title line.
    private let blocks: [String: (page: String, title: String)]
    /// Each page (absolute) to the pages that link to it.
    private let backlinks: [String: Set<String>]
    /// A Logseq graph's tag pages: each tag (`#tag`, `#[[tag]]`, `tags::`) that no page
    /// has, by the input it would have (absolute, in `pages/`, which does not exist) and as
    /// the graph's folder names it (relative). The site builds them as pages of their own.
    let tagPages: [(input: String, relative: String, name: String)]
    private let tagNames: [String: String]
    /// An Obsidian vault's tags, lowercased, to their tag page (absolute).
    private let obsidianTags: [String: String]
    /// Everything above as one stable string, for the build record: a page renamed or a
    /// block id added changes what links resolve to on other pages.
    let fingerprint: String
    /// The names linked to that no page has, by the page linking (absolute) and name, with
    /// how many times: noted as pages are written, from any worker.
    private let missing = Lock()
    nonisolated(unsafe) private var missingNames: [String: [String: Int]] = [:]
    /// Pages read for what embeds show of them, by input (nil: it does not read), from any
    /// worker: each read once in a build.
    private let embedded = Lock()
    nonisolated(unsafe) private var embeddedPages: [String: EmbeddedOutline?] = [:]

    /// What the folder `root` is, if a graph or a vault: a `logseq/config.edn` makes it a
    /// Logseq graph, an `.obsidian` folder an Obsidian vault.
    static func app(of root: String) -> App? {
        var info = stat()
        if stat(Path.join(root, "logseq/config.edn"), &info) == 0, info.st_mode & S_IFMT == S_IFREG { return .logseq }
        if Files.isDirectory(Path.join(root, ".obsidian")) { return .obsidian }
        return nil
    }

    /// The index of the graph or vault at `root` whose pages are `inputs` (absolute paths);
    /// other files are found under `root`, hidden folders aside. The pages are read by
    /// `workers` threads at once.
    init(app: App, root: String, inputs: [String], workers: Int = 1) {
        self.app = app
        self.root = root
        journalFormat =
            app == .logseq ? Self.configString(":journal/page-title-format", root: root) ?? JournalDate.defaultFormat : JournalDate.defaultFormat
        var pages: [String: String] = [:]
        var blocks: [String: (page: String, title: String)] = [:]
        var linksByPage: [(page: String, names: [String])] = []
        var embedded: [String] = []
        var tags: [String] = []
        var tagged: [(tag: String, page: String)] = []
        func add(_ name: String, _ input: String) {
            let key = Self.key(name)
            // (The first name given wins: a file's own name before another page's alias.)
            if !key.isEmpty && pages[key] == nil { pages[key] = input }
        }
        let markdown = inputs.filter { Path.fileExtension($0).lowercased() == "md" }.sorted()
        var names: [String: String] = [:]
        for input in markdown {
            let name = Self.pageName(of: input, root: root, app: app, journalFormat: journalFormat)
            names[input] = name
            add(name, input)
        }
        if app == .obsidian {
            // A note is also linked by its path in the vault (`[[Folder/Note]]`).
            for input in markdown where input.hasPrefix(root + "/") {
                add(Path.deletingExtension(String(input.dropFirst(root.count + 1))), input)
            }
        }
        for (input, scan) in zip(markdown, WikiPageScan.scan(markdown, app: app, workers: workers)) {
            guard let scan else { continue }
            for name in scan.names { add(name, input) }
            linksByPage.append((input, scan.links))
            embedded += scan.embeds
            tags += scan.tags
            if app == .obsidian { tagged += scan.tags.map { (Self.key($0), input) } }
            // (Titles as the reader makes them: plain text, all of a page's in one parse.)
            let titles = scan.blocks.isEmpty ? [] : OutlinerTitles.plainTitles(scan.blocks.map(\.1))
            for ((id, _), title) in zip(scan.blocks, titles) where blocks[id] == nil {
                blocks[id] = (input, title.isEmpty ? HeadingMarkers.untitled : title)
            }
        }
        // A Logseq tag with no page gets one, as Logseq makes it: listing what links to it.
        // An Obsidian tag (never a note) gets one in `tags/`, as Quartz makes it, `a/b` in
        // `tags/a/`: listing what carries it.
        var tagPages: [(input: String, relative: String, name: String)] = []
        var obsidianTags: [String: String] = [:]
        for tag in tags where (app == .logseq ? pages : obsidianTags)[Self.key(tag)] == nil {
            let parts = app == .logseq ? [Self.fileName(ofPage: tag)] : tag.split(separator: "/").map { Self.fileName(ofPage: String($0)) }
            guard !parts.isEmpty, !parts.contains(nil) else { continue }
            let relative = (app == .logseq ? "pages/" : "tags/") + parts.compactMap { $0 }.joined(separator: "/") + ".md"
            let input = Path.join(root, relative)
            var info = stat()
            guard lstat(input, &info) != 0 else { continue }
            if app == .logseq { pages[Self.key(tag)] = input } else { obsidianTags[Self.key(tag)] = input }
            names[input] = app == .logseq ? tag : "#" + tag
            tagPages.append((input, relative, names[input] ?? tag))
        }
        self.tagPages = tagPages
        self.obsidianTags = obsidianTags
        tagNames = Dictionary(tagPages.map { ($0.input, $0.name) }, uniquingKeysWith: { first, _ in first })
        var files: [String: String] = [:]
        for file in Self.files(under: root) where Path.fileExtension(file).lowercased() != "md" {
            let key = Self.key(Path.lastComponent(file))
            if let known = files[key], known.utf8.count <= file.utf8.count { continue }
            files[key] = file
        }
        // Back-links, once every name is known: each page that links to a page, once (and
        // to an Obsidian tag's page, each page that carries the tag).
        var backlinks: [String: Set<String>] = [:]
        for (tag, page) in tagged {
            if let input = obsidianTags[tag] { backlinks[input, default: []].insert(page) }
        }
        for (page, names) in linksByPage {
            for name in names {
                guard let target = pages[Self.key(name)], target != page else { continue }
                backlinks[target, default: []].insert(page)
            }
        }
        // What embeds show is part of the page that embeds it: a change to an embedded page
        // changes the index, so the pages that may embed it are built again.
        var embeddedStatus: [String] = []
        for name in Set(embedded) {
            guard let input = name.hasPrefix("((") ? blocks[String(name.dropFirst(2))]?.page : pages[Self.key(name)] else { continue }
            var info = stat()
            if stat(input, &info) == 0 { embeddedStatus.append("\(input)\u{1}\(info.st_size)\u{1}\(info.modifiedNanoseconds)") }
        }
        self.pages = pages
        self.names = names
        self.files = files
        self.blocks = blocks
        self.backlinks = backlinks
        var parts = [app.rawValue, journalFormat]
        parts += pages.keys.sorted().map { $0 + "\u{1}" + (pages[$0] ?? "") }
        parts += files.keys.sorted().map { $0 + "\u{1}" + (files[$0] ?? "") }
        parts += backlinks.keys.sorted().map { $0 + "\u{1}" + (backlinks[$0] ?? []).sorted().joined(separator: "\u{1}") }
        parts += blocks.keys.sorted().map { $0 + "\u{1}" + (blocks[$0].map { $0.page + "\u{1}" + $0.title } ?? "") }
        parts += Set(embeddedStatus).sorted()
        fingerprint = BuildRecord.hash(Array(parts.joined(separator: "\u{0}").utf8))
    }

    /// A page's name from its file: Logseq's `a___b.md` is `a/b`, `%2F` is `/`, and a
    /// journal `journals/2024_01_15.md` is its date in `journalFormat` (Logseq's
    /// `:journal/page-title-format`, by default `Jan 15th, 2024`).
    static func pageName(of input: String, root: String, app: App, journalFormat: String = JournalDate.defaultFormat) -> String {
        let name = Path.deletingExtension(Path.lastComponent(input))
        guard app == .logseq else { return name }
        if Path.lastComponent(Path.parent(input)) == "journals", let date = JournalDate(fileName: name) {
            return date.formatted(journalFormat)
        }
        return name.replacing("___", with: "/").replacing("%2F", with: "/").replacing("%2f", with: "/")
    }

    /// The file name (without `.md`) Logseq gives the page `name`: `/` as `___`, and the
    /// characters file systems or URLs do not take percent-encoded; nil for a name no file
    /// can have (empty, `.`, `..`, with a control character).
    static func fileName(ofPage name: String) -> String? {
        let name = name.trimmed
        guard !name.isEmpty, name != ".", name != "..", !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return nil
        }
        var file = ""
        for character in name.replacing("/", with: "___") {
            switch character {
            case "%", "\\", ":", "*", "?", "\"", "<", ">", "|", "#":
                file += character.utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
            default: file.append(character)
            }
        }
        return file.utf8.count > 200 ? nil : file
    }

    /// The page of the Obsidian tag `name` (absolute), if any.
    func tagPage(named name: String) -> String? { obsidianTags[Self.key(name)] }

    /// A tag page's text (see `tagPages`): its title only (what links to it is listed under it).
    func tagPage(_ input: String) -> [UInt8]? {
        tagNames[input].map { Array("title:: \($0)\n".utf8) }
    }

    /// The name of the page `input` (absolute), as links name it.
    func pageName(of input: String) -> String {
        names[input] ?? Self.pageName(of: input, root: root, app: app, journalFormat: journalFormat)
    }

    /// Names are compared as the apps compare them: case aside.
    static func key(_ name: String) -> String { TitleText.normalized(name).lowercased() }

    /// The input of the page named `name`, if any.
    func page(named name: String) -> String? { pages[Self.key(name)] }

    /// The file named `name` (an attachment: `![[image.png]]`), if any.
    func file(named name: String) -> String? {
        files[Self.key(Path.lastComponent(name))]
    }

    /// Notes that `page` (absolute) links to `name`, which no page has.
    func noteMissing(_ name: String, from page: String) {
        missing.withLock { missingNames[page, default: [:]][name, default: 0] += 1 }
    }

    /// One warning per page that links to pages that do not exist, naming them; `shown`
    /// gives a page's path as the user named it.
    func missingPageWarnings(shown: (String) -> String) -> [Diagnostic] {
        missing.withLock { missingNames }.sorted { $0.key < $1.key }.map { page, names in
            let list = names.sorted { $0.key < $1.key }.prefix(20).map { "'\(Quote.snippet($0.key))'" + ($0.value > 1 ? " (\($0.value)×)" : "") }
            return Diagnostic(
                SourceLocation(file: shown(page)),
                "links to \(names.count == 1 ? "a page" : "\(names.count) pages") that \(names.count == 1 ? "does" : "do") not exist, shown as text: "
                    + list.joined(separator: ", ") + (names.count > 20 ? ", …" : ""))
        }
    }

    /// The pages that link to `page` (absolute), by name (two of a name by their URL: a
    /// set's order changes from run to run): each name, its relative URL from `page`, and
    /// its path (absolute).
    func backlinks(of page: String) -> [(name: String, url: String, input: String)] {
        let folder = PercentEncoding.folder(of: page)
        return (backlinks[page] ?? []).map { (pageName(of: $0), PercentEncoding.pathSegment.relativeURL(from: folder, to: $0), $0) }
            .sorted { ($0.name.lowercased(), $0.name, $0.url) < ($1.name.lowercased(), $1.name, $1.url) }
    }

    /// The page `input` (absolute) as `read` reads it, read once for all the pages that embed it.
    func embeddedOutline(_ input: String, read: (String) -> EmbeddedOutline?) -> EmbeddedOutline? {
        if let known = embedded.withLock({ embeddedPages[input] }) { return known }
        // (Read without the lock: two workers may both read a page, never wait on each other's.)
        let outline = read(input)
        embedded.withLock { embeddedPages[input] = outline }
        return outline
    }

    /// The page and title line of the Logseq block `id`, if any.
    func block(_ id: String) -> (page: String, title: String)? { blocks[id.lowercased()] }

    /// A string setting of a Logseq graph's `logseq/config.edn` (`:key "value"`), if set.
    private static func configString(_ key: String, root: String) -> String? {
        guard let config = try? Files.read(Path.join(root, "logseq/config.edn"), limit: 1 << 20) else { return nil }
        for line in String(decoding: config, as: UTF8.self).split(separator: "\n") where !line.trimmed.hasPrefix(";") {
            guard let found = line.firstRange(of: key) else { continue }
            let rest = line[found.upperBound...].trimmed
            guard rest.hasPrefix("\""), let close = rest.dropFirst().firstIndex(of: "\"") else { continue }
            return String(rest[rest.index(after: rest.startIndex)..<close])
        }
        return nil
    }

    /// Every regular file under `folder`, hidden folders and files aside (the app's own
    /// settings, `.git`), as absolute paths; at most a million.
    private static func files(under folder: String) -> [String] {
        var found: [String] = []
        var pending = [folder]
        while let current = pending.popLast(), found.count < 1_000_000 {
            guard let directory = opendir(current) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard !name.hasPrefix(".") else { continue }
                let path = Path.join(current, name)
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch FileKind(mode: info.st_mode) {
                case .directory: pending.append(path)
                case .regular: found.append(path)
                default: break
                }
            }
        }
        return found
    }
}
