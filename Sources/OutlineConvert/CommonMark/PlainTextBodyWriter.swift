internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the plain-text writer shows collapsible blocks: their markers, and a state forced
/// on all of them.
struct PlainTextBlockStyle {
    var ascii = false
    var forcedOpen: Bool? = nil
}

/// Writes blocks as indented plain text. Containers (quotes, list items) contribute a
/// prefix to each line; past `maxIndentDepth` nested containers, lines stop moving right.
/// Blocks are separated by a blank line, except inside tight lists.
struct PlainTextWriter {
    private struct Container {
        /// The prefix of the container's first line, and of its other lines.
        var first: [UInt8]
        var rest: [UInt8]
        var firstLinePending = true
        /// For list items: the list is tight, and the item's position in it.
        var item: (tight: Bool, index: Int)?
        /// For a block: its first line follows the block's title line without a blank line.
        var followsTitle = false
    }

    private struct List {
        var ordered: Bool
        var next: Int
        var tight: Bool
        var count = 0
    }

    private static let maxIndentDepth = 16
    private static let bullet = Array("• ".utf8)
    private static let bulletRest: [UInt8] = [32, 32]
    private let indent: [UInt8]
    private var output: [UInt8] = []
    private var containers: [Container] = []
    private var lists: [List] = []
    private var wroteBlock = false
    /// The text of the paragraph or heading being read.
    private var inline: [UInt8] = []
    /// The number of the last numbered container (`PlainTextPiece.numbered`) under each node.
    private var numbers: [OpaquePointer: Int] = [:]
    /// A table written whole, or a closed block: nothing under it is visited until it ends.
    private var skipping: OpaquePointer?
    /// The collapsible and callout blocks, and how they show.
    private let blocks: [OpaquePointer: CollapsibleBlocks.Block]
    private let style: PlainTextBlockStyle
    /// The flavour's extensions, which write the nodes they tagged.
    private let extensions: [any MarkdownExtension]

    init(
        indent: String, sizeHint: Int, blocks: [OpaquePointer: CollapsibleBlocks.Block], extensions: [any MarkdownExtension],
        style: PlainTextBlockStyle
    ) {
        self.indent = Array(indent.utf8)
        self.blocks = blocks
        self.extensions = extensions
        self.style = style
        output.reserveCapacity(sizeHint)
    }

    mutating func write(_ node: OpaquePointer) {
        CommonMarkDocument.walk(node) { node, entering in handle(node, entering: entering) }
    }

    mutating func finish() -> [UInt8] {
        while output.last == .lineFeed { output.removeLast() }
        return output
    }

    private mutating func handle(_ node: OpaquePointer, entering: Bool) {
        if let skipped = skipping {
            if skipped == node && !entering { skipping = nil }
            return
        }
        let tag = NodeTag(of: node)
        switch tag?.owner {
        case .extension(let index)?:
            guard let tag, index < extensions.count,
                let piece = extensions[index].plainText(of: node, kind: tag.kind, entering: entering)
            else { break }
            switch piece {
            case .block(let text):
                emit(text)
                skipping = node
                return
            case .inline(let text):
                inline += text
            case .numbered(let before, let after, let rest):
                guard entering else {
                    // (An empty one still shows its number.)
                    if containers.last?.firstLinePending == true { emit([]) }
                    containers.removeLast()
                    return
                }
                let parent = cmark_node_parent(node)
                let number = (parent.flatMap { numbers[$0] } ?? 0) + 1
                if let parent { numbers[parent] = number }
                containers.append(Container(first: before + Array(String(number).utf8) + after, rest: rest))
                return
            }
        case .bodyHeading?:
            // (A body's heading is written like the heading it was.)
            if entering { inline.removeAll(keepingCapacity: true) } else { emit(inline) }
            return
        case .block?:
            // A block is a line with its marker and title, as a section is, and its content
            // below it, two spaces in; a closed one shows its title only.
            guard let block = blocks[node] else { return }
            guard entering else {
                containers.removeLast()
                return
            }
            let open = !block.collapsible || (style.forcedOpen ?? block.open)
            let marker = TextMarker.of(collapsible: block.collapsible, open: open, ascii: style.ascii)
            emit(marker.withUTF8Buffer { Array($0) } + Array(block.title.utf8))
            if open {
                containers.append(Container(first: [32, 32], rest: [32, 32], followsTitle: true))
            } else {
                skipping = node
            }
            return
        default:
            break
        }
        switch cmark_node_get_type(node) {
        case CMARK_NODE_BLOCK_QUOTE:
            if entering { containers.append(Container(first: [32, 32], rest: [32, 32])) } else { containers.removeLast() }
        case CMARK_NODE_LIST:
            if entering {
                lists.append(
                    List(
                        ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST,
                        next: Int(cmark_node_get_list_start(node)), tight: cmark_node_get_list_tight(node) != 0))
            } else {
                lists.removeLast()
            }
        case CMARK_NODE_ITEM:
            guard entering else {
                // An empty item still shows its bullet or number.
                if containers.last?.firstLinePending == true { emit([]) }
                containers.removeLast()
                return
            }
            guard var list = lists.popLast() else { return }
            let first = list.ordered ? Array("\(list.next). ".utf8) : Self.bullet
            // The rest of the item's lines line up with the text after its marker.
            let rest = list.ordered ? Array(repeating: 32, count: first.count) : Self.bulletRest
            containers.append(Container(first: first, rest: rest, item: (list.tight, list.count)))
            list.next += 1
            list.count += 1
            lists.append(list)
        case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING:
            if entering { inline.removeAll(keepingCapacity: true) } else { emit(inline) }
        case CMARK_NODE_CODE_BLOCK:
            var code: [UInt8] = []
            Self.appendLiteral(of: node, to: &code)
            if code.last == .lineFeed { code.removeLast() }
            emit(code)
        case CMARK_NODE_THEMATIC_BREAK:
            emit(Array("* * *".utf8))
        case CMARK_NODE_TEXT, CMARK_NODE_CODE:
            Self.appendLiteral(of: node, to: &inline)
        case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
            inline.append(.lineFeed)
        default:
            break  // raw HTML is dropped; emphasis, links and images keep only their text
        }
    }

    /// A blank line goes before a block unless a tight list holds the two together: a later
    /// item of a tight list, or a later block inside a tight item. A list's first item
    /// leaves the decision to whatever holds the list.
    private var needsBlankLine: Bool {
        guard wroteBlock else { return false }
        if let last = containers.last, last.followsTitle && last.firstLinePending { return false }
        for container in containers.reversed() {
            guard let item = container.item else { return true }
            if container.firstLinePending && item.index == 0 { continue }
            return !item.tight
        }
        return true
    }

    /// A node's literal text, straight from cmark's bytes.
    static func appendLiteral(of node: OpaquePointer, to bytes: inout [UInt8]) {
        guard let literal = cmark_node_get_literal(node) else { return }
        literal.withMemoryRebound(to: UInt8.self, capacity: 1) { bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: strlen(literal))) }
    }

    private mutating func emit(_ text: [UInt8]) {
        if needsBlankLine { output.append(.lineFeed) }
        wroteBlock = true
        text.withUnsafeBufferPointer { bytes in
            guard bytes.baseAddress != nil else { return emitLine(bytes) }
            var start = 0
            while true {
                var end = bytes.count
                if let found = bytes.firstIndex(ofByte: .lineFeed, from: start) { end = found }
                emitLine(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                guard end < bytes.count else { return }
                start = end + 1
            }
        }
    }

    /// One line of a block (no line break in it), after the indent and container markers.
    private mutating func emitLine(_ line: UnsafeBufferPointer<UInt8>) {
        let lineStart = output.count
        output.append(contentsOf: indent)
        var onlySpaces = true
        for index in containers.indices {
            if index < Self.maxIndentDepth {
                let piece = containers[index].firstLinePending ? containers[index].first : containers[index].rest
                output.append(contentsOf: piece)
                onlySpaces = onlySpaces && piece.allSatisfy { $0 == .space }
            }
            containers[index].firstLinePending = false
        }
        if !line.isEmpty {
            output.append(contentsOf: line)
        } else if onlySpaces {
            output.removeSubrange(lineStart...)  // nothing but indentation: an empty line
        } else {
            // No trailing white space: an empty line keeps only its markers.
            while output.count > lineStart, let last = output.last, last == .space || last == .tab { output.removeLast() }
        }
        output.append(.lineFeed)
    }
}
