internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GitHub's emoji shortcodes (`emoji`): `:name:` in text shows as the emoji GitHub names so
/// (gemoji's list), as GitHub's emoji filter shows it: anywhere in text, not in code, raw
/// HTML or an image's description. It is done when a block is written as HTML, after
/// headings have their ids, which GitHub makes from the shortcode's words (`## :rocket:
/// Features` is `#rocket-features`); the source, JSON and plain text keep the shortcode. A
/// section's title shows its emoji too (see `HTMLEmitter.richTitleSource`).
struct EmojiExtension: MarkdownExtension {
    var name: String { "emoji" }

    func prepared(for source: SourceLines) -> EmojiExtension? {
        source.bytes.firstIndex(ofByte: UInt8(ascii: ":")) != nil ? self : nil
    }

    func beforeHTML(of block: OpaquePointer, text: ArraySlice<UInt8>?, keepsRawHTML: Bool) {
        if let text, !text.withUnsafeBufferPointer(Emoji.mayHoldShortcode) { return }
        var inImage = 0
        CommonMarkDocument.walk(block) { node, entering in
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_IMAGE { inImage += entering ? 1 : -1 }
            // (Most text holds no colon: strchr says so in one pass, with no copy.)
            guard entering, inImage == 0, type == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(node),
                strchr(literal, Int32(UInt8(ascii: ":"))) != nil
            else { return }
            let shown = literal.withMemoryRebound(to: UInt8.self, capacity: 1) {
                Emoji.replacingShortcodes(in: UnsafeBufferPointer(start: $0, count: strlen(literal)))
            }
            if let shown { MarkdownTree.setLiteral(node, shown) }
        }
    }
}

/// GitHub's emoji names (`EmojiNames.swift`, from gemoji) and the shortcodes that name them.
enum Emoji {
    /// Where each name and its emoji are in `table`'s UTF-8, by the name's hash (`hash(of:)`).
    private static let byHash: [UInt64: (name: Range<Int>, emoji: Range<Int>)] = {
        var names: [UInt64: (name: Range<Int>, emoji: Range<Int>)] = [:]
        names.reserveCapacity(2048)
        withTable { bytes in
            var start = 0
            while start < bytes.count {
                let end = bytes.firstIndex(ofByte: .lineFeed, from: start) ?? bytes.count
                var nameStart = start
                while nameStart < end, bytes[nameStart] == .space { nameStart += 1 }
                if let tab = bytes.firstIndex(ofByte: .tab, from: nameStart), tab < end {
                    names[hash(of: UnsafeBufferPointer(rebasing: bytes[nameStart..<tab]))] = (nameStart..<tab, (tab + 1)..<end)
                }
                start = end + 1
            }
        }
        return names
    }()

    /// Calls `body` with `table`'s UTF-8 (a literal's: no copy).
    private static func withTable<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = table
        return text.withUTF8(body)
    }

    /// The longest name, in bytes.
    private static let longestName = 40

    /// FNV-1a: cheap for the short names, and no hasher to set up.
    private static func hash(of name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// The emoji `name` names, if any.
    private static func emoji(named name: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let found = byHash[hash(of: name)] else { return nil }
        return withTable { bytes in bytes[found.name].elementsEqual(name) ? Array(bytes[found.emoji]) : nil }
    }

    /// `text` with each `:name:` of a known name made its emoji, read from the left (the
    /// colon that ends one shortcode starts no other); nil when there is none.
    static func replacingShortcodes(in text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var result: [UInt8] = []
        var copied = 0
        var from = 0
        while let colon = text.firstIndex(ofByte: UInt8(ascii: ":"), from: from) {
            from = colon + 1
            var end = colon + 1
            while end < text.count, end - colon <= longestName, isNameByte(text[end]) { end += 1 }
            guard end < text.count, end > colon + 1, text[end] == UInt8(ascii: ":"),
                let emoji = emoji(named: UnsafeBufferPointer(rebasing: text[(colon + 1)..<end]))
            else { continue }
            result += text[copied..<colon]
            result += emoji
            from = end + 1
            copied = from
        }
        guard copied > 0 else { return nil }
        result += text[copied...]
        return result
    }

    /// Whether `text` holds a colon, one to 40 name bytes and a colon: a block's lines with
    /// none have no shortcode (most do not).
    static func mayHoldShortcode(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var from = 0
        while let colon = text.firstIndex(ofByte: UInt8(ascii: ":"), from: from) {
            var end = colon + 1
            while end < text.count, end - colon <= longestName, isNameByte(text[end]) { end += 1 }
            if end > colon + 1, end < text.count, text[end] == UInt8(ascii: ":") { return true }
            from = colon + 1
        }
        return false
    }

    /// `text` with each shortcode of a known name made its emoji.
    static func replacingShortcodes(in text: String) -> String {
        guard text.containsByte(UInt8(ascii: ":")) else { return text }
        var text = text
        return text.withUTF8 { replacingShortcodes(in: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// Whether `text` holds a shortcode of a known name.
    static func holdsShortcode(_ text: String) -> Bool {
        guard text.containsByte(UInt8(ascii: ":")) else { return false }
        var text = text
        return text.withUTF8 { replacingShortcodes(in: $0) != nil }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }
}
