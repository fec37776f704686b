import Dispatch

/// What one page of a graph or vault says, read line by line before any page is converted
/// (for `WikiIndex`): its own names, its block ids, the names it links to, what it may
/// embed and its tags; and where a tag ends, as the scan and the page's links read it.
enum WikiPageScan {
    typealias Scan = (names: [String], blocks: [(String, String)], links: [String], embeds: [String], tags: [String])

    /// `scan` of each page of `inputs` (absolute paths), in their order, read by `workers`
    /// threads at once; nil for a page that cannot be read.
    static func scan(_ inputs: [String], app: WikiIndex.App, workers: Int) -> [Scan?] {
        let scans = Scans(count: inputs.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, inputs.count))) { _ in
            while let index = scans.next() {
                let text = try? Files.read(inputs[index], limit: 64 << 20)
                scans.set(index, text.map { scan(String(decoding: SourceText.normalizingLineEndings($0), as: UTF8.self), app: app) })
            }
        }
        return scans.all
    }

    /// The pages' scans as the workers make them.
    private final class Scans: @unchecked Sendable {
        // (Unchecked: both fields are used under `lock` only.)
        private let lock = Lock()
        private var taken = 0
        private var scans: [Scan?]

        init(count: Int) { scans = Array(repeating: nil, count: count) }

        /// The index of a page no worker has taken yet, if any.
        func next() -> Int? {
            lock.withLock {
                guard taken < scans.count else { return nil }
                taken += 1
                return taken - 1
            }
        }

        func set(_ index: Int, _ scan: Scan?) { lock.withLock { scans[index] = scan } }

        var all: [Scan?] { lock.withLock { scans } }
    }

    /// What a page says of itself and of others: its own names (`title::` and `alias::`
    /// among its first properties, `aliases:` in front matter), its block ids with the
    /// title line of their item, the names it links to (`[[name]]`, `#[[name]]`, `#name`),
    /// outside fenced code, and what it may embed: the names linked to and the block ids
    /// (as `((id`) on lines with an embed.
    static func scan(_ text: String, app: WikiIndex.App) -> Scan {
        var names: [String] = []
        var blocks: [(String, String)] = []
        var links: [String] = []
        var embeds: [String] = []
        var tags: [String] = []
        var lastItem = ""
        var atTop = true
        var lines = text.splitLines()[...]
        let frontMatter = FrontMatter.atTop(of: Array(lines.prefix(20_000)))
        names += ["aliases", "alias"].flatMap(frontMatter.list)
        tags += ["tags", "tag"].flatMap(frontMatter.list).map { String($0.drop { $0 == "#" }) }.filter { !$0.isEmpty }
        lines = lines.dropFirst(frontMatter.lineCount)
        var fence: Fence?
        var orgCode: String?
        for line in lines {
            let (_, content) = OutlinerMarkdownParser.indentation(of: line)
            let itemText = OutlinerMarkdownParser.itemText(content)
            if let open = fence {
                if open.isClosed(by: content) { fence = nil }
                continue
            }
            fence = Fence(opening: itemText ?? content)
            if fence != nil { continue }
            // Logseq's blocks of code (`#+BEGIN_QUERY` … `#+END_QUERY`, see LogseqBlockExtension).
            let head = itemText ?? content
            let start = head.utf8.first == UInt8(ascii: "#") ? head.prefix(20).lowercased() : ""
            if let open = orgCode {
                if start.hasPrefix("#+end_" + open) { orgCode = nil }
                continue
            }
            if start.hasPrefix("#+begin_") {
                let name = String(start.dropFirst(8).prefix { $0.isLetter })
                if LogseqBlockExtension.isCode(name) {
                    orgCode = name
                    continue
                }
            }
            let (linked, tagged) = linkedNames(in: content, app: app)
            links += linked
            tags += tagged
            if content.containsByte(UInt8(ascii: "{")) || content.containsByte(UInt8(ascii: "!")), case let bytes = Array(content.utf8)[...],
                bytes.contains(bytes: "{{embed") || bytes.contains(bytes: "![[")
            {
                embeds += linked
                embeds += content.split(separator: "((").dropFirst().map { "((" + $0.prefix(36).lowercased() }
            }
            if let item = itemText {
                lastItem = String(item)
                if !item.contains(bytes: "::") || OutlinerMarkdownParser.property(item) == nil { atTop = false }
            }
            // (Most lines have no `::`: a byte search rules them out.)
            guard content.contains(bytes: "::"), let (key, value) = OutlinerMarkdownParser.property(itemText ?? content) else {
                if !content.isEmpty && itemText == nil { atTop = false }
                continue
            }
            switch key.lowercased() {
            case "title" where atTop: names.append(value)
            case "alias" where atTop: names += aliases(value)
            case "tags":
                // (`tags:: #a, [[b]]`: each a tag, its `#` aside.)
                let named = aliases(value).map { String($0.drop { $0 == "#" }) }.filter { !$0.isEmpty }
                links += named
                tags += named
            case "id": blocks.append((value.lowercased(), lastItem))
            default: break
            }
        }
        return (names, blocks, links, embeds, tags)
    }

    /// The names a line links to: `[[name]]` (without its `|label` or `#heading`), and
    /// `#name` or `#[[name]]`, which are also its tags.
    private static func linkedNames(in line: Substring, app: WikiIndex.App) -> (names: [String], tags: [String]) {
        // (By bytes: every line of the graph is read before any page is converted; most
        // have neither byte, which memchr says without a copy.)
        guard line.containsByte(UInt8(ascii: "[")) || line.containsByte(UInt8(ascii: "#")) else { return ([], []) }
        let bytes = line.bytes
        var names: [String] = []
        var tags: [String] = []
        var labels = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "["), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "]") && bytes[end + 1] == UInt8(ascii: "]")),
                    !(bytes[end] == UInt8(ascii: "[") && bytes[end + 1] == UInt8(ascii: "["))
                {
                    end += 1
                }
                guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "]") else {
                    index += 2
                    continue
                }
                let inner = bytes[(index + 2)..<end]
                let name = String(decoding: inner.prefix { $0 != UInt8(ascii: "|") && $0 != UInt8(ascii: "#") }, as: UTF8.self).trimmed
                if !name.isEmpty { names.append(name) }
                if !name.isEmpty, index > 0, bytes[index - 1] == UInt8(ascii: "#"), app == .logseq { tags.append(name) }
                index = end + 2
            } else if bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "]") {
                // (A link's label, `[text](url)`, is not a tag's place.)
                labels = max(labels + (bytes[index] == UInt8(ascii: "[") ? 1 : -1), 0)
                index += 1
            } else if bytes[index] == UInt8(ascii: "#"), labels == 0, index == 0 || bytes[index - 1] == .space || bytes[index - 1] == .tab {
                let end = app == .logseq ? Self.tagEnd(bytes, at: index) : Self.obsidianTagEnd(bytes, at: index)
                if end > index + 1 {
                    tags.append(String(decoding: bytes[(index + 1)..<end], as: UTF8.self))
                    // (A Logseq tag is a link to the page of that name; an Obsidian tag is no note's.)
                    if app == .logseq { names.append(tags[tags.count - 1]) }
                }
                index = max(end, index + 1)
            } else if bytes[index] == UInt8(ascii: "`") {
                // A code span holds no link: on to the run of as many backticks that ends it.
                let run = bytes[index...].prefix { $0 == UInt8(ascii: "`") }.count
                var end = index + run
                while end < bytes.count {
                    let closing = bytes[end...].prefix { $0 == UInt8(ascii: "`") }.count
                    if closing == run { break }
                    end += max(closing, 1)
                }
                index = end < bytes.count ? end + run : index + run
            } else {
                index += 1
            }
        }
        return (names, tags)
    }

    /// Where the `#tag` at `index` of `bytes` ends (Logseq's rule: up to a space or
    /// punctuation); `index + 1` when no tag starts there (`#+BEGIN_…`, `##`, `#[[tag]]`,
    /// which is read as a link).
    static func tagEnd(_ bytes: [UInt8], at index: Int) -> Int {
        var end = index + 1
        guard end < bytes.count, bytes[end] != UInt8(ascii: "+") else { return end }
        while end < bytes.count, !endsTag.contains(bytes[end]) { end += 1 }
        return end
    }

    /// Where Obsidian's `#tag` at `index` of `bytes` ends: letters, digits, `_`, `-`, `/` and
    /// any other Unicode, at least one of them not a digit; `index + 1` when none starts there.
    static func obsidianTagEnd(_ bytes: [UInt8], at index: Int) -> Int {
        var end = index + 1
        var named = false
        while end < bytes.count {
            let byte = bytes[end]
            guard
                byte.isASCIILetter || byte.isASCIIDigit || byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "/")
            else { break }
            named = named || !byte.isASCIIDigit
            end += 1
        }
        return named ? end : index + 1
    }

    private static let endsTag: Set<UInt8> = Set(" \t\n#[](){},.;:!?\"'`*".utf8)

    /// `alias:: a, [[b c]]` as its names.
    private static func aliases(_ value: String) -> [String] {
        value.split(separator: ",").map { WikiLinks.plainText(String($0)).trimmed }.filter { !$0.isEmpty }
    }
}
