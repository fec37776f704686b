import Testing

@testable import OutlineConvert

/// docs/sites.md, links between the pages of a site: which links are local, and where a local
/// one points once its query and fragment are split off.
@Suite struct SiteLinksTests {
    // Paths that need not exist: a link to another input is found among the jobs.
    private let guide = BatchJob(input: "/site/docs/guide.md", output: "/out/guide.html", root: "/site/docs")
    private let api = BatchJob(input: "/site/docs/ref/api.md", output: "/out/ref/api.html", root: "/site/docs")
    private var links: SiteLinks { SiteLinks(jobs: [guide, api], outputDirectory: "/out") }

    @Test(arguments: [
        "https://example.org/a.md", "HTTPS://example.org", "mailto:a@example.org", "a+b-c.d:x", "//example.org/ref/api.md",
    ])
    func aSchemeOrAHostIsNotALocalLink(url: String) {
        #expect(links.resolve(url, in: guide) == nil)
    }

    @Test func aPathFromTheRootIsLeftAsItIsUnlessReadFromThePagesFolder() throws {
        let left = try #require(links.resolve("/ref/api.md", in: guide))
        #expect(left.target == .absolute("/ref/api.md") && left.href == nil)
        var fromDocs = links
        fromDocs.absoluteFromRoot = true
        let followed = try #require(fromDocs.resolve("/ref/api.md#errors", in: api))
        #expect(followed.target == .page(input: "/site/docs/ref/api.md", fragment: "errors"))
        #expect(followed.href == "api.html#errors")
        let out = try #require(fromDocs.resolve("/../../etc/passwd", in: api))
        #expect(out.target == .outside("../../etc/passwd"))
    }

    @Test func aLinkToAnotherInputPointsAtItsOutputWithQueryAndFragment() throws {
        let resolved = try #require(links.resolve("ref/api.md?v=2#errors", in: guide))
        #expect(resolved.target == .page(input: "/site/docs/ref/api.md", fragment: "errors"))
        #expect(resolved.href == "ref/api.html?v=2#errors")
        let back = try #require(links.resolve("../guide.md#top%20part", in: api))
        #expect(back.target == .page(input: "/site/docs/guide.md", fragment: "top part"))
        #expect(back.href == "../guide.html#top%20part")
    }

    @Test func aColonAfterASlashOrADigitFirstIsPartOfAPath() throws {
        let path = try #require(links.resolve("ref/a:b.md", in: guide))
        #expect(path.target == .missing("/site/docs/ref/a:b.md"))
        let digit = try #require(links.resolve("1x:y.md", in: guide))
        #expect(digit.target == .missing("/site/docs/1x:y.md"))
    }

    @Test func theFragmentStartsAtTheHashEvenWhenAMarkCombinesWithIt() throws {
        // "#\u{301}" is one Character: split by bytes, as a browser splits a URL.
        let same = try #require(links.resolve("#\u{301}x", in: guide))
        #expect(same.target == .samePage(fragment: "\u{301}x"))
        let other = try #require(links.resolve("ref/api.md?\u{301}q#\u{301}f", in: guide))
        #expect(other.href == "ref/api.html?\u{301}q#\u{301}f")
    }

    @Test func aPagesFactsReadBackFromTheBuildRecordAsTheyWere() throws {
        var facts = PageFacts(
            ids: ["a", "b"], links: [LinkFact(target: .samePage(fragment: "a"), url: "#a", line: 3, column: 4)], order: 2,
            codeLanguages: ["keep-markup", "python"])
        facts.titleHTML = "The <code>cfg</code> option"
        #expect(PageFacts(encoded: facts.encoded) == facts)
        facts.titleHTML = nil
        #expect(PageFacts(encoded: facts.encoded) == facts)
    }
}
