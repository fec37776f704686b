import Foundation
import Testing

@testable import OutlineConvert

/// docs/formats.md, blocks in bodies: mkdocs' `!!!`, `???` and `===`, GitHub's alerts and
/// `<details>` are blocks of the page, never their syntax; the source text stays as written.
@Suite struct CollapsibleBlockTests {
    private func fragment(_ text: String, _ configure: (inout ConversionOptions) -> Void = { _ in }) throws -> String {
        try Support.convert(text) {
            $0.html.fragment = true
            configure(&$0)
        }.output
    }

    @Test func anAdmonitionIsACalloutWithItsTitleOrItsType() throws {
        let html = try fragment("!!! warning \"Mind the gap\"\n    Text *here*.\n\n!!! tip\n    Tipped.\n\n!!! note \"\"\n    Untitled.\n")
        #expect(html.contains(#"<div class="outline-callout outline-callout-warning" role="note">"#))
        #expect(html.contains(#"<p class="outline-callout-title"><span class="outline-callout-icon" aria-hidden="true"></span>Mind the gap</p>"#))
        #expect(html.contains("<p>Text <em>here</em>.</p>\n</div>"))
        #expect(html.contains(#"aria-hidden="true"></span>Tip</p>"#))
        // `""`: no title bar.
        #expect(html.contains("<div class=\"outline-callout outline-callout-note\" role=\"note\">\n<p>Untitled.</p>"))
    }

    @Test func questionMarksMakeACollapsibleBlockClosedUnlessPlus() throws {
        let html = try fragment("??? note \"Closed\"\n    Hidden.\n\n    ???+ tip \"Inner\"\n        Nested.\n")
        #expect(html.contains(#"<details class="outline-callout outline-callout-note"><summary>"#))
        #expect(html.contains(#"<details class="outline-callout outline-callout-tip" open><summary>"#))
        #expect(html.contains("<p>Nested.</p>\n</details>\n</details>"))
    }

    @Test func tabsAreAnExclusiveGroupWithTheFirstOpen() throws {
        let html = try fragment("=== \"macOS\"\n    brew\n\n=== \"Linux\"\n    apt\n\n===! \"Other\"\n    new group\n")
        #expect(html.contains(#"<details class="outline-tab" name="outline-tabs" open><summary>macOS</summary>"#))
        #expect(html.contains(#"<details class="outline-tab" name="outline-tabs"><summary>Linux</summary>"#))
        #expect(html.contains(#"<details class="outline-tab" name="outline-tabs-1" open><summary>Other</summary>"#))
        #expect(html.components(separatedBy: "<div class=\"outline-tabs\">").count == 3)
    }

    @Test func githubAlertsAreCallouts() throws {
        let html = try fragment("> [!IMPORTANT]\n> Read this.\n\n> [!NOTE]\n\n> [!nope]\n> text\n")
        #expect(html.contains(#"<div class="outline-callout outline-callout-important" role="note">"#))
        #expect(html.contains("Important</p>\n<p>Read this.</p>\n</div>"))
        // A marker with nothing after it stays a quote, as on GitHub; any other type is an
        // Obsidian callout (`CalloutTests`).
        #expect(html.components(separatedBy: "<blockquote>").count == 2)
        #expect(html.contains(#"<div class="outline-callout outline-callout-nope" role="note">"#))
    }

    @Test func detailsHTMLIsABlockWithOnlyItsTagsPassing() throws {
        let markdown = "<details open>\n<summary>More <b>info</b> &amp; more</summary>\n\nText **bold**.\n\n<kbd>x</kbd>\n\n</details>\n"
        let html = try fragment(markdown)
        #expect(html.contains("<details class=\"outline-block\" open><summary>More info &amp; more</summary>\n<p>Text <strong>bold</strong>.</p>"))
        // (Other raw HTML is what GitHub keeps of it.)
        #expect(html.contains("<kbd>x</kbd>") && !html.contains("<!-- raw HTML omitted -->"))
        #expect(try fragment(markdown) { $0.html.unsafe = true }.contains("<kbd>x</kbd>"))
    }

    @Test func aPairHoldsItsHeadingsAndUnbalancedTagsChangeNothing() throws {
        // As on GitHub: a heading between a pair is in the block, a heading of the body.
        let paired = "# A\n\n<details>\n<summary>More</summary>\n\n### Requirements\n\ntext\n\n</details>\n\n# C\n"
        #expect(try Support.outline(paired).nodes.map(\.title) == ["A", "C"])
        #expect(try fragment(paired).contains("<details class=\"outline-block\"><summary>More</summary>\n<h3 id=\"requirements\">"))
        let markdown = "# A\n\n<details>\n<summary>Open</summary>\n\n# B\n\ntext\n\n</details>\n</details>\n\n# C\n<details>\n"
        for unsafe in [false, true] {
            let html = try fragment(markdown) { $0.html.unsafe = unsafe }
            // The page's details are balanced, and the unpaired tags made nothing.
            #expect(html.components(separatedBy: "<details").count == html.components(separatedBy: "</details>").count)
            #expect(html.components(separatedBy: "outline-block").count == 2)
        }
        let inline = try fragment("# A\n\ntext <details> more\n\n# B\n") { $0.html.unsafe = true }
        #expect(inline.contains("text &lt;details> more"))
    }

    @Test func aBodyOfAnotherFormatWithAHeadingInDetails() throws {
        // Parsed on its own, its top-level heading is content already, then moved into the block.
        let json = """
            {"version": 1, "sections": [{"id": "a", "title": "A", "collapsed": false, "children": [],
             "body": "<details>\\n<summary>S</summary>\\n\\n### Inner\\n\\ntext\\n\\n</details>"}]}
            """
        let html = try Support.convert(json, file: "a.json") { $0.html.fragment = true }.output
        #expect(html.contains("<details class=\"outline-block\"><summary>S</summary>\n<h3 id=\"inner\">Inner</h3>"))
    }

    @Test func deepDetailsAndEmptyBlocksAreSafe() throws {
        let deep = String(repeating: "<details>\n\n", count: 10_000) + "x\n" + String(repeating: "\n</details>\n", count: 10_000)
        let html = try fragment(deep)
        #expect(html.components(separatedBy: "<details").count == 10_001)
        #expect(try fragment("??? note\n\nafter\n").contains("<details class=\"outline-callout outline-callout-note\"><summary>"))
        // An unpaired summary is dropped, and an empty block is nothing.
        #expect(try fragment("<summary>no details</summary>\n").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test func markupInATitleOrATypeIsText() throws {
        #expect(try fragment("!!! note \"<img src=x onerror=alert(1)>\"\n    x\n").contains("&lt;img src=x onerror=alert(1)&gt;</p>"))
        // A type that is not a word is no header: the line stays text.
        #expect(try fragment("!!! <b>\n    x\n").contains("<p>!!! <b>\nx</b></p>"))
    }

    @Test func aTabGroupInAListAndABlockInACodeFence() throws {
        let html = try fragment("- item\n\n    === \"A\"\n        a\n\n```\n!!! note\n    code\n```\n")
        #expect(html.contains("<li>\n<p>item</p>\n<div class=\"outline-tabs\">"))
        #expect(html.contains("<pre><code>!!! note\n    code\n</code></pre>"))
    }

    @Test func expandAndCollapseAllReachBlocks() throws {
        let markdown = "# A\n\n??? note \"N\"\n    x\n\n???+ tip \"T\"\n    y\n"
        let expanded = try fragment(markdown) { $0.collapse.all = true }
        #expect(expanded.contains("outline-callout-note\" open>") && expanded.contains("outline-callout-tip\" open>"))
        let collapsed = try fragment(markdown) { $0.collapse.all = false }
        #expect(!collapsed.contains("outline-callout-tip\" open>"))
    }

    @Test func plainTextShowsBlocksWithTheSectionsMarkers() throws {
        let markdown = "# A\n\n!!! warning\n    Careful.\n\n??? note \"Hidden\"\n    secret\n\n=== \"One\"\n    1\n\n=== \"Two\"\n    2\n"
        #expect(
            try Support.convert(markdown) { $0.to = .text }.output
                == "▾ A\n  • Warning\n    Careful.\n\n  ▸ Hidden\n\n  ▾ One\n    1\n\n  ▸ Two\n")
        #expect(
            try Support.convert(markdown) {
                $0.to = .text; $0.ascii = true
            }.output.contains("* Warning"))
    }

    @Test func theSourceStaysAsWrittenInJSONAndRoundTrips() throws {
        let markdown = "# A\n\n!!! note\n    Text.\n\n> [!TIP]\n> tip\n"
        let outline = try Support.outline(markdown)
        #expect(outline.nodes.first?.body == "!!! note\n    Text.\n\n> [!TIP]\n> tip")
        let back = try Support.convert(markdown) { $0.to = .markdown }.output
        #expect(back == markdown)
    }

    @Test func aHeadingInsideABlockIsNoSection() throws {
        let outline = try Support.outline("# A\n\n!!! note\n    # Not a section\n    text\n")
        #expect(outline.nodes.map(\.title) == ["A"])
        #expect(try fragment("# A\n\n!!! note\n    # Inside\n").contains("<h1 id=\"inside\">Inside</h1>"))
    }

    // Blocks whose place the lines alone tell are read before cmark reads the text
    // (`MkDocsBlocks.predict`); what it cannot place is left to the rounds on cmark's tree.

    @Test func blocksReadBeforeTheParseAndByRoundsNestAsTheRoundsReadThem() throws {
        // A block in a list item and one after a paragraph's line are the rounds'.
        let html = try fragment(
            "!!! note\n    ??? tip \"T\"\n        - item\n\n            !!! warning\n                deep\n\ntext\n!!! info\n    still text\n")
        #expect(html.contains("<details class=\"outline-callout outline-callout-tip\"><summary>"))
        #expect(html.contains("<p>item</p>\n<div class=\"outline-callout outline-callout-warning\" role=\"note\">"))
        #expect(html.contains("<p>text\n!!! info\nstill text</p>"))
        // Sixteen levels at most, as before: the seventeenth stays text.
        let deep = (0..<20).map { String(repeating: " ", count: 4 * $0) + "!!! note\n" }.joined(separator: "\n")
        #expect(try fragment(deep).components(separatedBy: "outline-callout-note").count - 1 == MkDocsBlocks.maxRounds)
    }

    @Test func aHeaderInHTMLThatRunsOnOrInCodeIsNoBlock() throws {
        // A `<div>`'s block ends at the blank line, so its fence-like line is HTML, and the
        // fence after the note opens code to the end: `!!! tip` is in it. (The lines alone
        // would take the first fence for one: cmark's tree then says otherwise, and the
        // text is read as written.)
        let html = try fragment("<div>\n```\n\n!!! note\n    x\n\n```\n\n!!! tip\n    y\n") { $0.html.unsafe = true }
        #expect(html.contains("outline-callout-note") && !html.contains("outline-callout-tip"))
        #expect(html.contains("<pre><code>\n!!! tip\n    y\n</code></pre>"))
        let comment = try fragment("<!--\n\n!!! note\n    x\n\n-->\n\n!!! tip\n    y\n")
        #expect(!comment.contains("outline-callout-note") && comment.contains("outline-callout-tip"))
    }

    @Test func aFenceLeftOpenInABlockNeverShowsAMarker() throws {
        // mkdocs-material's own docs/insiders/upgrade.md: a stray fence at the end of a tab.
        let html = try fragment("=== \"A\"\n\n    a\n    ```\n\n=== \"B\"\n\n    b\n")
        #expect(!html.contains("outline-block"))
        #expect(html.contains("<summary>A</summary>"))
    }
}
