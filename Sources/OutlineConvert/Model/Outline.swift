/// A whole collapsible document: an optional title, the text before the first section
/// (its preamble) and the top-level nodes. A plain value, like its nodes.
public struct Outline: Equatable, Sendable {
    /// The document's title, from front matter, a plist/XML `title` or `--title`.
    public var title: String?
    /// CommonMark text before the first node ("" if none).
    public var body: String
    /// The top-level nodes, in source order.
    public var nodes: [OutlineNode]
    /// Extra metadata from the source (front-matter keys), kept for round trips.
    public var attributes: [String: String]
    /// The source's own default for `--collapse-depth` (front matter `collapse-depth:`).
    public var collapseDepth: Int?

    /// An outline; empty by default.
    public init(
        title: String? = nil, body: String = "", nodes: [OutlineNode] = [],
        attributes: [String: String] = [:], collapseDepth: Int? = nil
    ) {
        self.title = title
        self.body = body
        self.nodes = nodes
        self.attributes = attributes
        self.collapseDepth = collapseDepth
    }
}
