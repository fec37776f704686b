/// The formats outline-render reads.
public enum InputFormat: String, CaseIterable, Sendable {
    case markdown, plist, xml

    /// The format a file name's extension stands for, if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "md", "markdown", "mdown", "mkd", "mkdn": self = .markdown
        case "plist": self = .plist
        case "xml": self = .xml
        default: return nil
        }
    }

    /// The format the content looks like: an XML root named `plist` or `outline`, else Markdown.
    public init(sniffing bytes: ArraySlice<UInt8>) {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        guard head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).hasPrefix("<") else {
            self = .markdown
            return
        }
        if head.contains("<plist") { self = .plist } else if head.contains("<outline") { self = .xml } else { self = .markdown }
    }
}

/// The formats outline-render writes.
public enum OutputFormat: String, CaseIterable, Sendable {
    case html, text, json

    /// The format an output file's extension stands for, if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "html", "htm": self = .html
        case "txt", "text": self = .text
        case "json": self = .json
        default: return nil
        }
    }

    /// The extension of files written in this format.
    public var fileExtension: String {
        switch self {
        case .html: "html"
        case .text: "txt"
        case .json: "json"
        }
    }
}
