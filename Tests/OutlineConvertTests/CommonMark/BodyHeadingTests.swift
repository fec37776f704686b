import Foundation
import Testing

@testable import OutlineConvert

/// docs/formats.md, HTML: every heading has an id, also one a body holds (in a block quote,
/// a list item, a block), unique together with the section ids, and the link check knows it.
@Suite struct BodyHeadingTests {
    private func fragment(_ text: String, file: String = "test.md") throws -> String {
        try Support.convert(text, file: file) { $0.html.fragment = true }.output
    }

    @Test func aQuotedOrListedHeadingHasAnIdUniqueWithTheSections() throws {
        let html = try fragment("# Setup\n\n> ## Setup\n> text\n\n- ### Step one\n  more\n\n# Step one\n")
        // (Each with the id mkdocs gives it too, where that is another and free: `setup_1`.)
        #expect(html.contains("<blockquote>\n<h2 id=\"setup-1\"><span id=\"setup_1\"></span>Setup</h2>\n<p>text</p>\n</blockquote>"))
        #expect(html.contains("<li>\n<h3 id=\"step-one-1\">Step one</h3>\nmore</li>"))
        // The sections keep the ids the outline gives them, even one that comes later.
        #expect(html.contains("<details id=\"setup\" open>") && html.contains("<h1 id=\"step-one\" class=\"outline-leaf\">"))
    }

    @Test func pagesCarryTheIdsMkDocsGivesWhereTheyDiffer() throws {
        // mkdocs (Python-Markdown's toc): `a-b` for "A / B", `_1` for a title repeated. The
        // page's own ids come first: the list heading's mkdocs id is the leaf's own here.
        let html = try fragment("# A / B\n\n> ## A / B\n\n- ## Notes\n\n## Notes\n")
        #expect(
            html.contains("<details id=\"a--b\" open><summary><span class=\"outline-title outline-level-1\"><span id=\"a-b\"></span>A / B</span>"))
        #expect(html.contains("<h2 id=\"a--b-1\"><span id=\"a-b_1\"></span>A / B</h2>"))
        #expect(html.contains("<h2 id=\"notes-1\">Notes</h2>"))
        #expect(html.contains("<h2 id=\"notes\" class=\"outline-leaf\"><span id=\"notes_1\"></span>Notes</h2>"))
        // Whatever the format (an outline's page does not depend on the format it was read from).
        let xml = try fragment("<outline><section title=\"A / B\"><item title=\"x\"/></section></outline>", file: "t.xml")
        #expect(xml.contains("<details id=\"a--b\" open><summary><span class=\"outline-title outline-level-1\"><span id=\"a-b\"></span>A / B"))
    }

    @Test func mkdocsSlugsAsPythonMarkdownMakesThem() {
        // Python-Markdown 3.11's toc.slugify(value, "-") on each (Tests/oracle/test_mkdocs_ids.py
        // compares whole pages with it).
        let expected = [
            "Foo & Bar": "foo-bar", "  spaced  out  ": "spaced-out", "Crème brûlée": "creme-brulee", "日本語": "",
            "Ǆungla ﬁle": "dzungla-file", "--flag": "-flag", "What's new?": "whats-new", "x_1": "x_1", "a\u{A0}b": "a-b",
        ]
        for (title, slug) in expected { #expect(MkDocsSlug.slug(title) == slug, "\(title)") }
    }

    @Test func anExplicitIdIsHonouredAndLeavesTheText() throws {
        let html = try fragment("# A\n\n> ## Notes *here* {#notes}\n")
        #expect(html.contains("<h2 id=\"notes\">Notes <em>here</em></h2>"))
    }

    @Test func aHeadingInABodyOfAnotherFormatHasOneToo() throws {
        let plist = """
            <plist><array><dict><key>name</key><string>A</string>
            <key>detail</key><string>## Details
            text</string></dict></array></plist>
            """
        #expect(try fragment(plist, file: "a.plist").contains("<h2 id=\"details\">Details</h2>"))
    }

    @Test func plainTextStillShowsTheHeading() throws {
        let text = try Support.convert("# A\n\n> ## Quoted {#q}\n> body\n") { $0.to = .text }.output
        #expect(text == "▾ A\n    Quoted\n\n    body\n")
    }

    @Test func theLinkCheckKnowsTheIdsOfHeadingsInBodies() throws {
        let folder = try Support.temporaryDirectory()
        defer { Support.remove(folder) }
        try Support.write("# A\n\n> ## Quoted\n", to: folder.appending(path: "docs/a.md"))
        try Support.write("# B\n\n[ok](a.md#quoted) [bad](a.md#nowhere)\n", to: folder.appending(path: "docs/b.md"))
        let result = try Support.tool(arguments: ["docs", "-o", "site"], cwd: folder)
        #expect(!result.stderr.contains("#quoted"))
        #expect(result.stderr.contains("b.md:3:19: warning: no section 'nowhere'") && result.stderr.contains("nowhere"))
    }

    @Test func writingTheSameDocumentTwiceGivesTheSameIds() throws {
        let converter = Converter(
            options: {
                var options = ConversionOptions()
                options.html.fragment = true
                return options
            }())
        let document = try converter.read(Array("# A\n\n> ## Quoted\n\n# Quoted\n".utf8), file: "t.md")
        let first = converter.write(document.outline, file: "t.md").output
        let second = converter.write(document.outline, file: "t.md").output
        #expect(first == second)
        #expect(first.contains("<h2 id=\"quoted-1\">Quoted</h2>"))
    }
}
