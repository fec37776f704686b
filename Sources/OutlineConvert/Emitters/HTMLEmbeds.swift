/// What the embeds on one page of a graph or vault show (docs/sites.md, "Graphs and
/// vaults"): Logseq's `{{embed [[Page]]}}` and `{{embed ((block-id))}}`, Obsidian's
/// `![[Note]]`, `![[Note#Heading]]` and `![[Note#^block]]`, each the part of the other page
/// it names, read from that page. An embed inside what it embeds (a cycle), more than
/// `maxDepth` embeds deep, or past `maxNodes` embedded nodes on one page shows only its
/// link, with a warning at the line of the page's own embed that holds it.
final class Embeds {
    /// The page being written (absolute): links in what is embedded start from it.
    let page: String
    /// The page as the user named it, for warnings.
    let shownPage: String
    let index: WikiIndex
    let options: ConversionOptions
    private(set) var warnings: [Diagnostic] = []
    /// Embedded nodes still allowed on this page.
    private var nodesLeft = Embeds.maxNodes

    static let maxDepth = 16
    static let maxNodes = 20_000

    /// The chain an embed on the page itself starts (the page whole is in it: a page
    /// embedding itself is a cycle).
    var chain: [String] { [page + "\u{0}"] }

    init(page: String, shownPage: String, index: WikiIndex, options: ConversionOptions) {
        self.page = page
        self.shownPage = shownPage
        self.index = index
        self.options = options
    }

    /// What an embed shows: nodes (with their children), a body before them, and how to
    /// read that body.
    struct Content {
        /// Names this part of that page, for finding cycles.
        let key: String
        /// The page it comes from (absolute).
        let file: String
        let body: String
        let nodes: [OutlineNode]
        let isBulletOutline: Bool
        /// Bodies are read as the page being written reads its own, its links starting from it.
        let flavor: MarkdownFlavor
    }

    /// The embed a title line or a paragraph is, whole: `{{embed [[Page]]}}` or
    /// `{{embed ((id))}}` as `[[Page]]` or `((id))`, and `![[Note#Heading|label]]` (not an
    /// attachment) as `Note#Heading|label`; nil for anything else.
    static func spec(ofLine line: String) -> String? {
        // (Asked of every item of a graph: most start with neither `{` nor `!`.)
        guard let first = line.utf8.first(where: { $0 != .space && $0 != .tab }), first == UInt8(ascii: "{") || first == UInt8(ascii: "!")
        else { return nil }
        let line = line.trimmed
        if line.hasPrefix("{{embed "), line.hasSuffix("}}") {
            let inner = String(line.dropFirst(8).dropLast(2)).trimmed
            let isLink = (inner.hasPrefix("[[") && inner.hasSuffix("]]")) || (inner.hasPrefix("((") && inner.hasSuffix("))"))
            return isLink && !inner.dropFirst(2).dropLast(2).contains(bytes: "]]") ? inner : nil
        }
        guard line.hasPrefix("![["), line.hasSuffix("]]") else { return nil }
        let inner = String(line.dropFirst(3).dropLast(2))
        guard !inner.contains(bytes: "]]"), !inner.contains(bytes: "[[") else { return nil }
        let name = String(inner.prefix { $0 != "|" && $0 != "#" }).trimmed
        let fileExtension = Path.fileExtension(name).lowercased()
        return fileExtension.isEmpty || fileExtension == "md" ? inner : nil
    }

    /// What `spec` (see `spec(ofLine:)`) shows, written inside the embeds `chain` (their
    /// keys, the page first: see `chain`) from the page `from` (absolute); nil when it shows only its
    /// link: a target that does not exist (the link says so), or one refused (a warning at
    /// `line` of the page being written).
    func content(of spec: String, from: String, chain: [String], line: Int) -> Content? {
        guard let (file, part) = target(of: spec, from: from) else { return nil }
        let key = file + "\u{0}" + part.key
        let shown = spec.hasPrefix("[[") || spec.hasPrefix("((") ? "{{embed \(spec)}}" : "![[\(spec)]]"
        if chain.contains(key) {
            warn(
                line,
                chain.count == 1
                    ? "'\(Quote.snippet(shown))' embeds what holds it (a cycle): shown as a link"
                    : "the embed here holds '\(Quote.snippet(shown))', which embeds what holds it (a cycle): that one is shown as a link")
            return nil
        }
        guard chain.count <= Self.maxDepth else {
            warn(line, "embeds nest more than \(Self.maxDepth) deep at '\(Quote.snippet(shown))': shown as a link")
            return nil
        }
        guard let outline = index.embeddedOutline(file, read: read) else { return nil }
        guard let (body, nodes) = part.select(in: outline) else { return nil }
        let count = nodes.reduce(nodes.count) { $0 + $1.descendantCount }
        guard count <= nodesLeft else {
            warn(line, "more than \(Self.maxNodes) embedded blocks on one page at '\(Quote.snippet(shown))': shown as a link")
            return nil
        }
        nodesLeft -= count
        return Content(
            key: key, file: file, body: body, nodes: nodes, isBulletOutline: outline.isBulletOutline,
            flavor: .withWikiLinks(index: index, page: page, anchors: false))
    }

    private func warn(_ line: Int, _ message: String) {
        warnings.append(Diagnostic(SourceLocation(file: shownPage, line: line), message))
    }

    /// The page an embed names and the part of it.
    private func target(of spec: String, from: String) -> (String, Part)? {
        if spec.hasPrefix("((") {
            let id = String(spec.dropFirst(2).dropLast(2)).trimmed.lowercased()
            return index.block(id).map { ($0.page, .block(id)) }
        }
        if spec.hasPrefix("[[") {
            return index.page(named: String(spec.dropFirst(2).dropLast(2)).trimmed).map { ($0, .page) }
        }
        let target = spec.prefix { $0 != "|" }
        let name = String(target.prefix { $0 != "#" }).trimmed
        let heading = target.drop { $0 != "#" }.split(separator: "#").last.map { String($0).trimmed }
        let file = name.isEmpty ? from : index.page(named: Path.fileExtension(name).lowercased() == "md" ? Path.deletingExtension(name) : name)
        guard let file else { return nil }
        guard let heading, !heading.isEmpty else { return (file, .page) }
        return heading.hasPrefix("^") ? (file, .paragraph(String(heading.dropFirst()))) : (file, .heading(heading))
    }

    /// A page as it reads on its own (nil when it does not read: its own build says why).
    private func read(_ file: String) -> EmbeddedOutline? {
        let converter = Converter(options: options)
        guard let bytes = try? converter.load(file), let document = try? converter.read(bytes, file: file) else { return nil }
        return EmbeddedOutline(outline: document.outline, isBulletOutline: document.isBulletOutline)
    }

    /// The part of a page an embed shows.
    private enum Part {
        case page
        /// A Logseq block, by its id.
        case block(String)
        /// An Obsidian note's section, by its heading.
        case heading(String)
        /// An Obsidian block: the paragraph that ends with `^id`.
        case paragraph(String)

        var key: String {
            switch self {
            case .page: ""
            case .block(let id): "((" + id
            case .heading(let heading): "#" + WikiIndex.key(heading)
            case .paragraph(let id): "^" + id
            }
        }

        /// The body and nodes this part is in `page`; nil when the page has no such part.
        func select(in page: EmbeddedOutline) -> (String, [OutlineNode])? {
            var found: OutlineNode?
            switch self {
            case .page:
                return (page.outline.body, page.outline.nodes)
            case .block(let id):
                page.outline.forEachNode { node in if found == nil && node.id.lowercased() == id { found = node } }
            case .heading(let heading):
                let key = WikiIndex.key(heading)
                page.outline.forEachNode { node in if found == nil && WikiIndex.key(node.title) == key { found = node } }
            case .paragraph(let id):
                var paragraph = Self.paragraph(ending: id, in: page.outline.body)
                page.outline.forEachNode { node in if paragraph == nil { paragraph = Self.paragraph(ending: id, in: node.body) } }
                return paragraph.map { ($0, []) }
            }
            return found.map { ("", [$0]) }
        }

        /// The lines of the paragraph of `body` whose last line ends with ` ^id` (or is
        /// `^id`, or a link or image then `^id`), without it.
        private static func paragraph(ending id: String, in body: String) -> String? {
            guard body.contains("^" + id) else { return nil }
            var paragraph: [Substring] = []
            for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.trimmed.isEmpty {
                    paragraph = []
                    continue
                }
                paragraph.append(line)
                let trimmed = line.trimmed
                if trimmed == "^" + id || trimmed.hasSuffix(" ^" + id) || trimmed.hasSuffix("]^" + id) {
                    paragraph[paragraph.count - 1] = trimmed.dropLast(id.utf8.count + 1)
                    return paragraph.joined(separator: "\n")
                }
            }
            return nil
        }
    }
}

/// A page read for what embeds show of it (kept by `WikiIndex`, read once for a build).
struct EmbeddedOutline: Sendable {
    let outline: Outline
    let isBulletOutline: Bool
}
