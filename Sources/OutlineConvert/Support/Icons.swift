internal import CZlib

/// The icon sets mkdocs-material bundles — Material Design Icons, Font Awesome Free,
/// Octicons, Simple Icons — by their shortcodes' names (`material-check`,
/// `fontawesome-brands-github`), as `Templates/icons/` holds them (`scripts/vendor-icons`):
/// `names.txt` the names, sorted; `icons.txt` the icons in that order, in chunks of about
/// 8 KB, each compressed on a line of its own. Whether a name is an icon's costs a search of
/// the names; its SVG, the inflation of one chunk, once a document (`IconChunks`). The binary
/// carries 5 MB, not 10.
enum Icons {
    /// The sets, by the first word of their icons' names, with the names they go by.
    static let sets = [
        "material": "Material Design Icons", "fontawesome": "Font Awesome Free", "octicons": "Octicons", "simple": "Simple Icons",
    ]

    /// A chunk, by where its parts are in `icons.txt`'s UTF-8: the name of its first icon,
    /// its data (base64 of zlib), and its size inflated.
    fileprivate struct Chunk {
        let first: Range<Int>
        let data: Range<Int>
        let size: Int
    }

    /// Calls `body` with the UTF-8 of a file of `Templates/icons/` (a literal's: no copy).
    fileprivate static func withFile<Result>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = EmbeddedTemplates.files["icons/" + name] ?? ""
        return text.withUTF8(body)
    }

    /// Where each name of `names.txt` is, in their order.
    private static let names: [Range<Int>] = withFile("names.txt") { bytes in
        var names: [Range<Int>] = []
        names.reserveCapacity(16384)
        var start = 0
        while start < bytes.count {
            let end = bytes.firstIndex(ofByte: .lineFeed, from: start) ?? bytes.count
            names.append(start..<end)
            start = end + 1
        }
        return names
    }

    /// The chunks, in the order of their names' bytes: a line each, after the first (which
    /// names the sets' source and counts).
    fileprivate static let chunks: [Chunk] = withFile("icons.txt") { bytes in
        var chunks: [Chunk] = []
        var start = (bytes.firstIndex(ofByte: .lineFeed) ?? bytes.count) + 1
        while start < bytes.count {
            let end = bytes.firstIndex(ofByte: .lineFeed, from: start) ?? bytes.count
            if let tab = bytes.firstIndex(ofByte: .tab, from: start), tab < end,
                let second = bytes.firstIndex(ofByte: .tab, from: tab + 1), second < end,
                let size = Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[(tab + 1)..<second]), as: UTF8.self))
            {
                chunks.append(Chunk(first: start..<tab, data: (second + 1)..<end, size: size))
            }
            start = end + 1
        }
        return chunks
    }

    /// Whether `name` (UTF-8) names an icon of a set.
    static func isIcon(_ name: some Collection<UInt8>) -> Bool {
        guard let dash = name.firstIndex(of: UInt8(ascii: "-")), sets[String(decoding: name[..<dash], as: UTF8.self)] != nil else {
            return false
        }
        let names = names
        return withFile("names.txt") { bytes in
            let index = lastIndex(in: names.count) { !name.lexicographicallyPrecedes(bytes[names[$0]]) }
            return index.map { bytes[names[$0]].elementsEqual(name) } ?? false
        }
    }

    /// The last index below `count` for which `isAtOrBefore` holds (it holds for a prefix of
    /// the indices); nil when it holds for none.
    fileprivate static func lastIndex(in count: Int, where isAtOrBefore: (Int) -> Bool) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    /// A chunk's lines, from its `data`; nil if that is damaged (it never is: the build
    /// embeds it).
    fileprivate static func inflated(_ data: UnsafeBufferPointer<UInt8>, size: Int) -> [UInt8]? {
        guard let compressed = decodedBase64(data) else { return nil }
        var lines = [UInt8](repeating: 0, count: size)
        var length = uLongf(size)
        let status = compressed.withUnsafeBufferPointer { input in
            lines.withUnsafeMutableBufferPointer { output in
                uncompress(output.baseAddress, &length, input.baseAddress, uLong(input.count))
            }
        }
        return status == Z_OK && Int(length) == size ? lines : nil
    }

    /// The bytes of base64 `text` (padded, no line breaks); nil for any other text.
    static func decodedBase64(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var group: UInt32 = 0
        var count = 0
        var padding = 0
        for character in text {
            let value: UInt32
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="):
                value = 0
                padding += 1
            default: return nil
            }
            guard padding == 0 || character == UInt8(ascii: "=") else { return nil }
            group = group << 6 | value
            count += 1
            if count == 4 {
                bytes.append(UInt8(truncatingIfNeeded: group >> 16))
                bytes.append(UInt8(truncatingIfNeeded: group >> 8))
                bytes.append(UInt8(truncatingIfNeeded: group))
                group = 0
                count = 0
            }
        }
        guard padding <= 2 else { return nil }
        return Array(bytes.dropLast(padding))
    }
}

/// The icons a document or a build draws: the bundled sets' (each chunk inflated once,
/// however many of its icons are shown) and a project's own (`custom_icons`: each SVG file
/// read once), which go first, as mkdocs-material's index puts them.
final class IconStore: @unchecked Sendable, Equatable {
    private let lock = Lock()
    private var inflated: [Int: [UInt8]] = [:]
    /// A project's own icons: each name's file.
    private let custom: [String: String]
    private var read: [String: String] = [:]
    /// What tells a project's own icons apart, for the build record: their names, files,
    /// sizes and times.
    let fingerprint: String
    /// What every shortcode of an icon starts with: `:material-`, …, and `:name-` or
    /// `:name:` for a project's own (by the first word of their names).
    let openers: [String]

    /// Whether a project's icons are shown as their files are, not made safe first.
    private let raw: Bool

    /// The bundled sets, and `custom` (each name's SVG file, as `CustomIcons` finds them),
    /// shown `raw` or made safe (`CustomIcons.shown`).
    init(custom: [String: String] = [:], fingerprint: String = "", raw: Bool = false) {
        self.custom = custom
        self.raw = raw
        self.fingerprint = fingerprint
        let words = Set(custom.keys.map { name in name.firstIndex(of: "-").map { String(name[...$0]) } ?? name + ":" })
        openers = (Icons.sets.keys.map { $0 + "-" } + words.sorted()).map { ":" + $0 }
    }

    /// Any two stores with the same project's icons give the same icons.
    static func == (a: IconStore, b: IconStore) -> Bool { a.fingerprint == b.fingerprint }

    /// Whether `name` (UTF-8) names an icon.
    func isIcon(_ name: some Collection<UInt8>) -> Bool {
        (!custom.isEmpty && custom[String(decoding: name, as: UTF8.self)] != nil) || Icons.isIcon(name)
    }

    /// The SVG of the icon `name` (UTF-8) names; nil when there is none (or a project's
    /// own cannot be read: its shortcode stays text).
    func svg(named name: [UInt8]) -> String? {
        if !custom.isEmpty, let file = custom[String(decoding: name, as: UTF8.self)] { return customSVG(file) }
        guard Icons.isIcon(name) else { return nil }
        let chunks = Icons.chunks
        let found: (index: Int, chunk: Icons.Chunk)? = Icons.withFile("icons.txt") { bytes in
            Icons.lastIndex(in: chunks.count) { !name.lexicographicallyPrecedes(bytes[chunks[$0].first]) }.map { ($0, chunks[$0]) }
        }
        guard let found, let lines = lines(of: found.index, found.chunk) else { return nil }
        // Each line: the name, a tab, the SVG.
        let prefix = name + [.tab]
        return lines.withUnsafeBufferPointer { lines in
            var start = 0
            while start < lines.count {
                let end = lines.firstIndex(ofByte: .lineFeed, from: start) ?? lines.count
                if end - start > prefix.count, lines[start..<(start + prefix.count)].elementsEqual(prefix) {
                    return String(decoding: UnsafeBufferPointer(rebasing: lines[(start + prefix.count)..<end]), as: UTF8.self)
                }
                start = end + 1
            }
            return nil
        }
    }

    /// A project's icon file's SVG, read now or before (at most 1 MiB, a regular file).
    private func customSVG(_ file: String) -> String? {
        if let svg = lock.withLock({ read[file] }) { return svg }
        guard let bytes = try? Files.read(file, limit: 1 << 20), let svg = CustomIcons.shown(bytes, raw: raw) else { return nil }
        lock.withLock { read[file] = svg }
        return svg
    }

    /// Chunk `index`'s lines, inflated now or before.
    private func lines(of index: Int, _ chunk: Icons.Chunk) -> [UInt8]? {
        if let lines = lock.withLock({ inflated[index] }) { return lines }
        let lines = Icons.withFile("icons.txt") { bytes in Icons.inflated(UnsafeBufferPointer(rebasing: bytes[chunk.data]), size: chunk.size) }
        if let lines { lock.withLock { inflated[index] = lines } }
        return lines
    }
}
