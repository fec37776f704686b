/// Finds pymdownx.magiclink's shorthand references in a text, as its patterns do
/// (pymdownx 10, GitHub): each pattern in its order of priority reads what the ones before
/// left, and what they took stands between (it is neither a letter, a word character, `@`
/// nor `/` to the patterns after):
///
/// 1. `@user/repo` (a repository): `(?<![a-zA-Z])@USER\b/REPO\b`;
/// 2. `@user`: `(?<![a-zA-Z])@USER\b`;
/// 3. `user/repo#1`, `repo#1` (also `!1`, `?1`, `@` and a commit, a comparison):
///    `(?<![@/])(?:\bUSER/)?REPO(?:[#!?][1-9][0-9]*|@SHA(?:\.{3}SHA)?)\b`;
/// 4. `#1`, `!1`, `?1` of the project, and its commits:
///    `(?<![a-zA-Z])[#!?][1-9][0-9]*\b` or `(?<![@/])\bSHA(?:\.{3}SHA)?\b`;
///
/// where USER is `[a-zA-Z\d](?:[-a-zA-Z\d_]{0,37}[a-zA-Z\d])?`, REPO
/// `[-._a-zA-Z\d]{0,99}[a-zA-Z\d]` and SHA 40 of `[a-f\d]`, `\b` as Python's (Unicode).
struct MagicLinks {
    let user: String
    let repo: String
    let normalizesSymbols: Bool

    /// A link found: where it is in the text, its text and its opening tag.
    struct Link {
        let range: Range<Int>
        let text: String
        let openingTag: String
    }

    /// Whether `text` may hold a reference: `#`, `!` or `?` before a digit, `@`, or a run of
    /// 40 hex digits (a cheap test before any text node is read).
    static func mayHold(_ text: ArraySlice<UInt8>) -> Bool {
        var hexRun = 0
        var previous: UInt8 = 0
        for byte in text {
            if byte == UInt8(ascii: "@") { return true }
            if byte.isASCIIDigit, previous == UInt8(ascii: "#") || previous == UInt8(ascii: "!") || previous == UInt8(ascii: "?") {
                return true
            }
            hexRun = isHex(byte) ? hexRun + 1 : 0
            if hexRun == 40 { return true }
            previous = byte
        }
        return false
    }

    /// The links in `text`, in order.
    func find(in text: [UInt8]) -> [Link] {
        let runs = Runs(text)
        var taken: [Link] = []
        for pattern in 1...4 {
            var found: [Link] = []
            // Each stretch between what was taken is read on its own.
            var start = 0
            for boundary in taken.map(\.range) + [text.count..<text.count] {
                found += matches(of: pattern, in: text, runs: runs, from: start, to: boundary.lowerBound)
                start = boundary.upperBound
            }
            taken = (taken + found).sorted { $0.range.lowerBound < $1.range.lowerBound }
        }
        return taken
    }

    private func matches(of pattern: Int, in text: [UInt8], runs: Runs, from start: Int, to end: Int) -> [Link] {
        var links: [Link] = []
        var at = start
        while at < end {
            if let link = match(pattern, in: text, runs: runs, at: at, start: start, end: end) {
                links.append(link)
                at = link.range.upperBound
            } else {
                at += 1
            }
        }
        return links
    }

    /// The match of `pattern` that starts at `at`, in the stretch `start..<end`.
    private func match(_ pattern: Int, in text: [UInt8], runs: Runs, at: Int, start: Int, end: Int) -> Link? {
        let before: UInt8? = at > start ? text[at - 1] : nil
        let afterLetter = before?.isASCIILetter ?? false
        let afterWord = at > start && isWord(text, at - 1)
        switch pattern {
        case 1:
            guard text[at] == UInt8(ascii: "@"), !afterLetter, let userEnd = runs.userBeforeSlash(from: at + 1, end: end),
                let repoEnd = runs.repoEnd(from: userEnd + 1, end: end, before: { isBoundary(text, $0, end) })
            else { return nil }
            let user = string(text[(at + 1)..<userEnd])
            let repo = string(text[(userEnd + 1)..<repoEnd])
            return link(at..<repoEnd, "repository", "\(user)/\(repo)", "https://github.com/\(user)/\(repo)", "GitHub Repository: \(user)/\(repo)")
        case 2:
            guard text[at] == UInt8(ascii: "@"), !afterLetter,
                let userEnd = runs.userEnd(from: at + 1, end: end, before: { isBoundary(text, $0, end) })
            else { return nil }
            let user = string(text[(at + 1)..<userEnd])
            return link(at..<userEnd, "mention", "@" + user, "https://github.com/\(user)", "GitHub User: \(user)")
        case 3:
            guard before != UInt8(ascii: "@"), before != UInt8(ascii: "/"), Runs.isRepoByte(text[at]) else { return nil }
            // With a user first (`\b` before it), then without.
            if !afterWord, let userEnd = runs.userBeforeSlash(from: at, end: end),
                let found = reference(in: text, runs: runs, user: string(text[at..<userEnd]), repoStart: userEnd + 1, start: at, end: end)
            {
                return found
            }
            return reference(in: text, runs: runs, user: nil, repoStart: at, start: at, end: end)
        default:
            if [UInt8(ascii: "#"), UInt8(ascii: "!"), UInt8(ascii: "?")].contains(text[at]), !afterLetter,
                let (number, numberEnd) = number(in: text, from: at + 1, end: end)
            {
                return issue(at..<numberEnd, symbol: text[at], number: number, user: user, repo: repo, written: "")
            }
            guard before != UInt8(ascii: "@"), before != UInt8(ascii: "/"), !afterWord else { return nil }
            return commit(in: text, from: at, start: at, end: end, user: user, repo: repo, written: "")
        }
    }

    /// `REPO` then an issue's or a commit's reference, from `repoStart`.
    private func reference(in text: [UInt8], runs: Runs, user: String?, repoStart: Int, start: Int, end: Int) -> Link? {
        // (The symbol after REPO is none of its bytes: REPO is its whole run.)
        let repoEnd = min(runs.repo[repoStart], end)
        guard repoEnd > repoStart, repoEnd - repoStart <= 100, repoEnd < end, Runs.isAlphanumeric(text[repoEnd - 1]) else { return nil }
        let repo = string(text[repoStart..<repoEnd])
        let owner = user ?? self.user
        // What the link shows: the user and the repository unless they are the project's.
        let written = owner == self.user ? (repo == self.repo ? "" : repo) : "\(owner)/\(repo)"
        let symbol = text[repoEnd]
        if symbol == UInt8(ascii: "@") {
            return commit(in: text, from: repoEnd + 1, start: start, end: end, user: owner, repo: repo, written: written.isEmpty ? "" : written + "@")
        }
        guard [UInt8(ascii: "#"), UInt8(ascii: "!"), UInt8(ascii: "?")].contains(symbol),
            let (number, numberEnd) = number(in: text, from: repoEnd + 1, end: end)
        else { return nil }
        return issue(start..<numberEnd, symbol: symbol, number: number, user: owner, repo: repo, written: written)
    }

    private func issue(_ range: Range<Int>, symbol: UInt8, number: String, user: String, repo: String, written: String) -> Link {
        let (kind, path, label) =
            switch symbol {
            case UInt8(ascii: "!"): ("pull", "pull", "Pull Request")
            case UInt8(ascii: "?"): ("discussion", "discussions", "Discussion")
            default: ("issue", "issues", "Issue")
            }
        let shown = normalizesSymbols ? "#" : String(UnicodeScalar(symbol))
        return link(
            range, kind, written + shown + number, "https://github.com/\(user)/\(repo)/\(path)/\(number)",
            "GitHub \(label): \(user)/\(repo) #\(number)")
    }

    /// A commit's 40 hex digits from `from`, and a comparison's second ones after `...`,
    /// then `\b`.
    private func commit(in text: [UInt8], from: Int, start: Int, end: Int, user: String, repo: String, written: String) -> Link? {
        guard from + 40 <= end, text[from..<(from + 40)].allSatisfy(Self.isHex) else { return nil }
        let first = string(text[from..<(from + 40)])
        let secondStart = from + 43
        if secondStart + 40 <= end, text[(from + 40)..<secondStart].allSatisfy({ $0 == UInt8(ascii: ".") }),
            text[secondStart..<(secondStart + 40)].allSatisfy(Self.isHex), isBoundary(text, secondStart + 40, end)
        {
            let second = string(text[secondStart..<(secondStart + 40)])
            let short = "\(first.prefix(7))...\(second.prefix(7))"
            return link(
                start..<(secondStart + 40), "compare", written + short, "https://github.com/\(user)/\(repo)/compare/\(first)...\(second)",
                "GitHub Compare: \(user)/\(repo)@\(short)")
        }
        guard isBoundary(text, from + 40, end) else { return nil }
        return link(
            start..<(from + 40), "commit", written + first.prefix(7), "https://github.com/\(user)/\(repo)/commit/\(first)",
            "GitHub Commit: \(user)/\(repo)@\(first.prefix(7))")
    }

    private func link(_ range: Range<Int>, _ kind: String, _ text: String, _ href: String, _ title: String) -> Link {
        Link(
            range: range, text: text,
            openingTag: "<a class=\"magiclink magiclink-github magiclink-" + kind + "\" href=\"" + Self.attribute(href) + "\" title=\""
                + Self.attribute(title) + "\">")
    }

    /// `value` escaped for an attribute (only the configured user and repository may need it).
    private static func attribute(_ value: String) -> String {
        value.utf8.contains { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == .quote }
            ? CollapsibleBlocks.escaped(value) : value
    }

    /// `[1-9][0-9]*` from `from`, then `\b`.
    private func number(in text: [UInt8], from: Int, end: Int) -> (String, Int)? {
        guard from < end, text[from].isASCIIDigit, text[from] != UInt8(ascii: "0") else { return nil }
        var last = from
        while last < end, text[last].isASCIIDigit { last += 1 }
        return isBoundary(text, last, end) ? (string(text[from..<last]), last) : nil
    }

    /// `\b` after a word character: the end of the stretch, or a character that is no word's.
    private func isBoundary(_ text: [UInt8], _ index: Int, _ end: Int) -> Bool {
        index >= end || !isWord(text, index)
    }

    /// Python's `\w` for the character a byte is part of: ASCII letters, digits and `_`, and
    /// any letter or digit beyond ASCII.
    private func isWord(_ text: [UInt8], _ index: Int) -> Bool {
        let byte = text[index]
        if byte < 0x80 { return Runs.isAlphanumeric(byte) || byte == UInt8(ascii: "_") }
        var start = index
        while start > 0, text[start] & 0xC0 == 0x80 { start -= 1 }
        guard let scalar = String(decoding: text[start..<min(text.count, start + 4)], as: UTF8.self).unicodeScalars.first else { return false }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        byte.isASCIIDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    private func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// Where the runs of a text's USER bytes (`[-a-zA-Z\d_]`) and REPO bytes (`[-._a-zA-Z\d]`)
/// that hold each index stop: read once, so that each place is tried in constant time.
private struct Runs {
    let text: [UInt8]
    let user: [Int]
    let repo: [Int]

    init(_ text: [UInt8]) {
        var user = Array(repeating: text.count, count: text.count + 1)
        var repo = user
        for index in text.indices.reversed() {
            let byte = text[index]
            user[index] = Self.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") ? user[index + 1] : index
            repo[index] = Self.isRepoByte(byte) ? repo[index + 1] : index
        }
        self.text = text
        self.user = user
        self.repo = repo
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool { byte.isASCIILetter || byte.isASCIIDigit }

    static func isRepoByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }

    /// The end of a USER from `from` that a `/` follows: its whole run (a `/` is none of its
    /// bytes), 39 at most.
    func userBeforeSlash(from: Int, end: Int) -> Int? {
        guard from < end, Self.isAlphanumeric(text[from]) else { return nil }
        let stop = user[from]
        guard stop < end, stop - from <= 39, text[stop] == UInt8(ascii: "/"), Self.isAlphanumeric(text[stop - 1]) else { return nil }
        return stop
    }

    /// The longest USER from `from` (39 at most, its first and last a letter or digit) whose
    /// end passes `before`.
    func userEnd(from: Int, end: Int, before: (Int) -> Bool) -> Int? {
        guard from < end, Self.isAlphanumeric(text[from]) else { return nil }
        var last = min(user[from], end, from + 39)
        while last > from {
            if Self.isAlphanumeric(text[last - 1]), before(last) { return last }
            last -= 1
        }
        return nil
    }

    /// The longest REPO from `from` (100 at most, its last a letter or digit) whose end
    /// passes `before`.
    func repoEnd(from: Int, end: Int, before: (Int) -> Bool) -> Int? {
        guard from < end else { return nil }
        var last = min(repo[from], end, from + 100)
        while last > from {
            if Self.isAlphanumeric(text[last - 1]), before(last) { return last }
            last -= 1
        }
        return nil
    }
}
