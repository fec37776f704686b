import Foundation
import Testing

@testable import OutlineConvert

/// Lines read as their own text skip cmark (`LiteralLine`): what they skip must be what
/// cmark and every flavour's extensions would have made of them.
@Suite struct LiteralLineTests {
    static let flavors: [MarkdownFlavor] = [.commonMark, .gitHub, .withWikiLinks(index: nil, page: "p.md")]

    /// Every item's title line of Logseq's docs graph, and lines made to be near misses.
    static func lines() throws -> [String] {
        let pages = Support.root.appending(path: "Tests/real/logseq-docs/pages")
        var lines: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: pages.path) where name.hasSuffix(".md") {
            let text = try String(contentsOf: pages.appending(path: name), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let content = line.drop { $0 == " " || $0 == "\t" }
                if content.hasPrefix("- ") { lines.append(String(content.dropFirst(2))) }
            }
        }
        return lines + [
            "Plain words", "Quotes \"and\" it's", "Two  spaces", "Ünïcödé first", "see www.example.org", "x@example.org",
            "http://example.org", "a *b*", "snake_case", "H~2~O", "a ==mark==", "a ^^ins^^", "a ++ctrl++", "a $x$", "a &amp; b",
            "a \\* b", "tag #x", "a [[b]]", "a ((id))", "a {{embed x}}", "trailing ", "key:: value", "<b>", "1. item", "- item",
            "# heading", "a\tb", "a | b", "Ends with ^block-id",
        ]
    }

    @Test func aLiteralLineRendersAsCmarkAndEveryFlavourRenderIt() throws {
        var literal = 0
        for line in try Self.lines() where LiteralLine.holds(line) {
            literal += 1
            let expected = "<p>" + String(decoding: LiteralLine.html(line), as: UTF8.self) + "</p>\n"
            for flavor in Self.flavors {
                let document = CommonMarkDocument(parsing: line, flavor: flavor, isBody: true)
                var html = ByteBuffer(capacity: 64)
                document.appendHTML(ofBlocks: 0..<document.blockCount, unsafe: false, to: &html, text: nil)
                #expect(String(decoding: html.finish(), as: UTF8.self) == expected, "\(flavor.names): \(line)")
            }
        }
        // (Most titles of a real graph are literal; the near misses are not.)
        #expect(literal > 300)
    }

    @Test func nearMissesAreNotLiteral() {
        for line in [
            "see www.example.org", "x@example.org", "http://example.org", "a *b*", "snake_case", "H~2~O", "a ==mark==", "a ^^ins^^",
            "a ++ctrl++", "a $x$", "a &amp; b", "a \\* b", "tag #x", "a [[b]]", "a ((id))", "a {{embed x}}", "trailing ", "key:: value",
            "<b>", "1. item", "- item", "# heading", "a\tb", "a | b", "Ends with ^block-id", "",
        ] {
            #expect(!LiteralLine.holds(line), "\(line)")
        }
        #expect(LiteralLine.holds("Quotes \"and\" it's") && LiteralLine.html("a \"b\"") == Array("a &quot;b&quot;".utf8))
    }

    @Test func plainTitlesKeepTheirOrderAcrossLiteralAndParsedLines() {
        let sources = ["Plain one", "with [[Link]]", "Two  spaces", "*em* and `code`", "", "Last"]
        #expect(OutlinerTitles.plainTitles(sources) == ["Plain one", "with Link", "Two spaces", "em and code", "", "Last"])
    }
}
