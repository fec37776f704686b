/// An XML element as plain values: what the plist and XML section parsers read.
struct XMLElement: Sendable {
    /// What an element holds, in document order (comments and processing instructions dropped).
    enum Content: Sendable {
        case element(XMLElement)
        case text(String, line: Int)
    }

    let name: String
    let line: Int
    let column: Int
    let attributes: [(name: String, value: String)]
    let children: [Content]

    /// The value of an attribute, if present.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The child elements, in order.
    var elements: [XMLElement] {
        children.compactMap { if case .element(let e) = $0 { e } else { nil } }
    }

    /// All text directly inside, CDATA included.
    var text: String {
        children.map { if case .text(let t, _) = $0 { t } else { "" } }.joined()
    }

    /// The first run of non-white-space text directly inside, if any, with its line.
    var strayText: (text: String, line: Int)? {
        for case .text(let text, let line) in children where !text.trimmed.isEmpty {
            return (text.trimmed, line)
        }
        return nil
    }
}
