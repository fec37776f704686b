/// A URL reference resolved against a base URL, by RFC 3986 §5.2 (as Python's `urljoin`
/// joins what mkdocs joins: a repository's address and a page's edit path).
enum URLReference {
    /// `reference` resolved against `base` (an absolute URL); `reference` itself when it has
    /// a scheme or `base` is empty.
    static func resolve(_ reference: String, against base: String) -> String {
        guard !base.isEmpty, !SiteLinks.hasScheme(reference), let colon = base.firstIndex(of: ":") else { return reference }
        let scheme = base[..<colon]
        var rest = base[base.index(after: colon)...]
        var authority: Substring = ""
        if rest.hasPrefix("//") {
            let end = rest.dropFirst(2).firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            authority = rest[..<end]
            rest = rest[end...]
        }
        let basePath = rest.prefix { $0 != "?" && $0 != "#" }
        let baseQuery = rest.dropFirst(basePath.count).prefix { $0 != "#" }
        let prefix = String(scheme) + ":" + authority
        if reference.hasPrefix("//") { return scheme + ":" + reference }
        if reference.hasPrefix("#") { return prefix + basePath + baseQuery + reference }
        if reference.hasPrefix("?") { return prefix + basePath + reference }
        let path = reference.prefix { $0 != "?" && $0 != "#" }
        let tail = reference.dropFirst(path.count)
        if path.isEmpty { return prefix + basePath + (tail.isEmpty ? baseQuery : "") + tail }
        var merged = String(path)
        if !path.hasPrefix("/") {
            // (Below the base's folder: its path up to its last `/`, or `/` when it has none.)
            let end = basePath.lastIndex(of: "/").map(basePath.index(after:)) ?? basePath.startIndex
            merged = (basePath.isEmpty && !authority.isEmpty ? "/" : String(basePath[..<end])) + merged
        }
        return prefix + withoutDotSegments(merged) + tail
    }

    /// RFC 3986 §5.2.4: `.` and `..` segments taken out of a path.
    private static func withoutDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment == "." {
                if isLast { output.append("") }
            } else if segment == ".." {
                if output.count > 1 { output.removeLast() }
                if isLast { output.append("") }
            } else {
                output.append(segment)
            }
        }
        return output.joined(separator: "/")
    }
}
