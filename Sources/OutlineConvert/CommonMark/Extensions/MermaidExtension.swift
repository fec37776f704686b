/// Mermaid diagrams (```` ```mermaid ````), written as mkdocs-material writes them (pymdownx
/// superfences' `fence_code_format`): `<pre class="mermaid"><code>…</code></pre>`, which
/// mermaid's script draws where a page loads it; the code shows as written where none does.
/// Plain text and the source keep the fence.
struct MermaidExtension: MarkdownExtension {
    var name: String { "mermaid" }

    func prepared(for source: SourceLines) -> MermaidExtension? {
        source.bytes.contains(bytes: "mermaid") ? self : nil
    }

    func rewriteHTML(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // (By memchr: a generic search of a page's HTML costs more than writing it.)
        guard var found = html.firstIndex(of: Self.cmarkStart) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(html.count)
        var copied = 0
        while true {
            output += html[copied..<found]
            output += Self.start
            copied = found + Self.cmarkStart.count
            guard let next = html.firstIndex(of: Self.cmarkStart, from: copied) else { break }
            found = next
        }
        output += html[copied...]
        return output
    }

    /// How cmark starts a code block whose info string's first word is `mermaid`.
    private static let cmarkStart = Array("<pre><code class=\"language-mermaid\">".utf8)
    private static let start = Array("<pre class=\"mermaid\"><code>".utf8)
}
