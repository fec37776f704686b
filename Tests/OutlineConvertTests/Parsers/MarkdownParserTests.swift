import Testing

@testable import OutlineConvert

/// docs/formats.md: how Markdown becomes an outline.
@Suite struct MarkdownParserTests {
    func dump(_ markdown: String) throws -> String { Support.dump(try Support.outline(markdown)) }

    @Test func atxHeadingsNestUnderTheNearestLowerLevel() throws {
        #expect(
            try dump("# A\n## B\n### C\n## D\n# E\n") == """
                [-] A #a
                  [-] B #b
                    [-] C #c
                  [-] D #d
                [-] E #e
                """)
    }

    /// cmark strips a vertical tab or form feed at a heading's end like a space; a title
    /// keeps neither at its ends (nor before pandoc attributes), so that it reads back the
    /// same from the Markdown it is written as (found by FuzzRoundTrip).
    @Test func verticalTabsAndFormFeedsAreWhiteSpaceInTitles() throws {
        let outline = try Support.outline("# Mac\u{0B}\u{0B} {#mac}\n# A\u{0C}\u{0C}B\u{0B}\n")
        #expect(outline.nodes.map(\.title) == ["Mac", "A B"])
        #expect(TitleText.normalized("\u{0C}Plain\u{0B}") == "Plain")
        var options = ConversionOptions()
        options.to = .markdown
        let written = Converter(options: options).write(outline).bytes
        let again = try MarkdownParser().parse(bytes: written, file: "again.md").outline
        #expect(again.nodes.map(\.title) == ["Mac", "A B"])
    }

    @Test func skippedLevelsNestOneLevelDown() throws {
        #expect(
            try dump("# A\n### B\n## C\n###### D\n") == """
                [-] A #a
                  [-] B #b
                  [-] C #c
                    [-] D #d
                """)
    }

    @Test func aDeeperFirstHeadingIsStillTopLevel() throws {
        #expect(try dump("### A\n# B\n") == "[-] A #a\n[-] B #b")
    }

    @Test func setextHeadingsStartNodesAndKeepTheFirstBodyLine() throws {
        let outline = try Support.outline("Title\n=====\nfirst line\n\nSub\n---\nsub body\n")
        #expect(
            Support.dump(outline) == """
                [-] Title #title | first line
                  [-] Sub #sub | sub body
                """)
    }

    @Test func multiLineSetextHeading() throws {
        #expect(try dump("Two\nlines\n===\nbody\n") == "[-] Two lines #two-lines | body")
    }

    @Test func headingsInCodeFencesAndHTMLBlocksAreNotHeadings() throws {
        let markdown = """
            # Real
            ```
            # not a heading
            ```
            <div>
            # not one either
            </div>

                # indented code

            > # quoted heading stays in the body
            """
        let outline = try Support.outline(markdown)
        #expect(outline.nodes.count == 1)
        #expect(outline.nodes[0].children.isEmpty)
        #expect(outline.nodes[0].body == String(markdown.split(separator: "\n", maxSplits: 1)[1]))
    }

    @Test func bodyIsTheExactSourceSliceWithoutOuterBlankLines() throws {
        let outline = try Support.outline("# A\n\n\n  para *one*\n\n- x\n- y\n\n\n# B\n   \n")
        #expect(outline.nodes[0].body == "  para *one*\n\n- x\n- y")
        #expect(outline.nodes[1].body == "")
    }

    @Test func lineEndingsBecomeLF() throws {
        let outline = try Support.outline("# A\r\none\r\ntwo\r\n# B\rthree\r")
        #expect(outline.nodes.map(\.body) == ["one\ntwo", "three"])
    }

    @Test func preambleIsTheOutlineBody() throws {
        let outline = try Support.outline("Intro text.\n\nMore.\n\n# A\nbody\n")
        #expect(outline.body == "Intro text.\n\nMore.")
        #expect(outline.nodes.count == 1)
    }

    @Test func noHeadingsMeansOnlyAPreamble() throws {
        let outline = try Support.outline("just text\n")
        #expect(outline.body == "just text")
        #expect(outline.nodes.isEmpty)
    }

    @Test func anEmptyFileIsAnError() throws {
        #expect(
            throws: ConversionError.malformed(SourceLocation(file: "test.md", line: 1, column: 1), "the file is empty; there is no outline in it")
        ) {
            try Support.outline("")
        }
        #expect(throws: ConversionError.self) { try Support.outline("\u{FEFF}") }
        #expect(try Support.outline("\n").nodes.isEmpty)  // a blank line is a (blank) document
    }

    @Test func titlesArePlainText() throws {
        #expect(try dump("# The *big* `code` [link](u) &amp; <b>tag</b>\n") == "[-] The big code link & tag #the-big-code-link--tag")
    }

    @Test func headingsInsideBodiesRenderWithTheWholeDocumentsLinkReferences() throws {
        let html = try Support.convert("# A\nsee [x][ref]\n# B\n[ref]: https://example.org\n") { $0.html.fragment = true }.output
        #expect(html.contains("<p>see <a href=\"https://example.org\">x</a></p>"))
    }

    // MARK: - Front matter

    @Test func frontMatterIsMetadataNotContent() throws {
        let outline = try Support.outline("---\ntitle: \"My: Doc\"\ncollapse-depth: 2\nauthor: Ada\ntags:\n  - a\n  - b\n---\n# A\n## B\n")
        #expect(outline.title == "My: Doc")
        #expect(outline.body == "")
        #expect(outline.attributes == ["author": "Ada", "tags": "[a, b]"])
        #expect(Support.dump(outline) == "[-] A #a\n  [-] B #b")  // B has no body or children: a leaf stays open
    }

    @Test func frontMatterCollapseDepthAppliesAndTheCommandLineOverrides() throws {
        let markdown = "---\ncollapse-depth: 1\n---\n# A\ntext\n## B\ntext\n"
        #expect(Support.dump(try Support.outline(markdown)) == "[+] A #a | text\n  [+] B #b | text")
        #expect(Support.dump(try Support.outline(markdown) { $0.collapse.depth = 2 }) == "[-] A #a | text\n  [+] B #b | text")
    }

    @Test func frontMatterKeepsLineNumbersForErrors() throws {
        #expect(
            throws: ConversionError.invalid(
                SourceLocation(file: "test.md", line: 2, column: 17), "collapse-depth must be a whole number, 0 or more; found 'deep'")
        ) {
            try Support.outline("---\ncollapse-depth: deep\n---\n")
        }
    }

    @Test func aRuleFollowedByABlankLineIsNotFrontMatter() throws {
        let outline = try Support.outline("---\n\ntitle: x\n---\n")
        #expect(outline.title == nil)
        #expect(outline.nodes.map(\.title) == ["title: x"])  // a setext heading, as cmark sees it
    }

    @Test(
        arguments: [
            // CommonMark spec example 96: a rule, a setext heading, another, a paragraph.
            ("---\nFoo\n---\nBar\n---\nBaz\n", ["Foo", "Bar"], "Baz"),
            // Example 98: two rules (the preamble is the source slice).
            ("---\n---\n", [], "---\n---"),
            // A YAML sequence or a bare URL is not a mapping either.
            ("---\n- a\n- b\n---\n", [], "---\n- a\n- b\n---"),
            ("---\nhttp://example.org\n---\n", ["http://example.org"], nil),
        ] as [(String, [String], String?)])
    func aTopBlockThatIsNotAMappingIsMarkdownAsCmarkReadsIt(markdown: String, titles: [String], lastBody: String?) throws {
        let outline = try Support.outline(markdown)
        #expect(outline.title == nil && outline.attributes.isEmpty)
        #expect(Support.flatten(outline).map(\.node.title) == titles)
        if let lastBody { #expect((Support.flatten(outline).last?.node.body ?? outline.body) == lastBody) }
    }

    @Test func aMappingWithCommentsBlankLinesAndNestedValuesIsFrontMatter() throws {
        let outline = try Support.outline("---\n# about\ntitle: Hi\n\ntags:\n  - a\n  # c\n  - b\n\n# after\nurl: http://x\n---\n# A\n")
        #expect(outline.title == "Hi")
        #expect(outline.attributes == ["tags": "[a, b]", "url": "http://x"])
        #expect(outline.body == "")
        #expect(outline.nodes.map(\.title) == ["A"])
    }

    // MARK: - Markers

    @Test func pandocCollapsedAndExpandedClasses() throws {
        let outline = try Support.outline("# A {.collapsed}\nx\n# B {.expanded}\nx\n# C {.open}\nx\n# D\nx\n") { $0.collapse.depth = 1 }
        #expect(
            Support.dump(outline) == """
                [+] A #a | x
                [-] B #b | x
                [-] C #c | x
                [+] D #d | x
                """)
    }

    @Test func pandocIdAndCombinations() throws {
        let outline = try Support.outline("## Mac {#mac-id .collapsed}\nx\n# Other {#custom}\n")
        #expect(outline.nodes.map(\.id) == ["mac-id", "custom"])
        #expect(outline.nodes[0].isCollapsed)
        #expect(outline.nodes.map(\.title) == ["Mac", "Other"])
    }

    @Test func otherClassesAndPairsBecomeAttributes() throws {
        let node = try Support.outline("# T {.note .wide data-x=1 title=\"a b\" -}\n").nodes[0]
        #expect(node.title == "T")
        #expect(node.attributes == ["class": "note wide unnumbered", "data-x": "1", "title": "a b"])
    }

    @Test func orgVisibilityFoldedMeansCollapsed() throws {
        let node = try Support.outline("# T {visibility=folded}\nbody\n").nodes[0]
        #expect(node.isCollapsed)
        #expect(node.attributes.isEmpty)
    }

    @Test func braceTextThatIsNotAttributesStaysInTheTitle() throws {
        #expect(try Support.outline("# Set {a, b}\n").nodes[0].title == "Set {a, b}")
        #expect(try Support.outline("# Code `{.collapsed}`\nx\n").nodes[0].title == "Code {.collapsed}")
        #expect(try Support.outline("# Code `{.collapsed}`\nx\n").nodes[0].isCollapsed == false)
    }

    @Test func markmapFold() throws {
        #expect(try dump("# A <!-- markmap: fold -->\nx\n## B\nx\n") == "[+] A #a | x\n  [-] B #b | x")
    }

    @Test func markmapFoldAllCollapsesEverythingBelow() throws {
        #expect(
            try dump("# A <!-- markmap: foldAll -->\nx\n## B\nx\n### C\nx\n## D {.expanded}\nx\n# E\nx\n") == """
                [+] A #a | x
                  [+] B #b | x
                    [+] C #c | x
                  [-] D #d | x
                [-] E #e | x
                """)
    }

    @Test func markersTogether() throws {
        let node = try Support.outline("# Mac {#m .collapsed} <!-- markmap: fold -->\nx\n").nodes[0]
        #expect((node.title, node.id, node.isCollapsed) == ("Mac", "m", true))
    }

    @Test func emptyHeadingGetsAPlaceholderTitle() throws {
        #expect(try dump("#\n# {.collapsed}\n") == "[-] Untitled #untitled\n[-] Untitled #untitled-1")
    }

    /// The line index: every byte after a line feed, and nothing else (bytes that differ
    /// from a line feed by one bit or by a carry too: VT, `\t`, 0x8A, 0x01, 0xFF).
    @Test func lineStartsAreTheBytesAfterLineFeeds() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [10, 10, 10, 11, 9, 0x8A, 0x0B, 0x01, 0xFF, 0x7F, 0x0A ^ 0x80, 97, 32, 13]
        for length in Array(0...40) + [63, 64, 65, 1000, 4097] {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 97 }
                // (Mostly line feeds: past the room reserved for a line every 16 bytes.)
                let expected: [UInt32] = [0] + bytes.indices.filter { bytes[$0] == 10 }.map { UInt32($0 + 1) }
                #expect(Lines.lineStarts(bytes) == expected, "\(bytes)")
            }
        }
    }

    /// A heading with markup keeps it as its `outline-title`: its content as written, on one
    /// line, without the heading's markers; its plain text is the title. A heading of text
    /// alone (escapes and entities included) has none.
    @Test func aTitleWithMarkupKeepsItsMarkdown() throws {
        let outline = try Support.outline(
            #"""
            # The `cfg` *option* and [link](https://example.com/x)
            ## [1.0.0] - 2017-06-20 {#v1 .collapsed}
            Fixed.
            ## Logo ![logo](img/logo.png) <!-- markmap: fold -->
            Shown.
            ## Closed `x` ##
            Setext **bold**
            and more
            ---
            # Plain \*text\* &amp; C++
            # Note[^1]

            [1.0.0]: https://example.com/compare/v0.3.0...v1.0.0
            [^1]: A note.
            """#)
        let nodes = outline.nodes
        #expect(nodes[0].title == "The cfg option and link")
        #expect(nodes[0].attributes == [AttributeKey.outlinerTitle: "The `cfg` *option* and [link](https://example.com/x)"])
        let (release, logo, closed) = (nodes[0].children[0], nodes[0].children[1], nodes[0].children[2])
        #expect(release.title == "1.0.0 - 2017-06-20" && release.id == "v1" && release.isCollapsed)
        #expect(release.attributes == [AttributeKey.outlinerTitle: "[1.0.0] - 2017-06-20"])
        #expect(logo.isCollapsed && logo.attributes == [AttributeKey.outlinerTitle: "Logo ![logo](img/logo.png)"])
        #expect(closed.attributes == [AttributeKey.outlinerTitle: "Closed `x`"])
        #expect(nodes[0].children[3].title == "Setext bold and more")
        #expect(nodes[0].children[3].attributes == [AttributeKey.outlinerTitle: "Setext **bold** and more"])
        #expect(nodes[1].title == "Plain *text* & C++" && nodes[1].attributes.isEmpty)
        #expect(nodes[2].attributes.isEmpty)
    }

    /// The HTML shows a title's markup (links rewritten in a site as in bodies); Markdown
    /// writes it back as the heading's text when it reads back the same, else beside the
    /// plain title, so that every round trip keeps it.
    @Test func aTitlesMarkupIsShownAndWrittenBack() throws {
        let markdown =
            "# The `cfg` *option*\n\nBody.\n\n## [Home](https://example.com) ~~old~~\n\n## [1.0.0] - 2017-06-20\n\n[1.0.0]: https://example.com/v1\n"
        let html = try Support.convert(markdown) { $0.html.fragment = true }.output
        #expect(html.contains(#"<span class="outline-title outline-level-1">The <code>cfg</code> <em>option</em></span>"#))
        #expect(html.contains(#"<a href="https://example.com">Home</a> <del>old</del>"#))
        // (A reference link through the page's definition, as cmark reads the heading.)
        #expect(html.contains(#"<a href="https://example.com/v1">1.0.0</a> - 2017-06-20</span>"#))
        let written = try Support.convert(markdown) { $0.to = .markdown }
        #expect(written.output == markdown && written.warnings.isEmpty)
        // A title edited by hand (its Markdown left as it was) is written as the plain title,
        // its Markdown kept beside it; an outline read back from that is the same.
        var outline = try Support.outline(markdown)
        outline.nodes[0].title = "Edited"
        var options = ConversionOptions()
        options.to = .markdown
        let edited = String(decoding: Converter(options: options).write(outline).bytes, as: UTF8.self)
        #expect(edited.hasPrefix("# Edited {#the-cfg-option outline-title=\"The \\`cfg\\` \\*option\\*\"}\n"))
        let back = try MarkdownParser().parse(edited, file: "e.md").outline
        #expect(back.nodes[0].title == "Edited" && back.nodes[0].attributes == outline.nodes[0].attributes)
        #expect(back.nodes[0].children.map(\.attributes) == outline.nodes[0].children.map(\.attributes))
    }

    /// A parse for the structure only (JSON, plain text) and a full one (HTML, where the
    /// flavour's extensions make autolinks, strikethrough and emoji in headings too) keep
    /// the same Markdown of the same titles: none for what only the extensions read (HTML
    /// shows a title's emoji from its text); one stated in the heading's block is kept.
    @Test func bothParsesKeepTheSameTitleMarkdown() throws {
        let markdown = """
            # See https://example.com
            # ~~Old~~ new
            # Party :tada:
            # Step 1: install
            # Plain & simple
            # Home {url="https://example.com"}
            # Use `x`
            # Stated {outline-title="*Mine*"}
            """
        let attributes = try [true, false].map { structureOnly in
            try MarkdownParser().parse(bytes: Array(markdown.utf8), file: "t.md", structureOnly: structureOnly).outline.nodes.map {
                $0.attributes[AttributeKey.outlinerTitle]
            }
        }
        #expect(attributes[0] == [nil, nil, nil, nil, nil, nil, "Use `x`", "*Mine*"])
        #expect(attributes[1] == attributes[0])
    }
}
