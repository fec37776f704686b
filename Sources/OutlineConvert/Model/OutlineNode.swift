/// One section of an outline: a heading, a section dict or element, or an item.
public struct OutlineNode: Equatable, Sendable {
    // (Stored in this order, a node takes 88 bytes: the 17 of the body, then the state, the
    // id flag and the 32-bit line in the rest of its last word. A large outline is mostly
    // nodes.)
    /// The body as kept: Markdown input keeps its slice of the source, made a `String`
    /// only for a writer that asks for the text (HTML and text render `blocks`).
    var bodyStorage: BodyStorage
    /// Initial state: `nil` while the source says nothing, so that the collapse rules decide.
    public var collapsed: Bool?
    /// Whether the id is the title's slug, made when asked instead of kept (most ids are:
    /// an outline of 66,000 nodes kept 3.4 MB of them; and our XML and plist writers spell
    /// out every id, so most ids read back are slugs too). See `id`.
    private(set) var idIsSlugOfTitle = false
    private var storedLine: Int32
    /// Plain-text title; never empty.
    public var title: String {
        didSet {
            // An id given as the title's slug stays what it was.
            if idIsSlugOfTitle { id = IdentifierAssigner.slug(oldValue) }
        }
    }
    private var storedId: String
    /// The body already parsed (Markdown input: its blocks in the whole document's tree),
    /// so that it is rendered without parsing it again; dropped when `body` changes.
    var blocks: BodyBlocks?
    /// Nested nodes, in source order.
    public var children: [OutlineNode]
    /// Extra classes (key `class`, space-separated) and `key=value` pairs from the source.
    public var attributes: [String: String]

    /// Anchor, unique in the document once ids are assigned ("" until then, unless explicit).
    public var id: String {
        get { idIsSlugOfTitle ? IdentifierAssigner.slug(title) : storedId }
        set {
            // (Compared without making the slug a String: a reader sets an id per node.)
            let isSlug = !newValue.isEmpty && IdentifierAssigner.withSlug(of: title) { $0.elementsEqual(newValue.utf8) }
            storedId = isSlug ? "" : newValue
            idIsSlugOfTitle = isSlug
        }
    }

    /// Whether the id is not empty (`!id.isEmpty`, without making or copying it).
    var hasId: Bool { idIsSlugOfTitle || !storedId.isEmpty }

    /// Calls `body` with the id's UTF-8 bytes (a slug is made in a temporary buffer, not
    /// as a `String`: writers put every id out).
    func withIdUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard !idIsSlugOfTitle else { return IdentifierAssigner.withSlug(of: title, body) }
        var id = storedId
        return id.withUTF8(body)
    }

    /// Makes the id the title's slug, which the caller has made sure is free.
    mutating func useSlugOfTitleAsId() {
        storedId = ""
        idIsSlugOfTitle = true
    }

    /// The id's length in UTF-8 bytes, or about it (a slug is at most about as long as its
    /// title), without making it.
    var idSizeEstimate: Int { idIsSlugOfTitle ? title.utf8.count : storedId.utf8.count }

    /// Where the node starts in its source (line, 1-based), for messages; 0 when unknown.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }
    /// CommonMark text directly under the node, before its first child ("" if none).
    public var body: String {
        get { bodyStorage.string }
        set {
            bodyStorage = .text(newValue)
            blocks = nil
        }
    }

    /// A node; everything but the title has a default.
    public init(
        title: String, id: String = "", collapsed: Bool? = nil, body: String = "",
        children: [OutlineNode] = [], attributes: [String: String] = [:], line: Int = 0
    ) {
        self.title = title
        self.storedId = ""
        self.collapsed = collapsed
        self.bodyStorage = .text(body)
        self.children = children
        self.attributes = attributes
        self.storedLine = Int32(clamping: line)
        if !id.isEmpty { self.id = id }
    }

    /// Whether the node starts closed (an unspecified state is open; a node that cannot
    /// collapse is never closed).
    public var isCollapsed: Bool { isCollapsible && collapsed == true }

    /// A node with neither body nor children renders as a plain entry, never as `<details>`.
    public var isCollapsible: Bool { !bodyStorage.isEmpty || !children.isEmpty }

    /// Equal as seen from outside: however the id is kept, and whatever blocks are cached.
    public static func == (lhs: OutlineNode, rhs: OutlineNode) -> Bool {
        lhs.title == rhs.title && lhs.id == rhs.id && lhs.collapsed == rhs.collapsed && lhs.line == rhs.line
            && lhs.bodyStorage == rhs.bodyStorage && lhs.attributes == rhs.attributes && lhs.children == rhs.children
    }
}

/// A body's text, or the bytes of the source it was read from (valid UTF-8).
enum BodyStorage: Equatable, Sendable {
    case text(String)
    case source(SourceBytes)

    var string: String {
        switch self {
        case .text(let text): text
        case .source(let bytes): bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        }
    }

    var isEmpty: Bool { count == 0 }

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

/// A range of a source's bytes, kept with the source: what `ArraySlice` is, in half its
/// 32 bytes (offsets are 32-bit: inputs are under 1 GiB).
struct SourceBytes: Sendable {
    private let start: UInt32
    private let end: UInt32
    private let source: [UInt8]

    /// `range` of `source`.
    init(_ source: [UInt8], _ range: Range<Int>) {
        self.source = source
        (start, end) = (UInt32(range.lowerBound), UInt32(range.upperBound))
    }

    var count: Int { Int(end - start) }

    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        source.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(end)])) }
    }
}
