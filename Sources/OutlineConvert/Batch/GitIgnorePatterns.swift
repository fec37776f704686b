/// Patterns in gitignore's syntax, as mkdocs reads `exclude_docs` and `not_in_nav`: with
/// pathspec's `GitIgnoreSpec` (pathspec 1.1, `patterns/gitignore/spec.py`), whose reading
/// of each pattern this follows step by step, and whose matching rule it keeps: on a path
/// relative to the docs folder, the last pattern that matches the path itself decides;
/// when none does, the last one that matches a folder above it.
///
/// A blank line, a `#` comment and `/` alone are no pattern; `!` negates; a pattern with a
/// `/` before its end is anchored at the folder, one without matches at any depth; a
/// trailing `/` matches what is inside a folder; `*`, `?`, `[…]` and `**` as in git.
///
/// pathspec turns each pattern into a regular expression; here the same expression is
/// matched part by part (`**` as whole parts, a glob within one), with each step's result
/// kept, so that no pattern can take more than (parts of the pattern × parts of the path)
/// steps: a configuration cannot stall a build as a backtracking expression can.
package struct GitIgnorePatterns: Sendable {
    /// One pattern, read.
    private struct Pattern: Sendable {
        enum Shape: Sendable {
            /// Any path (`**`, `**/*`).
            case any
            /// Any path below a folder (`**/`, `*/`, `*/**`), `byFolder` for a trailing `/`.
            case nested(byFolder: Bool)
            /// Parts to match in order.
            case parts([Part], isFolder: Bool)
        }

        enum Part: Sendable {
            /// `**`: any number of whole parts.
            case anyParts
            /// One part of the path, matched by a glob.
            case glob([GlobItem])
        }

        let shape: Shape
        /// False for a negated (`!`) pattern.
        let include: Bool
    }

    /// One step of a glob, by Unicode scalars (as Python's `re` reads a pattern).
    private enum GlobItem: Sendable {
        case scalar(Unicode.Scalar)
        case anyOne
        case anyRun
        /// `[…]`: its single scalars and ranges, negated by `!` or `^`.
        case set(negated: Bool, ranges: [ClosedRange<Unicode.Scalar>])
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
            switch Self.read(pattern) {
            case .none: continue
            case .some(.none): invalid(pattern)
            case .some(.some(let read)): patterns.append(read)
            }
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
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        // (From the last pattern back, as pathspec does: the first that matches the path
        // itself decides; else the last that matches a folder above it.)
        var byFolder: Bool?
        for pattern in patterns.reversed() {
            switch Self.match(pattern.shape, parts) {
            case .none: continue
            case .folder: byFolder = byFolder ?? pattern.include
            case .path: return pattern.include
            }
        }
        return byFolder ?? false
    }

    // MARK: - Matching

    private enum Match { case none, folder, path }

    private static func match(_ shape: Pattern.Shape, _ path: [[Unicode.Scalar]]) -> Match {
        switch shape {
        case .any:
            return path.count == 1 && path[0].isEmpty ? .none : .path
        case .nested(let byFolder):
            return path.count < 2 ? .none : byFolder ? .folder : .path
        case .parts(let parts, let isFolder):
            var memo: [Int: Match] = [:]
            return match(parts, isFolder: isFolder, 0, path, 0, memo: &memo)
        }
    }

    /// Whether `parts[part...]` match `path[at...]`, tried in the order pathspec's
    /// expression tries them (the first way found decides whether it matched through a
    /// folder): `**` first takes as many parts as it can, and a glob at the end first
    /// takes a folder, then the path's end.
    private static func match(
        _ parts: [Pattern.Part], isFolder: Bool, _ part: Int, _ path: [[Unicode.Scalar]], _ at: Int, memo: inout [Int: Match]
    ) -> Match {
        let key = part * (path.count + 1) + at
        if let known = memo[key] { return known }
        var result = Match.none
        let isLast = part == parts.count - 1
        switch parts[part] {
        case .anyParts where isLast:
            // (What is inside a folder: at least one part more.)
            result = at < path.count ? (isFolder ? .folder : .path) : .none
        case .anyParts:
            var take = path.count - at
            while take >= 0 {
                result = match(parts, isFolder: isFolder, part + 1, path, at + take, memo: &memo)
                if result != .none { break }
                take -= 1
            }
        case .glob(let items):
            guard at < path.count, glob(items, matches: path[at]) else { break }
            if isLast {
                result = at + 1 < path.count ? .folder : .path
            } else {
                result = match(parts, isFolder: isFolder, part + 1, path, at + 1, memo: &memo)
            }
        }
        memo[key] = result
        return result
    }

    /// Whether a glob matches a whole part: `*` by the classic walk that returns to the
    /// last star, in (glob × part) steps at most.
    private static func glob(_ items: [GlobItem], matches text: [Unicode.Scalar]) -> Bool {
        var (i, t) = (0, 0)
        var star: (item: Int, text: Int)?
        while t < text.count {
            if i < items.count, case .anyRun = items[i] {
                star = (i, t)
                i += 1
            } else if i < items.count, matchesOne(items[i], text[t]) {
                i += 1
                t += 1
            } else if let last = star {
                star = (last.item, last.text + 1)
                (i, t) = (last.item + 1, last.text + 1)
            } else {
                return false
            }
        }
        while i < items.count, case .anyRun = items[i] { i += 1 }
        return i == items.count
    }

    private static func matchesOne(_ item: GlobItem, _ scalar: Unicode.Scalar) -> Bool {
        switch item {
        case .scalar(let own): return own == scalar
        case .anyOne: return true
        case .anyRun: return false
        case .set(let negated, let ranges): return ranges.contains { $0.contains(scalar) } != negated
        }
    }

    // MARK: - Reading a pattern (pathspec's `pattern_to_regex`)

    /// The pattern of one line; nil for a line that is no pattern, `.some(nil)` for an
    /// invalid one.
    private static func read(_ line: String) -> Pattern?? {
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
        guard !segments.isEmpty else { return .some(nil) }
        if segments.last == "" { segments[segments.count - 1] = "**" }
        var index = segments.count - 1
        while index > 0 {
            if segments[index - 1] == "**" && segments[index] == "**" { segments.remove(at: index) }
            index -= 1
        }
        switch segments {
        case ["**"]: return Pattern(shape: isFolder ? .nested(byFolder: true) : .any, include: include)
        case ["**", "*"]: return Pattern(shape: .any, include: include)
        case ["**", "*", "**"]: return Pattern(shape: .nested(byFolder: isFolder), include: include)
        default: break
        }
        var parts: [Pattern.Part] = []
        for segment in segments {
            if segment == "**" {
                parts.append(.anyParts)
            } else if segment == "*" {
                // (`[^/]+`: a part that is not empty.)
                parts.append(.glob([.anyOne, .anyRun]))
            } else {
                switch glob(segment) {
                case .some(.some(let items)): parts.append(.glob(items))
                case .some(.none): return nil  // (an invalid range: git drops the pattern)
                case .none: return .some(nil)
                }
            }
        }
        return Pattern(shape: .parts(parts, isFolder: isFolder), include: include)
    }

    /// One segment's glob (pathspec's `_translate_segment_glob`): `.some(nil)` for an
    /// invalid range (`[a`), nil for an escape at the end.
    private static func glob(_ segment: String) -> [GlobItem]?? {
        let scalars = Array(segment.unicodeScalars)
        var items: [GlobItem] = []
        var escape = false
        var at = 0
        while at < scalars.count {
            let scalar = scalars[at]
            at += 1
            if escape {
                escape = false
                items.append(.scalar(scalar))
            } else if scalar == "\\" {
                escape = true
            } else if scalar == "*" {
                items.append(.anyRun)
            } else if scalar == "?" {
                items.append(.anyOne)
            } else if scalar == "[" {
                var end = at
                if end < scalars.count, scalars[end] == "!" || scalars[end] == "^" { end += 1 }
                if end < scalars.count, scalars[end] == "]" { end += 1 }
                while end < scalars.count, scalars[end] != "]" { end += 1 }
                guard end < scalars.count else { return .some(nil) }
                let negated = scalars[at] == "!" || scalars[at] == "^"
                items.append(.set(negated: negated, ranges: ranges(scalars[(negated ? at + 1 : at)..<end])))
                at = end + 1
            } else {
                items.append(.scalar(scalar))
            }
        }
        return escape ? nil : .some(items)
    }

    /// The scalars and ranges of a set's inside (`a-z0-9_`), as a regular expression's
    /// class reads them; a `\` stands for itself (pathspec doubles it).
    private static func ranges(_ inside: ArraySlice<Unicode.Scalar>) -> [ClosedRange<Unicode.Scalar>] {
        var ranges: [ClosedRange<Unicode.Scalar>] = []
        var at = inside.startIndex
        while at < inside.endIndex {
            let low = inside[at]
            if at + 2 < inside.endIndex, inside[at + 1] == "-", low <= inside[at + 2] {
                ranges.append(low...inside[at + 2])
                at += 3
            } else {
                ranges.append(low...low)
                at += 1
            }
        }
        return ranges
    }
}
