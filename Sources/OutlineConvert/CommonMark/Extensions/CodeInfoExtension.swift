internal import CCmark

/// Code blocks' info strings as the tools that write them read them, so that the language
/// is the block's class (`language-rust`) and Prism highlights it (`CodeHighlighting`):
/// mdBook's attributes after a comma (```` ```rust,editable ````, `rust,ignore`) and
/// Python-Markdown's attribute lists (```` ```{ .python title="x.py" } ````, as pymdownx
/// superfences reads them: the first class is the language). cmark would make the class
/// `language-rust,editable` or `language-{`. Plain text and the source keep the fence as
/// written.
struct CodeInfoExtension: MarkdownExtension {
    var name: String { "fenced_code_attributes" }

    func prepared(for source: SourceLines) -> CodeInfoExtension? {
        source.bytes.contains(bytes: "```") || source.bytes.contains(bytes: "~~~") ? self : nil
    }

    func beforeHTML(of block: OpaquePointer, text: ArraySlice<UInt8>?, keepsRawHTML: Bool) {
        guard MarkdownTree.mayHoldCode(block), text.map(Self.mayHoldFence) ?? true else { return }
        MarkdownTree.walk(under: block, inlines: false) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK, let info = cmark_node_get_fence_info(node) else { return }
            let written = String(cString: info)
            if let read = Self.read(written), read != written { cmark_node_set_fence_info(node, read) }
        }
    }

    /// Whether `text` may hold a fenced code block (the only kind with an info string).
    static func mayHoldFence(_ text: ArraySlice<UInt8>) -> Bool {
        text.contains(bytes: "```") || text.contains(bytes: "~~~")
    }

    /// The info string with its language first, as cmark reads it (`""` for an attribute
    /// list with no class); nil for an empty one.
    static func read(_ info: String) -> String? {
        let words = info.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { return nil }
        if first.hasPrefix("{") {
            // `{ .python title="x.py" }` or `{.python}`: the first class.
            let inner = info.drop { $0 != "{" }.dropFirst().prefix { $0 != "}" }
            let language = inner.split(whereSeparator: { $0 == " " || $0 == "\t" }).first { $0.hasPrefix(".") && $0.count > 1 }
            return language.map { String($0.dropFirst()) + " " + info } ?? ""
        }
        guard let comma = first.firstIndex(of: ","), comma != first.startIndex else { return info }
        return String(first[..<comma]) + " " + info
    }
}
