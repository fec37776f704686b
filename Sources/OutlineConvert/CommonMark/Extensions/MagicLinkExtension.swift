internal import CCmark

/// pymdownx.magiclink's shorthand (`repo_url_shorthand`) for GitHub, in an mkdocs project
/// whose `mkdocs.yml` gives it the project's `user` and `repo`: `#123` is an issue, `!123` a
/// pull request and `?123` a discussion of that repository; `repo#123` (the same user's) and
/// `user/repo#123` another's; 40 hex digits a commit (`repo@…`, `user/repo@…`, and a
/// comparison `…...…`); `@user` a user and `@user/repo` a repository. Each becomes the link
/// magiclink writes (`<a class="magiclink magiclink-github magiclink-issue" href=…
/// title=…>#123</a>`), found as its patterns find them (`MagicLinks`), in text only: never
/// in code, a link, or after a backslash (when the source has it only so). Plain text
/// shows the link's text.
struct MagicLinkExtension: MarkdownExtension, Equatable {
    /// The project's repository: `user` and `repo`.
    let user: String
    let repo: String
    /// `normalize_issue_symbols`: a pull request's `!` and a discussion's `?` show as `#`.
    var normalizesSymbols = false

    var name: String { "pymdownx.magiclink" }

    func makeInlines(under block: OpaquePointer, text: ArraySlice<UInt8>, of tree: MarkdownTree) {
        guard MagicLinks.mayHold(text) else { return }
        // Runs of text nodes next to each other (cmark cuts text at `!`): each read as one.
        var runs: [[OpaquePointer]] = []
        MarkdownTree.walk(under: block) { node, entering in
            guard entering, cmark_node_get_type(node) == CMARK_NODE_TEXT, !Self.isInLink(node, below: block) else { return }
            if let last = runs.last?.last, cmark_node_next(last) == node {
                runs[runs.count - 1].append(node)
            } else {
                runs.append([node])
            }
        }
        let links = MagicLinks(user: user, repo: repo, normalizesSymbols: normalizesSymbols)
        // (cmark's text has lost the backslash of `\#12`: what the block writes so anywhere
        // is no link.)
        let escaped = EscapedTexts(text)
        for run in runs {
            let bytes = run.flatMap { CommonMarkDocument.literalBytes($0) }
            let found = links.find(in: bytes).filter { !(escaped?.start(bytes[$0.range]) ?? false) }
            guard !found.isEmpty, let first = run.first else { continue }
            var at = 0
            for link in found {
                insertText(bytes[at..<link.range.lowerBound], before: first, tree)
                if let anchor = tree.newNode(CMARK_NODE_CUSTOM_INLINE, enter: link.openingTag, exit: "</a>") {
                    if let label = tree.newNode(CMARK_NODE_TEXT) {
                        MarkdownTree.setLiteral(label, link.text.utf8)
                        cmark_node_append_child(anchor, label)
                    }
                    cmark_node_insert_before(first, anchor)
                }
                at = link.range.upperBound
            }
            insertText(bytes[at...], before: first, tree)
            run.forEach { cmark_node_free($0) }
        }
    }

    private func insertText(_ bytes: ArraySlice<UInt8>, before node: OpaquePointer, _ tree: MarkdownTree) {
        guard !bytes.isEmpty, let piece = tree.newNode(CMARK_NODE_TEXT) else { return }
        MarkdownTree.setLiteral(piece, bytes)
        cmark_node_insert_before(node, piece)
    }

    /// Whether a link or an image (or what a step made, such as an icon) holds `node`.
    private static func isInLink(_ node: OpaquePointer, below block: OpaquePointer) -> Bool {
        var parent = cmark_node_parent(node)
        while let current = parent, current != block {
            switch cmark_node_get_type(current) {
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE, CMARK_NODE_CUSTOM_INLINE: return true
            default: parent = cmark_node_parent(current)
            }
        }
        return false
    }
}

/// What follows each backslash before `#`, `@`, `!`, `?` or a hex digit in a block's source,
/// to the next blank (200 bytes at most), sorted: whether a text starts one of them is a
/// binary search.
private struct EscapedTexts {
    private let texts: [ArraySlice<UInt8>]

    /// Nil when the source escapes none of those.
    init?(_ source: ArraySlice<UInt8>) {
        var texts: [ArraySlice<UInt8>] = []
        var at = source.startIndex
        while let slash = source[at...].firstIndex(of: .backslash) {
            at = slash + 1
            guard at < source.endIndex else { break }
            let next = source[at]
            guard
                next == UInt8(ascii: "#") || next == UInt8(ascii: "@") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
                    || next.isASCIIHexDigit
            else { continue }
            let end =
                source[at..<min(source.endIndex, at + 200)].firstIndex { $0 == .space || $0 == .lineFeed || $0 == .tab }
                ?? min(source.endIndex, at + 200)
            texts.append(source[at..<end])
        }
        guard !texts.isEmpty else { return nil }
        self.texts = texts.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Whether one of the texts starts with `prefix`.
    func start(_ prefix: ArraySlice<UInt8>) -> Bool {
        var low = 0
        var high = texts.count
        while low < high {
            let middle = (low + high) / 2
            if texts[middle].lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
        }
        return low < texts.count && texts[low].starts(with: prefix)
    }
}
