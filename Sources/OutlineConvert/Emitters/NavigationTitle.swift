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
        guard !rich.contains(where: { $0 < 0x20 && $0 != .tab }) else { return nil }
        var bytes = rich
        // (Most titles hold none of these: a search for `<` tells.)
        if bytes.contains(UInt8(ascii: "<")) {
            bytes = removing(bytes, from: "<sup class=\"footnote-ref\">", through: "</sup>")
            bytes = removing(bytes, from: "<span id=\"", through: "></span>")
            bytes = removing(bytes, from: "<a ", through: ">").replacingBytes(Array("</a>".utf8), with: [])
        }
        var escaped = ByteBuffer()
        escaped.write(escaping: title)
        return bytes == escaped.finish() ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// `bytes` without each piece from `start` through the next `end`.
    private static func removing(_ bytes: [UInt8], from start: String, through end: String) -> [UInt8] {
        let (start, end) = (Array(start.utf8), Array(end.utf8))
        return bytes.withUnsafeBufferPointer { buffer in
            guard var found = buffer.firstIndex(of: start) else { return bytes }
            var out: [UInt8] = []
            var kept = 0
            while let close = buffer.firstIndex(of: end, from: found + start.count) {
                out += buffer[kept..<found]
                kept = close + end.count
                guard let next = buffer.firstIndex(of: start, from: kept) else { break }
                found = next
            }
            out += buffer[kept...]
            return out
        }
    }
}
