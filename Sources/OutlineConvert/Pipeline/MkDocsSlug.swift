/// The ids mkdocs gives headings: Python-Markdown's `toc` extension with the `slugify` the
/// project configures (`SlugStyle`, the default one elsewhere), made unique with `_1`, `_2`, … in document order. A page carries them beside
/// its own GitHub-style ids where they differ (docs/formats.md), so that a link written for
/// an mkdocs site (`#templates_1`, `#a-b` for "A / B") finds its section.
struct MkDocsSlug {
    /// Every id given so far, and the ids stated in the page.
    private var used: Set<String> = []
    /// For a base, the highest `n` for which `base_1` … `base_n` are all known to be used
    /// (what Python-Markdown's `unique` keeps in its `counters`, for the same reason: titles
    /// repeated by the thousand).
    private var known: [String: Int] = [:]
    /// The project's style, when not the default.
    private let style: SlugStyle?
    /// The project's icons, whose shortcodes a slug leaves out (nil: the bundled sets).
    private let icons: IconStore?

    /// Room for `capacity` ids, made in `style`, without the shortcodes of `icons`.
    init(capacity: Int = 0, style: SlugStyle = SlugStyle(), icons: IconStore? = nil) {
        used.reserveCapacity(capacity)
        self.style = style == SlugStyle() ? nil : style
        self.icons = icons
    }

    /// An id the page states (mkdocs never gives it to a heading).
    mutating func reserve(_ id: String) {
        used.insert(id)
    }

    /// The id mkdocs gives the next heading, titled `title`; when its slug is `ours` (as
    /// it mostly is), that string is the one kept, so that a page of a million headings
    /// does not hold each id twice.
    mutating func id(for title: String, ours: String = "") -> String {
        // (An icon is HTML, which mkdocs' `toc` leaves out of the slug.)
        let text = IconExtension.removingShortcodes(title, icons: icons)
        let slug = style?.slug(text) ?? Self.slug(text)
        return unique(slug.hasSameBytes(as: ours) ? ours : slug)
    }

    /// Python-Markdown's `unique`: `id` if free, else the first free `base_n` past the
    /// `_n` it ends with (if any).
    private mutating func unique(_ id: String) -> String {
        guard used.contains(id) || id.isEmpty else {
            used.insert(id)
            return id
        }
        var base = id[...]
        var count = 0
        if let underscore = id.utf8.lastIndex(of: UInt8(ascii: "_")), id.utf8.index(after: underscore) < id.utf8.endIndex {
            let digits = id.utf8[id.utf8.index(after: underscore)...]
            if digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let number = Int(Substring(digits))
            {
                base = id[..<underscore]
                count = number
            }
        }
        let baseID = String(base)
        let knownRun = known[baseID, default: 0]
        let skip = count <= knownRun || id == "\(baseID)_\(knownRun + 1)"
        if skip { count = max(count, knownRun) }
        count += 1
        while used.contains("\(baseID)_\(count)") { count += 1 }
        if skip { known[baseID] = count }
        let free = "\(baseID)_\(count)"
        used.insert(free)
        return free
    }

    /// An empty element that holds the id mkdocs gives a heading (written at the start of
    /// the heading's title), if any.
    static func writeAnchor(_ id: String?, into html: inout ByteBuffer) {
        guard let id else { return }
        html.write("<span id=\"" as StaticString)
        html.write(escaping: id)
        html.write("\"></span>" as StaticString)
    }

    /// Python-Markdown's `slugify(title, separator)`: NFKD, what is not ASCII dropped, then
    /// all but letters, digits, `_`, `-` and white space; white space trimmed from both ends;
    /// lowercase; each run of white space and the separator's characters one separator.
    static func slug(_ title: String, separator: String = "-") -> String {
        var kept: [UInt8] = []
        kept.reserveCapacity(title.utf8.count)
        for scalar in title.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                if isKept(byte) { kept.append(byte) }
            } else if let ascii = asciiKept(of: scalar.value) {
                kept += ascii.utf8
            }
        }
        var slug: [UInt8] = []
        slug.reserveCapacity(kept.count)
        guard let first = kept.firstIndex(where: { !isSpace($0) }), let last = kept.lastIndex(where: { !isSpace($0) }) else { return "" }
        var inRun = false
        for byte in kept[first...last] {
            if isSpace(byte) || separator.utf8.contains(byte) {
                if !inRun { slug += separator.utf8 }
                inRun = true
            } else {
                slug.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
                inRun = false
            }
        }
        return String(decoding: slug, as: UTF8.self)
    }

    /// Python's `\s` in ASCII: the usual five, and the four information separators.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == .space || (byte >= 0x09 && byte <= 0x0D) || (byte >= 0x1C && byte <= 0x1F)
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || isSpace(byte)
    }

    /// What the slug keeps of a non-ASCII character (see `blocks`); nil for nothing.
    private static func asciiKept(of value: UInt32) -> Substring? {
        for block in table where value >= block.start && value < block.start + UInt32(block.kept.count) {
            let kept = block.kept[Int(value - block.start)]
            return kept.isEmpty ? nil : kept
        }
        return nil
    }

    /// `blocks`, each split into its code points' entries once.
    private static let table: [(start: UInt32, kept: [Substring])] = blocks.map {
        ($0.start, $0.kept.split(separator: "|", omittingEmptySubsequences: false))
    }
}
