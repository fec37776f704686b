/// A tree's `mkdocs.yml`, as far as this release reads it: the names its
/// `markdown_extensions` lists, which turn on mkdocs' dialect for the tree's Markdown (SPEC
/// §3.1.3, docs/formats.md). It is found as mkdocs finds it for a tree given as the project
/// folder or as its `docs` folder: `mkdocs.yml` (or `mkdocs.yaml`) in the folder, else in
/// its parent. It is read as YAML (`YAMLReader`), its tags never acted on.
///
/// The key takes both of the forms mkdocs takes: a sequence of names or of one-key maps
/// (`- pymdownx.mark`, `- toc: {…}`), or a map of names (`pymdownx.mark: null`); the
/// extensions' options are not read yet.
enum MkDocsConfig {
    /// The extension names of the `mkdocs.yml` that configures the tree at `root`, if one
    /// does (a file without `markdown_extensions` configures none); a located error when
    /// that file is not YAML.
    static func extensions(ofTreeAt root: String) throws -> Set<String>? {
        for folder in [root, Path.join(root, "..")] {
            for name in ["mkdocs.yml", "mkdocs.yaml"] {
                let path = Path.join(folder, name)
                guard let bytes = try? Files.read(path, limit: 1 << 20) else { continue }
                return try YAMLReader.documents(bytes, file: path).first.flatMap(extensionNames(in:))
            }
        }
        return nil
    }

    /// The names of the entries of the top-level `markdown_extensions` of `config`; nil
    /// when it has none.
    static func extensionNames(in config: YAMLNode) -> Set<String>? {
        guard let extensions = config["markdown_extensions"] else { return nil }
        if let entries = extensions.entries { return Set(entries.compactMap { $0.key.text }) }
        let names = (extensions.items ?? []).compactMap { item in item.text ?? item.entries?.first?.key.text }
        return Set(names)
    }
}
