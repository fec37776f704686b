/// Patterns in gitignore's syntax, as mkdocs reads `exclude_docs` and `not_in_nav`: with
/// pathspec's `GitIgnoreSpec`, whose translation of each pattern into a regular expression
/// this follows step by step (pathspec 1.1, `patterns/gitignore/spec.py`), and whose
/// matching rule it keeps: on a path relative to the docs folder, the last pattern that
/// matches the path itself decides; when none does, the last one that matches a folder
/// above it.
///
/// A blank line, a `#` comment and `/` alone are no pattern; `!` negates; a pattern with a
/// `/` before its end is anchored at the folder, one without matches at any depth; a
/// trailing `/` matches what is inside a folder; `*`, `?`, `[…]` and `**` as in git.
struct GitIgnorePatterns: Sendable {
    private struct Pattern: @unchecked Sendable {
        // (Unchecked: a `Regex` is immutable once made, and matched without shared state.)
        let regex: Regex<AnyRegexOutput>
        /// False for a negated (`!`) pattern.
        let include: Bool
    }

    private let patterns: [Pattern]

    /// mkdocs' own exclusions, before a project's `exclude_docs`: hidden files and a
    /// `templates` folder at the top.
    static let mkDocsDefaults = ".*\n/templates/"

    /// The patterns of `text`, one a line; `invalid` is told each line that is not one
    /// (an escape at its end, a pattern that stands for nothing), which is then ignored.
    init(_ text: String, invalid: (String) -> Void = { _ in }) {
        var patterns: [Pattern] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var pattern = String(line)
            if pattern.hasSuffix("\r") { pattern.removeLast() }
            guard let (source, include) = Self.regex(of: pattern) else { continue }
            guard let source, let regex = try? Regex(source) else {
                invalid(pattern)
                continue
            }
            patterns.append(Pattern(regex: regex, include: include))
        }
        self.patterns = patterns
    }

    private init(patterns: [Pattern]) { self.patterns = patterns }

    /// These patterns, then `others`' (which decide over these where both match).
    func followed(by others: GitIgnorePatterns?) -> GitIgnorePatterns {
        GitIgnorePatterns(patterns: patterns + (others?.patterns ?? []))
    }

    /// Whether `path` (relative to the docs folder, `/` between its parts) is matched.
    func matches(_ path: String) -> Bool {
        // (From the last pattern back, as pathspec does: the first that matches the path
        // itself decides; else the last that matches a folder above it.)
        var byFolder: Bool?
        for pattern in patterns.reversed() {
            guard let match = try? pattern.regex.firstMatch(in: path) else { continue }
            guard match.output["folder"]?.range == nil else {
                byFolder = byFolder ?? pattern.include
                continue
            }
            return pattern.include
        }
        return byFolder ?? false
    }

    // MARK: - From a pattern to a regular expression (pathspec's `pattern_to_regex`)

    private static let folderMark = "(?<folder>/)"

    /// The regular expression of one line and whether it includes (false: `!`); nil for a
    /// line that is no pattern, and a nil expression for an invalid one.
    private static func regex(of line: String) -> (String?, Bool)? {
        var pattern = line
        if !pattern.hasSuffix("\\ ") {
            while pattern.last?.isWhitespace == true { pattern.removeLast() }
        }
        guard !pattern.isEmpty, !pattern.hasPrefix("#"), pattern != "/" else { return nil }
        let include = !pattern.hasPrefix("!")
        if !include { pattern.removeFirst() }
        var segments = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let isFolder = segments.last == ""
        // Normalized as pathspec does: anchored when a `/` starts it; a single name (or
        // `name/`) matches at any depth; a trailing `/` matches what is inside.
        if segments.first == "" {
            segments.removeFirst()
        } else if segments.count == 1 || (segments.count == 2 && segments[1].isEmpty), segments[0] != "**" {
            segments.insert("**", at: 0)
        }
        guard !segments.isEmpty else { return (nil, include) }
        if segments.last == "" { segments[segments.count - 1] = "**" }
        var index = segments.count - 1
        while index > 0 {
            if segments[index - 1] == "**" && segments[index] == "**" { segments.remove(at: index) }
            index -= 1
        }
        switch segments {
        case ["**"]: return (isFolder ? folderMark : ".", include)
        case ["**", "*"]: return (".", include)
        case ["**", "*", "**"]: return (isFolder ? folderMark : "/", include)
        default: break
        }
        var regex = ""
        var needSlash = false
        for (index, segment) in segments.enumerated() {
            if segment == "**" {
                if index == 0 {
                    regex += "^(?:.+/)?"
                } else if index < segments.count - 1 {
                    regex += "(?:/.+)?"
                    needSlash = true
                } else {
                    regex += isFolder ? folderMark : "/"
                }
                continue
            }
            if index == 0 { regex += "^" }
            if needSlash { regex += "/" }
            if segment == "*" {
                regex += "[^/]+"
            } else {
                // (An invalid range makes git drop the pattern: it is no pattern then.)
                switch glob(segment) {
                case .some(.some(let part)): regex += part
                case .some(.none): return nil
                case .none: return (nil, include)
                }
            }
            if index == segments.count - 1 { regex += "(?:" + folderMark + "|$)" }
            needSlash = true
        }
        return (regex, include)
    }

    /// One segment's glob as a regular expression (pathspec's `_translate_segment_glob`):
    /// `.some(nil)` for an invalid range (`[a`), nil for an escape at the end.
    private static func glob(_ segment: String) -> String?? {
        let characters = Array(segment)
        var regex = ""
        var escape = false
        var at = 0
        while at < characters.count {
            let character = characters[at]
            at += 1
            if escape {
                escape = false
                regex += escaped(character)
            } else if character == "\\" {
                escape = true
            } else if character == "*" {
                regex += "[^/]*"
            } else if character == "?" {
                regex += "[^/]"
            } else if character == "[" {
                var end = at
                if end < characters.count, characters[end] == "!" || characters[end] == "^" { end += 1 }
                if end < characters.count, characters[end] == "]" { end += 1 }
                while end < characters.count, characters[end] != "]" { end += 1 }
                guard end < characters.count else { return .some(nil) }
                end += 1
                var set = "["
                if characters[at] == "!" || characters[at] == "^" {
                    set += "^"
                    at += 1
                }
                set += String(characters[at..<end]).replacing("\\", with: "\\\\")
                regex += set
                at = end
            } else {
                regex += escaped(character)
            }
        }
        return escape ? nil : .some(regex)
    }

    /// A character matched as itself (ASCII punctuation escaped, as `re.escape` does).
    private static func escaped(_ character: Character) -> String {
        guard character.isASCII, !character.isLetter, !character.isNumber, character != "_" else { return String(character) }
        return "\\" + String(character)
    }
}
