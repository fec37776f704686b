#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One file of a batch: where it is read and where its output goes.
struct BatchJob: Equatable, Sendable {
    /// The input path, as found (under the folder the user named).
    package let input: String
    /// The output path: the input's place mirrored under the output folder.
    package let output: String
    /// The folder the input was found in (the folder named, or a named file's folder): the
    /// input's place under it is its output's place under the output folder, and links may
    /// not leave it.
    package let root: String

    /// A job; `root` defaults to the input's folder.
    package init(input: String, output: String, root: String? = nil) {
        self.input = input
        self.output = output
        self.root = root ?? Path.parent(input)
    }
}

/// What a batch will do: the jobs in folder order, what was passed over and why, and what
/// could not be looked at. Inside a folder, regular files are chosen by extension and then
/// by content: an `.xml` whose root is not `<outline>` (a pom.xml, an SVG) is skipped, as
/// are hidden files and folders, the output folder itself, symbolic links that would loop,
/// and anything that is not a regular file (a FIFO, a device). A folder that cannot be read
/// or a name that is not UTF-8 is a failure of the run, never a silent skip. A file named
/// on the command line is always tried.
package struct BatchPlan: Sendable {
    /// The files to convert, in folder order.
    private(set) var jobs: [BatchJob] = []
    /// Paths passed over, with the reason (`-v` lists them).
    package private(set) var skipped: [(path: String, reason: String)] = []
    /// What could not be looked at: each fails the run (and `--check`).
    private(set) var failures: [ConversionError] = []
    /// Symbolic links not followed because they lead outside their folder.
    package private(set) var warnings: [Diagnostic] = []
    /// Every input, by identity: no output may ever be written over one.
    private(set) var inputIdentities: Set<FileIdentity> = []

    /// Two inputs would write the same output, or an output would overwrite an input.
    struct Conflict: Error, CustomStringConvertible {
        /// Every conflict, one per line.
        let description: String
    }

    /// Plans `inputs` (files and folders) into `outputDirectory`, outputs named with `format`'s extension.
    /// In a folder, the files `excluded` matches (from the folder) are skipped: what an
    /// mkdocs project leaves out of its site.
    package init(inputs: [String], outputDirectory: String, format: OutputFormat, excluding excluded: GitIgnorePatterns? = nil) throws {
        let outputRoot = Self.resolved(outputDirectory)
        for input in inputs {
            var info = stat()
            if stat(input, &info) == 0, FileKind(mode: info.st_mode).unreadableKind == "a directory" {
                var walker = TreeWalker(outputRoot: outputRoot)
                walker.walk(input)
                skipped += walker.skipped
                failures += walker.failures
                warnings += walker.warnings
                let readmes = format == .html ? Self.indexReadmes(walker.files.map(\.relative)) : []
                let hidden = WikiIndex.app(of: input) == .logseq ? Self.logseqHidden(root: input) : []
                for file in walker.files {
                    let relative = String(file.relative.trimmingPrefix("./"))
                    if let rule = hidden.first(where: { relative == $0 || relative.hasPrefix($0 + "/") }) {
                        skipped.append((file.path, rule == "logseq" ? "Logseq's own files" : "hidden in logseq/config.edn"))
                        continue
                    }
                    if excluded?.matches(relative) == true {
                        skipped.append((file.path, "excluded by mkdocs.yml (exclude_docs, or mkdocs' own templates/)"))
                        continue
                    }
                    let output =
                        readmes.contains(file.relative)
                        ? Path.join(outputDirectory, String(Path.join(Path.parent(file.relative), "index.html").trimmingPrefix("./")))
                        : Self.outputPath(outputDirectory, file.relative, format)
                    jobs.append(BatchJob(input: file.path, output: output, root: input))
                    inputIdentities.insert(file.identity)  // (from the walk's own look at it)
                }
            } else {
                let name = Path.lastComponent(input)
                jobs.append(BatchJob(input: input, output: Self.outputPath(outputDirectory, name, format)))
                if let identity = FileIdentity(path: input) { inputIdentities.insert(identity) }
            }
        }
        try checkConflicts(outputRoot: outputRoot, sharedFolder: format == .html ? Path.join(outputRoot, DocsSite.sharedFolder) : nil)
    }

    /// Adds the page `relative` of the folder `root` that no file holds (a graph's tag
    /// page), written where such a file would be, unless another input writes there.
    mutating func addGenerated(_ relative: String, root: String, outputDirectory: String, format: OutputFormat) {
        let output = Self.outputPath(outputDirectory, relative, format)
        guard !jobs.contains(where: { PathKey($0.output) == PathKey(output) }) else { return }
        jobs.append(BatchJob(input: Path.join(root, relative), output: output, root: root))
    }

    /// Outputs are compared by where they really land (symbolic links resolved) and with
    /// inputs by file identity, so no spelling of a path (`..`, a link, a hard link) can
    /// make an output overwrite an input or another output, and none is written outside
    /// `outputRoot` (resolved) through a symbolic link in the output folder.
    /// In a docs site, `sharedFolder` (resolved) holds the site's own files: no page may be
    /// written there.
    private func checkConflicts(outputRoot: String, sharedFolder: String?) throws {
        var byOutput: [PathKey: String] = [:]
        var problems: [String] = []
        var folders: [PathKey: String] = [:]  // each output folder resolved once
        let lookup = FileStatusLookup()
        for job in jobs {
            // An output is replaced by a rename, which replaces a final symbolic link rather
            // than following it: where it lands is its folder, resolved, plus its name.
            let parent = Path.parent(job.output)
            let folder = folders[PathKey(parent)] ?? Self.resolved(parent)
            folders[PathKey(parent)] = folder
            let name = Path.lastComponent(job.output)
            let key = Path.join(folder, name)
            if !Path.isWithin(folder, outputRoot) {
                problems.append(
                    "\(job.input) would write \(job.output), which a symbolic link in the output folder leads to \(key), outside it; remove the link")
                continue
            }
            if let sharedFolder, Path.isWithin(key, sharedFolder) {
                problems.append("\(job.input) would write \(job.output), in the folder of the site's own navigation and search files")
            }
            if let other = byOutput[PathKey(key)] {
                problems.append("\(other) and \(job.input) would both write \(job.output)")
            } else {
                byOutput[PathKey(key)] = job.input
            }
            if let info = lookup.status(of: name, in: parent), inputIdentities.contains(FileIdentity(info)) {
                problems.append("\(job.output) is an input (or another name for one); it would be overwritten")
            }
        }
        guard problems.isEmpty else { throw Conflict(description: problems.map(Quote.oneLine).joined(separator: "\n")) }
    }

    /// The READMEs (relative paths) that are their folder's index page in a site: a folder's
    /// `index.*` is its `index.html`, else its `README.md` is (as mkdocs, mdBook and GitHub
    /// show a folder), so that links to the folder land on it. One a folder: the first
    /// by name of its Markdown files named `README` in any case.
    static func indexReadmes(_ relatives: [String]) -> Set<String> {
        var hasIndex: Set<String> = []
        var readme: [String: String] = [:]
        for relative in relatives {
            let folder = Path.parent(relative)
            let stem = Path.deletingExtension(Path.lastComponent(relative)).lowercased()
            if stem == "index" { hasIndex.insert(folder) }
            if stem == "readme", InputFormat(pathExtension: Path.fileExtension(relative)) == .markdown,
                readme[folder].map({ relative < $0 }) ?? true
            {
                readme[folder] = relative
            }
        }
        return Set(readme.filter { !hasIndex.contains($0.key) }.values)
    }

    /// What a Logseq graph at `root` leaves out of its pages: its `logseq/` folder (settings,
    /// backups) and the paths its `config.edn` lists under `:hidden`.
    static func logseqHidden(root: String) -> [String] {
        var hidden = ["logseq"]
        guard let config = try? Files.read(Path.join(root, "logseq/config.edn"), limit: 1 << 20) else { return hidden }
        let text = String(decoding: config, as: UTF8.self)
        // `:hidden ["a" "b/c"]`, read as a vector of strings (comments are `;` lines).
        let lines = text.split(separator: "\n").filter { !$0.trimmed.hasPrefix(";") }.joined(separator: "\n")
        guard let key = lines.firstRange(of: ":hidden"), let open = lines[key.upperBound...].firstIndex(of: "["),
            let close = lines[open...].firstIndex(of: "]")
        else { return hidden }
        let inside = lines[lines.index(after: open)..<close]
        hidden += inside.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
            String($0.element).trimmingPrefix("/")
        }
        .map(String.init).filter { !$0.isEmpty }
        return hidden
    }

    private static func outputPath(_ directory: String, _ relative: String, _ format: OutputFormat) -> String {
        Path.join(directory, Path.deletingExtension(relative) + "." + format.fileExtension)
    }

    /// Where `path` really is: its deepest existing ancestor with every symbolic link
    /// resolved, followed by the components that do not exist yet.
    package static func resolved(_ path: String) -> String {
        let absolute = Self.absolute(path)
        var existing = absolute
        var missing: [String] = []
        while true {
            if let real = Files.realPath(existing) { return missing.reversed().reduce(real, Path.join) }
            guard existing != "/" else { return absolute }
            missing.append(Path.lastComponent(existing))
            existing = Path.parent(existing)
        }
    }

    /// The absolute path with `.`, `..` and repeated `/` removed, lexically (no file system
    /// look-ups: Foundation's `standardizingPath` resolves every symbolic link on the way).
    /// (`directory` defaults to the working directory, asked for only for a relative path.)
    static func absolute(_ path: String, in directory: String? = nil) -> String {
        var joined = path.utf8.first == UInt8(ascii: "/") ? path : (directory ?? Files.currentDirectory()) + "/" + path
        if Self.isNormal(&joined) { return joined }  // most paths: nothing to take out
        let full = Array(joined.utf8)
        var parts: [ArraySlice<UInt8>] = []
        for part in full.split(separator: UInt8(ascii: "/")) where part != [UInt8(ascii: ".")] {
            if part.elementsEqual("..".utf8) { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + String(decoding: Array(parts.joined(separator: [UInt8(ascii: "/")])), as: UTF8.self)
    }

    /// Whether an absolute path is already as `absolute` makes it: no empty, `.` or `..`
    /// part and no `/` at the end (a `/` followed by `/` or `.` sends it the long way).
    private static func isNormal(_ path: inout String) -> Bool {
        path.withUTF8 { bytes in
            guard bytes.count > 1, bytes[0] == UInt8(ascii: "/"), bytes[bytes.count - 1] != UInt8(ascii: "/") else { return false }
            for index in 0..<(bytes.count - 1) where bytes[index] == UInt8(ascii: "/") {
                if bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: ".") { return false }
            }
            return true
        }
    }
}

/// Walks a folder in name order (by bytes). A symbolic link is followed only when its
/// target lies inside the folder walked (docs/safety.md) and cannot loop; one that leads
/// outside is a warning, and nothing of its target is read. Names are read as bytes, so one
/// that is not UTF-8 is seen and reported. Each folder's real path is its parent's plus its
/// name (only a link is resolved), so the cost of a walk grows with the files, not with
/// the depth of the folders.
private struct TreeWalker {
    let outputRoot: String
    var files: [(path: String, relative: String, identity: FileIdentity)] = []
    var skipped: [(path: String, reason: String)] = []
    var failures: [ConversionError] = []
    var warnings: [Diagnostic] = []
    /// Real paths of the folders walked so far.
    private var visited: Set<PathKey> = []
    private let lookup = FileStatusLookup()
    /// The real path of the folder the walk started from.
    private var rootReal = ""
    private var rootName = ""

    init(outputRoot: String) { self.outputRoot = outputRoot }

    /// Walks the folder `root`.
    mutating func walk(_ root: String) {
        rootReal = BatchPlan.resolved(root)
        rootName = root
        walk(root, relative: "", real: rootReal)
    }

    private mutating func walk(_ directory: String, relative: String, real: String) {
        guard visited.insert(PathKey(real)).inserted else {
            skipped.append((directory, "already converted through another path (a symbolic link loop or alias)"))
            return
        }
        let names: [[UInt8]]
        do {
            names = try Files.entries(of: directory)
        } catch {
            failures.append(error)
            return
        }
        for bytes in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            if bytes.first == UInt8(ascii: ".") {
                skipped.append((Path.join(directory, String(decoding: bytes, as: UTF8.self)), "hidden"))
                continue
            }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                failures.append(
                    .io(
                        path: Path.join(directory, Quote.name(bytes: bytes)),
                        "the name is not valid UTF-8; rename the file (names appear in messages, links and the index)"))
                continue
            }
            let path = Path.join(directory, name)
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            guard var info = lookup.status(of: name, in: directory, following: false) else {
                failures.append(.io(path: path, "cannot be looked at: \(String(cString: strerror(errno)))"))
                continue
            }
            var entryReal = Path.join(real, name)
            if info.st_mode & S_IFMT == S_IFLNK {
                guard let target = Files.realPath(path), let followed = lookup.status(of: name, in: directory) else {
                    skipped.append((path, "a broken symbolic link"))
                    continue
                }
                let kind = FileKind(mode: followed.st_mode)
                let wanted = kind.unreadableKind == "a directory" || InputFormat(pathExtension: Path.fileExtension(path)) != nil
                guard Path.isWithin(target, rootReal) else {
                    if wanted {
                        warnings.append(
                            Diagnostic(
                                SourceLocation(file: path),
                                "a symbolic link to \(Quote.oneLine(target)), outside \(Quote.oneLine(rootName)); not followed, nothing of it is published"
                            ))
                    }
                    continue
                }
                (info, entryReal) = (followed, target)
            }
            switch FileKind(mode: info.st_mode) {
            case .directory:
                if Path.same(entryReal, outputRoot) {
                    skipped.append((path, "the output folder"))
                } else {
                    walk(path, relative: relativePath, real: entryReal)
                }
            case .regular:
                if let reason = Self.reasonToSkip(path) {
                    if reason != "not an outline format" { skipped.append((path, reason)) }
                } else {
                    files.append((path, relativePath, FileIdentity(info)))
                }
            case .other(let kind):
                if InputFormat(pathExtension: Path.fileExtension(path)) != nil {
                    skipped.append((path, "\(kind), not a regular file"))
                }
            }
        }
    }

    /// Nil for a file to convert; files of other types are left alone without a word. A
    /// file that cannot be opened is tried, so that its error is reported. Only formats that
    /// decide by content read the file's first bytes (a Markdown file is not read twice).
    private static func reasonToSkip(_ path: String) -> String? {
        guard let format = InputFormat(pathExtension: Path.fileExtension(path)) else {
            return "not an outline format"
        }
        return format.reader.reasonToSkip { (try? Files.head(of: path, count: 65_536))?[...] }
    }
}
