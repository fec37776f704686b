/// A page's text with other files pulled into it (snippets, `SnippetIncludes`), and where
/// each of its lines comes from, so that every message about it still names the file and
/// line that caused it (SPEC §6.3).
struct ExpandedSource: Sendable {
    /// Where a line of the text was written: a file, its 1-based line, and how many
    /// columns of indentation the include put before it.
    struct Origin: Sendable, Equatable {
        var file: String
        var line: Int
        var indent: Int
    }

    /// A line of the text, without its line feed, and where it was written.
    struct Line {
        var bytes: [UInt8]
        var origin: Origin
    }

    /// The text, lines separated by line feeds.
    var text: [UInt8]
    /// The origin of each line of `text`; nil when the text is the page's own, unchanged.
    var origins: [Origin]?
    /// The files read into the page (absolute paths): the page's build depends on them.
    var files: [String]
    /// What was left out, and why.
    var warnings: [Diagnostic]
    /// The page's `<title>`, when an include says (mdBook's `{{#title …}}`).
    var pageTitle: String?

    /// A page's own text: nothing was pulled in.
    init(unchanged text: [UInt8]) {
        self.text = text
        files = []
        warnings = []
    }

    /// The text of `lines`, with their origins.
    init(_ lines: [Line], files: [String], warnings: [Diagnostic]) {
        text = []
        text.reserveCapacity(lines.reduce(0) { $0 + $1.bytes.count + 1 })
        for (index, line) in lines.enumerated() {
            if index > 0 { text.append(.lineFeed) }
            text += line.bytes
        }
        origins = lines.map(\.origin)
        self.files = files
        self.warnings = warnings
    }

    /// The page `page`'s own text, read from `file`, with `lines` after it.
    init(page: [UInt8], file: String, appending lines: [Line], files: [String], warnings: [Diagnostic]) {
        var origins: [Origin] = []
        var number = 1
        origins.append(Origin(file: file, line: 1, indent: 0))
        page.withUnsafeBufferPointer { bytes in
            var at = 0
            while let feed = bytes.firstIndex(ofByte: .lineFeed, from: at) {
                number += 1
                origins.append(Origin(file: file, line: number, indent: 0))
                at = feed + 1
            }
        }
        self.init(lines, files: files, warnings: warnings)
        text = lines.isEmpty ? page : page + [.lineFeed] + text
        self.origins = origins + (self.origins ?? [])
    }

    /// Appends `line` to `lines`, its bytes counted into `size`: past `limit` the page is
    /// refused (`what` pulled it in: "snippets", "includes").
    static func append(_ line: Line, to lines: inout [Line], size: inout Int, limit: Int, what: String) throws {
        size += line.bytes.count + 1
        guard size <= limit else {
            throw ConversionError.refused(
                SourceLocation(file: line.origin.file, line: line.origin.line, column: 1),
                "the page with its \(what) is larger than the input limit (\(limit) bytes, --max-input-size)")
        }
        lines.append(line)
    }

    /// Where `location`, in the text as read from the page `file`, was written.
    func origin(of location: SourceLocation, page file: String) -> SourceLocation {
        guard let origins, Path.same(location.file, file), location.line >= 1, location.line <= origins.count else { return location }
        let origin = origins[location.line - 1]
        let column = location.column > origin.indent ? location.column - origin.indent : min(location.column, 1)
        return SourceLocation(file: origin.file, line: origin.line, column: column)
    }

    /// `conversion` of the text as the page `file`, with every location put back where
    /// it was written and the warnings of the expansion first.
    func relocated(_ conversion: Conversion, page file: String) -> Conversion {
        var conversion = conversion
        conversion.warnings = warnings + conversion.warnings.map { Diagnostic(origin(of: $0.location, page: file), $0.message) }
        conversion.includedFiles = files
        if origins != nil, let links = conversion.facts?.links {
            conversion.facts?.links = links.map { link in
                let at = origin(of: SourceLocation(file: file, line: link.line, column: link.column), page: file)
                return LinkFact(target: link.target, url: link.url, line: at.line, column: at.column, file: Path.same(at.file, file) ? nil : at.file)
            }
        }
        return conversion
    }

    /// `error`, met reading the text as the page `file`, located where it was written.
    func relocated(_ error: any Error, page file: String) -> any Error {
        switch error as? ConversionError {
        case .malformed(let at, let reason)?: ConversionError.malformed(origin(of: at, page: file), reason)
        case .invalid(let at, let reason)?: ConversionError.invalid(origin(of: at, page: file), reason)
        case .refused(let at, let reason)?: ConversionError.refused(origin(of: at, page: file), reason)
        default: error
        }
    }
}
