/// The site search's index, `outline-site/search.js` (docs/sites.md): a call
/// `outlineSiteSearch([…])` with one line per page in reading order,
/// `[page number in nav.js, [[id, title, text], …]]`. Each page's part is kept in a file
/// beside the build record, so that a rerun rebuilds the index without reading unchanged
/// pages again; a rerun in which no page was converted and the navigation is the same does
/// not rebuild it at all (`BatchRunner.writeSearchIndex`).
package struct SearchIndex {
    /// Each page's part, by input path: its sections as a JSON array.
    private(set) var parts: [String: String] = [:]

    /// The parts kept at `path` (none when it cannot be read).
    package init(cacheFile path: String?) {
        guard let path, let bytes = try? Files.read(path, limit: 1 << 32) else { return }
        for line in bytes.split(separator: UInt8.lineFeed) {
            guard let tab = line.firstIndex(of: .tab) else { continue }
            parts[BuildRecord.unescaped(line[..<tab])] = String(decoding: line[(tab + 1)...], as: UTF8.self)
        }
    }

    /// A page's part: its sections as a JSON array of `[id, title, text]` (on one line:
    /// JSON escapes line breaks).
    static func part(of sections: [PageFacts.SearchSection]) -> String {
        var json = ByteBuffer()
        json.write("[" as StaticString)
        for (index, section) in sections.enumerated() {
            json.write(index == 0 ? "[" : ",[")
            JSONEmitter.quote(section.id, into: &json)
            json.write("," as StaticString)
            JSONEmitter.quote(section.title, into: &json)
            json.write("," as StaticString)
            JSONEmitter.quote(section.text, into: &json)
            json.write("]" as StaticString)
        }
        json.write("]" as StaticString)
        return String(decoding: json.finish(), as: UTF8.self)
    }

    /// Sets the part of the page read from `input`.
    mutating func set(_ part: String, for input: String) {
        parts[input] = part
    }

    /// `search.js` for `navigation`, each page's part found by `input(of:)` (its input).
    func script(navigation: SiteNavigation, input: (Int) -> String?) -> [UInt8] {
        var js = ByteBuffer()
        js.write("outlineSiteSearch([" as StaticString)
        var first = true
        for number in navigation.readingOrder {
            guard let input = input(number), let part = parts[input] else { continue }
            js.write(first ? "\n[" : ",\n[")
            first = false
            js.write(String(number))
            js.write("," as StaticString)
            js.write(part)
            js.write("]" as StaticString)
        }
        js.write("\n]);\n" as StaticString)
        return js.finish()
    }

    /// Keeps the parts at `path`.
    func save(to path: String, temporaries: TemporaryFiles) {
        var text = ByteBuffer()
        for input in parts.keys.sorted() {
            text.write(BuildRecord.escaped(input))
            text.write("\t" as StaticString)
            text.write(parts[input] ?? "[]")
            text.write("\n" as StaticString)
        }
        _ = try? Files.write(text.finish(), to: path, temporaries: temporaries)
    }
}

/// A page's sections for the site search, collected as the page is written: each
/// section's title and the text of its body's HTML (tags dropped, character references
/// decoded, each run of white space one space). The text of closed sections and blocks is
/// in the HTML too. One page is written by one thread.
package final class SearchText: @unchecked Sendable {
    private var sections: [PageFacts.SearchSection] = []
    private var current: (id: String, title: String)?
    private var text: [UInt8] = []
    /// Whether a space is owed before the next character.
    private var space = false

    package init() {}

    /// Starts the section `id` (`""`: the text before the first section) titled `title`.
    func begin(id: String, title: String) {
        end()
        current = (id, title)
    }

    /// Adds the text of `html`, a whole number of elements.
    func append(html: UnsafeBufferPointer<UInt8>) {
        // (On locals: a class's stored properties are checked for exclusive access at each use.)
        var text: [UInt8] = []
        swap(&text, &self.text)
        var space = self.space
        defer {
            swap(&text, &self.text)
            self.space = space
        }
        var index = 0
        while index < html.count {
            let byte = html[index]
            var decoded: String?
            if byte == UInt8(ascii: "<") {
                // A tag or a comment, dropped.
                let isComment = index + 3 < html.count && html[index + 1] == UInt8(ascii: "!") && html[index + 2] == UInt8(ascii: "-")
                let end =
                    isComment
                    ? html.firstIndex(of: Self.commentEnd, from: index + 4).map { $0 + 2 }
                    : html.firstIndex(ofByte: UInt8(ascii: ">"), from: index + 1)
                index = (end ?? html.count - 1) + 1
                continue
            } else if byte == .space || byte == .lineFeed || byte == .tab || byte == .carriageReturn {
                space = !text.isEmpty
                index += 1
                continue
            } else if byte == UInt8(ascii: "&"),
                let (length, reference) = CharacterReference.decode(
                    ArraySlice(UnsafeBufferPointer(rebasing: html[index..<min(index + 32, html.count)])))
            {
                decoded = reference
                index += length
            } else {
                index += 1
            }
            if space { text.append(.space) }
            space = false
            if let decoded { text += decoded.utf8 } else { text.append(byte) }
        }
    }

    private static let commentEnd = Array("-->".utf8)

    private func end() {
        if let current { sections.append(PageFacts.SearchSection(id: current.id, title: current.title, text: String(decoding: text, as: UTF8.self))) }
        current = nil
        text.removeAll(keepingCapacity: true)
        space = false
    }

    /// The page's sections; the text before the first section only when there is some.
    func finish() -> [PageFacts.SearchSection] {
        end()
        if let first = sections.first, first.id.isEmpty, first.text.isEmpty { sections.removeFirst() }
        return sections
    }
}
