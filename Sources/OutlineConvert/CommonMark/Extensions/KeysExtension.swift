internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// pymdownx.keys, in mkdocs' dialect: `++ctrl+alt+del++` shows as the keys, as pymdownx
/// writes them: `<span class="keys"><kbd class="key-control">Ctrl</kbd><span>+</span>…`.
/// Each key is a name of pymdownx's key map or one of its aliases (`KeyNames`), or a quoted
/// label (`++ctrl+"My key"++`, a `<kbd>` without a class); a series with any other word
/// stays text. Made in text, never in code; plain text shows `Ctrl+Alt+Del`.
struct KeysExtension: MarkdownExtension {
    var name: String { "pymdownx.keys" }

    func prepared(for source: SourceLines) -> KeysExtension? {
        source.bytes.contains(bytes: "++") ? self : nil
    }

    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        guard text.contains(bytes: "++") else { return }
        var found: [(node: OpaquePointer, series: [Series])] = []
        MarkdownTree.walk(under: block) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(node),
                strstr(literal, "++") != nil
            else { return }
            let series = Self.series(in: CommonMarkDocument.literalBytes(node))
            if !series.isEmpty { found.append((node, series)) }
        }
        for (node, series) in found {
            for (index, piece) in tree.split(node, at: series.map { ($0.offset, $0.length) }) {
                guard let keys = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: "<span class=\"keys\">", exit: "</span>") else { continue }
                for (number, key) in series[index].keys.enumerated() {
                    if number > 0 { Self.append("+", in: "<span>", "</span>", to: keys, tree) }
                    Self.append(key.name, in: key.id.map { "<kbd class=\"key-\($0)\">" } ?? "<kbd>", "</kbd>", to: keys, tree)
                }
                cmark_node_insert_before(piece, keys)
                cmark_node_free(piece)
            }
        }
    }

    /// Appends `text` inside an element (`open`, `close`) to `parent`.
    private static func append(_ text: String, in open: String, _ close: String, to parent: OpaquePointer, _ tree: MarkdownTree) {
        guard let element = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: open, exit: close), let content = tree.newNode(CMARK_NODE_TEXT)
        else { return }
        MarkdownTree.setLiteral(content, text.utf8)
        cmark_node_append_child(element, content)
        cmark_node_append_child(parent, element)
    }

    /// A series of keys in a text: where it is (`++` to `++`), and its keys, each with the
    /// key's id (its class; none for a quoted label) and the name shown.
    struct Series {
        let offset: Int
        let length: Int
        let keys: [(id: String?, name: String)]
    }

    /// The series of keys in `text`, in order.
    static func series(in text: [UInt8]) -> [Series] {
        var found: [Series] = []
        var index = 0
        while index + 1 < text.count {
            guard text[index] == UInt8(ascii: "+"), text[index + 1] == UInt8(ascii: "+"), index == 0 || text[index - 1] != .backslash,
                let (keys, end) = keys(in: text, from: index + 2)
            else {
                index += 1
                continue
            }
            found.append(Series(offset: index, length: end - index, keys: keys))
            index = end
        }
        return found
    }

    /// The keys from `start` up to the closing `++`, and the index after it; nil when what
    /// follows is not a series of known keys.
    private static func keys(in text: [UInt8], from start: Int) -> ([(id: String?, name: String)], Int)? {
        var keys: [(id: String?, name: String)] = []
        var index = start
        while index < text.count {
            let token: (id: String?, name: String)
            if text[index] == .quote || text[index] == UInt8(ascii: "'") {
                let quote = text[index]
                guard let close = text[(index + 1)...].firstIndex(of: quote), close > index + 1 else { return nil }
                let label = String(decoding: text[(index + 1)..<close], as: UTF8.self)
                token = (nil, label.trimmed)
                index = close + 1
            } else {
                let word = text[index...].prefix { isWordByte($0) }
                guard !word.isEmpty, let key = KeyNames.key(String(decoding: word, as: UTF8.self)) else { return nil }
                token = key
                index += word.count
            }
            keys.append(token)
            // Then `++` ends the series, or one `+` and another key follows.
            guard index < text.count, text[index] == UInt8(ascii: "+") else { return nil }
            if index + 1 < text.count, text[index + 1] == UInt8(ascii: "+") { return (keys, index + 2) }
            index += 1
        }
        return nil
    }

    /// A byte of a key's word (`\w` and `-`: letters, digits, `_`, and any of a non-ASCII
    /// character's bytes).
    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte >= 0x80
    }
}

/// pymdownx's key map (`KeyNames.swift`, from its keymap_db): the name each key shows, and
/// its aliases.
enum KeyNames {
    /// The names by key.
    private static let names = table(keys)
    /// The keys by alias.
    private static let keysByAlias = table(aliases)

    /// The key a word of a series names (an alias's key), with the name shown for it.
    static func key(_ word: String) -> (id: String?, name: String)? {
        let key = keysByAlias[word] ?? word
        return names[key].map { (key, $0) }
    }

    private static func table(_ text: String) -> [String: String] {
        var table: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.drop { $0 == " " }.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            if fields.count == 2 { table[String(fields[0])] = String(fields[1]) }
        }
        return table
    }
}
