/// Percent-encoding of URL path segments, and relative URLs between absolute paths, by
/// bytes (a site makes one for every link and back-link).
struct PercentEncoding: Sendable {
    /// Whether each byte value is kept as it is.
    private let kept: [Bool]

    /// An encoding that keeps ASCII letters, digits and the bytes of `others`.
    private init(keeping others: String) {
        var kept = [Bool](repeating: false, count: 256)
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { kept[Int(byte)] = true }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { kept[Int(byte)] = true }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { kept[Int(byte)] = true }
        for byte in others.utf8 { kept[Int(byte)] = true }
        self.kept = kept
    }

    /// RFC 3986's unreserved bytes only: what docs sites' own paths are written with.
    static let unreserved = PercentEncoding(keeping: "-._~")
    /// What a path segment may hold as it is (RFC 3986 `pchar`) but `:`, which would make
    /// a relative URL's first segment read as a scheme (`javascript:x.md`): wiki links keep
    /// the names' punctuation readable.
    static let pathSegment = PercentEncoding(keeping: "-._~!$&'*+,;=@")
    /// What may stand in a quoted string of CSS or script inside HTML as it is: a URL's own
    /// punctuation, not the bytes that could end the string or the element (`"`, `'`, `\`,
    /// `<`, `>`, spaces, controls), which a URL reads the same percent-encoded.
    static let quotable = PercentEncoding(keeping: "-._~:/?#[]@!$&()*+,;=%")
    /// What Python's `urllib.parse.quote` keeps (its `safe` is `/`): pymdownx's encoded slugs.
    static let pythonQuote = PercentEncoding(keeping: "-._~/")
    /// What cmark keeps as it is when it writes a URL (houdini's `escape_href`, where `&`
    /// and `'` are then written as HTML references).
    static let href = PercentEncoding(keeping: "-_.+!*'(),%#@?=;:/$~&")

    /// `bytes` as cmark writes a URL in HTML (houdini's `escape_href`): the bytes `href`
    /// keeps as they are, `&` and `'` as HTML references, the rest percent-encoded.
    static func escapedHref(_ bytes: some Sequence<UInt8>) -> String {
        var result: [UInt8] = []
        appendEscapedHref(bytes, to: &result)
        return String(decoding: result, as: UTF8.self)
    }

    /// `escapedHref(bytes)` appended to `result`.
    static func appendEscapedHref(_ bytes: some Sequence<UInt8>, to result: inout [UInt8]) {
        var encoded: [UInt8] = []
        href.append(bytes, to: &encoded)
        for byte in encoded {
            switch byte {
            case UInt8(ascii: "&"): result += "&amp;".utf8
            case UInt8(ascii: "'"): result += "&#x27;".utf8
            default: result.append(byte)
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `bytes`, each byte this encoding does not keep written as `%XX`, appended to `result`.
    func append(_ bytes: some Sequence<UInt8>, to result: inout [UInt8]) {
        for byte in bytes {
            if kept[Int(byte)] {
                result.append(byte)
            } else {
                result.append(UInt8(ascii: "%"))
                result.append(Self.hexDigits[Int(byte >> 4)])
                result.append(Self.hexDigits[Int(byte & 15)])
            }
        }
    }

    /// `text` percent-encoded.
    func encoded(_ text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        append(text.utf8, to: &result)
        return String(decoding: result, as: UTF8.self)
    }

    /// An absolute path's components, as bytes.
    static func components(of path: String) -> [ArraySlice<UInt8>] {
        Array(path.utf8).split(separator: UInt8(ascii: "/"))
    }

    /// The folder of the file `path` (absolute), as `components`.
    static func folder(of path: String) -> [ArraySlice<UInt8>] {
        Array(components(of: path).dropLast())
    }

    /// The relative URL from the folder whose components are `folder` to the file `file`
    /// (absolute), each segment encoded, with `fragment` (encoded) if any.
    func relativeURL(from folder: [ArraySlice<UInt8>], to file: String, fragment: String? = nil) -> String {
        let bytes = Array(file.utf8)
        // The file's components, as ranges of its bytes.
        var parts: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            let start = index
            while index < bytes.count && bytes[index] != UInt8(ascii: "/") { index += 1 }
            if index > start { parts.append(start..<index) }
            index += 1
        }
        var common = 0
        while common < folder.count && common < parts.count - 1 && folder[common].elementsEqual(bytes[parts[common]]) { common += 1 }
        var url: [UInt8] = []
        url.reserveCapacity(bytes.count + 3 * (folder.count - common) + (fragment?.utf8.count ?? 0) + 8)
        for _ in common..<folder.count { url.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "."), UInt8(ascii: "/")]) }
        for number in common..<max(common, parts.count) {
            if number > common { url.append(UInt8(ascii: "/")) }
            append(bytes[parts[number]], to: &url)
        }
        if let fragment {
            url.append(UInt8(ascii: "#"))
            append(fragment.utf8, to: &url)
        }
        return String(decoding: url, as: UTF8.self)
    }
}
