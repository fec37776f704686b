/// How the command line sets initial collapse state (docs/formats.md).
public struct CollapseOptions: Equatable, Sendable {
    /// `--expand-all` (true) or `--collapse-all` (false); beats everything else.
    public var all: Bool?
    /// `--expand ID`: these nodes start open.
    public var expand: Set<String> = []
    /// `--collapse ID`: these nodes start closed.
    public var collapse: Set<String> = []
    /// `--collapse-depth N`: nodes at depth ≥ N start closed (the top is depth 1).
    public var depth: Int?

    /// No rules: the sources decide.
    public init(all: Bool? = nil, expand: Set<String> = [], collapse: Set<String> = [], depth: Int? = nil) {
        self.all = all
        self.expand = expand
        self.collapse = collapse
        self.depth = depth
    }
}

/// Resolves every node's initial state. Highest first: `--expand-all`/`--collapse-all`;
/// `--expand ID`/`--collapse ID`; a marker in the source; `--collapse-depth N` (else the
/// source's `collapse-depth`); expanded. The blanket rules (all, depth) only touch nodes
/// that can collapse; a leaf keeps what its source said.
enum CollapseRules {
    static func apply(_ options: CollapseOptions, to outline: inout Outline, file: String) -> [Diagnostic] {
        let depthLimit = options.depth ?? outline.collapseDepth
        let named = options.expand.union(options.collapse)
        var seen: Set<String> = []
        outline.mapNodes { node, depth in
            // (Most ids are made from the title when read: only when a rule names one.)
            if !named.isEmpty {
                let id = node.id
                if named.contains(id) { seen.insert(id) }
                if options.expand.contains(id) {
                    node.collapsed = false
                } else if options.collapse.contains(id) {
                    node.collapsed = true
                }
            }
            if let all = options.all, node.isCollapsible {
                node.collapsed = !all
            } else if node.collapsed == nil {
                node.collapsed = node.isCollapsible && depthLimit.map { depth >= $0 } == true
            }
        }
        let missing = named.subtracting(seen).sorted()
        return missing.map { Diagnostic(SourceLocation(file: file), "no section has the id '\(Quote.snippet($0))'") }
    }
}
