/// Code blocks highlighted by Prism (Debian's node-prismjs, MIT; its files in
/// `Templates/prism/`, copied there by `scripts/vendor-prism`): which of its files a page
/// needs for the languages of its code blocks, and the script that loads them. A page
/// loads Prism only when one of its code blocks names a language Prism knows (by its id or
/// an alias: `py`, `sh`, `html`), and then only the files of those languages and of what
/// they require, in the order Prism's `components.json` gives. A single page holds them
/// in its script; a site's pages load them from the site's `outline-site/prism/`.
enum CodeHighlighting {
    /// Names GitHub reads (linguist's aliases and file extensions) for a language Prism
    /// knows by another name: Node's docs write ```` ```mjs ````, mdBook's ```` ```console ````.
    /// The page's script registers them with Prism.
    private static let gitHubNames = [
        "mjs": "javascript", "cjs": "javascript", "jsonc": "json", "console": "shell-session", "zsh": "bash", "rs": "rust",
        "golang": "go", "py3": "python", "python3": "python", "pl": "perl", "ps1": "powershell", "pwsh": "powershell",
        "terraform": "hcl", "tf": "hcl", "psql": "sql", "pgsql": "sql", "postgresql": "sql", "mysql": "sql", "ex": "elixir",
        "exs": "elixir", "erl": "erlang",
    ]

    /// The Prism id of the language a code block names (its class `language-…`), any case;
    /// nil when Prism does not know it.
    static func languageID(_ name: String) -> String? {
        func id(_ name: String) -> String? { prismLanguages[name] != nil ? name : prismAliases[name] ?? gitHubNames[name] }
        return id(name) ?? id(name.lowercased())
    }

    /// The Prism files (in `Templates/prism/`) that highlight `languages` (Prism ids), in
    /// the order they must load: the core first; every language after those it requires
    /// and after those it modifies or may use when they load too. Empty for no language.
    static func files(for languages: Set<String>) -> [String] {
        guard languages.contains(where: { prismLanguages[$0] != nil }) else { return [] }
        var needed = Set<String>()
        func need(_ id: String) {
            guard let language = prismLanguages[id], needed.insert(id).inserted else { return }
            language.requires.forEach(need)
        }
        languages.sorted().forEach(need)
        var ordered: [String] = []
        var placed = Set<String>()
        func place(_ id: String) {
            guard needed.contains(id), placed.insert(id).inserted, let language = prismLanguages[id] else { return }
            (language.requires + language.after).forEach(place)
            ordered.append(id)
        }
        needed.sorted().forEach(place)
        return ["prism-core.min.js"] + (ordered + (languages.contains(keepMarkup) ? [keepMarkup] : [])).map { "prism-\($0).min.js" }
    }

    /// Prism's plugin that keeps the markup inside a block (a line a span: see
    /// `CodeInfoExtension`), named among the languages of a page that needs it.
    static let keepMarkup = "keep-markup"

    /// The text of a file of `Templates/prism/` (`files(for:)`, or `COPYRIGHT`).
    static func prismFile(_ name: String) -> String {
        EmbeddedTemplates.files["prism/" + name] ?? ""
    }

    /// Writes a Prism file (`files(for:)`) into a page's script (see `writeScript(_:into:)`).
    static func writeInline(_ file: String, into page: inout ByteBuffer) {
        writeScript(prismFile(file), into: &page)
    }

    /// Writes a script's text into a page's `<script>`: each `<` that would start `<!--` or
    /// a `script` tag written `\x3C` (the same character in a string or a regular
    /// expression), so the text cannot end or confuse the `<script>` element.
    static func writeScript(_ script: String, into page: inout ByteBuffer) {
        var text = script
        text.withUTF8 { bytes in
            var copied = 0
            var at = 0
            while let open = bytes.firstIndex(ofByte: UInt8(ascii: "<"), from: at) {
                at = open + 1
                let next = UnsafeBufferPointer(rebasing: bytes[at..<min(at + 7, bytes.count)])
                guard Self.opensScriptMarkup(next) else { continue }
                page.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[copied..<open])))
                page.write("\\x3C" as StaticString)
                copied = at
            }
            page.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[copied...])))
        }
    }

    /// Whether what follows a `<` makes `<!--`, `<script` or `</script` (any case).
    private static func opensScriptMarkup(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: "!") { return bytes.count >= 3 && bytes[1] == UInt8(ascii: "-") && bytes[2] == UInt8(ascii: "-") }
        let word = first == UInt8(ascii: "/") ? bytes.dropFirst() : bytes[...]
        return word.count >= 6 && zip(word, "script".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    /// What runs Prism once its files have loaded: GitHub's names for `languages` first.
    private static func highlightAll(_ languages: Set<String>) -> String {
        let names = gitHubNames.filter { languages.contains($0.value) }.sorted { $0.key < $1.key }
        return names.map { "Prism.languages[\"\($0.key)\"] = Prism.languages[\"\($0.value)\"];" }.joined(separator: " ") + " Prism.highlightAll();"
    }

    /// The Prism files a site copies into `outline-site/prism/` for its pages' `languages`,
    /// with Prism's licence; none for no language.
    static func siteFiles(for languages: Set<String>) -> [(name: String, text: String)] {
        let names = files(for: languages)
        return (names.isEmpty ? [] : names + ["COPYRIGHT"]).map { ($0, prismFile($0)) }
    }

    /// Writes, inside the page's `<script>`, what highlights its code: Prism's files
    /// themselves on a single page, or in a site (`root`: the site's folder from the page)
    /// a loader of `outline-site/prism/`'s, in order. Prism runs by hand once all have
    /// loaded (`Prism.manual`), as the page's own script may run before or after it.
    static func writeScript(for languages: Set<String>, root: String?, into page: inout ByteBuffer) {
        let files = files(for: languages)
        guard !files.isEmpty else { return }
        page.write("\nwindow.Prism = window.Prism || {}; window.Prism.manual = true;\n" as StaticString)
        guard let root else {
            for file in files {
                writeInline(file, into: &page)
                page.write("\n" as StaticString)
            }
            page.write(highlightAll(languages) + "\n")
            return
        }
        page.write("(function (files) { var next = function () { var file = files.shift(); if (!file) { " as StaticString)
        page.write(highlightAll(languages))
        page.write(" return; }" as StaticString)
        page.write(" var script = document.createElement(\"script\"); script.src = \"" as StaticString)
        page.write(escaping: root)
        page.write("outline-site/prism/\" + file; script.onload = next; document.body.appendChild(script); }; next(); })([" as StaticString)
        page.write(files.map { "\"\($0)\"" }.joined(separator: ", "))
        page.write("]);\n" as StaticString)
    }
}

/// What the script of one page must load, collected as it is written: the languages of
/// its code blocks (from cmark's `<code class="language-…">`), as Prism ids, with Prism's
/// keep-markup plugin for blocks written a line a span, and KaTeX (`MathTypesetting.id`)
/// for math. One page is written by one thread.
final class CodeLanguages: @unchecked Sendable {
    private(set) var ids = Set<String>()

    /// Adds the languages of the code blocks in `html` (whole elements) that Prism knows.
    func collect(from html: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while let found = html.firstIndex(of: Self.marker, from: start) {
            let nameStart = found + Self.marker.count
            var end = nameStart
            while end < html.count, html[end] != UInt8(ascii: "\""), html[end] != .space { end += 1 }
            if let id = CodeHighlighting.languageID(String(decoding: UnsafeBufferPointer(rebasing: html[nameStart..<end]), as: UTF8.self)) {
                ids.insert(id)
            }
            start = end
        }
        if !ids.contains(CodeHighlighting.keepMarkup), html.firstIndex(of: Self.lines) != nil { ids.insert(CodeHighlighting.keepMarkup) }
        if !ids.contains(MathTypesetting.id), html.firstIndex(of: Self.mathFence) != nil { ids.insert(MathTypesetting.id) }
    }

    /// Notes math in `html` (any block's: `MathExtension`'s spans), for KaTeX.
    func collectMath(from html: UnsafeBufferPointer<UInt8>) {
        guard !ids.contains(MathTypesetting.id) else { return }
        // (Every block of every page is searched: by its backslashes, rare in HTML, each
        // looked at for the span's `\(` or `\[` after its start tag.)
        var at = 0
        while let slash = html.firstIndex(ofByte: .backslash, from: at) {
            at = slash + 1
            guard slash >= Self.math.count, at < html.count, html[at] == UInt8(ascii: "(") || html[at] == UInt8(ascii: "["),
                html[(slash - Self.math.count)..<slash].elementsEqual(Self.math)
            else { continue }
            ids.insert(MathTypesetting.id)
            return
        }
    }

    private static let marker = Array("<code class=\"language-".utf8)
    private static let lines = Array("<pre class=\"outline-lines".utf8)
    private static let math = Array("<span class=\"arithmatex\">".utf8)
    private static let mathFence = Array("<code class=\"language-math\">".utf8)
}
