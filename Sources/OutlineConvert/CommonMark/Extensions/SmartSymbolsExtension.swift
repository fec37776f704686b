internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// pymdownx.smartsymbols, in mkdocs' dialect: `(tm)` ™, `(c)` ©, `(r)` ®, `+/-` ±, `=/=` ≠,
/// `c/o` ℅, `-->` →, `<--` ←, `<-->` ↔, fractions (`1/4` ¼, `2/3` ⅔ …) and ordinal numbers
/// (`1st` as 1<sup>st</sup>), in text, never in code, found as pymdownx's patterns find them
/// (a fraction between no digits, `c/o` and an ordinal at word boundaries). The symbols
/// are characters of the text, so plain text shows them too.
struct SmartSymbolsExtension: MarkdownExtension {
    var name: String { "pymdownx.smartsymbols" }

    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        var found: [OpaquePointer] = []
        MarkdownTree.walk(under: block) { node, entering in
            // (Each pattern holds one of these bytes: libc finds none in most text at once.)
            guard entering, cmark_node_get_type(node) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(node),
                strpbrk(literal, "(+=-</0123456789") != nil,
                Self.mayHoldSymbol(UnsafeBufferPointer(start: UnsafeRawPointer(literal).assumingMemoryBound(to: UInt8.self), count: strlen(literal)))
            else { return }
            found.append(node)
        }
        for node in found {
            let (text, ordinals) = Self.replacing(String(decoding: CommonMarkDocument.literalBytes(node), as: UTF8.self))
            guard let text else { continue }
            MarkdownTree.setLiteral(node, text.utf8)
            guard !ordinals.isEmpty else { continue }
            // Each ordinal's suffix is a `<sup>` of its own.
            for (_, piece) in tree.split(node, at: ordinals) {
                guard let sup = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: "<sup>", exit: "</sup>") else { continue }
                cmark_node_insert_before(piece, sup)
                cmark_node_append_child(sup, piece)
            }
        }
    }

    /// Whether `text` holds what `replacing` may replace: a symbol, `c/o`, a digit before
    /// `/` and a digit (a fraction) or before `s`, `n`, `r` or `t` (an ordinal's suffix).
    /// Most text holds none, and is not read as characters at all.
    private static func mayHoldSymbol(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        func at(_ index: Int) -> UInt8 { index < text.count ? text[index] : 0 }
        for index in text.indices {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "("):
                let next = at(index + 1)
                if next == UInt8(ascii: "t")
                    ? at(index + 2) == UInt8(ascii: "m") && at(index + 3) == UInt8(ascii: ")")
                    : (next == UInt8(ascii: "c") || next == UInt8(ascii: "r")) && at(index + 2) == UInt8(ascii: ")")
                {
                    return true
                }
            case UInt8(ascii: "+"), UInt8(ascii: "="):
                if at(index + 1) == UInt8(ascii: "/") && at(index + 2) == (byte == UInt8(ascii: "+") ? UInt8(ascii: "-") : byte) { return true }
            case UInt8(ascii: "-"):
                if at(index + 1) == UInt8(ascii: "-") && at(index + 2) == UInt8(ascii: ">") { return true }
            case UInt8(ascii: "<"):
                if at(index + 1) == UInt8(ascii: "-") && at(index + 2) == UInt8(ascii: "-") { return true }
            case UInt8(ascii: "c"):
                if at(index + 1) == UInt8(ascii: "/") && at(index + 2) == UInt8(ascii: "o") { return true }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let next = at(index + 1)
                if next == UInt8(ascii: "/") && at(index + 2).isASCIIDigit { return true }
                if next == UInt8(ascii: "s") || next == UInt8(ascii: "n") || next == UInt8(ascii: "r") || next == UInt8(ascii: "t") { return true }
            default: break
            }
        }
        return false
    }

    /// The ASCII characters something replaced starts with: a symbol's, `c/o`'s, a digit.
    private static let starts: [Bool] = (0..<128).map { "(+=<-c0123456789".utf8.contains(UInt8($0)) }

    private static let symbols: [(String, String)] = [
        ("(tm)", "™"), ("(c)", "©"), ("(r)", "®"), ("+/-", "±"), ("=/=", "≠"), ("<-->", "↔"), ("-->", "→"), ("<--", "←"),
    ]
    private static let fractions: [String: String] = [
        "1/4": "¼", "1/2": "½", "3/4": "¾", "1/3": "⅓", "2/3": "⅔", "1/5": "⅕", "2/5": "⅖", "3/5": "⅗", "4/5": "⅘", "1/6": "⅙",
        "5/6": "⅚", "1/8": "⅛", "3/8": "⅜", "5/8": "⅝", "7/8": "⅞",
    ]

    /// `text` with its symbols replaced (nil when it has none), and where the suffixes of
    /// its ordinal numbers are in the UTF-8 of the new text (offset and length).
    static func replacing(_ text: String) -> (String?, [(Int, Int)]) {
        let scalars = Array(text.unicodeScalars)
        // (UTF-8 bytes, appended in place: a scalar view would copy itself on each append.)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var ordinals: [(Int, Int)] = []
        var changed = false
        func append(_ piece: String) { out += piece.utf8 }
        func starts(_ piece: String, at index: Int) -> Bool {
            var at = index
            for scalar in piece.unicodeScalars {
                guard at < scalars.count, scalars[at] == scalar else { return false }
                at += 1
            }
            return true
        }
        func isWord(_ index: Int) -> Bool {
            index >= 0 && index < scalars.count
                && scalars[index].isWordCharacter
        }
        func isDigit(_ index: Int) -> Bool { index >= 0 && index < scalars.count && ("0"..."9").contains(scalars[index]) }
        var index = 0
        scan: while index < scalars.count {
            // (Most characters start nothing: kept at once.)
            let value = scalars[index].value
            guard value < 0x80, Self.starts[Int(value)] else {
                UTF8.encode(scalars[index]) { out.append($0) }
                index += 1
                continue
            }
            // (Every symbol starts with one of these.)
            let isSymbolStart = value == 0x28 || value == 0x2B || value == 0x3D || value == 0x3C || value == 0x2D
            for (symbol, shown) in symbols where isSymbolStart && starts(symbol, at: index) {
                // (An arrow of exactly two dashes: `--->` and `<---` stay.)
                if symbol == "-->", index > 0, scalars[index - 1] == "-" { break }
                if symbol == "<--", index + 3 < scalars.count, scalars[index + 3] == "-" { break }
                append(shown)
                index += symbol.unicodeScalars.count
                changed = true
                continue scan
            }
            if starts("c/o", at: index), !isWord(index - 1), !isWord(index + 3) {
                append("℅")
                index += 3
                changed = true
                continue
            }
            if isDigit(index), !isDigit(index - 1), index + 3 <= scalars.count, scalars[index + 1] == "/", !isDigit(index + 3),
                let fraction = fractions[String(String.UnicodeScalarView(scalars[index..<(index + 3)]))]
            {
                append(fraction)
                index += 3
                changed = true
                continue
            }
            if isDigit(index), !isWord(index - 1), let length = ordinalLength(scalars, from: index) {
                let number = String(String.UnicodeScalarView(scalars[index..<(index + length - 2)]))
                append(number)
                ordinals.append((out.count, 2))
                append(String(String.UnicodeScalarView(scalars[(index + length - 2)..<(index + length)])))
                index += length
                changed = true
                continue
            }
            UTF8.encode(scalars[index]) { out.append($0) }
            index += 1
        }
        return (changed ? String(decoding: out, as: UTF8.self) : nil, ordinals)
    }

    /// The length of an ordinal number at `start` (`1st`, `22nd`, `113th`, `11th`), at a
    /// word boundary's end, as pymdownx's pattern reads one; nil for none.
    private static func ordinalLength(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var end = start
        while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
        guard end + 2 <= scalars.count, end > start else { return nil }
        if start + 1 < end, scalars[start] == "0" { return nil }
        let suffix = String(String.UnicodeScalarView(scalars[end..<(end + 2)]))
        let last = scalars[end - 1]
        let tens = end - start >= 2 && scalars[end - 2] == "1"
        let expected: String
        switch last {
        case "1": expected = tens ? "th" : "st"
        case "2": expected = tens ? "th" : "nd"
        case "3": expected = tens ? "th" : "rd"
        default: expected = "th"
        }
        guard suffix == expected else { return nil }
        let after = end + 2
        if after < scalars.count {
            let next = scalars[after]
            if next.isWordCharacter { return nil }
        }
        return end + 2 - start
    }
}
