internal import CCmark

/// What a node made on cmark's tree is, kept in the node's user data (cmark's own nodes carry
/// none): a body's heading made linkable (`BodyHeadings`), a collapsible or callout block
/// (`CollapsibleBlocks`), or a node of an extension, which says what it is (`kind`: the
/// extension's own numbers). The plain-text writer asks the extension that tagged a node how
/// to write it, and the link rewriter reads `level`.
struct NodeTag: Equatable {
    enum Owner: Equatable {
        /// A heading of a body, made linkable (see `BodyHeadings`).
        case bodyHeading
        /// A collapsible or callout block (see `CollapsibleBlocks`).
        case block
        /// The extension at this index of the flavour's list.
        case `extension`(Int)
    }

    let owner: Owner
    /// What the node is, in its extension's own numbers (0 to 255).
    var kind: UInt8 = 0
    /// For a node whose source positions are lines of a document parsed beside the source
    /// (the cells of tables: `TableExtension`), which one: 0 for the one parsed beside the
    /// source, 1 for one parsed beside that, … Nothing under such a node is walked again by
    /// the extensions' steps (it had them in its own document).
    var level: Int? = nil

    static let heading = NodeTag(owner: .bodyHeading)
    static let block = NodeTag(owner: .block)

    init(owner: Owner, kind: UInt8 = 0, level: Int? = nil) {
        self.owner = owner
        self.kind = kind
        self.level = level
    }

    // The user data is an integer: the owner in the low byte (never 0), the kind in the
    // next, and the level plus one above them (0 for none).

    init?(of node: OpaquePointer) {
        guard let data = cmark_node_get_user_data(node) else { return nil }
        let value = Int(bitPattern: data)
        switch value & 0xFF {
        case 0: return nil
        case 1: owner = .bodyHeading
        case 2: owner = .block
        case let code: owner = .extension(code - 3)
        }
        kind = UInt8(truncatingIfNeeded: value >> 8)
        let level = value >> 16
        self.level = level == 0 ? nil : level - 1
    }

    /// Whether `node` has a level: a cheap test for the walks.
    static func hasLevel(_ node: OpaquePointer) -> Bool {
        guard let data = cmark_node_get_user_data(node) else { return false }
        return Int(bitPattern: data) >> 16 != 0
    }

    func set(on node: OpaquePointer) {
        let code: Int
        switch owner {
        case .bodyHeading: code = 1
        case .block: code = 2
        case .extension(let index): code = index + 3
        }
        let value = code | Int(kind) << 8 | (level.map { $0 + 1 } ?? 0) << 16
        cmark_node_set_user_data(node, UnsafeMutableRawPointer(bitPattern: value))
    }
}

/// Where a line of a document parsed beside the source (a table's cells) comes from: a
/// source line, and what to add to a column there to get the source's.
struct LineOrigin {
    let line: Int32
    let columnShift: Int32

    static let none = LineOrigin(line: 0, columnShift: 0)

    /// This origin, for a line of a document whose own lines come from `outer`.
    func through(_ outer: [LineOrigin]) -> LineOrigin {
        guard line >= 1, Int(line) <= outer.count else { return .none }
        let origin = outer[Int(line) - 1]
        return LineOrigin(line: origin.line, columnShift: origin.columnShift + columnShift)
    }

    /// Where line `line` of the document of `level` comes from.
    static func of(line: Int, level: Int, in levels: [[LineOrigin]]) -> LineOrigin {
        guard level < levels.count, line >= 1, line <= levels[level].count else { return .none }
        return levels[level][line - 1]
    }
}
