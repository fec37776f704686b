/// Text and names for the XML-based writers (XML sections, OPML, plist).
enum XMLText {
    /// Appends `text` escaped for XML: `&`, `<`, `>` always; in an attribute also `"` and
    /// line breaks and tabs (as `&#10;`, `&#13;`, `&#9;`, which attribute-value
    /// normalization would otherwise turn into spaces). A character XML 1.0 cannot hold at
    /// all (a control character other than tab, LF and CR) becomes U+FFFD; the return
    /// value says whether that happened.
    @discardableResult
    static func append(_ text: String, attribute: Bool, to xml: inout ByteBuffer) -> Bool {
        var replaced = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): xml.write("&amp;" as StaticString)
            case UInt8(ascii: "<"): xml.write("&lt;" as StaticString)
            case UInt8(ascii: ">"): xml.write("&gt;" as StaticString)
            case UInt8(ascii: "\"") where attribute: xml.write("&quot;" as StaticString)
            case .lineFeed where attribute: xml.write("&#10;" as StaticString)
            case .carriageReturn where attribute: xml.write("&#13;" as StaticString)
            case .tab where attribute: xml.write("&#9;" as StaticString)
            case .tab, .lineFeed, .carriageReturn: xml.append(byte)
            case 0..<0x20:
                xml.write("\u{FFFD}")
                replaced = true
            default: xml.append(byte)
            }
        }
        return replaced
    }

    /// ` name="value"`.
    static func appendAttribute(_ name: String, _ value: String, to xml: inout ByteBuffer) -> Bool {
        xml.write(" " + name + "=\"")
        let replaced = append(value, attribute: true, to: &xml)
        xml.write("\"" as StaticString)
        return replaced
    }

    /// Whether `name` can be an XML attribute or element name as written here: an XML 1.0
    /// name without a colon (a prefix would need a namespace declared), and not `xmlns`,
    /// which declares one. Names starting with `xml` are reserved for the W3C's use but are
    /// still names, and feed readers write `xmlUrl` on every outline: they are kept.
    static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isNameStart(first), name != "xmlns" else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy { isNameStart($0) || isNameCharacter($0) }
    }

    /// XML 1.0's NameStartChar, less the colon.
    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0x5F, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF,
            0x200C...0x200D, 0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD,
            0x10000...0xEFFFF:
            true
        default: false
        }
    }

    /// The rest of XML 1.0's NameChar.
    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: true
        default: false
        }
    }
}

/// The warnings of one write: what the format could not hold, each said once per node.
struct WriterWarnings {
    let file: String
    let format: String
    private(set) var list: [Diagnostic] = []

    init(file: String, format: String) {
        self.file = file
        self.format = format
    }

    /// The attributes (of the outline when `node` is nil) this format can hold, in name
    /// order; each other one is a warning: a name the format uses itself (`reserved`), or
    /// one `isName` refuses (`what` says what it must be).
    mutating func writable(
        _ attributes: [String: String], of node: OutlineNode?, reserved: Set<String>, isName: (String) -> Bool, what: String
    ) -> [(name: String, value: String)] {
        var kept: [(name: String, value: String)] = []
        for name in attributes.keys.sorted() {
            if reserved.contains(name) {
                dropped(name, of: node, because: "the name is the format's own")
            } else if !isName(name) {
                dropped(name, of: node, because: "it is not \(what)")
            } else {
                kept.append((name, attributes[name] ?? ""))
            }
        }
        return kept
    }

    /// An attribute of the outline (node nil) or of a node that this format cannot hold.
    mutating func dropped(_ key: String, of node: OutlineNode?, because reason: String) {
        let owner = node.map { "section '\(Quote.snippet($0.title))'" } ?? "the outline"
        list.append(
            Diagnostic(
                SourceLocation(file: file, line: node?.line ?? 0),
                "attribute '\(Quote.snippet(key))' of \(owner) is left out of the \(format) output: \(reason)"))
    }

    /// A body written with a change it needs (`what`), so that the output reads back.
    mutating func changedBody(of node: OutlineNode, _ what: String) {
        list.append(
            Diagnostic(
                SourceLocation(file: file, line: node.line), "the body of section '\(Quote.snippet(node.title))' \(what) in the \(format) output"))
    }

    /// Characters no XML document can hold, replaced with U+FFFD.
    mutating func replacedControlCharacters(in node: OutlineNode?) {
        let owner = node.map { "section '\(Quote.snippet($0.title))'" } ?? "the outline"
        list.append(
            Diagnostic(
                SourceLocation(file: file, line: node?.line ?? 0),
                "\(owner) holds control characters that \(format) cannot hold; they are written as U+FFFD"))
    }

    mutating func add(_ diagnostic: Diagnostic) { list.append(diagnostic) }
}
