import Foundation
import Testing

@testable import OutlineConvert

/// docs/formats.md: the three outputs.
@Suite struct EmitterTests {
    let markdown = """
        ---
        title: Doc & Co
        ---
        Intro with *emphasis*.

        # Open
        Body **bold** [link](https://x.org).

        - one
        - two

        ## Leaf
        # Closed {.collapsed}
        hidden body
        ## Hidden child
        text
        """

    @Test func htmlDetailsOpenExactlyWhenExpanded() throws {
        let html = try Support.convert(markdown) { $0.html.fragment = true }.output
        #expect(
            html == """
                <h1 class="outline-page-title">Doc &amp; Co</h1>
                <p>Intro with <em>emphasis</em>.</p>
                <h2 class="outline-heading">Open</h2>
                <details id="open" open><summary><span class="outline-title outline-level-2">Open</span><a class="outline-permalink" href="#open" aria-label="Link to this section">#</a></summary>
                <p>Body <strong>bold</strong> <a href="https://x.org">link</a>.</p>
                <ul>
                <li>one</li>
                <li>two</li>
                </ul>
                <h3 id="leaf" class="outline-leaf">Leaf</h3>
                </details>
                <h2 class="outline-heading">Closed</h2>
                <details id="closed"><summary><span class="outline-title outline-level-2">Closed</span><a class="outline-permalink" href="#closed" aria-label="Link to this section">#</a></summary>
                <p>hidden body</p>
                <h3 class="outline-heading">Hidden child</h3>
                <details id="hidden-child" open><summary><span class="outline-title outline-level-3">Hidden child</span><a class="outline-permalink" href="#hidden-child" aria-label="Link to this section">#</a></summary>
                <p>text</p>
                </details>
                </details>

                """)
    }

    @Test func htmlWithoutATitleStartsAtH1AndDeepLevelsUseAriaLevel() throws {
        let xml =
            "<outline>" + String(repeating: "<section title=\"s\">", count: 8) + "<item title=\"x\"/>" + String(repeating: "</section>", count: 8)
            + "</outline>"
        let html = try Support.convert(xml, file: "t.xml") { $0.html.fragment = true }.output
        #expect(
            html.hasPrefix(
                "<h1 class=\"outline-heading\">s</h1>\n<details id=\"s\" open><summary><span class=\"outline-title outline-level-1\">s</span>"))
        #expect(
            html.contains(
                "<h6 class=\"outline-heading\">s</h6>\n<details id=\"s-5\" open><summary><span class=\"outline-title outline-level-6\"><span id=\"s_5\"></span>s</span>"
            ))
        #expect(
            html.contains(
                "<div role=\"heading\" aria-level=\"7\" class=\"outline-heading\">s</div>\n<details id=\"s-6\" open><summary><span class=\"outline-title outline-level-6\"><span id=\"s_6\"></span>s</span>"
            ))
        #expect(html.contains("<div role=\"heading\" aria-level=\"9\" id=\"x\" class=\"outline-leaf\">x</div>"))
    }

    @Test func titlesAndTextAreAlwaysEscaped() throws {
        let xml =
            "<outline title=\"&lt;script&gt;\"><section title=\"a &quot;q&quot; &amp; &lt;b&gt;\" id=\"x&quot;y\"><detail>&lt;img src=x onerror=alert(1)&gt;</detail></section></outline>"
        let html = try Support.convert(xml, file: "t.xml").output
        #expect(html.contains("<title>&lt;script&gt;</title>"))
        #expect(
            html.contains(
                "<h2 class=\"outline-heading\">a &quot;q&quot; &amp; &lt;b&gt;</h2>\n<details id=\"x&quot;y\" open><summary><span class=\"outline-title outline-level-2\">a &quot;q&quot; &amp; &lt;b&gt;</span>"
            ))
        // (Raw HTML is what GitHub keeps of it: the image, without its handler.)
        #expect(html.contains("<img src=\"x\">"))
        #expect(!html.contains("onerror"))
        #expect(!html.contains("<script>alert"))
    }

    @Test func unsafePassesRawHTMLThrough() throws {
        let source = "# A\n<div class=\"x\">raw</div>\n"
        #expect(try Support.convert(source) { $0.html.fragment = true }.output.contains("<div>raw</div>"))
        #expect(
            try Support.convert(source) {
                $0.html.fragment = true; $0.html.unsafe = true
            }.output.contains("<div class=\"x\">raw</div>"))
    }

    @Test func accordionNamesSiblingGroupsAndWarnsAboutSeveralOpen() throws {
        let conversion = try Support.convert("# A\nx\n# B\nx\n## C\nx\n") {
            $0.html.fragment = true; $0.html.accordion = true
        }
        #expect(conversion.output.contains("<details id=\"a\" name=\"outline\" open>"))
        #expect(conversion.output.contains("<details id=\"b\" name=\"outline\" open>"))
        #expect(conversion.output.contains("<details id=\"c\" name=\"b\" open>"))
        #expect(
            conversion.warnings.map(\.description) == [
                "test.md:3: warning: with --accordion only one of these siblings can start open; 'B' will start closed"
            ])
    }

    @Test func standalonePageHasEverythingInline() throws {
        let html = try Support.convert(markdown).output
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<title>Doc &amp; Co</title>"))
        #expect(html.contains("prefers-color-scheme: dark"))
        #expect(html.contains("addEventListener(\"beforeprint\""))
        #expect(!html.contains("{{"))
        #expect(!html.contains("<link "))
        #expect(!html.contains(" src=\"http"))
    }

    @Test func userTemplatesAndUnknownPlaceholders() throws {
        let template = try PageTemplate(text: "<t>{{ title }}</t>{{content}}", path: "my.html")
        let html = try Support.convert("# A\n") {
            $0.html.template = template; $0.title = "Mine"
        }.output
        #expect(html.hasPrefix("<t>Mine</t><h1 class=\"outline-page-title\">Mine</h1>"))
        #expect(
            throws: ConversionError.invalid(
                SourceLocation(file: "my.html", line: 2),
                "unknown placeholder '{{body}}'; known: {{title}}, {{content}}, {{style}}, {{script}}, {{lang}}, {{index}}, {{toc}}, "
                    + "{{pager}}, {{canonical}}")
        ) {
            try PageTemplate(text: "<p>\n{{body}}", path: "my.html")
        }
    }

    @Test func textOutline() throws {
        #expect(
            try Support.convert(markdown) { $0.to = .text }.output == """
                Doc & Co

                Intro with emphasis.

                ▾ Open
                  Body bold link.

                  • one
                  • two
                  • Leaf
                ▸ Closed

                """)
    }

    @Test func textAsciiMarkersAndNesting() throws {
        let text = try Support.convert(
            "# A\n> quoted\n> more\n\n1. first\n   para\n\n2. second\n\n```\ncode  kept\n```\n## B {.collapsed}\nx\n## C\n"
        ) {
            $0.to = .text; $0.ascii = true
        }.output
        #expect(
            text == """
                - A
                    quoted
                    more

                  1. first
                     para

                  2. second

                  code  kept
                  + B
                  * C

                """)
    }

    @Test func jsonIsTheModel() throws {
        let json = try Support.convert("---\nauthor: Ada\n---\n# A {.x k=v}\nline \"one\"\n\ttab\n## B\n") { $0.to = .json }.output
        #expect(
            json == """
                {
                  "version": 1,
                  "body": "",
                  "attributes": {"author": "Ada"},
                  "sections": [
                    {
                      "id": "a",
                      "title": "A",
                      "collapsed": false,
                      "body": "line \\"one\\"\\n\\ttab",
                      "attributes": {"class": "x", "k": "v"},
                      "children": [
                        {
                          "id": "b",
                          "title": "B",
                          "collapsed": false,
                          "body": "",
                          "children": []
                        }
                      ]
                    }
                  ]
                }

                """)
    }

    @Test func jsonEscapesControlCharacters() {
        #expect(JSONEmitter.quoted("a\u{1}b\u{1F}\u{7F}é\u{2028}") == "\"a\\u0001b\\u001f\u{7F}é\\u2028\"")
    }

    /// Found by FuzzRoundTrip: syntax characters were escaped by character, and a backtick,
    /// a quote or a backslash followed by a combining mark (U+0338) is one character but
    /// still the byte cmark and the front matter reader see. A title and front matter like
    /// that must come back from Markdown as they went in.
    @Test func syntaxFollowedByACombiningMarkIsStillEscaped() throws {
        let odd = "a `\u{338}b` *\u{338}c* [\u{338}d] \\\u{338} <\u{338}e \"\u{338} \\"
        let quoted = "\"\u{338}quoted\"\u{338}"
        var outline = Outline(nodes: [OutlineNode(title: odd, id: "x", body: "text")])
        outline.attributes = ["note": odd, "other": quoted]
        var options = ConversionOptions()
        options.to = .markdown
        let markdown = Converter(options: options).write(outline).bytes
        let back = try MarkdownParser().parse(bytes: markdown, file: "back.md").outline
        let title = back.nodes.first?.title
        #expect(title == odd)
        let note = back.attributes["note"]
        #expect(note == odd)
        let other = back.attributes["other"]
        #expect(other == quoted)
        // The build record's fields and the docs index are escaped by bytes too.
        let field = "tab\t\u{338} line\n\u{338} slash\\\u{338} t"
        let unescaped = BuildRecord.unescaped(Array(BuildRecord.escaped(field).utf8)[...])
        #expect(unescaped == field)
        let index = DocsIndex.escaped("[\u{338}x]")
        let expected = "\\[\u{338}x\\]"
        #expect(index == expected)
    }

    /// Found by FuzzWriters: an empty list item vanished from plain text.
    @Test func anEmptyListItemKeepsItsBulletInText() throws {
        let text = try Support.convert("# A\n- a\n-\n- c\n\n1.\n2. x\n") { $0.to = .text }.output
        #expect(text == "▾ A\n  • a\n  •\n  • c\n\n  1.\n  2. x\n")
    }

    @Test func deepJSONKeepsItsNestingButNotItsIndentation() throws {
        var node = OutlineNode(title: "leaf", id: "leaf", body: "text")
        for level in (1..<40).reversed() { node = OutlineNode(title: "L\(level)", id: "l\(level)", children: [node]) }
        let json = JSONEmitter().render(Outline(nodes: [node]))
        let indents = json.split(separator: 10).map { $0.prefix { $0 == 32 }.count }
        #expect(indents.max() == JSONEmitter.maxIndent + 2)  // the `{` of a node at the deepest indentation
        var value = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
        var depth = 0
        var sections = value?["sections"] as? [[String: Any]]
        while let first = sections?.first {
            depth += 1
            value = first
            sections = first["children"] as? [[String: Any]]
        }
        #expect(depth == 40 && value?["body"] as? String == "text")
    }

    /// Two processes, because Swift seeds its hashing per process: a dictionary walked in
    /// hash order would give the same bytes twice in one process and differ between two.
    @Test func outputIsTheSameBytesInTwoProcesses() throws {
        let keys = (0..<30).map { "key\($0)" }
        let input =
            "---\n" + keys.map { "\($0): v" }.joined(separator: "\n") + "\n---\n" + markdown
            + "\n# Many {" + keys.map { "\($0)=x" }.joined(separator: " ") + " .a .b}\nbody\n# Many\n# Many\n"
        for format in OutputFormat.all {
            let first = try Support.tool("--from", "markdown", "--to", format.name, input: input)
            let second = try Support.tool("--from", "markdown", "--to", format.name, input: input)
            #expect(first.status == 0 && !first.stdoutBytes.isEmpty)
            #expect(first.stdoutBytes == second.stdoutBytes, "\(format)")
        }
    }
}
