/// Mermaid diagrams (```` ```mermaid ````), written as mkdocs-material writes them (pymdownx
/// superfences' `fence_code_format`): `<pre class="mermaid"><code>…</code></pre>`, which
/// mermaid's script draws where a page loads it; the code shows as written where none does.
/// Plain text and the source keep the fence.
struct MermaidExtension: MarkdownExtension {
    var name: String { "mermaid" }

    func prepared(for source: SourceLines) -> MermaidExtension? {
        source.bytes.firstRange(of: Array("mermaid".utf8)) != nil ? self : nil
    }

    func rewriteHTML(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard html.firstRange(of: Self.cmarkStart) != nil else { return nil }
        return Array(html).replacing(Self.cmarkStart, with: Self.start)
    }

    /// How cmark starts a code block whose info string's first word is `mermaid`.
    private static let cmarkStart = Array("<pre><code class=\"language-mermaid\">".utf8)
    private static let start = Array("<pre class=\"mermaid\"><code>".utf8)
}
