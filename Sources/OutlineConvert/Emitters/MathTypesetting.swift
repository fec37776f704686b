/// Math typeset by KaTeX (Debian's libjs-katex and fonts-katex, MIT and OFL; copied into
/// `Templates/katex/` by `scripts/vendor-katex`, its fonts inside its style as data: URLs):
/// the script of a page that holds math (`MathExtension`'s `<span class="arithmatex">`, or
/// a ```` ```math ```` block) typesets it. A single page holds KaTeX in its script; a site's
/// pages load it from `outline-site/katex/`. A page without math loads none of it.
enum MathTypesetting {
    /// The name a page's `CodeLanguages` gives math.
    static let id = "katex"

    /// The text of a file of `Templates/katex/`.
    static func file(_ name: String) -> String {
        EmbeddedTemplates.files["katex/" + name] ?? ""
    }

    /// The files a site copies into `outline-site/katex/` when a page holds math.
    static func siteFiles(for ids: Set<String>) -> [(name: String, text: String)] {
        ids.contains(id) ? ["katex.js", "katex.css", "COPYRIGHT"].map { ($0, file($0)) } : []
    }

    /// Writes, inside the page's `<script>`, what typesets its math: KaTeX's style and script
    /// themselves on a single page, or in a site (`root`: the site's folder from the page)
    /// what loads `outline-site/katex/`'s.
    static func writeScript(for ids: Set<String>, root: String?, into page: inout ByteBuffer) {
        guard ids.contains(id) else { return }
        page.write("\n" as StaticString)
        page.write(typeset)
        guard let root else {
            page.write("(function () { var style = document.createElement(\"style\"); style.textContent = " as StaticString)
            page.write(JSONEmitter.quoted(file("katex.css")))
            page.write("; document.head.appendChild(style); })();\n" as StaticString)
            CodeHighlighting.writeScript(file("katex.js"), into: &page)
            page.write("\noutlineTypeset();\n" as StaticString)
            return
        }
        page.write("(function (root) { var link = document.createElement(\"link\"); link.rel = \"stylesheet\";" as StaticString)
        page.write(" link.href = root + \"outline-site/katex/katex.css\"; document.head.appendChild(link);" as StaticString)
        page.write(" var script = document.createElement(\"script\"); script.src = root + \"outline-site/katex/katex.js\";" as StaticString)
        page.write(" script.onload = outlineTypeset; document.body.appendChild(script); })(" as StaticString)
        page.write(JSONEmitter.quoted(root))
        page.write(");\n" as StaticString)
    }

    /// Typesets each `\(…\)` / `\[…\]` span and each `math` block in place; TeX that KaTeX
    /// cannot read shows as it is written, in KaTeX's error colour.
    private static let typeset = """
        function outlineTypeset() {
          document.querySelectorAll(".arithmatex, pre > code.language-math").forEach(function (element) {
            var block = element.tagName === "CODE", tex = element.textContent;
            var display = block || tex.slice(0, 2) === "\\\\[";
            if (!block) tex = tex.slice(2, -2);
            var typeset = document.createElement(block ? "div" : "span");
            typeset.className = "arithmatex";
            katex.render(tex, typeset, { displayMode: display, throwOnError: false });
            var target = block ? element.parentNode : element;
            target.parentNode.replaceChild(typeset, target);
          });
        }

        """
}
