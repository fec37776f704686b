internal import CCmark

/// GitHub's tag filter (`tagfilter`): in raw HTML, the tags that would change how the rest
/// of the page is read (`<script>`, `<style>`, `<textarea>`, `<iframe>`, …) have their `<`
/// escaped. Raw HTML is written only with `--unsafe`, so it is applied when a block is
/// written so.
struct TagFilterExtension: MarkdownExtension {
    var name: String { "tagfilter" }

    func beforeHTML(of block: OpaquePointer, text: ArraySlice<UInt8>?, keepsRawHTML: Bool) {
        guard keepsRawHTML else { return }
        CommonMarkDocument.walk(block) { node, entering in
            let type = cmark_node_get_type(node)
            if entering && (type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE) { TagFilter.filter(node) }
        }
    }
}

/// The filter, on the text of one raw HTML node.
enum TagFilter {
    private static let tags = ["title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext"]

    static func filter(_ node: OpaquePointer) {
        let literal = CommonMarkDocument.literalBytes(node)
        guard literal.contains(UInt8(ascii: "<")) else { return }
        var output: [UInt8] = []
        var changed = false
        for index in literal.indices {
            if literal[index] == UInt8(ascii: "<"), isFiltered(literal[index...]) {
                output += "&lt;".utf8
                changed = true
            } else {
                output.append(literal[index])
            }
        }
        if changed { MarkdownTree.setLiteral(node, output) }
    }

    private static func isFiltered(_ text: ArraySlice<UInt8>) -> Bool {
        var index = text.startIndex + 1
        if index < text.endIndex, text[index] == UInt8(ascii: "/") { index += 1 }
        for tag in tags {
            let name = Array(tag.utf8)
            let end = index + name.count
            guard end < text.endIndex, zip(text[index..<end], name).allSatisfy({ $0 | 0x20 == $1 }) else { continue }
            let next = text[end]
            if next == .space || next == .tab || next == .lineFeed || next == 0x0B || next == 0x0C || next == .carriageReturn
                || next == UInt8(ascii: ">")
            {
                return true
            }
            if next == UInt8(ascii: "/"), end + 1 < text.endIndex, text[end + 1] == UInt8(ascii: ">") { return true }
        }
        return false
    }
}
