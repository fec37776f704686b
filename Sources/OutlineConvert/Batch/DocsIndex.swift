#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A docs index for a converted tree: every page by title, in folder order, with links.
/// It is written as Markdown (a folder is a section, a page a link in a list) and converted
/// by the same pipeline, so it gets the same template and style as the pages.
enum DocsIndex {
    /// The index's Markdown, for `pages` (output paths and titles) under `outputDirectory`:
    /// in each folder its pages first, then its subfolders, each in name order.
    static func markdown(title: String, pages: [(output: String, title: String)], outputDirectory: String) -> String {
        let root = BatchPlan.absolute(outputDirectory)
        var tree = Folder()
        for page in pages {
            let relative = String(BatchPlan.absolute(page.output).dropFirst(root.count + 1))
            tree.insert(path: relative.split(separator: "/").map(String.init), title: page.title)
        }
        var markdown = "---\ntitle: \(quotedYAML(title))\n---\n"
        if pages.isEmpty { markdown += "\nNo pages were converted.\n" }
        tree.write(into: &markdown, path: [])
        return markdown
    }

    private struct Folder {
        var pages: [(title: String, file: String)] = []
        /// (By the name's bytes: two folders whose names differ only in Unicode normalization
        /// are two folders.)
        var folders: [PathKey: (name: String, folder: Folder)] = [:]

        mutating func insert(path: [String], title: String) {
            guard path.count > 1, let first = path.first else {
                pages.append((title, path.last ?? ""))
                return
            }
            folders[PathKey(first), default: (first, Folder())].folder.insert(path: Array(path.dropFirst()), title: title)
        }

        func write(into markdown: inout String, path: [String]) {
            if !pages.isEmpty { markdown += "\n" }
            for page in pages.sorted(by: { $0.file.utf8.lexicographicallyPrecedes($1.file.utf8) }) {
                let link = (path + [page.file]).map(PercentEncoding.unreserved.encoded).joined(separator: "/")
                markdown += "- [\(DocsIndex.escaped(page.title))](\(link))\n"
            }
            for (name, folder) in folders.values.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
                let heading = String(repeating: "#", count: min(path.count + 1, 6))
                markdown += "\n\(heading) \(DocsIndex.escaped(Path.title(ofName: name)))\n"
                folder.write(into: &markdown, path: path + [name])
            }
        }
    }

    /// Every ASCII punctuation character backslash-escaped, as CommonMark allows.
    static func escaped(_ text: String) -> String {
        // By bytes: `[` followed by a combining mark is one character, but cmark reads a `[`.
        var out: [UInt8] = []
        for byte in text.split(whereSeparator: \.isNewline).joined(separator: " ").utf8 {
            if byte.isASCIIPunctuation { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func quotedYAML(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
