import Foundation
import Testing

@testable import OutlineConvert

/// gitignore patterns (`exclude_docs`, `not_in_nav`) against pathspec's `GitIgnoreSpec`,
/// which mkdocs reads them with: for each set of Tests/fixtures/gitignore/patterns.txt,
/// Tests/golden/gitignore/matches.txt holds the paths of paths.txt it matches, as
/// `scripts/make-gitignore-goldens` writes them (or `invalid`, where pathspec refuses one).
@Suite struct GitIgnorePatternsTests {
    private static func read(_ path: String) throws -> String {
        try String(contentsOf: Support.root.appending(path: path), encoding: .utf8)
    }

    @Test func everySetMatchesWhatPathspecMatches() throws {
        let sets = try Self.read("Tests/fixtures/gitignore/patterns.txt").components(separatedBy: "\n----\n")
        let paths = try Self.read("Tests/fixtures/gitignore/paths.txt").split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let golden = try Self.read("Tests/golden/gitignore/matches.txt").components(separatedBy: "set ").dropFirst()
        #expect(sets.count == golden.count && sets.count > 30)
        for (number, (set, expected)) in zip(sets, golden).enumerated() {
            var lines = expected.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init)
            if lines.last == "" { lines.removeLast() }
            var invalid: [String] = []
            let patterns = GitIgnorePatterns(set) { invalid.append($0) }
            if lines == ["invalid"] {
                #expect(!invalid.isEmpty, "set \(number): \(set)")
                continue
            }
            #expect(invalid.isEmpty, "set \(number): \(set)")
            #expect(paths.filter { patterns.matches(String($0)) }.map(String.init) == lines, "set \(number): \(set)")
        }
    }

    @Test func laterPatternsDecideAfterEarlierOnes() {
        let patterns = GitIgnorePatterns(".*").followed(by: GitIgnorePatterns("!.keep.md"))
        #expect(patterns.matches(".other.md") && !patterns.matches(".keep.md"))
    }
}
