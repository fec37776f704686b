internal import CCmark

/// Python-Markdown's abbreviations (`abbr`), in mkdocs' dialect: a line `*[HTML]: Hyper Text
/// Markup Language` defines one (and is not shown), and the abbreviation then shows as
/// `<abbr title="Hyper Text Markup Language">HTML</abbr>` wherever it stands as a word in
/// the page's text, before its definition too; never in code. As Python-Markdown finds it:
/// case counts, the longest first, at word boundaries (`\b`); `*[HTML]: ""` takes one back.
/// A definition in the content of an indented mkdocs block (`!!!`) is not read.
struct AbbreviationExtension: MarkdownExtension {
    var name: String { "abbr" }

    /// The definitions are read before any other step, so that every block, a table's cells
    /// too, knows them.
    func rewriteSource(of tree: MarkdownTree) {
        guard tree.source.bytes.contains(bytes: "*[") else { return }
        CommonMarkDocument.walk(tree.root) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH else { return }
            for number in Self.lines(of: node) {
                guard let (abbreviation, title) = Self.definition(tree.source.line(number)) else { continue }
                if title == "\"\"" || title == "''" {
                    tree.abbreviations[abbreviation] = nil
                } else {
                    tree.abbreviations[abbreviation] = title
                }
            }
        }
    }

    /// Takes the definitions' lines out of their paragraphs: what is left before and after
    /// a definition are paragraphs of their own, as Python-Markdown splits them.
    func makeBlocks(of tree: MarkdownTree) {
        guard tree.source.bytes.contains(bytes: "*[") else { return }
        var paragraphs: [(OpaquePointer, Set<Int>)] = []
        CommonMarkDocument.walk(tree.root) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH else { return }
            let defining = Set(Self.lines(of: node).filter { Self.definition(tree.source.line($0)) != nil })
            if !defining.isEmpty { paragraphs.append((node, defining)) }
        }
        for (paragraph, defining) in paragraphs {
            var pieces = [paragraph]
            var cut = false
            var child = cmark_node_first_child(paragraph)
            while let node = child {
                child = cmark_node_next(node)
                if defining.contains(Int(cmark_node_get_start_line(node))) {
                    cmark_node_free(node)
                    cut = true
                    continue
                }
                if cut, let last = pieces.last, cmark_node_first_child(last) != nil, let next = tree.newNode(CMARK_NODE_PARAGRAPH) {
                    cmark_node_insert_after(last, next)
                    pieces.append(next)
                }
                cut = false
                if let last = pieces.last, last != paragraph { cmark_node_append_child(last, node) }
            }
            // (The line breaks at a piece's ends went with the lines they ended.)
            for piece in pieces {
                while let first = cmark_node_first_child(piece), Self.isBreak(first) { cmark_node_free(first) }
                while let last = cmark_node_last_child(piece), Self.isBreak(last) { cmark_node_free(last) }
                if cmark_node_first_child(piece) == nil { cmark_node_free(piece) }
            }
        }
    }

    private static func isBreak(_ node: OpaquePointer) -> Bool {
        let type = cmark_node_get_type(node)
        return type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK
    }

    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        guard !tree.abbreviations.isEmpty else { return }
        let matcher = Matcher(tree.abbreviations)
        var found: [(node: OpaquePointer, matches: [(offset: Int, length: Int)])] = []
        MarkdownTree.walk(under: block) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_TEXT else { return }
            let matches = matcher.matches(in: CommonMarkDocument.literalBytes(node))
            if !matches.isEmpty { found.append((node, matches)) }
        }
        for (node, matches) in found {
            let literal = CommonMarkDocument.literalBytes(node)
            for (index, piece) in tree.split(node, at: matches.map { ($0.offset, $0.length) }) {
                let match = matches[index]
                let word = String(decoding: literal[match.offset..<(match.offset + match.length)], as: UTF8.self)
                guard let title = tree.abbreviations[word],
                    let abbr = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: "<abbr title=\"\(CollapsibleBlocks.escaped(title))\">", exit: "</abbr>")
                else { continue }
                cmark_node_insert_before(piece, abbr)
                cmark_node_append_child(abbr, piece)
            }
        }
    }

    /// The lines a paragraph spans.
    private static func lines(of paragraph: OpaquePointer) -> ClosedRange<Int> {
        let first = Int(cmark_node_get_start_line(paragraph))
        return first...max(first, Int(cmark_node_get_end_line(paragraph)))
    }

    /// The abbreviation and title a line defines (`*[HTML]: Hyper Text`, after any indent
    /// and block quote markers), if it is a definition.
    static func definition(_ line: ArraySlice<UInt8>) -> (String, String)? {
        let text = String(decoding: line, as: UTF8.self).drop { $0 == " " || $0 == ">" }
        guard text.hasPrefix("*["), let close = text.firstIndex(of: "]") else { return nil }
        let abbreviation = text[text.index(text.startIndex, offsetBy: 2)..<close]
        var rest = text[text.index(after: close)...]
        if rest.first == " " { rest = rest.dropFirst() }
        guard rest.first == ":", !abbreviation.contains("\\") else { return nil }
        let title = rest.dropFirst().trimmed
        let trimmed = abbreviation.trimmed
        return title.isEmpty || trimmed.isEmpty ? nil : (trimmed, title)
    }

    /// Finds abbreviations in text as Python-Markdown's pattern does: at each place, the
    /// longest abbreviation that matches with a word boundary at both ends.
    struct Matcher {
        /// The abbreviations' UTF-8, longest first, by their first byte.
        private let byFirstByte: [UInt8: [[UInt8]]]

        init(_ abbreviations: [String: String]) {
            var table: [UInt8: [[UInt8]]] = [:]
            for word in abbreviations.keys.map({ Array($0.utf8) }).sorted(by: { $0.count > $1.count }) {
                if let first = word.first { table[first, default: []].append(word) }
            }
            byFirstByte = table
        }

        func matches(in text: [UInt8]) -> [(offset: Int, length: Int)] {
            var found: [(offset: Int, length: Int)] = []
            var index = 0
            while index < text.count {
                if let words = byFirstByte[text[index]],
                    let word = words.first(where: { matches($0, in: text, at: index) })
                {
                    found.append((index, word.count))
                    index += word.count
                } else {
                    index += 1
                }
            }
            return found
        }

        private func matches(_ word: [UInt8], in text: [UInt8], at index: Int) -> Bool {
            guard index + word.count <= text.count, text[index..<(index + word.count)].elementsEqual(word) else { return false }
            return Self.isBoundary(text, index) && Self.isBoundary(text, index + word.count)
        }

        /// `\b` at `index`: a word character on one side and not on the other.
        private static func isBoundary(_ text: [UInt8], _ index: Int) -> Bool {
            let before = index > 0 ? scalar(endingAt: index, in: text) : nil
            let after = index < text.count ? scalar(startingAt: index, in: text) : nil
            return isWord(before) != isWord(after)
        }

        private static func isWord(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            return scalar.isWordCharacter
        }

        private static func scalar(startingAt index: Int, in text: [UInt8]) -> Unicode.Scalar? {
            var end = index + 1
            while end < text.count, text[end] & 0xC0 == 0x80 { end += 1 }
            return String(decoding: text[index..<end], as: UTF8.self).unicodeScalars.first
        }

        private static func scalar(endingAt index: Int, in text: [UInt8]) -> Unicode.Scalar? {
            var start = index - 1
            while start > 0, text[start] & 0xC0 == 0x80 { start -= 1 }
            return String(decoding: text[start..<index], as: UTF8.self).unicodeScalars.first
        }
    }
}
