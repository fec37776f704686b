internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading cmark's nodes: a heading's content, literals, and walks without recursion.
extension CommonMarkDocument {
    /// The heading's inline content in document order (pre-order, by the nodes' own links:
    /// an iterator is an allocation per heading, and a document may have a million).
    static func titleParts(of heading: OpaquePointer) -> [TitlePart] {
        var parts: [TitlePart] = []
        var next = cmark_node_first_child(heading)
        while let node = next {
            switch cmark_node_get_type(node) {
            case CMARK_NODE_TEXT: parts.append(.text(literal(node)))
            case CMARK_NODE_CODE: parts.append(.code(literal(node)))
            case CMARK_NODE_HTML_INLINE: parts.append(.html(literal(node)))
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: parts.append(.lineBreak)
            default: break
            }
            // Down to the first child, else on to the next sibling of this node or of the
            // nearest ancestor below the heading that has one.
            if let child = cmark_node_first_child(node) {
                next = child
                continue
            }
            var current: OpaquePointer? = node
            next = nil
            while let at = current, at != heading {
                if let sibling = cmark_node_next(at) {
                    next = sibling
                    break
                }
                current = cmark_node_parent(at)
            }
        }
        return parts
    }

    /// Whether the heading holds markup a plain title loses: emphasis, code, a link, an
    /// image, raw HTML other than markmap's comments. (Not what only the flavour's extensions
    /// read, which a parse for the structure only does not: both must agree.)
    static func holdsMarkup(_ heading: OpaquePointer) -> Bool {
        var next = cmark_node_first_child(heading)
        while let node = next {
            next = cmark_node_next(node)
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_INLINE where HeadingMarkers.markmapOption(literal(node)) != nil: continue
            case CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_CODE, CMARK_NODE_LINK, CMARK_NODE_IMAGE, CMARK_NODE_HTML_INLINE: return true
            default: continue
            }
        }
        return false
    }

    static func literal(_ node: OpaquePointer) -> String {
        cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }

    /// A node's literal text as bytes.
    static func literalBytes(_ node: OpaquePointer) -> [UInt8] {
        guard let literal = cmark_node_get_literal(node) else { return [] }
        return literal.withMemoryRebound(to: UInt8.self, capacity: 1) { Array(UnsafeBufferPointer(start: $0, count: strlen(literal))) }
    }

    /// Whether the node's children are inline content.
    static func holdsInlines(_ node: OpaquePointer) -> Bool {
        let type = cmark_node_get_type(node)
        return type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING
    }

    /// Whether cmark's iterator visits the node once (it has no exit event): a node that
    /// cannot hold others.
    static func isLeaf(_ node: OpaquePointer) -> Bool {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_CODE_BLOCK, CMARK_NODE_HTML_BLOCK, CMARK_NODE_THEMATIC_BREAK, CMARK_NODE_TEXT, CMARK_NODE_CODE,
            CMARK_NODE_HTML_INLINE, CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
            return true
        default:
            return false
        }
    }

    /// Visits `node` and everything below it, without recursion (documents may nest deeply).
    static func walk(_ node: OpaquePointer, _ visit: (OpaquePointer, Bool) -> Void) {
        guard let iterator = cmark_iter_new(node) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { return }
            guard let current = cmark_iter_get_node(iterator) else { return }
            visit(current, event == CMARK_EVENT_ENTER)
        }
    }
}
