/// Path helpers on plain strings (Foundation's NSString ones are slow on Linux, and a batch
/// calls them for every file).
package enum Path {
    /// `a/b` from `a` and `b` (no doubled `/`).
    package static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The extension of the last component, without the dot ("" if none; a leading dot is not one).
    package static func fileExtension(_ path: String) -> String {
        // The last component (trailing slashes ignored), found from the end.
        let utf8 = path.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "/") { end = utf8.index(before: end) }
        let name = utf8[(utf8[..<end].lastIndex(of: UInt8(ascii: "/")).map(utf8.index(after:)) ?? utf8.startIndex)..<end]
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return "" }
        return String(decoding: name[name.index(after: dot)...], as: UTF8.self)
    }

    /// Everything before the last component ("." when there is nothing before it).
    package static func parent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(decoding: path.utf8[..<slash], as: UTF8.self)
    }

    /// The last component (the file name).
    package static func lastComponent(_ path: String) -> String {
        // (By bytes: the last run of non-slashes, or the path itself when it has none.)
        let utf8 = path.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "/") { end = utf8.index(before: end) }
        guard end > utf8.startIndex else { return path }
        var start = end
        while start > utf8.startIndex, utf8[utf8.index(before: start)] != UInt8(ascii: "/") { start = utf8.index(before: start) }
        return String(path[start..<end])
    }

    /// A file's or folder's name as a title, as mkdocs makes one for a page without a title
    /// or a folder without an index: `-` and `_` as spaces, and the first letter a capital
    /// when the name is all lowercase (`how-to` → "How to", `API_v2` → "API v2").
    package static func title(ofName name: String) -> String {
        let spaced = String(name.map { $0 == "-" || $0 == "_" ? " " : $0 })
        guard spaced == spaced.lowercased(), let first = spaced.first else { return spaced }
        return first.uppercased() + spaced.dropFirst()
    }

    /// The path without the extension of its last component.
    package static func deletingExtension(_ path: String) -> String {
        let ext = fileExtension(path)
        return ext.isEmpty ? path : String(decoding: path.utf8.dropLast(ext.utf8.count + 1), as: UTF8.self)
    }
}
