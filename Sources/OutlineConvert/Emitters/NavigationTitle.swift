/// A title's HTML as the site's navigation, pager and search show it (docs/sites.md): the
/// section's rich title (its Markdown rendered: `` `cfg` `` as `<code>cfg</code>`, emoji
/// shortcodes as emoji) without
/// what cannot be inside a link or means nothing out of its page: links (their text stays),
/// anchors (`<span id="…"></span>`) and footnote references.
enum NavigationTitle {
    /// `rich` (the inline HTML of a section titled `title`) for the navigation; nil when it
    /// shows no more than `title` does, or holds a control character (the build record's
    /// separators).
    static func html(_ rich: [UInt8], title: String) -> String? {
        var text = String(decoding: rich, as: UTF8.self)
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) else { return nil }
        text = removing(text, from: "<sup class=\"footnote-ref\">", through: "</sup>")
        text = removing(text, from: "<span id=\"", through: "></span>")
        text = removing(text, from: "<a ", through: ">").replacing("</a>", with: "")
        return text == CollapsibleBlocks.escaped(title) ? nil : text
    }

    /// `text` without each piece from `start` through the next `end`.
    private static func removing(_ text: String, from start: String, through end: String) -> String {
        var out = ""
        var rest = text[...]
        while let found = rest.firstRange(of: start), let close = rest[found.upperBound...].firstRange(of: end) {
            out += rest[..<found.lowerBound]
            rest = rest[close.upperBound...]
        }
        return out + rest
    }
}
