internal import CCmark

/// Logseq's org-mode blocks in Markdown (`logseq_blocks`, outliners' flavour): lines from
/// `#+BEGIN_NAME` to `#+END_NAME`. `NOTE`, `TIP`, `IMPORTANT`, `CAUTION`, `WARNING` and
/// `PINNED` are callouts, `QUOTE` a block quote, `CENTER` its content; any other (`QUERY`,
/// `SRC lang`, `EXAMPLE`, …) is shown as code, its lines as written (a query is not run).
/// How: the text is rewritten one line for one line (markers to `> [!NOTE]` or a fence, the
/// content of a quote or callout quoted), cmark reads it again, and GitHub's alerts and
/// Obsidian's callouts make the callouts. A marker without its pair stays text.
struct LogseqBlockExtension: MarkdownExtension {
    var name: String { "logseq_blocks" }

    func rewriteSource(of tree: MarkdownTree) {
        guard tree.source.bytes.contains(bytes: "#+BEGIN_") || tree.source.bytes.contains(bytes: "#+begin_"),
            let rewritten = Self.rewrite(Array(tree.source.bytes)),
            let again = CommonMarkDocument.tree(of: rewritten[...], memory: tree.memory, smart: tree.flavor.smartPunctuation)
        else { return }
        tree.replace(source: rewritten[...], root: again)
    }

    /// Whether a block of that kind (lowercase: `query`, `src`) is shown as code.
    static func isCode(_ kind: String) -> Bool { callouts[kind] == nil && kind != "quote" && kind != "center" }

    private static let callouts = [
        "note": "NOTE", "tip": "TIP", "important": "IMPORTANT", "caution": "CAUTION", "warning": "WARNING", "pinned": "NOTE",
    ]

    /// A marker line: its indentation, whether it opens, and its name (lowercase).
    private static func marker(_ line: ArraySlice<UInt8>) -> (indent: ArraySlice<UInt8>, opens: Bool, kind: String, rest: String)? {
        let indent = line.prefix { $0 == .space || $0 == .tab }
        let content = String(decoding: line.dropFirst(indent.count), as: UTF8.self).trimmingTrailingSpaces
        let lower = content.lowercased()
        let opens = lower.hasPrefix("#+begin_")
        guard opens || lower.hasPrefix("#+end_") else { return nil }
        let name = lower.dropFirst(opens ? 8 : 6).prefix { !$0.isWhitespace }
        guard !name.isEmpty else { return nil }
        return (indent, opens, String(name), String(content.dropFirst((opens ? 8 : 6) + name.count)).trimmed)
    }

    /// The text with its paired blocks rewritten, or nil when it has none.
    static func rewrite(_ text: [UInt8]) -> [UInt8]? {
        var lines = text.split(separator: .lineFeed, omittingEmptySubsequences: false)
        // Pairs first: an opening line to its closing line (nothing inside code is a marker).
        var pairs: [(open: Int, close: Int)] = []
        var open: [(line: Int, kind: String)] = []
        for (number, line) in lines.enumerated() {
            guard let found = marker(line) else { continue }
            if let last = open.last, isCode(last.kind) {
                // Inside code: only its own end.
                if !found.opens && found.kind == last.kind {
                    pairs.append((last.line, number))
                    open.removeLast()
                }
            } else if found.opens {
                open.append((number, found.kind))
            } else if let index = open.lastIndex(where: { $0.kind == found.kind }) {
                pairs.append((open[index].line, number))
                open.removeSubrange(index...)
            }
        }
        guard !pairs.isEmpty else { return nil }
        // Then each pair from the outside in: the lines of a quote or callout are quoted.
        for pair in pairs.sorted(by: { $0.open < $1.open }) {
            guard let begin = marker(lines[pair.open]) else { continue }
            let indent = Array(begin.indent)
            if callouts[begin.kind] != nil || begin.kind == "quote" {
                lines[pair.open] = (indent + Array((callouts[begin.kind].map { "> [!\($0)]" } ?? ">").utf8))[...]
                for number in (pair.open + 1)..<pair.close {
                    let line = lines[number]
                    let own = line.prefix { $0 == .space || $0 == .tab }.count
                    let cut = min(own, indent.count)
                    lines[number] = (Array(line.prefix(cut)) + Array("> ".utf8) + Array(line.dropFirst(cut)))[...]
                }
                lines[pair.close] = (indent + Array(">".utf8))[...]
            } else if begin.kind == "center" {
                lines[pair.open] = indent[...]
                lines[pair.close] = indent[...]
            } else {
                // Code: a fence longer than any run of backticks inside.
                var longest = 2
                for number in (pair.open + 1)..<pair.close {
                    var run = 0
                    for byte in lines[number] {
                        run = byte == UInt8(ascii: "`") ? run + 1 : 0
                        longest = max(longest, run)
                    }
                }
                let fence = String(repeating: "`", count: longest + 1)
                let info = begin.kind == "src" ? begin.rest.split(separator: " ").first.map(String.init) ?? "" : begin.kind
                lines[pair.open] = (indent + Array((fence + info.filter { $0 != "`" }).utf8))[...]
                lines[pair.close] = (indent + Array(fence.utf8))[...]
            }
        }
        return lines.joinedLines()
    }
}
