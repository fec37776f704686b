import Foundation
import Testing

@testable import OutlineConvert

/// Obsidian's callouts: `> [!type]-` closed, `+` open, none always shown, any type.
@Suite struct CalloutTests {
    @Test func rawHTMLInACalloutsFirstLineIsFreedOnceAndForgotten() throws {
        // (Found by FuzzWriters: the callout freed the `<e>` the details step had listed,
        // which then wrote into freed memory.)
        let markdown = "t<details>\n>[!E]<e>ption:: Embedded\n\n> [!NOTE]\n> a <summary>x</summary> b\n"
        for to in [OutputFormat.html, .text, .json] {
            let output = try Support.convert(markdown) { $0.to = to }.output
            #expect(output.contains("ption:: Embedded"))
        }
    }

    @Test func foldableCalloutsKeepTheStateWrittenAndGitHubAlertsStayAsGitHubReadsThem() throws {
        let markdown = """
            > [!faq]- Why *not*?
            > Hidden answer.

            > [!example]+
            > Shown.

            > [!my-type] Always
            > Text.

            > [!NOTE]
            > GitHub's alert.

            > [!WARNING]
            """
        let html = try Support.convert(markdown) { $0.html.fragment = true }.output
        #expect(html.contains("<details class=\"outline-callout outline-callout-faq\"><summary>"))
        #expect(html.contains("Why not?</summary>\n<p>Hidden answer.</p>\n</details>"))
        #expect(html.contains("<details class=\"outline-callout outline-callout-example\" open><summary>"))
        #expect(html.contains("Example</summary>"))
        #expect(html.contains("<div class=\"outline-callout outline-callout-my-type\" role=\"note\">"))
        #expect(html.contains("<div class=\"outline-callout outline-callout-note\" role=\"note\">"))
        // As on GitHub, an alert with nothing in it is a quote.
        #expect(html.contains("<blockquote>\n<p>[!WARNING]</p>"))
        #expect(!html.contains("[!faq]") && !html.contains("[!example]") && !html.contains("[!my-type]"))
        let expanded = try Support.convert(markdown) {
            $0.html.fragment = true
            $0.collapse.all = true
        }.output
        #expect(expanded.contains("outline-callout-faq\" open>"))
        let text = try Support.convert(markdown) { $0.to = .text }.output
        #expect(text.contains("▸ Why not?") && !text.contains("Hidden answer") && text.contains("▾ Example"))
    }
}
