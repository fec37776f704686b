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
    var line = 0
    var column = 0

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

extension PlistValue {
    /// The value an XML plist's element holds: `<dict>` (alternating `<key>` and value),
    /// `<array>`, `<string>`, `<true/>`, `<false/>`; other elements by their name.
    init(xml element: XMLElement, file: String) throws {
        let location = SourceLocation(file: file, line: element.line, column: element.column)
        func refuseStrayText() throws {
            if let stray = element.strayText {
                throw ConversionError.invalid(
                    SourceLocation(file: file, line: stray.line, column: stray.column),
                    "text '\(Quote.snippet(stray.text))' inside <\(Quote.snippet(element.name))> outside any value")
            }
        }
        switch element.name {
        case "dict":
            try refuseStrayText()
            var entries: [(key: String, value: PlistValue)] = []
            var key: XMLElement?
            for case .element(let child) in element.children {
                guard let pending = key else {
                    guard child.name == "key" else {
                        throw ConversionError.invalid(
                            SourceLocation(file: file, line: child.line, column: child.column), "expected <key>, found <\(Quote.snippet(child.name))>"
                        )
                    }
                    key = child
                    continue
                }
                entries.append((pending.text, try PlistValue(xml: child, file: file)))
                key = nil
            }
            if let key {
                throw ConversionError.invalid(
                    SourceLocation(file: file, line: key.line, column: key.column), "key '\(Quote.snippet(key.text))' has no value")
            }
            self.init(kind: .dict(entries), line: element.line, column: element.column)
        case "array":
            try refuseStrayText()
            var values: [PlistValue] = []
            for case .element(let child) in element.children { values.append(try PlistValue(xml: child, file: file)) }
            self.init(kind: .array(values), line: element.line, column: element.column)
        case "string":
            if let inner = element.firstElement {
                throw ConversionError.invalid(
                    SourceLocation(file: file, line: inner.line, column: inner.column), "<string> cannot contain <\(Quote.snippet(inner.name))>")
            }
            self.init(kind: .string(element.text), line: element.line, column: element.column)
        case "true", "false":
            self.init(kind: .bool(element.name == "true"), line: element.line, column: element.column)
        case "key":
            throw ConversionError.invalid(location, "a <key> outside a <dict>")
        default:
            self.init(kind: .other("<\(Quote.snippet(element.name))>"), line: element.line, column: element.column)
        }
    }
}
