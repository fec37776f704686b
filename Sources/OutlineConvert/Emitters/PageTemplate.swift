/// An HTML page template with `{{placeholder}}`s: `{{title}}` (the page title, escaped),
/// `{{content}}` (the outline markup), `{{style}}` (the default CSS), `{{script}}` (the
/// default script), `{{lang}}` (the page language), `{{index}}` (in a docs site with an
/// index, a `<nav>` linking to it; elsewhere nothing) and `{{toc}}` (with `--toc`, the
/// table of contents; elsewhere nothing). Any other placeholder is an error.
public struct PageTemplate: Equatable, Sendable {
    /// The placeholders a template may use.
    public static let placeholders = ["title", "content", "style", "script", "lang", "index", "toc"]

    /// The built-in page (Templates/default.html, .css, .js).
    public static let `default` = PageTemplate(builtIn: EmbeddedTemplates.files["default.html"] ?? "{{content}}")

    private let pieces: [Piece]

    /// The template's content, for telling templates apart.
    var fingerprint: String {
        pieces.map { if case .literal(let text) = $0 { text } else if case .placeholder(let name) = $0 { "{{\(name)}}" } else { "" } }.joined()
    }
    private enum Piece: Equatable {
        case literal(String)
        case placeholder(String)
    }

    /// Checks `text`; an unknown placeholder is an error located in `path`.
    public init(text: String, path: String) throws {
        pieces = try Self.split(text, path: path)
    }

    /// The built-in template; its placeholders are checked by the tests.
    private init(builtIn text: String) {
        pieces = (try? Self.split(text, path: "Templates/default.html")) ?? [.placeholder("content")]
    }

    /// Writes the page, with `writeContent` appending the outline markup in place of
    /// `{{content}}` (so a large document is never copied into the page a second time).
    func render(
        title: String, lang: String, indexLink: String? = nil, into page: inout ByteBuffer,
        toc writeTOC: (inout ByteBuffer) -> Void = { _ in }, content writeContent: (inout ByteBuffer) -> Void
    ) {
        for piece in pieces {
            switch piece {
            case .literal(let text): page.write(text)
            case .placeholder("title"): page.write(escaping: title)
            case .placeholder("content"): writeContent(&page)
            case .placeholder("toc"): writeTOC(&page)
            case .placeholder("style"): page.write(EmbeddedTemplates.files["default.css"] ?? "")
            case .placeholder("script"): page.write(EmbeddedTemplates.files["default.js"] ?? "")
            case .placeholder("lang"): page.write(escaping: lang)
            case .placeholder("index"):
                guard let indexLink else { continue }
                page.write("<nav class=\"outline-index\"><a href=\"" as StaticString)
                page.write(escaping: indexLink)
                page.write("\">↑ Index</a></nav>" as StaticString)
            case .placeholder: break
            }
        }
    }

    private static func split(_ text: String, path: String) throws -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(text)
        var line = 1
        while let open = rest.firstRange(of: "{{") {
            let before = rest[..<open.lowerBound]
            line += before.count { $0 == "\n" }
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else { break }
            let name = rest[open.upperBound..<close.lowerBound].trimmed
            guard placeholders.contains(name) else {
                throw ConversionError.invalid(
                    SourceLocation(file: path, line: line),
                    "unknown placeholder '{{\(name)}}'; known: " + placeholders.map { "{{\($0)}}" }.joined(separator: ", "))
            }
            pieces.append(.literal(String(before)))
            pieces.append(.placeholder(name))
            rest = rest[close.upperBound...]
        }
        pieces.append(.literal(String(rest)))
        return pieces
    }
}
