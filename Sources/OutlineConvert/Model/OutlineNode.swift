/// One section of an outline: a heading, a section dict or element, or an item. A plain
/// value: every field is stored as it is, and two nodes are equal when every field is.
public struct OutlineNode: Equatable, Sendable {
    /// Plain-text title; never empty.
    public var title: String
    /// Anchor: the source's explicit id until ids are assigned, then the id the node has,
    /// unique in the document ("" when the source gave none and ids are not assigned yet).
    public var id: String
    /// Initial state: `nil` while the source says nothing, so that the collapse rules decide.
    public var collapsed: Bool?
    /// CommonMark text directly under the node, before its first child ("" if none).
    public var body: String
    /// Nested nodes, in source order.
    public var children: [OutlineNode]
    /// Extra classes (key `class`, space-separated) and `key=value` pairs from the source.
    public var attributes: [String: String]
    /// Where the node starts in its source (line, 1-based), for messages; 0 when unknown.
    public var line: Int

    /// A node; everything but the title has a default.
    public init(
        title: String, id: String = "", collapsed: Bool? = nil, body: String = "",
        children: [OutlineNode] = [], attributes: [String: String] = [:], line: Int = 0
    ) {
        self.title = title
        self.id = id
        self.collapsed = collapsed
        self.body = body
        self.children = children
        self.attributes = attributes
        self.line = line
    }

    /// Whether the node starts closed (an unspecified state is open; a node that cannot
    /// collapse is never closed).
    public var isCollapsed: Bool { isCollapsible && collapsed == true }

    /// A node with neither body nor children renders as a plain entry, never as `<details>`.
    public var isCollapsible: Bool { !body.isEmpty || !children.isEmpty }
}
