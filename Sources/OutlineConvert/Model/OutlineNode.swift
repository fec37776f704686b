/// One section of an outline: a heading, a section dict or element, or an item.
public struct OutlineNode: Equatable, Sendable {
    /// Plain-text title; never empty.
    public var title: String
    /// Anchor, unique in the document once ids are assigned ("" until then, unless explicit).
    public var id: String
    /// Initial state: `nil` while the source says nothing, so that the collapse rules decide.
    public var collapsed: Bool?
    /// CommonMark text directly under the node, before its first child ("" if none).
    public var body: String {
        get { bodyStorage.string }
        set {
            bodyStorage = .text(newValue)
            blocks = nil
        }
    }
    /// The body as kept: Markdown input keeps its slice of the source, made a `String`
    /// only for a writer that asks for the text (HTML and text render `blocks`).
    var bodyStorage: BodyStorage
    /// The body already parsed (Markdown input: its blocks in the whole document's tree),
    /// so that it is rendered without parsing it again; dropped when `body` changes.
    var blocks: BodyBlocks?
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
        self.bodyStorage = .text(body)
        self.children = children
        self.attributes = attributes
        self.line = line
    }

    /// Whether the node starts closed (an unspecified state is open; a node that cannot
    /// collapse is never closed).
    public var isCollapsed: Bool { isCollapsible && collapsed == true }

    /// A node with neither body nor children renders as a plain entry, never as `<details>`.
    public var isCollapsible: Bool { !bodyStorage.isEmpty || !children.isEmpty }
}

/// A body's text, or the bytes of the source it was read from (valid UTF-8).
enum BodyStorage: Equatable, Sendable {
    case text(String)
    case source(ArraySlice<UInt8>)

    var string: String {
        switch self {
        case .text(let text): text
        case .source(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }

    var isEmpty: Bool {
        switch self {
        case .text(let text): text.isEmpty
        case .source(let bytes): bytes.isEmpty
        }
    }

    /// The length in UTF-8 bytes.
    var count: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .source(let bytes): bytes.count
        }
    }

    /// Equal as text (as `String` compares), however kept.
    static func == (lhs: BodyStorage, rhs: BodyStorage) -> Bool { lhs.string == rhs.string }
}
