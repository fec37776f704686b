/// pymdownx snippets (SPEC §3.1.3, docs/formats.md): in an mkdocs project that turns them
/// on, the `--8<--` lines of a page are replaced by the files (line ranges, sections) they
/// name before the page is read as Markdown, as pymdown-extensions' `SnippetPreprocessor`
/// replaces them: its own `run` is the oracle (Tests/oracle/test_snippets.py). Two things
/// differ, for safety: nothing outside the project's folder is read, whatever
/// `restrict_base_path` says (SPEC §6.3), and no address is downloaded (`url_download`).
/// A snippet that cannot be used is a located error with `check_paths`, else a located
/// warning (pymdownx leaves it out without a word).
struct SnippetIncludes: Sendable, Equatable {
    /// A file named in the configuration, with where it is named.
    struct Named: Sendable, Equatable {
        var path: String
        var location: SourceLocation
    }

    /// `base_path`: where snippets are looked for, in order, each as written from the
    /// current folder: a folder, or a file (which only its own name reaches).
    var basePaths: [String]
    /// The project's folder: nothing outside it is read.
    var project: String
    /// `auto_append`: snippets added at the end of every page.
    var autoAppend: [Named] = []
    /// `check_paths`: a snippet that is not found stops the page.
    var checkPaths = false
    /// `restrict_base_path`: a snippet's path may not climb out of its base path.
    var restrictBasePath = true
    /// `dedent_subsections`: line ranges and sections lose their common indentation.
    var dedentSubsections = false
    /// `url_download`: pymdownx would download addresses; they are left out, with a warning.
    var downloadsAddresses = false

    /// The page `bytes` (read from `file`) with its snippets in place; at most `limit`
    /// bytes in all.
    func expand(_ bytes: [UInt8], file: String, limit: Int) throws -> ExpandedSource {
        let pageHasSnippets = bytes[...].contains(bytes: "8<")
        guard !autoAppend.isEmpty || pageHasSnippets else { return ExpandedSource(unchanged: bytes) }
        typealias Line = ExpandedSource.Line
        var expander = Expander(settings: self, limit: limit)
        // (A page without snippets of its own is kept whole, its appended snippets after it:
        // most pages of a project that appends some.)
        var lines: [Line] = []
        if pageHasSnippets {
            lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated().map {
                Line(bytes: Array($0.element), origin: .init(file: file, line: $0.offset + 1, indent: 0))
            }
        } else {
            expander.size = bytes.count + 1
        }
        if let first = autoAppend.first {
            // (As pymdownx appends them: a block of their paths after two blank lines.)
            func line(_ text: String, _ at: SourceLocation) -> Line {
                Line(bytes: Array(text.utf8), origin: .init(file: at.file, line: at.line, indent: 0))
            }
            lines += [line("", first.location), line("", first.location), line("-8<-", first.location)]
            for (index, named) in autoAppend.enumerated() {
                if index > 0 { lines.append(line("", named.location)) }
                lines.append(line(named.path, named.location))
            }
            lines += [line("-8<-", first.location), line("", first.location)]
        }
        let expanded = try expander.parse(lines, file: nil, isSection: false)
        guard pageHasSnippets else {
            return ExpandedSource(page: bytes, file: file, appending: expanded, files: expander.files, warnings: expander.warnings)
        }
        return ExpandedSource(expanded, files: expander.files, warnings: expander.warnings)
    }

    /// One page's expansion: the snippets open around the current one (never read again
    /// inside themselves), the files read and the warnings.
    private struct Expander {
        typealias Line = ExpandedSource.Line
        let settings: SnippetIncludes
        let limit: Int
        var size = 0
        var open: Set<PathKey> = []
        var files: [String] = []
        var warnings: [Diagnostic] = []
        /// The project's folder, every link resolved.
        let project: String?

        init(settings: SnippetIncludes, limit: Int) {
            self.settings = settings
            self.limit = limit
            project = Files.realPath(settings.project)
        }

        /// pymdownx's `parse_snippets`: `lines` (of the snippet `file`, nil for the page)
        /// with every snippet line replaced by its snippet, section markers taken out.
        mutating func parse(_ lines: [Line], file: String?, isSection: Bool) throws -> [Line] {
            if let file { open.insert(PathKey(file)) }
            defer { if let file { open.remove(PathKey(file)) } }
            var out: [Line] = []
            var block = false
            for var line in lines {
                // (Most lines hold no `8<`: outside a block of paths, they are kept as they are.)
                if !block, !SnippetSyntax.holdsScissors(line.bytes) {
                    try append(line, to: &out)
                    continue
                }
                let path: (text: String, indent: [UInt8], column: Int)
                if let marker = SnippetSyntax.marker(in: line.bytes) {
                    if marker.isEscaped {
                        line.bytes = SnippetSyntax.removingFirstSemicolon(line.bytes)
                        try append(line, to: &out)
                        continue
                    }
                    guard let inline = marker.path else {
                        block.toggle()
                        continue
                    }
                    // (A one-line snippet directly inside a block is ignored, as pymdownx does.)
                    if block { continue }
                    path = (inline.text, marker.indent, inline.column)
                } else if block {
                    let (indent, text, column) = SnippetSyntax.blockPath(line.bytes)
                    if text.isEmpty {
                        try append(Line(bytes: [], origin: line.origin), to: &out)
                        continue
                    }
                    path = (text, indent, column)
                } else {
                    if !isSection, let section = SnippetSyntax.sectionMarker(in: line.bytes) {
                        guard let unescaped = section.unescaped else { continue }
                        line.bytes = unescaped
                    }
                    try append(line, to: &out)
                    continue
                }
                if path.text.hasPrefix(";") { continue }  // (commented out)
                let at = SourceLocation(file: line.origin.file, line: line.origin.line, column: line.origin.indent + path.column)
                let indent = SnippetSyntax.expandingTabs(path.indent)
                for included in try snippet(path.text, at: at) {
                    try append(
                        Line(
                            bytes: indent + included.bytes,
                            origin: .init(file: included.origin.file, line: included.origin.line, indent: included.origin.indent + indent.count)),
                        to: &out)
                }
            }
            return out
        }

        private mutating func append(_ line: Line, to out: inout [Line]) throws {
            try ExpandedSource.append(line, to: &out, size: &size, limit: limit, what: "snippets")
        }

        /// The lines the snippet line naming `spec` stands for, expanded in turn; none when
        /// it cannot be used (a warning, or an error with `check_paths`).
        private mutating func snippet(_ spec: String, at: SourceLocation) throws -> [Line] {
            func fail(_ message: String, always: Bool = false) throws -> [Line] {
                if settings.checkPaths && !always { throw ConversionError.invalid(at, message + " (check_paths)") }
                warnings.append(Diagnostic(at, always ? message : message + "; it is left out"))
                return []
            }
            guard let target = SnippetSyntax.Target(spec) else { return try fail("the snippet line names no file") }
            let lower = target.path.lowercased()
            if settings.downloadsAddresses, lower.hasPrefix("https://") || lower.hasPrefix("http://") {
                return try fail(
                    "the snippet '\(Quote.snippet(target.path))' is an address; snippets are never downloaded, it is left out", always: true)
            }
            let found: (written: String, absolute: String)
            switch locate(target.path) {
            case .missing:
                return try fail(
                    "the snippet '\(Quote.snippet(target.path))' is not found in base_path (\(settings.basePaths.joined(separator: ", ")))")
            case .outside:
                return try fail("the snippet '\(Quote.snippet(target.path))' is outside the project's folder; it is not read", always: true)
            case .found(let written, let absolute): found = (written, absolute)
            }
            // (A snippet inside itself, or past pymdownx's depth, is left out, as there.)
            if open.contains(PathKey(found.absolute)) || open.count >= 64 {
                let why = open.count >= 64 ? "is 64 snippets deep" : "is already being included here"
                warnings.append(Diagnostic(at, "the snippet '\(Quote.snippet(found.written))' \(why); it is left out"))
                return []
            }
            let bytes: [UInt8]
            do {
                bytes = try Files.read(found.absolute, limit: max(limit - size, 0))
            } catch {
                return try fail(
                    "the snippet '\(Quote.snippet(found.written))' cannot be read: \(ConversionError.unexpected(error, file: found.written).reason)")
            }
            if !files.contains(where: { Path.same($0, found.absolute) }) { files.append(found.absolute) }
            var lines = SnippetSyntax.lines(of: bytes).enumerated().map {
                Line(bytes: $0.element, origin: .init(file: found.written, line: $0.offset + 1, indent: 0))
            }
            if !lines.isEmpty, !target.ranges.isEmpty {
                lines = dedentedIfAsked(SnippetSyntax.select(target.ranges, count: lines.count).map { lines[$0] }, at: at)
            } else if !lines.isEmpty, let section = target.section {
                guard let selected = SnippetSyntax.section(section, of: lines.map(\.bytes)) else {
                    if settings.checkPaths {
                        throw ConversionError.invalid(
                            at, "the snippet section '\(Quote.snippet(section))' is not in '\(Quote.snippet(found.written))' (check_paths)")
                    }
                    return dedentedIfAsked([], at: at)
                }
                lines = dedentedIfAsked(selected.map { Line(bytes: $0.bytes, origin: lines[$0.index].origin) }, at: at)
            }
            return try parse(lines, file: found.absolute, isSection: target.section != nil)
        }

        /// With `dedent_subsections`, `lines` dedented as `textwrap.dedent` does, which makes
        /// one empty line of none (that line from `at`).
        private func dedentedIfAsked(_ lines: [Line], at: SourceLocation) -> [Line] {
            guard settings.dedentSubsections else { return lines }
            if lines.isEmpty { return [Line(bytes: [], origin: .init(file: at.file, line: at.line, indent: 0))] }
            return zip(lines, SnippetSyntax.dedented(lines.map(\.bytes))).map { Line(bytes: $0.1, origin: $0.0.origin) }
        }

        private enum Location {
            case found(written: String, absolute: String)
            case outside
            case missing
        }

        /// pymdownx's `get_snippet_path`: the first base path holding `path`.
        private func locate(_ path: String) -> Location {
            for base in settings.basePaths {
                let absoluteBase = BatchPlan.absolute(base)
                guard let realBase = Files.realPath(absoluteBase) else { continue }
                let folder = Files.isDirectory(realBase) ? base : Path.parent(base)
                let written = path.hasPrefix("/") || folder == "." ? path : Path.join(folder, path)
                let absolute: String
                if Files.isDirectory(realBase) {
                    absolute = BatchPlan.absolute(path, in: absoluteBase)
                    if settings.restrictBasePath, !Path.isWithin(absolute, absoluteBase) || Path.same(absolute, absoluteBase) { continue }
                    guard Files.realPath(absolute) != nil else { continue }
                } else {
                    absolute = BatchPlan.absolute(path, in: Path.parent(absoluteBase))
                    guard let real = Files.realPath(absolute), Path.same(real, realBase) else { continue }
                }
                guard let project, let real = Files.realPath(absolute), Path.isWithin(real, project) else { return .outside }
                return .found(written: written, absolute: absolute)
            }
            return .missing
        }
    }
}
