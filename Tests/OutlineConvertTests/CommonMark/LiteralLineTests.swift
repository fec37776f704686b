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
                document.appendHTML(ofBlocks: 0..<document.blockCount, unsafe: false, to: &html)
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

    /// Title lines with wiki links, from the docs graph and made to try each rule.
    static func wikiLines() throws -> [String] {
        try lines().filter { $0.contains("[[") || $0.contains("((") } + [
            "See [[Getting started]] now", "[[Page]] first", "Last [[Page]]", "[[a]][[b]]", "a [[Page|shown label]] b", "a [[Page#Some heading]]",
            "a [[No such page 12]] b", "Quotes \"and\" [[Page]] it's", "a [[b]] www.example.org", "a [[b]] c]]", "a [[b] c", "a [[]] b",
            "a ![[b]]", "a [[*b*]]", "a [[b]] #tag", "a [[b]] (b)", "[[b]] ", "a [[b [[c]] d]]",
            "See ((61024cd6-1951-47cc-8050-25f68960d729)) in [[Settings]]", "((60acdeb9-aa65-492b-8398-d4d65c1631c1))",
            "Upper ((61024CD6-1951-47CC-8050-25F68960D729))", "Missing ((00000000-0000-4000-8000-000000000000)) block",
        ]
    }

    @Test func aWikiLineReadsAsTheParseReadsIt() throws {
        let root = Support.root.appending(path: "Tests/real/logseq-docs")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "pages").path).map {
            root.appending(path: "pages/" + $0).path
        }
        let index = WikiIndex(app: .logseq, root: root.path, inputs: inputs)
        let page = root.appending(path: "pages/contents.md").path
        let flavor = MarkdownFlavor.withWikiLinks(index: index, page: page)
        guard let wikiLinks = flavor.extensions.lazy.compactMap({ $0 as? WikiLinkExtension }).first else {
            Issue.record("no wiki links in the flavour")
            return
        }
        let rewrite = { (url: String) in "site/" + url }
        var fast = 0
        for line in try Self.wikiLines() {
            guard let pieces = LiteralLine.wikiPieces(line) else { continue }
            fast += 1
            // The plain title: as the heading's text read by cmark, its links by their labels.
            let heading = CommonMarkDocument(parsing: "# " + line, structureOnly: true).heading(at: 0)
            var text = ""
            for part in heading?.heading.parts ?? [] { if case .text(let piece) = part { text += piece } }
            #expect(OutlinerTitles.plainTitles([line]) == [TitleText.normalized(WikiLinks.plainText(text))], "\(line)")
            // The HTML: as cmark and the extension write the line as a paragraph, links rewritten.
            let document = CommonMarkDocument(parsing: line, flavor: flavor, isBody: true)
            document.rewriteLinks(ofBlocks: 0..<document.blockCount) { url, _, _ in rewrite(url) }
            var html = ByteBuffer(capacity: 64)
            document.appendHTML(ofBlocks: 0..<document.blockCount, unsafe: false, to: &html)
            let expected = String(decoding: html.finish(), as: UTF8.self)
            let written = wikiLinks.html(of: pieces, rewrite: rewrite).map { "<p>" + String(decoding: $0, as: UTF8.self) + "</p>\n" }
            #expect(written == expected, "\(line)")
        }
        #expect(fast > 20)
    }

    @Test func wikiLinesAreLiteralTextAndWellFormedLinksOnly() {
        let id = "65a1f6b2-0c3e-4d5f-8a9b-0c1d2e3f4a5b"
        let pieces = LiteralLine.wikiPieces("a [[b|c]] d [[e#f]]((\(id)))")?.map { (String(decoding: $0.text, as: UTF8.self), $0.kind) }
        #expect(pieces?.map(\.0) == ["a ", "b|c", " d ", "e#f", id] && pieces?.map(\.1) == [.text, .link, .text, .link, .blockReference])
        for line in [
            "plain", "a [[b]] www.example.org", "a [[b]] c]]", "a [[b] c", "a [[]] b", "a ![[b]]", "a [[*b*]]", "a [[b]] #tag", "a [[b]] (b)",
            "[[b]] ", " [[b]]", "# [[b]]", "a [[b [[c]] d]]", "a [[b]", "a [[b", "a (b)", "a ((\(id))", "a ((\(id.dropLast()))) b",
            "a (((\(id))))", "a ((\(id.dropLast())g))",
        ] {
            #expect(LiteralLine.wikiPieces(line) == nil, "\(line)")
        }
    }

    @Test func plainTitlesKeepTheirOrderAcrossLiteralAndParsedLines() {
        let sources = ["Plain one", "with [[Link]]", "Two  spaces", "*em* and `code`", "", "Last"]
        #expect(OutlinerTitles.plainTitles(sources) == ["Plain one", "with Link", "Two spaces", "em and code", "", "Last"])
    }
}
