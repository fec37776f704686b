import Foundation
import Testing

@testable import OutlineConvert

/// docs/formats.md, Markdown: GitHub Flavored Markdown by default, strict CommonMark on
/// request. (Rendering is compared with `cmark-gfm` on every spec example by
/// Tests/oracle/test_gfm_spec.py; these are the rules the oracle cannot see.)
@Suite struct GitHubFlavorTests {
    let table = """
        Prices:

        | Item | Price | Note |
        | :--- | ----: | :--: |
        | Tea | 3 | `hot` |
        | Cake with cream | 12 | ~~old~~ new |
        """

    private func html(_ text: String, _ configure: (inout ConversionOptions) -> Void = { _ in }) throws -> String {
        try Support.convert(text) {
            $0.html.fragment = true
            configure(&$0)
        }.output
    }

    @Test func aTableRendersAsATableAfterTheParagraphBeforeIt() throws {
        #expect(
            try html(table) == """
                <p>Prices:</p>
                <table>
                <thead>
                <tr>
                <th align="left">Item</th>
                <th align="right">Price</th>
                <th align="center">Note</th>
                </tr>
                </thead>
                <tbody>
                <tr>
                <td align="left">Tea</td>
                <td align="right">3</td>
                <td align="center"><code>hot</code></td>
                </tr>
                <tr>
                <td align="left">Cake with cream</td>
                <td align="right">12</td>
                <td align="center"><del>old</del> new</td>
                </tr>
                </tbody>
                </table>

                """)
    }

    @Test func strictCommonMarkKeepsTheTableAsAParagraph() throws {
        let output = try html(table) { $0.from = InputFormat(name: "commonmark") }
        #expect(!output.contains("<table>"))
        #expect(output.contains("<p>| Item | Price | Note |"))
        #expect(output.contains("~~old~~"))
    }

    @Test func plainTextAlignsATablesColumns() throws {
        let text = try Support.convert("# Prices\n" + table) { $0.to = .text }.output
        #expect(
            text == """
                ▾ Prices
                  Prices:

                  Item             Price   Note
                  ---------------  -----  -------
                  Tea                  3    hot
                  Cake with cream     12  old new

                """)
    }

    @Test func taskItemsAreCheckboxesAndShowTheirStateAsText() throws {
        let markdown = "# Tasks\n- [ ] write\n- [x] test\n- [y] not a task\n"
        let output = try html(markdown)
        #expect(output.contains(#"<li><input type="checkbox" disabled="" /> write</li>"#))
        #expect(output.contains(#"<li><input type="checkbox" checked="" disabled="" /> test</li>"#))
        #expect(output.contains("<li>[y] not a task</li>"))
        let text = try Support.convert(markdown) { $0.to = .text }.output
        #expect(text.contains("• [ ] write\n  • [x] test\n  • [y] not a task"))
    }

    @Test func strikethroughNestsInsideOneRunOfText() throws {
        // The inner pair closes first, so its runs are cut before the outer pair's.
        #expect(try html("~~a ~b~ c~~ and ~d~\n") == "<p><del>a <del>b</del> c</del> and <del>d</del></p>\n")
    }

    @Test func autolinksAndTheirTrailingPunctuation() throws {
        let output = try html("See www.example.com/a_(b)), https://x.org/?q=1. or me@example.com.\n")
        #expect(
            output == """
                <p>See <a href="http://www.example.com/a_(b)">www.example.com/a_(b)</a>), \
                <a href="https://x.org/?q=1">https://x.org/?q=1</a>. or <a href="mailto:me@example.com">me@example.com</a>.</p>

                """)
    }

    @Test func theTagFilterEscapesOnlyItsTagsAndOnlyUnsafeShowsThem() throws {
        let markdown = "<div><script>x()</script><b>ok</b></div>\n"
        #expect(try html(markdown) { $0.html.unsafe = true } == "<div>&lt;script>x()&lt;/script><b>ok</b></div>\n")
        #expect(try html(markdown) == "<div><b>ok</b></div>\n")
    }

    @Test func aCellsLinkIsRewrittenAndCheckedAtItsPlaceInTheSource() throws {
        let folder = try Support.temporaryDirectory()
        defer { Support.remove(folder) }
        try Support.write(
            "# Page\n\n| a | b |\n|---|---|\n| x | see [bad](missing.md) and [good](other.md) |\n", to: folder.appending(path: "page.md"))
        try Support.write("# Other\n", to: folder.appending(path: "other.md"))
        let result = try Support.tool(folder.path, "-o", folder.appending(path: "site").path)
        #expect(result.stderr.contains("page.md:5:11: warning: no file 'missing.md'"))
        let page = try Support.read(folder.appending(path: "site/page.html"))
        #expect(page.contains(#"<td>see <a href="missing.md">bad</a> and <a href="other.html">good</a></td>"#))
    }

    @Test func everyMermaidFenceIsWrittenAsMkDocsMaterialWritesIt() throws {
        let output = try html("```mermaid\ngraph LR\n```\n\ntext\n\n```mermaid\npie\n```\n\n```python\nx\n```\n")
        #expect(
            output
                == "<pre class=\"mermaid\"><code>graph LR\n</code></pre>\n<p>text</p>\n<pre class=\"mermaid\"><code>pie\n</code></pre>\n"
                + "<pre><code class=\"language-python\">x\n</code></pre>\n")
    }

    @Test func aReadmeIsTitledByItsFirstLevelOneHeadingElseByItsFolder() throws {
        let folder = try Support.temporaryDirectory().appending(path: "bat")
        defer { Support.remove(folder.deletingLastPathComponent()) }
        let readme = folder.appending(path: "README.md")
        func title(_ markdown: String, file: URL) throws -> String? {
            try Support.write(markdown, to: file)
            let page = try Support.tool(file.path).stdout
            return page.firstRange(of: /<title>([^<]*)<\/title>/).map { String(page[$0].dropFirst(7).dropLast(8)) }
        }
        #expect(try title("<p align=\"center\"><img src=\"logo.png\"></p>\n\n## Syntax highlighting\n\n# Bat\n", file: readme) == "Bat")
        #expect(try title("## Syntax highlighting\n", file: readme) == "bat")
        #expect(try title("---\ntitle: Mine\n---\n## Syntax highlighting\n", file: readme) == "Mine")
        // Any other page is titled by its first heading.
        #expect(try title("## Syntax highlighting\n", file: folder.appending(path: "guide.md")) == "Syntax highlighting")
    }

    @Test func aSetextHeadingStaysAHeadingInADocumentWithTables() throws {
        let outline = try Support.outline("a | b\n-- | --\n\nTitle\n-----\n\nbody\n")
        #expect(outline.nodes.map(\.title) == ["Title"])
    }

    @Test func aRuleRightAfterATableIsARuleNotAnUnderline() throws {
        // cmark alone reads the paragraph as a setext heading; GitHub reads a table and a rule.
        let outline = try Support.outline("# T\nintro\n| a |\n|---|\n| x |\n---\nafter\n")
        #expect(outline.nodes.map(\.title) == ["T"])
        let output = try html("intro\n| a |\n|---|\n| x |\n---\nafter\n")
        #expect(output.hasPrefix("<p>intro</p>\n<table>\n"))
        #expect(output.hasSuffix("</table>\n<hr />\n<p>after</p>\n"))
    }

    @Test func aTableWithoutPipesAndOneAfterALineThatEndsATable() throws {
        #expect(try html("x\n:--\n") == "<table>\n<thead>\n<tr>\n<th align=\"left\">x</th>\n</tr>\n</thead>\n</table>\n")
        // `\tcode` ends the first table (it is code there); the second is found in what follows.
        let output = try html("| a |\n|---|\n\tcode\n| b |\n|---|\n| c |\n")
        #expect(output.components(separatedBy: "<table>").count == 3)
        #expect(output.contains("<pre><code>code\n</code></pre>"))
    }

    @Test func aLinkAfterAMovedCodeBlockIsPlacedInTheSource() throws {
        let folder = try Support.temporaryDirectory()
        defer { Support.remove(folder) }
        let page = "# Page\n\n| a |\n|---|\n    code\n| [x](gone.md) |\n|---|\n\n[y](lost.md)\n"
        try Support.write(page, to: folder.appending(path: "page.md"))
        let result = try Support.tool(folder.path, "-o", folder.appending(path: "site").path)
        #expect(result.stderr.contains("page.md:6:3: warning: no file 'gone.md'"))
        #expect(result.stderr.contains("page.md:9:1: warning: no file 'lost.md'"))
    }

    @Test func shapesThatAreNotTablesStayText() throws {
        // A header whose cells do not match the delimiter row; a delimiter row alone.
        let output = try html("| a | b |\n| - |\n\n| --- |\n")
        #expect(output == "<p>| a | b |\n| - |</p>\n<p>| --- |</p>\n")
    }

    @Test func aWideShortTableIsBoundedNotHuge() throws {
        // 2,000 columns and 2,000 one-cell rows would fill in four million cells: cmark-gfm's
        // limit ends the table, and the remaining rows stay text.
        let columns = 2_000
        let header = "|" + String(repeating: " a |", count: columns) + "\n|" + String(repeating: "-|", count: columns) + "\n"
        let rows = String(repeating: "| x\n", count: 2_000)
        let output = try html(header + rows)
        // (cmark-gfm 0.29.0.gfm.6, which has no such limit yet, makes all 2,000 rows.)
        #expect(output.hasPrefix("<table>"))
        let rowsMade = output.components(separatedBy: "<tr>").count - 2
        #expect(rowsMade == 0x80000 / (columns - 1))
        #expect(output.hasSuffix("</table>\n<p>| x\n" + String(repeating: "| x\n", count: 2_000 - rowsMade - 2) + "| x</p>\n"))
    }
}
