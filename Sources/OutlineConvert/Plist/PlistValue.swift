/// A property-list value from any of the three forms (XML, binary, OpenStep), with where it
/// is when the form has lines (binary plists have none: line 0). Dict entries keep their order.
struct PlistValue {
    enum Kind {
        case dict([(key: String, value: PlistValue)])
        case array([PlistValue])
        case string(String)
        case bool(Bool)
        /// A value no outline key takes (a number, a date, data, …), by its type's name.
        case other(String)
    }

    let kind: Kind
    // (32-bit: a plist's dicts hold several values per section, all kept until the outline
    // is made of them.)
    private let storedLine: Int32
    private let storedColumn: Int32
    var line: Int { Int(storedLine) }
    var column: Int { Int(storedColumn) }

    init(kind: Kind, line: Int = 0, column: Int = 0) {
        self.kind = kind
        (storedLine, storedColumn) = (Int32(clamping: line), Int32(clamping: column))
    }

    /// What the value is, for messages: "a dict", "a string", …
    var typeName: String {
        switch kind {
        case .dict: "a dict"
        case .array: "an array"
        case .string: "a string"
        case .bool: "a boolean"
        case .other(let name): name
        }
    }
}

/// Makes each element of an XML plist into its value as soon as it ends: `<dict>`
/// (alternating `<key>` and value), `<array>`, `<string>`, `<true/>`, `<false/>`; other
/// elements by their name. The root `<plist>` becomes the one value it holds.
struct PlistXMLBuilder: XMLBuilder {
    let file: String

    /// The values in `<plist>`, `<dict>` and `<array>` (what is inside others is not read).
    func builds(_ name: String, inside parent: String?) -> Bool {
        parent == nil || parent == "plist" || parent == "dict" || parent == "array"
    }

    func build(_ element: XMLElement<PlistValue>) throws -> PlistValue {
        if element.isRoot { return try rootValue(element) }
        func value(_ kind: PlistValue.Kind) -> PlistValue { PlistValue(kind: kind, line: element.line, column: element.column) }
        switch element.name {
        case "dict":
            try refuseStrayText(in: element, "inside <dict> outside any value")
            var entries: [(key: String, value: PlistValue)] = []
            // (Reserved: grown by appends, a section's few entries take room for more, and a
            // plist's dicts are all kept until the outline is made of them.)
            entries.reserveCapacity(element.children.count / 2)
            var key: (text: String, child: XMLChild<PlistValue>)?
            for case .element(let child) in element.children {
                guard let pending = key else {
                    guard child.name == "key", case .string(let text) = child.node?.kind else {
                        throw ConversionError.invalid(child.location(in: file), "expected <key>, found <\(Quote.snippet(child.name))>")
                    }
                    key = (text, child)
                    continue
                }
                entries.append((pending.text, try self.value(child)))
                key = nil
            }
            if let key {
                throw ConversionError.invalid(key.child.location(in: file), "key '\(Quote.snippet(key.text))' has no value")
            }
            return value(.dict(entries))
        case "array":
            try refuseStrayText(in: element, "inside <array> outside any value")
            return value(.array(try element.elements.map(self.value)))
        case "key":  // (its value's place in a dict is checked there)
            return value(.string(element.text))
        case "string":
            if let inner = element.firstElement {
                throw ConversionError.invalid(inner.location(in: file), "<string> cannot contain <\(Quote.snippet(inner.name))>")
            }
            return value(.string(element.text))
        case "true", "false":
            return value(.bool(element.name == "true"))
        default:
            return value(.other("<\(Quote.snippet(element.name))>"))
        }
    }

    /// The one value of the `<plist>` root.
    private func rootValue(_ root: XMLElement<PlistValue>) throws -> PlistValue {
        guard root.name == "plist" else {
            throw ConversionError.invalid(root.location(in: file), "the root element is <\(Quote.snippet(root.name))>, not <plist>")
        }
        try refuseStrayText(in: root, "outside any value")
        let values = root.elements
        guard values.count == 1, let value = values.first else {
            throw ConversionError.invalid(root.location(in: file), "<plist> must hold exactly one value, found \(values.count)")
        }
        return try self.value(value)
    }

    /// A child's value; a `<key>` is one only in a dict.
    private func value(_ child: XMLChild<PlistValue>) throws -> PlistValue {
        guard child.name != "key", let value = child.node else {
            throw ConversionError.invalid(child.location(in: file), "a <key> outside a <dict>")
        }
        return value
    }

    private func refuseStrayText(in element: XMLElement<PlistValue>, _ place: String) throws {
        if let stray = element.strayText {
            throw ConversionError.invalid(
                SourceLocation(file: file, line: stray.line, column: stray.column), "text '\(Quote.snippet(stray.text))' \(place)")
        }
    }
}
