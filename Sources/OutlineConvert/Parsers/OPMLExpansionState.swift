/// How an OPML `<expansionState>` numbers the outlines it says are expanded. Outliners
/// write it in one of two ways, and a file is read the way its app meant it: when no
/// reading is forced, the first of these rules that applies decides.
/// 1. `<_expansionReading>` in `<head>` (what this tool writes when the list alone would
///    not tell);
/// 2. a `0` in the list: OmniOutliner's (the spec's numbers start at 1);
/// 3. `<head>` elements that only the spec's apps write (`lastCursor`, `vertScrollState`,
///    `urlUpdateSocket`, `ownerTwitterScreenName`, `windowTop` and its kin): the spec's;
/// 4. the reading that lands every entry on an outline that can collapse (one with
///    children or a note), when only one of the two does;
/// 5. the spec's.
public enum OPMLExpansionReading: String, Sendable, CaseIterable {
    /// The OPML 2.0 spec's: 1-based line numbers of the outline as shown, applied in order,
    /// each expansion showing more lines (Drummer, Little Outliner, OPML Editor, Cactus).
    case spec
    /// OmniOutliner's: the 0-based index of every `<outline>` in document order, shown or
    /// not (OmniOutliner, Zavala).
    case omni
}

/// The `<expansionState>` of an outline, both ways: which nodes a list expands, which
/// reading a file was written with (the rule of `OPMLExpansionReading`), and the list that
/// writes an outline's state.
///
/// The spec's reading cannot name an outline inside a collapsed one (it is not shown);
/// `<_expansionStateHidden>` lists those that are open anyway (0-based, in document order),
/// so that our own files read back exactly.
struct OPMLExpansionState {
    /// The head element that says which reading the list is in.
    static let readingElement = "_expansionReading"
    /// The head element listing open outlines inside closed ones.
    static let hiddenElement = "_expansionStateHidden"
    /// `<head>` elements the spec's apps write and OmniOutliner's do not.
    static let specAppElements: Set<String> = [
        "lastCursor", "vertScrollState", "urlUpdateSocket", "ownerTwitterScreenName", "windowTop", "windowLeft", "windowBottom",
        "windowRight",
    ]

    /// For each node in document order: how many nodes its subtree holds, itself included.
    private let subtreeSizes: [Int]
    /// For each node in document order: whether it has children or a body.
    private let collapsible: [Bool]

    init(_ outline: Outline) {
        var sizes: [Int] = []
        var collapsible: [Bool] = []
        func visit(_ nodes: [OutlineNode]) {
            for node in nodes {
                let index = sizes.count
                sizes.append(1)
                collapsible.append(node.isCollapsible)
                visit(node.children)
                sizes[index] = sizes.count - index
            }
        }
        visit(outline.nodes)
        self.subtreeSizes = sizes
        self.collapsible = collapsible
    }

    var count: Int { subtreeSizes.count }

    // MARK: - Reading

    /// Which nodes a list expands, read one way, with a warning (to follow the list's name)
    /// for each entry that names no node; `fits` says whether every entry lands on a node
    /// that can collapse.
    struct Expansion {
        var expanded: [Bool]
        var warnings: [String] = []
        var fits = true
    }

    /// The numbers of a list, and a warning (to follow the list's name) for each entry that
    /// is not one (empty entries are skipped quietly, as outliners write `1,,3`).
    static func numbers(in list: String) -> (numbers: [Int], warnings: [String]) {
        var numbers: [Int] = []
        var warnings: [String] = []
        // Entry by entry, as bytes: the list may be long.
        let utf8 = list.utf8
        var next = utf8.startIndex
        while next < utf8.endIndex {
            let end = utf8[next...].firstIndex(of: UInt8(ascii: ",")) ?? utf8.endIndex
            let entry = utf8[next..<end]
            next = end < utf8.endIndex ? utf8.index(after: end) : end
            if let number = plainNumber(entry) {
                numbers.append(number)
                continue
            }
            let text = String(decoding: entry, as: UTF8.self).trimmed
            if text.isEmpty { continue }
            guard let number = Int(text), number >= 0 else {
                warnings.append("'\(Quote.snippet(text))' is not a node number; it is ignored")
                continue
            }
            numbers.append(number)
        }
        return (numbers, warnings)
    }

    /// The nodes `numbers` expand, read the way `forced` says, else the way the file was
    /// written, by the rule of `OPMLExpansionReading` (each reading worked out once).
    func expansion(
        of numbers: [Int], forcing forced: OPMLExpansionReading?, headNames: Set<String>, stated: String?
    ) -> Expansion {
        let told = forced ?? stated.flatMap { OPMLExpansionReading(rawValue: $0.trimmed) }
        if let reading = told ?? (numbers.contains(0) ? .omni : !headNames.isDisjoint(with: Self.specAppElements) ? .spec : nil) {
            return expansion(numbers, reading: reading)
        }
        // Only OmniOutliner's reading landing every entry on a node that can collapse makes it
        // that one; else the spec's.
        let spec = expansion(numbers, reading: .spec)
        guard !spec.fits else { return spec }
        let omni = expansion(numbers, reading: .omni)
        return omni.fits ? omni : spec
    }

    /// The nodes `numbers` expand when read `reading`'s way.
    func expansion(_ numbers: [Int], reading: OPMLExpansionReading) -> Expansion {
        switch reading {
        case .omni: omniExpansion(numbers)
        case .spec: specExpansion(numbers)
        }
    }

    private func omniExpansion(_ numbers: [Int]) -> Expansion {
        var result = Expansion(expanded: [Bool](repeating: false, count: count))
        for index in numbers {
            guard index < count else {
                result.warnings.append("there is no node \(index) (the outline has \(count)); it is ignored")
                result.fits = false
                continue
            }
            result.expanded[index] = true
            result.fits = result.fits && collapsible[index]
        }
        return result
    }

    /// Line by line as the spec says: for each entry, go down that many lines of the outline
    /// as shown so far and expand that line, which shows its children below it.
    private func specExpansion(_ numbers: [Int]) -> Expansion {
        var result = Expansion(expanded: [Bool](repeating: false, count: count))
        var shown = ShownLines(count: count)
        forEachChild(of: nil) { shown.show($0) }
        for line in numbers {
            guard line >= 1 else {
                result.warnings.append("0 is not a line number (the first line is 1); it is ignored")
                result.fits = false
                continue
            }
            guard let index = shown.index(ofLine: line) else {
                result.warnings.append(
                    "there is no line \(line) (the outline shows \(shown.count) there); it is ignored")
                result.fits = false
                continue
            }
            result.fits = result.fits && collapsible[index]
            if result.expanded[index] { continue }
            result.expanded[index] = true
            forEachChild(of: index) { shown.show($0) }
        }
        return result
    }

    /// The children of the node at `index` (the top-level nodes for nil), by index.
    private func forEachChild(of index: Int?, _ body: (Int) -> Void) {
        var child = index.map { $0 + 1 } ?? 0
        let end = index.map { $0 + subtreeSizes[$0] } ?? count
        while child < end {
            body(child)
            child += subtreeSizes[child]
        }
    }

    // MARK: - Writing

    /// The list that states `outline`'s collapse state in `reading`'s way, and, for the spec's
    /// reading, the open nodes inside closed ones that it cannot name (0-based indexes).
    static func lists(for outline: Outline, reading: OPMLExpansionReading) -> (list: [Int], hidden: [Int]) {
        var list: [Int] = []
        var hidden: [Int] = []
        var index = 0
        var line = 0
        func visit(_ nodes: [OutlineNode], shown: Bool) {
            for node in nodes {
                let open = node.isCollapsible && !node.isCollapsed
                if shown { line += 1 }
                if open {
                    switch reading {
                    case .omni: list.append(index)
                    case .spec: if shown { list.append(line) } else { hidden.append(index) }
                    }
                }
                index += 1
                visit(node.children, shown: shown && open)
            }
        }
        visit(outline.nodes, shown: true)
        return (list, hidden)
    }

    /// The number an entry states when it is only digits between spaces (nearly every
    /// entry), read without making a String; nil sends it the long way.
    private static func plainNumber(_ entry: Substring.UTF8View) -> Int? {
        var number = 0
        var digits = 0
        var trailing = false
        for byte in entry {
            if byte == UInt8(ascii: " ") {
                trailing = digits > 0
                continue
            }
            guard !trailing, byte.isASCIIDigit, digits < 18 else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? number : nil
    }
}

/// Which nodes are shown, as counts in a Fenwick tree over document order, so that the
/// n-th line shown is found in logarithmic time however many expansions came before.
private struct ShownLines {
    private var tree: [Int]
    private(set) var count = 0

    init(count: Int) { tree = [Int](repeating: 0, count: count + 1) }

    mutating func show(_ index: Int) {
        count += 1
        var position = index + 1
        while position < tree.count {
            tree[position] += 1
            position += position & -position
        }
    }

    /// The index of the node shown on `line` (1-based), if that many are shown.
    func index(ofLine line: Int) -> Int? {
        guard line >= 1, line <= count else { return nil }
        var position = 0
        var remaining = line
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            if position + step < tree.count && tree[position + step] < remaining {
                position += step
                remaining -= tree[position]
            }
            step /= 2
        }
        return position  // (the 1-based position of the line, less one)
    }
}
