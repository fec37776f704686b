/// mdBook's includes (SPEC §6.2, docs/formats.md): in an mdBook project, `{{#include
/// file}}` (with `:3`, `:3:8`, `::8`, `:3:` or `:anchor`), `{{#rustdoc_include …}}` (the
/// lines left out kept as hidden `# ` lines) and `{{#playground file attrs}}` are replaced
/// by the file they name, from the including file's folder, before the page is read, as
/// mdBook's `links` preprocessor replaces them: inline, each line after the first behind
/// what came before the include on its line (a quote's `> `, a list's indentation); nested
/// up to 10 deep; `\{{#…}}` is kept as text. mdBook's own test book and its expected pages
/// are the oracle (Tests/oracle/test_mdbook_includes.py). Unlike mdBook, nothing outside
/// the book's folder is read; a file that cannot be read leaves the include as written,
/// with a located warning, as mdBook does with an error message. `{{#title …}}` is taken
/// out, and the last one is the page's `<title>` (`ExpandedSource.pageTitle`).
struct MdBookIncludes: Sendable, Equatable {
    /// The book's folder (the one holding `book.toml`): nothing outside it is read.
    var project: String

    /// The page `bytes` (read from `file`) with its includes in place; at most `limit`
    /// bytes in all.
    func expand(_ bytes: [UInt8], file: String, limit: Int) throws -> ExpandedSource {
        guard bytes[...].contains(bytes: "{{") else { return ExpandedSource(unchanged: bytes) }
        var expander = Expander(project: Files.realPath(BatchPlan.absolute(project)), limit: limit)
        let origins = (0...bytes.lazy.filter { $0 == .lineFeed }.count).map { ExpandedSource.Origin(file: file, line: $0 + 1, indent: 0) }
        let lines = try expander.replaceAll(bytes, origins: origins, folder: Path.parent(file), depth: 0)
        var expanded = ExpandedSource(lines, files: expander.files, warnings: expander.warnings)
        expanded.pageTitle = expander.title
        return expanded
    }

    private struct Expander {
        typealias Line = ExpandedSource.Line
        let project: String?
        let limit: Int
        var size = 0
        var files: [String] = []
        var warnings: [Diagnostic] = []
        /// The last `{{#title …}}` met, if any.
        var title: String?

        init(project: String?, limit: Int) {
            self.project = project
            self.limit = limit
        }

        /// mdBook's `replace_all`: `text` (whose lines come from `origins`) with every link
        /// in it replaced, paths from `folder` (as written from the current folder).
        mutating func replaceAll(_ text: [UInt8], origins: [ExpandedSource.Origin], folder: String, depth: Int) throws -> [Line] {
            var out: [Line] = []
            var lineIndex = 0
            var current = Line(bytes: [], origin: origins[0])
            var position = 0
            func copy(upTo end: Int) {
                while position < end {
                    if text[position] == .lineFeed {
                        out.append(current)
                        lineIndex += 1
                        current = Line(bytes: [], origin: origins[min(lineIndex, origins.count - 1)])
                    } else {
                        current.bytes.append(text[position])
                    }
                    position += 1
                }
            }
            for link in MdBookLinks.all(in: text) {
                copy(upTo: link.range.lowerBound)
                let origin = current.origin
                let at = SourceLocation(file: origin.file, line: origin.line, column: origin.indent + current.bytes.count + 1)
                let included: [Line]
                switch link.kind {
                case .escaped:
                    included = [Line(bytes: Array(text[(link.range.lowerBound + 1)..<link.range.upperBound]), origin: origin)]
                case .title(let text):
                    if !text.isEmpty { title = text }
                    included = []
                case .file(let path, let use):
                    guard let (written, absolute) = locate(path, from: folder, at: at), let bytes = read(written, absolute, at: at) else {
                        continue  // (left as written)
                    }
                    let selected = MdBookLinks.select(use, of: bytes, origin: origin, file: written)
                    if depth < 10 {
                        let nested = try replaceAll(selected.text, origins: selected.origins, folder: Path.parent(written), depth: depth + 1)
                        included = MdBookLinks.rustLines(nested)
                    } else {
                        warnings.append(Diagnostic(at, "includes are nested more than 10 deep here; this one is left out"))
                        included = []
                    }
                }
                // (Lines after the first go behind what came before the include on its line.)
                let prefix = current.bytes
                for (index, line) in included.enumerated() {
                    if index == 0 {
                        current.bytes += line.bytes
                    } else {
                        try add(current, to: &out)
                        current = Line(
                            bytes: prefix + line.bytes,
                            origin: .init(file: line.origin.file, line: line.origin.line, indent: line.origin.indent + prefix.count))
                    }
                }
                lineIndex += text[link.range].lazy.filter { $0 == .lineFeed }.count
                position = link.range.upperBound
            }
            copy(upTo: text.count)
            try add(current, to: &out)
            return out
        }

        private mutating func add(_ line: Line, to out: inout [Line]) throws {
            try ExpandedSource.append(line, to: &out, size: &size, limit: limit, what: "includes")
        }

        /// The file `path` names from `folder`, as written and absolute; nil (with a
        /// warning) when it is outside the book or missing.
        private mutating func locate(_ path: String, from folder: String, at: SourceLocation) -> (String, String)? {
            let written = path.hasPrefix("/") || folder == "." ? path : Path.join(folder, path)
            let absolute = BatchPlan.absolute(written)
            guard let real = Files.realPath(absolute) else {
                warnings.append(Diagnostic(at, "the included file '\(Quote.snippet(written))' is not found; the include is left as written"))
                return nil
            }
            guard let project, Path.isWithin(real, project) else {
                warnings.append(Diagnostic(at, "the included file '\(Quote.snippet(path))' is outside the book's folder; it is not read"))
                return nil
            }
            return (written, absolute)
        }

        private mutating func read(_ written: String, _ absolute: String, at: SourceLocation) -> [UInt8]? {
            do {
                let bytes = try Files.read(absolute, limit: max(limit - size, 0))
                if !files.contains(where: { Path.same($0, absolute) }) { files.append(absolute) }
                return bytes
            } catch {
                let reason = ConversionError.unexpected(error, file: written).reason
                warnings.append(
                    Diagnostic(at, "the included file '\(Quote.snippet(written))' cannot be read: \(reason); the include is left as written"))
                return nil
            }
        }
    }
}
