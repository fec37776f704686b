/// The site search's index, `outline-site/search.js` (docs/sites.md): a call
/// `outlineSiteSearch([…])` with one line per page in reading order,
/// `[page number in nav.js, [[id, title, text], …], "page URL"]`. A rerun rebuilds it from
/// the pages it converted and, for the others, the lines of the index it wrote last time
/// (read back when the build record says it is as it was left); when no page was
/// converted and the navigation is the same, it is not rebuilt at all
/// (`BatchRunner.writeSearchIndex`).
struct SearchIndex {
    /// Each page's part, by its URL from the output folder: its sections as a JSON array.
    private(set) var parts: [String: [UInt8]] = [:]

    /// The parts of the index at `path`, written by an earlier run (none when there is no
    /// such file, or a line is not one of ours).
    init(previous path: String?) {
        guard let path, let bytes = try? Files.read(path, limit: 1 << 32) else { return }
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        for var line in bytes.split(separator: .lineFeed).dropFirst() {
            if line.last == comma { line.removeLast() }
            // `[N,part,"url"]`: the URL (percent-encoded: no quote in it) is after the last `,"`.
            guard line.count > 4, line.first == UInt8(ascii: "["), line.last == UInt8(ascii: "]"),
                let numberEnd = line.firstIndex(of: comma),
                let urlStart = line.lastIndex(of: quote).flatMap({ end in
                    line[..<end].lastIndex(of: quote)
                }), urlStart - 1 > numberEnd, line[urlStart - 1] == comma
            else { continue }
            let url = String(decoding: line[(urlStart + 1)..<(line.endIndex - 2)], as: UTF8.self)
            parts[url] = Array(line[(numberEnd + 1)..<(urlStart - 1)])
        }
    }

    /// Sets the part of the page at `url` (empty: no section).
    mutating func set(_ part: [UInt8], for url: String) {
        parts[url] = part.isEmpty ? Array("[]".utf8) : part
    }

    /// `search.js` for `navigation`.
    func script(navigation: SiteNavigation) -> [UInt8] {
        var js = ByteBuffer()
        js.write("outlineSiteSearch([" as StaticString)
        var first = true
        for number in navigation.readingOrder {
            let url = navigation.pages[number].href
            guard let part = parts[url] else { continue }
            js.write(first ? "\n[" : ",\n[")
            first = false
            js.write(String(number))
            js.write("," as StaticString)
            js.write(part)
            js.write("," as StaticString)
            JSONEmitter.quote(url, into: &js)
            js.write("]" as StaticString)
        }
        js.write("\n]);\n" as StaticString)
        return js.finish()
    }
}

/// A page's part of the site search's index, collected as the page is written: each
/// section's id, title and the text of its body's HTML (tags dropped, character references
/// decoded, each run of white space one space), and its title's HTML when it has markup
/// (`NavigationTitle`), as a JSON array of `[id, title, text]` or `[id, title, text, html]`
/// (on one line: JSON escapes line breaks). The text of closed sections and blocks is in
/// the HTML too. One page is written by one thread.
final class SearchText: @unchecked Sendable {
    private var json = ByteBuffer()
    private var current: (id: String, title: String, html: String?)?
    /// The page's title (the text before the first section's), and its HTML when the first
    /// section titles the page and has markup.
    private var pageTitle: String?
    private(set) var pageTitleHTML: String?
    private var text: [UInt8] = []
    /// Whether a space is owed before the next character.
    private var space = false

    package init() {}

    /// Starts the section `id` (`""`: the text before the first section) titled `title`
    /// (`html`: as the navigation shows it, when it has markup).
    func begin(id: String, title: String, html: String? = nil) {
        end()
        if id.isEmpty, pageTitle == nil {
            pageTitle = title
        } else if let first = pageTitle, !first.isEmpty {
            if title == first { pageTitleHTML = html }
            pageTitle = ""  // (only the first section may title the page)
        }
        current = (id, title, html)
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
            if byte == UInt8(ascii: "<") {
                // A tag or a comment, dropped.
                let isComment = index + 3 < html.count && html[index + 1] == UInt8(ascii: "!") && html[index + 2] == UInt8(ascii: "-")
                let end =
                    isComment
                    ? html.firstIndex(of: Self.commentEnd, from: index + 4).map { $0 + 2 }
                    : html.firstIndex(ofByte: UInt8(ascii: ">"), from: index + 1)
                index = (end ?? html.count - 1) + 1
                continue
            }
            if Self.isSpace(byte) {
                space = !text.isEmpty
                index += 1
                continue
            }
            if space { text.append(.space) }
            space = false
            if byte == UInt8(ascii: "&"),
                let (length, reference) = CharacterReference.decode(
                    ArraySlice(UnsafeBufferPointer(rebasing: html[index..<min(index + 32, html.count)])))
            {
                text += reference.utf8
                index += length
                continue
            }
            // (A run of text up to the next tag, reference or space is copied at once.)
            var end = index + 1
            while end < html.count, !Self.endsText(html[end]) { end += 1 }
            text += UnsafeBufferPointer(rebasing: html[index..<end])
            index = end
        }
    }

    private static let commentEnd = Array("-->".utf8)

    /// Whether `byte` is white space between words (a run of it is one space in the text).
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .lineFeed || byte == .tab || byte == .carriageReturn
    }

    /// Whether `byte` ends a run of text: a tag, a character reference or a space starts.
    private static func endsText(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || isSpace(byte)
    }

    /// Ends the current section: its entry, unless it is the text before the first
    /// section (id `""`) and there is none.
    private func end() {
        if let current, !(current.id.isEmpty && text.isEmpty) {
            json.write(json.isEmpty ? "[[" : ",[")
            JSONEmitter.quote(current.id, into: &json)
            json.write("," as StaticString)
            JSONEmitter.quote(current.title, into: &json)
            json.write("," as StaticString)
            text.withUnsafeBufferPointer { JSONEmitter.quote($0, into: &json) }  // (UTF-8: cut from the page's HTML at tags)
            if let html = current.html {
                json.write("," as StaticString)
                JSONEmitter.quote(html, into: &json)
            }
            json.write("]" as StaticString)
        }
        current = nil
        text.removeAll(keepingCapacity: true)
        space = false
    }

    /// The page's part of the index; empty when it has no section (`SearchIndex.set`).
    func finish() -> [UInt8] {
        end()
        var done = ByteBuffer()
        swap(&done, &json)
        if !done.isEmpty { done.write("]" as StaticString) }
        return done.finish()
    }
}
