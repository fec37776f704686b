/// Gives items their plain titles: every title line is read by cmark as a heading's text,
/// all of a page's in one parse. A line whose text is its plain title escaped as the
/// Markdown writer escapes it needs nothing more; any other keeps its source in
/// `outline-title` (an item with no title line keeps it empty and is titled by the block
/// its body starts with, else `Untitled`).
enum OutlinerTitles {
    /// Gives `nodes` their titles; `blocks` gives a Logseq block's title by its id, for a
    /// title that references one (`((id))` shows as the block's title).
    static func resolve(_ nodes: inout [OutlineNode], blocks: ((String) -> String?)? = nil) {
        var sources: [String] = []
        collect(nodes, into: &sources)
        guard !sources.isEmpty else { return }
        var next = 0
        apply(&nodes, titles: plainTitles(sources, blocks: blocks), next: &next)
    }

    /// The title line that reads back as the plain `title` (the outliner writer's, and what
    /// the reader compares with): the Markdown writer's escapes (so `[[x]]` is no link),
    /// `((` and `{{` escaped, and a `\` before what would start an item, a heading block or
    /// a property (`key\:: value`).
    static func titleLine(of title: String) -> String {
        // (A literal line needs none of that: asked of every item of a graph.)
        if LiteralLine.holds(title) { return title }
        var line = MarkdownEmitter.escapedTitle(title)
        if line.contains(bytes: "((") { line = line.replacing("(", with: "\\(") }
        if line.contains(bytes: "{{") { line = line.replacing("{", with: "\\{") }
        if OutlinerMarkdownParser.itemText(line[...]) != nil || OutlinerMarkdownParser.headingLevel(line[...]) != nil {
            line = "\\" + line
        } else if OutlinerMarkdownParser.property(line[...]) != nil, let colons = line.firstRange(of: "::") {
            line.replaceSubrange(colons, with: "\\::")
        }
        return line
    }

    /// The plain titles of title lines: a literal line's is its text (with its links'
    /// labels, for a line of `LiteralLine.wikiPieces`), the others are read in one parse.
    static func plainTitles(_ sources: [String], blocks: ((String) -> String?)? = nil) -> [String] {
        var titles = sources.map { source -> String? in
            if LiteralLine.holds(source) { return TitleText.normalized(source) }
            guard let pieces = LiteralLine.wikiPieces(source) else { return nil }
            // (A block reference shows its block's title, which is read as it is.)
            if pieces.contains(where: { $0.kind == .blockReference }) { return TitleText.normalized(WikiLinks.plainText(source, blocks: blocks)) }
            var text: [UInt8] = []
            for (piece, kind) in pieces { text += kind == .link ? WikiLinks.shown(piece) : piece }
            return TitleText.normalized(String(decoding: text, as: UTF8.self))
        }
        let parsed = sources.indices.filter { titles[$0] == nil }
        if !parsed.isEmpty {
            // (A title that holds the characters that hide escapes is read as it is.)
            let hidden = parsed.map { Escaped.hiding(sources[$0]) }
            let markdown = hidden.map { "# " + escapingClosingHashes(OutlinerMarkdownParser.strippingHeading($0[...])) }
                .joined(separator: "\n")
            let document = CommonMarkDocument(parsing: markdown, structureOnly: true)
            var next = 0
            for index in 0..<document.blockCount where next < parsed.count {
                guard let block = document.heading(at: index) else { continue }
                titles[parsed[next]] = plainTitle(of: block.heading.parts, blocks: blocks, restoring: hidden[next] != sources[parsed[next]])
                next += 1
            }
        }
        return titles.map { $0 ?? "" }
    }

    private static func collect(_ nodes: [OutlineNode], into sources: inout [String]) {
        for node in nodes {
            sources.append(node.attributes[AttributeKey.outlinerTitle] ?? "")
            collect(node.children, into: &sources)
        }
    }

    private static func apply(_ nodes: inout [OutlineNode], titles: [String], next: inout Int) {
        // (In place: a copy of each node would copy its attributes when one is taken off.)
        for index in nodes.indices {
            let source = nodes[index].attributes[AttributeKey.outlinerTitle] ?? ""
            let plain = next < titles.count ? titles[next] : ""
            next += 1
            nodes[index].title = plain.isEmpty ? untitled(nodes[index].body) : plain
            if !source.isEmpty && titleLine(of: plain) == source { nodes[index].attributes[AttributeKey.outlinerTitle] = nil }
            apply(&nodes[index].children, titles: titles, next: &next)
        }
    }

    /// The title of an item without a title line, from the block its body starts with
    /// (`Query` for `#+BEGIN_QUERY`, `Code` for a fence), else `Untitled`.
    private static func untitled(_ body: String) -> String {
        let first = body.prefix { $0 != "\n" }
        if first.lowercased().hasPrefix("#+begin_") {
            let kind = first.dropFirst(8).prefix { !$0.isWhitespace }.lowercased()
            if !kind.isEmpty { return CollapsibleBlocks.titleCased(kind) }
        }
        return Fence(opening: first) != nil ? "Code" : HeadingMarkers.untitled
    }

    /// A line as ATX heading text that keeps a final run of `#` (which would close it).
    private static func escapingClosingHashes(_ line: Substring) -> String {
        let trimmed = line.trimmingTrailingSpaces
        let hashes = trimmed.reversed().prefix { $0 == "#" }.count
        guard hashes > 0, hashes == trimmed.count || trimmed.dropLast(hashes).last == " " || trimmed.dropLast(hashes).last == "\t" else {
            return String(line)
        }
        return String(trimmed.dropLast(hashes)) + "\\" + String(repeating: "#", count: hashes)
    }

    /// The plain text of a title line: its text and code, wiki links by their label
    /// (`[[Page]]` as `Page`, `[[Page|label]]` as `label`), white space normalized.
    private static func plainTitle(of parts: [CommonMarkDocument.TitlePart], blocks: ((String) -> String?)?, restoring: Bool) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let piece): text += piece
            case .code(let piece): text += restoring ? Escaped.restoring(piece, inCode: true) : piece
            case .lineBreak: text += " "
            case .html: break
            }
        }
        let plain = WikiLinks.plainText(text, blocks: blocks)
        return TitleText.normalized(restoring ? Escaped.restoring(plain, inCode: false) : plain)
    }

    /// Escaped brackets, parentheses and braces (`\[`, `\(`, `\{`) are text, never part of
    /// a wiki link, a block reference or an embed: they are hidden from the link reading
    /// behind private-use characters, and shown again after it (as written in code, where
    /// a backslash is text). Titles that hold those characters themselves are read as they are.
    private enum Escaped {
        static let pairs: [(escaped: String, hidden: Character, shown: String)] = [
            ("\\[", "\u{F8F0}", "["), ("\\]", "\u{F8F1}", "]"), ("\\(", "\u{F8F2}", "("), ("\\)", "\u{F8F3}", ")"),
            ("\\{", "\u{F8F4}", "{"), ("\\}", "\u{F8F5}", "}"),
        ]

        /// Whether `text` holds one of the hiding characters (U+F8F0 to U+F8F5: `EF A3 B0` to `B5`).
        static func holdsHidden(_ text: String) -> Bool {
            text.containsByte(0xEF) && text.unicodeScalars.contains { (0xF8F0...0xF8F5).contains($0.value) }
        }

        /// `line` with its escapes hidden; `line` itself when it has none, or holds a hiding character.
        static func hiding(_ line: String) -> String {
            guard line.containsByte(.backslash), !holdsHidden(line) else { return line }
            var result = line
            for pair in pairs where result.contains(bytes: pair.escaped) { result = result.replacing(pair.escaped, with: String(pair.hidden)) }
            return result
        }

        static func restoring(_ text: String, inCode: Bool) -> String {
            guard holdsHidden(text) else { return text }
            var result = text
            for pair in pairs { result = result.replacing(String(pair.hidden), with: inCode ? pair.escaped : pair.shown) }
            return result
        }
    }
}

/// `[[Page]]`, `[[Page|label]]` and `[[Page#Heading]]`: the links of outliners and vaults.
enum WikiLinks {
    /// `text` with each `((block-id))` a block has replaced by its title, and the
    /// `{{embed …}}` around one or a `[[link]]` taken off.
    private static func replacingBlockReferences(in text: String, _ blocks: (String) -> String?) -> String {
        var result = ""
        var rest = text[...]
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "(")) {
            let after = rest[open...]
            if after.utf8.starts(with: "((".utf8), after.utf8.count >= 40,
                case let id = after.dropFirst(2).prefix(36), id.utf8.count == 36,
                id.allSatisfy({ $0.isHexDigit || $0 == "-" }), after.dropFirst(38).hasPrefix("))"), let title = blocks(String(id))
            {
                result += rest[..<open] + title
                rest = after.dropFirst(40)
            } else {
                result += rest[...open]
                rest = rest[rest.index(after: open)...]
            }
        }
        result += rest
        // `{{embed X}}` shows X.
        guard result.contains(bytes: "{{embed ") else { return result }
        var shown = ""
        var remaining = result[...]
        while let open = remaining.firstRange(of: "{{embed "), let close = remaining[open.upperBound...].firstRange(of: "}}") {
            shown += remaining[..<open.lowerBound] + remaining[open.upperBound..<close.lowerBound].trimmed
            remaining = remaining[close.upperBound...]
        }
        return shown + remaining
    }

    /// What a wiki link's plain text shows of its inner text: its label, else its page.
    static func shown(_ inner: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        inner.firstIndex(of: UInt8(ascii: "|")).map { inner[($0 + 1)...] } ?? inner
    }

    /// Text with each wiki link replaced by what the apps show of it: its label, else its
    /// page (and heading).
    static func plainText(_ text: String, blocks: ((String) -> String?)? = nil) -> String {
        var text = text
        if let blocks, text.containsByte(UInt8(ascii: "(")) {
            // Logseq's references by their blocks' titles, and `{{embed …}}` by what it embeds.
            text = replacingBlockReferences(in: text, blocks)
        }
        guard text.contains(bytes: "[[") else { return text }
        // (By bytes: every title of a graph with a link comes here.)
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "["), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") else {
                result.append(bytes[index])
                index += 1
                continue
            }
            var close = index + 2
            while close + 1 < bytes.count, !(bytes[close] == UInt8(ascii: "]") && bytes[close + 1] == UInt8(ascii: "]")) { close += 1 }
            guard close + 1 < bytes.count else { break }
            result += shown(bytes[(index + 2)..<close])
            index = close + 2
        }
        result += bytes[min(index, bytes.count)...]
        return String(decoding: result, as: UTF8.self)
    }
}
