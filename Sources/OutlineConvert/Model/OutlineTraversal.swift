/// Walks of the outline in document order. A node's position is its place in that order:
/// 0 is the preamble (the outline's own body), 1 the first node, and so on through every
/// child before the next sibling (`ParsedBodies` keeps what reading parsed by position).
extension Outline {
    /// Calls `body` with every node, in document (pre-)order.
    func forEachNode(_ body: (OutlineNode) -> Void) {
        // Recursion is bounded: every reader limits nesting (Markdown headings to 6 levels).
        func visit(_ nodes: [OutlineNode]) {
            // A buffer's element in place: an array's `nodes[index]` handed to a closure was
            // copied (a retain and a release per field), as `for node in nodes` copies.
            nodes.withUnsafeBufferPointer { nodes in
                for index in nodes.indices {
                    body(nodes[index])
                    visit(nodes[index].children)
                }
            }
        }
        visit(nodes)
    }

    /// Lets `transform` change every node in place, in document (pre-)order; `depth` is 1 at the top.
    mutating func mapNodes(_ transform: (inout OutlineNode, _ depth: Int) -> Void) {
        func visit(_ nodes: inout [OutlineNode], depth: Int) {
            for index in nodes.indices {
                transform(&nodes[index], depth)
                visit(&nodes[index].children, depth: depth + 1)
            }
        }
        visit(&nodes, depth: 1)
    }

    /// Lets `transform` change every node in place, in document (pre-)order.
    mutating func mapNodes(_ transform: (inout OutlineNode) -> Void) {
        mapNodes { node, _ in transform(&node) }
    }
}

extension OutlineNode {
    /// How many nodes this one holds, at every depth: the positions its children take.
    var descendantCount: Int {
        children.reduce(children.count) { $0 + $1.descendantCount }
    }
}
