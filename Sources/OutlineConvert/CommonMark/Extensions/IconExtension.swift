internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// mkdocs-material's icons, in mkdocs' dialect (`pymdownx.emoji` with its `twemoji` index
/// and `to_svg` generator, as its docs configure it): `:material-check:` shows as
/// `<span class="twemoji"><svg …>…</svg></span>`, the icon inline (`Icons`). Shortcodes are
/// read as pymdownx reads them, left to right in text (never in code or an image's
/// description): `:`, word characters, `+` or `-`, `:`; one that names no icon stays text,
/// and its closing colon opens no other. An attribute list may follow
/// (`:material-check:{ .green }`). Plain text shows nothing for an icon: it is a picture. A
/// section's title keeps the shortcode as text, as emoji's do (`HTMLEmitter.richTitleSource`
/// shows it); mkdocs' id of the heading leaves it out (`MkDocsSlug`). GitHub's emoji
/// (`EmojiExtension`) are read after it, from what is left.
struct IconExtension: MarkdownExtension {
    var name: String { "pymdownx.emoji" }
    /// The icons: the store given (a project's, shared by its pages, with its own icons),
    /// else the bundled sets, in a store of one document's.
    private(set) var icons: IconStore?
    /// Whether the document is being read (prepared), with its store.
    private var isPrepared = false

    init(icons: IconStore? = nil) {
        self.icons = icons
    }

    func prepared(for source: SourceLines) -> IconExtension? {
        guard Self.mayHold(source.bytes, icons: icons) else { return nil }
        var prepared = self
        prepared.icons = icons ?? IconStore()
        prepared.isPrepared = true
        return prepared
    }

    /// Whether `text` may hold a shortcode of `icons` (nil: of the bundled sets).
    private static func mayHold(_ text: ArraySlice<UInt8>, icons: IconStore?) -> Bool {
        // (Every shortcode starts with a colon, which most blocks lack: memchr says so.)
        guard text.firstIndex(ofByte: UInt8(ascii: ":")) != nil else { return false }
        guard let icons else { return Icons.sets.keys.contains { text.contains(bytes: ":\($0)-") } }
        return icons.openers.contains { text.contains(bytes: $0) }
    }

    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        // (A section's title keeps its text, in either parse: its HTML shows the icon.)
        guard isPrepared, let icons, !tree.isSectionTitle(block), Self.mayHold(text, icons: icons) else { return }
        var found: [(node: OpaquePointer, literal: [UInt8], shortcodes: [(offset: Int, length: Int)])] = []
        var inImage = 0
        MarkdownTree.walk(under: block) { node, entering in
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_IMAGE { inImage += entering ? 1 : -1 }
            guard entering, inImage == 0, type == CMARK_NODE_TEXT, let text = cmark_node_get_literal(node),
                strchr(text, Int32(UInt8(ascii: ":"))) != nil
            else { return }
            let literal = CommonMarkDocument.literalBytes(node)
            let shortcodes = Self.shortcodes(in: literal, icons: icons)
            if !shortcodes.isEmpty { found.append((node, literal, shortcodes)) }
        }
        for (node, literal, shortcodes) in found {
            for (index, piece) in tree.split(node, at: shortcodes.map { ($0.offset, $0.length) }) {
                let shortcode = shortcodes[index]
                guard let svg = icons.svg(named: Array(literal[(shortcode.offset + 1)..<(shortcode.offset + shortcode.length - 1)])),
                    let icon = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: "<span class=\"twemoji\">" + svg + "</span>")
                else { continue }
                cmark_node_insert_before(piece, icon)
                cmark_node_free(piece)
            }
        }
    }

    /// The shortcodes of icons in `text`: where each is, colons included. The icons are
    /// `icons`' (nil: the bundled sets).
    static func shortcodes(in text: [UInt8], icons: IconStore?) -> [(offset: Int, length: Int)] {
        var shortcodes: [(offset: Int, length: Int)] = []
        var index = 0
        while index < text.count {
            guard text[index] == UInt8(ascii: ":") else {
                index += 1
                continue
            }
            var end = index + 1
            while end < text.count, isNameByte(text[end]) { end += 1 }
            guard end < text.count, end > index + 1, text[end] == UInt8(ascii: ":") else {
                index += 1
                continue
            }
            if icons?.isIcon(text[(index + 1)..<end]) ?? Icons.isIcon(text[(index + 1)..<end]) { shortcodes.append((index, end + 1 - index)) }
            // (A shortcode that names nothing is passed over whole, as pymdownx does.)
            index = end + 1
        }
        return shortcodes
    }

    /// `text` without the shortcodes of `icons` (nil: of the bundled sets), as mkdocs'
    /// `toc` reads a heading for its id.
    static func removingShortcodes(_ text: String, icons: IconStore?) -> String {
        guard text.containsByte(UInt8(ascii: ":")) else { return text }
        var bytes = Array(text.utf8)
        for icon in shortcodes(in: bytes, icons: icons).reversed() { bytes.removeSubrange(icon.offset..<(icon.offset + icon.length)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` holds a shortcode of `icons` (nil: of the bundled sets).
    static func holdsShortcode(_ text: String, icons: IconStore?) -> Bool {
        text.containsByte(UInt8(ascii: ":")) && !shortcodes(in: Array(text.utf8), icons: icons).isEmpty
    }

    /// A byte of a shortcode's name: a word character (`\w`: letters, digits, `_`, and any
    /// byte of a non-ASCII character), `+` or `-`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte >= 0x80
    }
}
