internal import CCmark

/// What a node made by the extensions (tables, task items, body headings, blocks) is, kept in
/// the node's user data so that the plain-text writer and the link rewriter can tell (cmark's
/// own nodes carry none).
enum NodeTag: Equatable {
    /// A table, whose cells' content came from the cells' document of `level`.
    case table(level: Int)
    case headerRow
    case row
    case cell(TableAlignment?)
    case taskOpen
    case taskDone
    /// A block moved in from the cells' document of `level` (the lines after a table).
    case moved(level: Int)
    /// A heading of a body, made linkable (see `BodyHeadings`).
    case heading
    /// A collapsible or callout block (see `CollapsibleBlocks`).
    case block

    /// For a table or a moved block: which cells' document its positions are lines of (0
    /// for the one parsed beside the source, 1 for one parsed beside that, …).
    var level: Int? {
        switch self {
        case .table(let level), .moved(let level): level
        default: nil
        }
    }

    init?(of node: OpaquePointer) {
        guard let data = cmark_node_get_user_data(node) else { return nil }
        let value = Int(bitPattern: data)
        let level = value >> 4
        switch value & 15 {
        case 1: self = .table(level: level)
        case 2: self = .headerRow
        case 3: self = .row
        case 4: self = .cell(nil)
        case 5: self = .cell(.left)
        case 6: self = .cell(.center)
        case 7: self = .cell(.right)
        case 8: self = .taskOpen
        case 9: self = .taskDone
        case 10: self = .moved(level: level)
        case 11: self = .heading
        case 12: self = .block
        default: return nil
        }
    }

    private var code: Int {
        switch self {
        case .table(let level): 1 | level << 4
        case .headerRow: 2
        case .row: 3
        case .cell(nil): 4
        case .cell(.left): 5
        case .cell(.center): 6
        case .cell(.right): 7
        case .taskOpen: 8
        case .taskDone: 9
        case .moved(let level): 10 | level << 4
        case .heading: 11
        case .block: 12
        }
    }

    func set(on node: OpaquePointer) {
        cmark_node_set_user_data(node, UnsafeMutableRawPointer(bitPattern: code))
    }
}

/// Where a line of the cells' document comes from: a source line, and what to add to a
/// column there to get the source's.
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
