/// Gives every node an id unique in the document (docs/formats.md): an explicit id from the source
/// wins; otherwise a GitHub-style slug of the title, made unique with `-1`, `-2`, … in
/// document order. A repeated explicit id is a warning and gets a suffix too.
struct IdentifierAssigner {
    /// Every explicit id from the start (so that no slug takes one, wherever it is), and
    /// every id given so far.
    private var used: Set<String>
    /// The nodes (by pre-order number) whose explicit id an earlier node has already.
    private var repeated: Set<Int> = []
    private var ordinal = 0
    /// The next suffix worth trying for a base id, so that a title repeated thousands of
    /// times (a changelog's "Commits") does not rescan every suffix each time.
    private var nextSuffix: [String: Int] = [:]
    private let file: String
    private(set) var warnings: [Diagnostic] = []

    /// Assigns the ids of `outline`'s nodes in place.
    static func assign(_ outline: inout Outline, file: String) -> [Diagnostic] {
        var count = 0
        outline.forEachNode { _ in count += 1 }
        var assigner = IdentifierAssigner(file: file, used: Set(minimumCapacity: count))
        // The explicit ids, each to the first node that states it.
        var ordinal = 0
        outline.forEachNode { node in
            defer { ordinal += 1 }
            guard !node.id.isEmpty else { return }
            let id = Self.cleaned(node.id)
            if !id.isEmpty && !assigner.used.insert(id).inserted { assigner.repeated.insert(ordinal) }
        }
        outline.mapNodes { assigner.assign(&$0) }
        return assigner.warnings
    }

    private init(file: String, used: Set<String>) {
        self.file = file
        self.used = used
    }

    private mutating func assign(_ node: inout OutlineNode) {
        defer { ordinal += 1 }
        let explicit = node.id.isEmpty ? "" : Self.cleaned(node.id)
        if !explicit.isEmpty {
            if !repeated.contains(ordinal) {
                node.id = explicit
            } else {
                warnings.append(
                    Diagnostic(
                        SourceLocation(file: file, line: node.line), "duplicate id '\(Quote.snippet(explicit))'; this one is renamed"))
                node.id = unique(explicit)
            }
        } else {
            let slug = Self.slug(node.title)
            node.id = used.insert(slug).inserted ? slug : unique(slug)
        }
    }

    /// The first of `base-1`, `base-2`, … that is not used, now used. (The next suffix is
    /// read and updated in one look-up: documents repeat titles by the thousand.)
    private mutating func unique(_ base: String) -> String {
        Self.firstFree(base, from: &nextSuffix[base, default: 1], in: &used)
    }

    static func firstFree(_ base: String, from suffix: inout Int, in used: inout Set<String>) -> String {
        while true {
            var candidate = String()
            candidate.reserveCapacity(base.utf8.count + 8)
            candidate += base
            candidate += "-"
            candidate += String(suffix)
            suffix += 1
            if used.insert(candidate).inserted { return candidate }
        }
    }

    /// Like GitHub: lowercase, spaces to `-`, punctuation other than `-` and `_` dropped.
    static func slug(_ title: String) -> String {
        withSlug(of: title) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of `slug(title)`; an ASCII title (most of them)
    /// is slugged into a temporary buffer, without Unicode property look-ups.
    static func withSlug<Result>(of title: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var utf8Title = title
        return utf8Title.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 < 0x80 }) else {
                var slug = unicodeSlug(title)
                return slug.withUTF8(body)
            }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(utf8.count, 7)) { slug in
                var count = 0
                for byte in utf8 {
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"): slug[count] = byte + 32
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                        UInt8(ascii: "-"), UInt8(ascii: "_"):
                        slug[count] = byte
                    case UInt8(ascii: " "): slug[count] = UInt8(ascii: "-")
                    default: continue
                    }
                    count += 1
                }
                guard count > 0 else {
                    var nothingKept = untitledSlug
                    return nothingKept.withUTF8(body)
                }
                return body(UnsafeBufferPointer(rebasing: slug[..<count]))
            }
        }
    }

    private static func unicodeSlug(_ title: String) -> String {
        var slug = ""
        for character in title.lowercased() {
            if character == " " {
                slug.append("-")
            } else if character.isLetter || character.isNumber || character == "-" || character == "_" {
                slug.append(character)
            }
        }
        return slug.isEmpty ? untitledSlug : slug
    }

    /// The slug of a title that keeps nothing (`!!!`).
    private static let untitledSlug = "section"

    /// An HTML id has no white space.
    static func cleaned(_ id: String) -> String {
        // Most ids are ASCII without white space: nothing to do.
        var id = id
        if id.withUTF8({ $0.allSatisfy { $0 > 32 && $0 < 0x7F } }) { return id }
        return id.trimmed.split(whereSeparator: \.isWhitespace).joined(separator: "-")
    }
}

/// The ids of the headings that bodies hold (inside a block quote, a list item, a block),
/// given as a page is written: an explicit `{#id}` if free, else the slug of the heading's
/// text, unique among the page's section ids and the headings given before. And beside
/// each section's and heading's id, the one mkdocs would give it (see `MkDocsSlug`).
final class PageHeadingIdentifiers {
    private var used: Set<String> = []
    private var nextSuffix: [String: Int] = [:]
    /// The ids mkdocs gives the page's headings.
    private var mkdocs = MkDocsSlug()
    /// The section ids that are not slugs of their titles (stated in the source).
    private var stated: Set<String> = []

    init(_ outline: Outline? = nil, style: SlugStyle = SlugStyle(), icons: IconStore? = nil) {
        // (Room for every section at once, as `IdentifierAssigner` makes it: a set grown by
        // doubling holds its old and new tables together each time.)
        var count = 0
        outline?.forEachNode { _ in count += 1 }
        used.reserveCapacity(count)
        mkdocs = MkDocsSlug(capacity: count, style: style, icons: icons)
        outline?.forEachNode { node in
            used.insert(node.id)
            if !Self.isSlug(node.id, of: node.title) {
                stated.insert(node.id)
                mkdocs.reserve(node.id)
            }
        }
    }

    /// The id of a heading whose explicit id, else slug, is `base`.
    func id(for base: String) -> String {
        used.insert(base).inserted ? base : IdentifierAssigner.firstFree(base, from: &nextSuffix[base, default: 1], in: &used)
    }

    /// An id given to a heading when the same body was written before.
    func reuse(_ id: String) {
        used.insert(id)
    }

    /// The id mkdocs gives the section `node` (the next heading of the page), when it is
    /// not its own and no other element of the page has it; nil otherwise.
    func mkdocsID(of node: OutlineNode) -> String? {
        stated.contains(node.id) ? nil : mkdocsID(title: node.title, id: node.id)
    }

    /// The id mkdocs gives the next heading of the page, titled `title`, when it is not its
    /// own `id` and no other element of the page has it; nil otherwise. (A heading whose id
    /// is stated in the source has it in mkdocs too: it is not asked for.)
    func mkdocsID(title: String, id: String) -> String? {
        let theirs = mkdocs.id(for: title, ours: id)
        guard !theirs.hasSameBytes(as: id) else { return nil }
        // (Swift's strings are equal when canonically equivalent; HTML's ids when their code
        // points are: a slug normalized to NFC is another id than a title's decomposed one.)
        guard theirs == id || used.insert(theirs).inserted else { return nil }
        return theirs
    }

    /// Whether `id` is what `IdentifierAssigner` makes of `title`: its slug, or the slug
    /// with a `-n` suffix.
    private static func isSlug(_ id: String, of title: String) -> Bool {
        IdentifierAssigner.withSlug(of: title) { slug in
            let id = id.utf8
            guard id.count >= slug.count, id.starts(with: slug) else { return false }
            let rest = id.dropFirst(slug.count)
            return rest.isEmpty
                || (rest.count > 1 && rest.first == UInt8(ascii: "-")
                    && rest.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        }
    }
}
