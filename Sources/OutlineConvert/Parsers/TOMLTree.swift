extension TOMLReader {
    /// A TOML document's tables as they are being read, with how each was defined, so
    /// that what TOML forbids is refused: a key set twice, a table opened twice, a table of
    /// dotted keys or an inline table added to from elsewhere.
    struct Tree {
        private final class Node {
            enum Origin: Equatable {
                /// Made on the way to a header's table (`a` of `[a.b]`): a header may define it.
                case implicit
                case header
                /// Made by a dotted key in the header section numbered so.
                case dotted(section: Int)
                /// An inline table: closed.
                case inline
            }

            enum Child {
                case value(TOMLValue)
                case table(Node)
                case arrayOfTables([Node])
            }

            var origin: Origin
            var entries: [(key: String, child: Child)] = []

            init(_ origin: Origin) { self.origin = origin }

            subscript(key: String) -> Child? {
                get { entries.first { $0.key == key }?.child }
                set {
                    guard let newValue else { return }
                    if let at = entries.firstIndex(where: { $0.key == key }) { entries[at].child = newValue } else { entries.append((key, newValue)) }
                }
            }

            var value: TOMLValue {
                .table(
                    entries.map { entry in
                        switch entry.child {
                        case .value(let value): (entry.key, value)
                        case .table(let node): (entry.key, node.value)
                        case .arrayOfTables(let nodes): (entry.key, .array(nodes.map(\.value)))
                        }
                    })
            }
        }

        private let root = Node(.header)
        /// The header section being read (each header starts one).
        private var section = 0
        /// The table key/value lines go into, and its header's keys.
        private var current: Node
        private var currentPath: [String] = []
        /// Where each key was set, by its keys from the top (an array of tables' by its name).
        private(set) var locations: [[String]: SourceLocation] = [:]

        init() { current = root }

        var value: TOMLValue { root.value }

        /// Opens the table of the header `[path]` (`[[path]]`: a new table at the end of the
        /// array of tables `path`) for the lines that follow.
        mutating func open(_ path: [String], arrayItem: Bool, at: SourceLocation) throws {
            section += 1
            currentPath = path
            locations[path] = locations[path] ?? at
            let name = path.joined(separator: ".")
            var node = root
            for key in path.dropLast() {
                switch node[key] {
                case nil:
                    let made = Node(.implicit)
                    node[key] = .table(made)
                    node = made
                case .table(let table) where table.origin != .inline: node = table
                case .arrayOfTables(let tables) where tables.last != nil: node = tables[tables.count - 1]
                default: throw ConversionError.malformed(at, "[\(name)] goes into a value that is not a table")
                }
            }
            guard let last = path.last else { return }
            switch (node[last], arrayItem) {
            case (nil, false):
                let made = Node(.header)
                node[last] = .table(made)
                current = made
            case (nil, true):
                let made = Node(.header)
                node[last] = .arrayOfTables([made])
                current = made
            case (.table(let table), false) where table.origin == .implicit:
                table.origin = .header
                current = table
            case (.arrayOfTables(let tables), true):
                let made = Node(.header)
                node[last] = .arrayOfTables(tables + [made])
                current = made
            default:
                throw ConversionError.malformed(at, "the table [\(name)] is defined a second time")
            }
        }

        /// Sets the key `path` (dotted: tables on the way) of the current table to `value`.
        mutating func set(_ path: [String], _ value: TOMLValue, at: SourceLocation) throws {
            let name = path.joined(separator: ".")
            var node = current
            for key in path.dropLast() {
                switch node[key] {
                case nil:
                    let made = Node(.dotted(section: section))
                    node[key] = .table(made)
                    node = made
                case .table(let table) where table.origin == .implicit || table.origin == .dotted(section: section):
                    node = table
                default: throw ConversionError.malformed(at, "the key \(name) goes into a table defined elsewhere, or a value")
                }
            }
            guard let last = path.last else { return }
            guard node[last] == nil else { throw ConversionError.malformed(at, "the key \(name) is defined a second time") }
            locations[currentPath + path] = at
            if case .table(let entries) = value {
                // (An inline table is closed: nothing is added to it later.)
                let made = Node(.inline)
                made.entries = entries.map { ($0.key, .value($0.value)) }
                node[last] = .table(made)
            } else {
                node[last] = .value(value)
            }
        }
    }
}
