/// A tree's `mkdocs.yml`, as far as this release reads it: the names its
/// `markdown_extensions` lists, which turn on mkdocs' dialect for the tree's Markdown (SPEC
/// §3.1.3, docs/formats.md). It is found as mkdocs finds it for a tree given as the project
/// folder or as its `docs` folder: `mkdocs.yml` (or `mkdocs.yaml`) in the folder, else in
/// its parent.
///
/// Only the key's entries are read, in both of the forms mkdocs takes (a list of names or
/// of one-key maps, `- pymdownx.mark`, `- toc: {…}`; a map of names, `pymdownx.mark: null`;
/// or a flow list `[toc, admonition]`); their options are not read yet.
enum MkDocsConfig {
    /// The extension names of the `mkdocs.yml` that configures the tree at `root`, if one
    /// does (a file without `markdown_extensions` configures none).
    static func extensions(ofTreeAt root: String) -> Set<String>? {
        for folder in [root, Path.join(root, "..")] {
            for name in ["mkdocs.yml", "mkdocs.yaml"] {
                guard let bytes = try? Files.read(Path.join(folder, name), limit: 1 << 20) else { continue }
                return extensionNames(in: String(decoding: bytes, as: UTF8.self))
            }
        }
        return nil
    }

    /// The names of the entries of `text`'s top-level `markdown_extensions` key; nil when it
    /// has none.
    static func extensionNames(in text: String) -> Set<String>? {
        var names: Set<String>?
        var entryIndent: Int?
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let indent = line.prefix { $0 == " " }.count
            let content = line.dropFirst(indent)
            if content.isEmpty || content.hasPrefix("#") { continue }
            guard names != nil else {
                guard indent == 0, content.hasPrefix("markdown_extensions:") else { continue }
                names = []
                let rest = content.dropFirst("markdown_extensions:".count).drop { $0 == " " }
                guard rest.hasPrefix("[") else { continue }
                for item in rest.dropFirst().prefix(while: { $0 != "]" }).split(separator: ",") {
                    if let name = entryName(item) { names?.insert(name) }
                }
                break
            }
            // The next top-level key ends the entries (a `- ` list may sit at column 0); the
            // entries are the lines at the first indent, their options deeper.
            if indent == 0, !content.hasPrefix("-") { break }
            if entryIndent == nil { entryIndent = indent }
            guard indent == entryIndent else { continue }
            if let name = entryName(content) { names?.insert(name) }
        }
        return names
    }

    /// The name an entry line gives (`- pymdownx.mark`, `- toc:`, `pymdownx.mark: null`).
    private static func entryName(_ entry: Substring) -> String? {
        var text = entry.drop { $0 == " " }
        if text.hasPrefix("-") { text = text.dropFirst().drop { $0 == " " } }
        if let first = text.first, first == "\"" || first == "'" { text = text.dropFirst() }
        let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }
        return name.isEmpty ? nil : String(name)
    }
}
