/// Where a node's title links, as an outliner's `type` attribute says (OPML's types, kept
/// as attributes from any format): `type="link"` and `type="include"` link to `url` (an
/// included outline is linked to, never fetched); `type="rss"` links to the site's
/// `htmlUrl`, with its feed (`xmlUrl`) beside the title. The attributes stay as they are.
struct TitleLinks {
    /// The title's link, if any.
    var title: String?
    /// A feed's address, shown beside the title.
    private(set) var feed: String?

    /// No links.
    static let none = TitleLinks()
    private init() {}

    /// The links of `node`; unless `unsafe`, a URL cmark would not link in safe mode
    /// (`javascript:`, `vbscript:`, `file:`, `data:`) is left out, as in bodies.
    init(_ node: OutlineNode, unsafe: Bool) {
        guard let type = node.linkType else { return }
        func safe(_ key: String) -> String? {
            guard let url = node.attributes[key]?.trimmed, !url.isEmpty else { return nil }
            return unsafe || !Self.isDangerous(url) ? url : nil
        }
        switch type {
        case "link", "include": title = safe("url")
        case "rss":
            title = safe("htmlUrl")
            feed = safe("xmlUrl")
        default: break
        }
    }

    var isEmpty: Bool { title == nil && feed == nil }

    /// cmark's rule for links in safe mode: these schemes are never linked (data: images
    /// aside, which a title is not).
    private static func isDangerous(_ url: String) -> Bool {
        let scheme = url.prefix { $0 != ":" }.lowercased().filter { !$0.isWhitespace }
        return url.contains(":") && ["javascript", "vbscript", "file", "data"].contains(scheme)
    }
}
