#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A project's own icons (`pymdownx.emoji`'s `custom_icons` in `mkdocs.yml`), found as
/// mkdocs-material's `twemoji` index finds them: every `.svg` file under each folder, at any
/// depth, named by its path from the folder without `.svg`, `/` read as `-`
/// (`overrides/.icons/bootstrap/alarm.svg` is `:bootstrap-alarm:`). The first folder
/// to name an icon gives it, and a project's icon goes before a bundled one of its name;
/// an emoji's name stays the emoji's.
/// As glob finds them: hidden files and folders are passed over. Nothing outside the
/// project is read: a folder outside it is a warning; a link leading outside is passed over.
/// A folder reached again through a link is not walked again.
enum CustomIcons {
    /// The deepest a folder of icons is walked.
    static let maxDepth = 32

    /// The store of the bundled icons and those of `folders` (paths from the project's
    /// `folder`, where mkdocs is run), shown as `shown(_:raw:)` shows them, with a warning
    /// for each folder not read.
    static func store(folders: [(path: String, location: SourceLocation)], project folder: String, raw: Bool) -> (IconStore, [Diagnostic]) {
        guard !folders.isEmpty else { return (IconStore(), []) }
        var found = Found()
        var warnings: [Diagnostic] = []
        let project = Files.realPath(folder) ?? BatchPlan.absolute(folder)
        for (path, location) in folders {
            let joined = path.hasPrefix("/") || folder == "." ? path : Path.join(folder, path)
            guard let real = Files.realPath(joined), Files.isDirectory(real), Path.isWithin(real, project) else {
                warnings.append(
                    Diagnostic(location, "custom_icons '\(Quote.snippet(path))' is not a folder of the project; its icons are not read"))
                continue
            }
            found.walk(real, name: "", depth: 0, project: project)
        }
        return (IconStore(custom: found.icons, fingerprint: found.stamps.joined(separator: "\u{0}"), raw: raw), warnings)
    }

    /// The icons found so far, and a stamp of each (name, file, size and time).
    private struct Found {
        var icons: [String: String] = [:]
        var stamps: [String] = []
        /// The folders walked, by device and inode: a link back to one is not walked again
        /// (two such links would make the walk grow without end).
        var walked: Set<[UInt64]> = []

        mutating func walk(_ folder: String, name prefix: String, depth: Int, project: String) {
            var info = stat()
            guard depth < CustomIcons.maxDepth, stat(folder, &info) == 0,
                walked.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted
            else { return }
            // (Sorted: of two files that make one name, `a/b-c.svg` and `a-b/c.svg`, the
            // same one wins every time.)
            for name in Files.names(in: folder).sorted() where !name.hasPrefix(".") {
                let path = Path.join(folder, name)
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFLNK {
                    guard let real = Files.realPath(path), Path.isWithin(real, project), stat(real, &info) == 0 else { continue }
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: walk(path, name: prefix + name + "-", depth: depth + 1, project: project)
                case S_IFREG where name.hasSuffix(".svg") && name.count > 4:
                    let icon = prefix + name.dropLast(4)
                    guard icons[icon] == nil, !Emoji.holdsShortcode(":" + icon + ":") else { continue }
                    icons[icon] = path
                    stamps.append("\(icon)\u{1}\(path)\u{1}\(info.st_size)\u{1}\(info.modifiedNanoseconds)")
                default: continue
                }
            }
        }
    }
}

extension CustomIcons {
    /// A project's icon as it shows inline: with `raw`, the file as it is (as mkdocs-material
    /// shows it); else as XML read back with only SVG's drawing elements and their
    /// attributes, so that an icon cannot run a script or load anything (no `on…` or
    /// `style` attribute, a link or `url(…)` only within the icon: `#id`). Nil when the file
    /// is not well-formed XML with an `svg` root.
    static func shown(_ bytes: [UInt8], raw: Bool) -> String? {
        guard !raw else { return String(validating: bytes, as: UTF8.self) }
        var builder = SafeSVG()
        return try? XMLReader.parse(bytes, file: "", into: &builder)
    }

    /// Writes back the SVG elements it is given, with their safe attributes.
    private struct SafeSVG: XMLBuilder {
        static let elements: Set<String> = [
            "svg", "g", "path", "circle", "ellipse", "line", "polyline", "polygon", "rect", "defs", "title", "desc", "symbol", "use",
            "linearGradient", "radialGradient", "stop", "clipPath", "mask", "pattern", "text", "tspan",
        ]

        func builds(_ name: String, inside parent: String?) -> Bool {
            Self.elements.contains(name) && (parent != nil || name == "svg")
        }

        mutating func build(_ element: XMLElement<String>) throws -> String {
            var svg = "<" + element.name
            for (name, value) in element.attributes where Self.isSafe(name, value) {
                svg += " " + name + "=\"" + CollapsibleBlocks.escaped(value) + "\""
            }
            svg += ">"
            for child in element.children {
                switch child {
                case .element(let inner): svg += inner.node ?? ""
                case .text(let text): svg += CollapsibleBlocks.escaped(text)
                }
            }
            return svg + "</" + element.name + ">"
        }

        /// Whether an attribute draws and nothing more: no handler or style, and any link
        /// or `url(…)` to a part of the icon itself.
        private static func isSafe(_ name: String, _ value: String) -> Bool {
            let lower = name.lowercased()
            guard !lower.hasPrefix("on"), lower != "style", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            else { return false }
            if lower == "href" { return value.hasPrefix("#") }
            let compact = value.lowercased().filter { !$0.isWhitespace }
            return !compact.contains("url(")
                || compact.split(separator: "url(", omittingEmptySubsequences: false).dropFirst().allSatisfy { $0.hasPrefix("#") }
        }
    }
}
