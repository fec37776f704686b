import Testing

@testable import OutlineConvert

/// CONTRIBUTING.md, "Adding a Markdown extension": an extension is its file and its line
/// in a flavour's list. Taking the line out takes out exactly what the extension makes,
/// in HTML and in plain text, and nothing else of what the others make.
@Suite struct MarkdownFlavorTests {
    /// One body with something for every extension of the GitHub flavour, and what each
    /// extension's output holds that no other's does.
    let sample = """
        !!! note "Kept"
            Inside the admonition.

        | Item | Price |
        | ---- | ----: |
        | Tea  | 3     |

        - [x] done task
        - [ ] open task

        This is ~~struck~~ and www.example.com is a link.

        > [!TIP]
        > An alert.

        > [!faq]- Folded question
        > An Obsidian callout.

        <details><summary>More</summary>

        Hidden text.

        </details>

        <script>alert(1)</script>

        <img src=logo.png alt=Logo onerror=alert(1)>

        [Install](install.md){ .md-button }

        ```mermaid
        graph LR
        ```

        ```rust,editable
        fn main() {}
        ```

        A note[^n], and :tada: to end; $a_1 * b$ is math.

        [^n]: The note.
        """
    let marks: [String: [String]] = [
        "admonition": ["outline-callout-note", "• Kept"],
        "table": ["<table>", "Item  Price"],
        "tasklist": ["checkbox\" checked"],
        "strikethrough": ["<del>"],
        "autolink": ["href=\"http://www.example.com\""],
        "alerts": ["outline-callout-tip"],
        "callouts": ["<details class=\"outline-callout outline-callout-faq\"><summary>", "▸ Folded question"],
        "details": ["<details class=\"outline-block\"", "▸ More"],
        "tagfilter": ["&lt;script>"],
        "mermaid": ["<pre class=\"mermaid\"><code>graph LR"],
        "fenced_code_attributes": ["<code class=\"language-rust\">fn main"],
        "raw_html": ["<img src=\"logo.png\" alt=\"Logo\">"],
        "attr_list": ["class=\"md-button\""],
        "footnotes": ["data-footnote-ref>1</a></sup>", "[1] The note."],
        "emoji": ["🎉 to end"],
        "math": ["<span class=\"arithmatex\">\\(a_1 * b\\)</span>"],
    ]

    /// The body's HTML with raw HTML kept (for the tag filter), then as GitHub keeps it, and
    /// its plain text, read with `flavor`.
    private func rendered(_ flavor: MarkdownFlavor) -> String {
        var output = ""
        for unsafe in [true, false] {
            let document = CommonMarkDocument(parsing: sample, flavor: flavor, isBody: true)
            let blocks = document.group(0..<document.blockCount)
            var html = ByteBuffer()
            document.settleRawHTML(ofBlocks: blocks, keepsAll: unsafe, rewrite: nil)
            document.prepare(ofBlocks: blocks, ids: PageHeadingIdentifiers(), forcedOpen: nil)
            document.appendHTML(ofBlocks: blocks, unsafe: unsafe, to: &html)
            output += String(decoding: html.finish(), as: UTF8.self) + "\n"
            if unsafe { output += String(decoding: document.plainText(ofBlocks: blocks, indent: ""), as: UTF8.self) + "\n" }
        }
        return output
    }

    @Test func everyExtensionHasAUniqueNameAndASampleHere() {
        let names = MarkdownFlavor.gitHub.names
        #expect(Set(names).count == names.count)
        #expect(Set(names) == Set(marks.keys))
        #expect(MarkdownFlavor.commonMark.extensions.isEmpty)
    }

    @Test func theGitHubFlavourMakesEveryExtension() {
        let output = rendered(.gitHub)
        for (name, expected) in marks {
            for mark in expected { #expect(output.contains(mark), "\(name): \(mark)") }
        }
    }

    @Test func takingAnExtensionsLineOutTakesOutWhatItMakesAndNothingElse() {
        let all = MarkdownFlavor.gitHub.extensions
        for index in all.indices {
            var list = all
            let removed = list.remove(at: index).name
            let output = rendered(MarkdownFlavor(extensions: list))
            for (name, expected) in marks {
                for mark in expected {
                    #expect(output.contains(mark) == (name != removed), "without \(removed): \(name)'s \(mark)")
                }
            }
        }
    }

    @Test func strictCommonMarkMakesNone() {
        let output = rendered(.commonMark)
        for (name, expected) in marks {
            for mark in expected { #expect(!output.contains(mark), "\(name): \(mark)") }
        }
    }
}
