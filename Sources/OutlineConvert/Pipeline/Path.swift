/// Path helpers on plain strings (Foundation's NSString ones are slow on Linux, and a batch
/// calls them for every file).
package enum Path {
    /// `a/b` from `a` and `b` (no doubled `/`).
    static func join(_ directory: String, _ name: String) -> String {
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
    static func deletingExtension(_ path: String) -> String {
        let ext = fileExtension(path)
        return ext.isEmpty ? path : String(decoding: path.utf8.dropLast(ext.utf8.count + 1), as: UTF8.self)
    }
}

extension Path {
    /// Whether two paths are the same bytes. Linux names are bytes, while `String`'s `==`
    /// is Unicode canonical equivalence: "café" in NFC and in NFD are equal strings but two
    /// files, so paths are never compared with `==`.
    static func same(_ first: String, _ second: String) -> Bool {
        first.hasSameBytes(as: second)
    }

    /// Whether `path` is `folder` or lies below it (both absolute and normalized), by bytes.
    static func isWithin(_ path: String, _ folder: String) -> Bool {
        guard path.startsWithBytes(of: folder) else { return false }
        let (path, folder) = (path.utf8, folder.utf8)
        if path.count == folder.count || folder.last == UInt8(ascii: "/") { return true }
        return path[path.index(path.startIndex, offsetBy: folder.count)] == UInt8(ascii: "/")
    }

    /// `path` with `folder` and its `/` taken off the front, by bytes; nil when `path` is
    /// not below `folder`.
    static func relative(_ path: String, below folder: String) -> String? {
        guard isWithin(path, folder), !same(path, folder) else { return nil }
        let skip = folder.utf8.count + (folder.utf8.last == UInt8(ascii: "/") ? 0 : 1)
        return String(decoding: path.utf8.dropFirst(skip), as: UTF8.self)
    }
}

/// A path as a dictionary key or set member, compared by its bytes (see `Path.same`).
struct PathKey: Hashable, Sendable {
    private let bytes: [UInt8]

    /// The key of `path`.
    package init(_ path: String) { bytes = Array(path.utf8) }

    // (The bytes hashed at once: hashing an array hashes it a byte at a time.)
    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
