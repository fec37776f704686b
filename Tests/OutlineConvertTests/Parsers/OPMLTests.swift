import Foundation
import Testing

@testable import OutlineConvert

/// OPML as outliners write it: both readings of `expansionState`, feed lists, link
/// outlines. The fixtures in Tests/fixtures/opml are shaped like each app's files.
@Suite struct OPMLTests {
    static let fixtures = Support.root.appending(path: "Tests/fixtures/opml")

    static func parse(_ name: String, expansion: OPMLExpansionReading? = nil) throws -> ParsedDocument {
        try OPMLParser(expansion: expansion).parse(Array(try Data(contentsOf: fixtures.appending(path: name))), file: name)
    }

    /// The titles of the nodes the source marks open, and of those it marks closed.
    static func states(_ outline: Outline) -> (open: [String], closed: [String]) {
        var open: [String] = []
        var closed: [String] = []
        outline.forEachNode { node in
            if node.collapsed == false && node.isCollapsible { open.append(node.title) }
            if node.collapsed == true { closed.append(node.title) }
        }
        return (open, closed)
    }

    /// What each app shows when it opens its file.
    static let shown: [(file: String, open: [String], closed: [String])] = [
        // Drummer: 1,2,6,18 are the lines of the outline as shown, each expansion adding lines.
        (
            "drummer-states.opml", ["United States", "Far West", "Nevada", "South"],
            ["Great Plains", "Mid-Atlantic", "Midwest", "Mountains", "New England", "Southwest"]
        ),
        // OPML Editor: 1,4 fits both readings; its window elements say which one it is.
        ("opml-editor.opml", ["Work notes", "Details"], ["Intro", "Goals"]),
        // Cactus, everything open: read OmniOutliner's way, `1` would be a leaf.
        ("cactus.opml", ["About", "Posts", "2026", "Links"], []),
        ("omnioutliner.opml", ["Before leaving", "Tickets", "Stops"], ["Train", "On the way"]),
        // Zavala with its first row closed: no 0, but only OmniOutliner's reading fits `2,6`.
        ("zavala.opml", ["Projects", "Someday"], ["Inbox", "Garden", "Taxes"]),
        ("opml1.opml", ["Background", "Hits"], ["Rock"]),
        // No expansionState: nothing is marked, the collapse options decide.
        ("feeds.opml", [], []),
    ]

    @Test(arguments: shown.indices)
    func eachAppsFileOpensAsInTheApp(index: Int) throws {
        let (file, open, closed) = Self.shown[index]
        let document = try Self.parse(file)
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        let states = Self.states(document.outline)
        #expect(states.open == open, "\(file)")
        #expect(states.closed == closed, "\(file)")
    }

    @Test func aReadingCanBeForced() throws {
        let omni = try Self.parse("drummer-states.opml", expansion: .omni)
        #expect(Self.states(omni.outline).open == ["Far West", "Mid-Atlantic"])
        #expect(Self.states(omni.outline).closed.first == "United States")
        let spec = try Self.parse("zavala.opml", expansion: .spec)
        #expect(Self.states(spec.outline).open == ["Projects"])
        #expect(spec.warnings.map(\.message) == ["expansionState: there is no line 6 (the outline shows 5 there); it is ignored"])
        #expect(spec.warnings.first?.location.line == 9)
        let zero = try OPMLParser(expansion: .spec).parse(
            Array("<opml><head><expansionState>0,1</expansionState></head><body><outline text='A' _note='n'/></body></opml>".utf8),
            file: "z.opml")
        #expect(zero.warnings.map(\.message) == ["expansionState: 0 is not a line number (the first line is 1); it is ignored"])
        #expect(Self.states(zero.outline).open == ["A"])
    }

    /// The example of the two readings from the outliners' forums: the same state is
    /// `0,5,12` OmniOutliner's way and `1,3,7` the spec's.
    @Test func bothReadingsOfOneStateGiveTheSameOutline() throws {
        func opml(_ list: String) -> [UInt8] {
            Array(
                """
                <opml version="2.0"><head><expansionState>\(list)</expansionState></head><body>
                <outline text="Alpha">
                  <outline text="Beta"><outline text="b1"/><outline text="b2"/><outline text="b3"/></outline>
                  <outline text="Gamma">
                    <outline text="Iota"><outline text="i1"/><outline text="i2"/></outline>
                    <outline text="c2"/>
                    <outline text="c3"><outline text="c31"/></outline>
                    <outline text="Delta"><outline text="d1"/><outline text="d2"/></outline>
                  </outline>
                </outline>
                <outline text="Zeta"><outline text="z1"/></outline>
                </body></opml>
                """.utf8)
        }
        let omni = try OPMLParser().parse(opml("0,5,12"), file: "o.opml").outline
        let spec = try OPMLParser().parse(opml("1,3,7"), file: "s.opml").outline
        #expect(Self.states(omni).open == ["Alpha", "Gamma", "Delta"])
        #expect(omni == spec)
        // Written back, each way, it is the list it was read from.
        var options = ConversionOptions()
        options.to = .opml
        #expect(Converter(options: options).write(spec).output.contains("<expansionState>1,3,7</expansionState>"))
        options.opmlExpansion = .omni
        #expect(Converter(options: options).write(spec).output.contains("<expansionState>0,5,12</expansionState>"))
    }

    /// Every fixture, as read, written each way and read back (by the rule, not told the
    /// reading), is the same outline, attributes and collapse state included.
    @Test(arguments: shown.map(\.file) + ["links.opml"], [OPMLExpansionReading.spec, .omni])
    func ourOwnFilesReadBackExactlyEitherWay(file: String, reading: OPMLExpansionReading) throws {
        var toOPML = ConversionOptions()
        toOPML.to = .opml
        toOPML.opmlExpansion = reading
        var toJSON = ConversionOptions()
        toJSON.to = .json
        let source = try Data(contentsOf: Self.fixtures.appending(path: file))
        let json = try Converter(options: toJSON).convert(Array(source), file: file)
        let written = try Converter(options: toOPML).convert(json.bytes, file: "outline.json")
        #expect(written.warnings.isEmpty, "\(written.warnings)")
        #expect(try Converter(options: toJSON).convert(written.bytes, file: "back.opml").output == json.output, "\(file) \(reading)")
    }

    /// An open section inside a closed one cannot be named the spec's way: our files list
    /// it apart, so that it reads back open.
    @Test func openSectionsInsideClosedOnesAreListedApart() throws {
        let outline = Outline(nodes: [
            OutlineNode(title: "A", collapsed: true, children: [OutlineNode(title: "B", collapsed: false, body: "b")]),
            OutlineNode(title: "C", body: "c"),
        ])
        var options = ConversionOptions()
        options.to = .opml
        let written = Converter(options: options).write(outline)
        #expect(written.output.contains("<expansionState>2</expansionState>\n    <_expansionStateHidden>1</_expansionStateHidden>"))
        let back = try OPMLParser().parse(written.bytes, file: "back.opml").outline
        #expect(Self.states(back) == (["B", "C"], ["A"]))
        // OmniOutliner's way names every node; a list without 0 says which reading it is in.
        options.opmlExpansion = .omni
        let omni = Converter(options: options).write(outline).output
        #expect(omni.contains("<expansionState>1,2</expansionState>\n    <_expansionReading>omni</_expansionReading>"))
        #expect(!omni.contains("_expansionStateHidden"))
    }

    @Test func aSubscriptionListKeepsEveryAttributeThroughJSON() throws {
        let source = try Self.parse("feeds.opml").outline
        var toJSON = ConversionOptions()
        toJSON.to = .json
        var toOPML = ConversionOptions()
        toOPML.to = .opml
        let file = Self.fixtures.appending(path: "feeds.opml").path
        let json = try Converter(options: toJSON).convert(Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
        let opml = try Converter(options: toOPML).convert(json.bytes, file: "feeds.json")
        #expect(opml.warnings.isEmpty, "\(opml.warnings)")
        let back = try OPMLParser().parse(opml.bytes, file: "feeds.opml").outline
        var before: [[String: String]] = []
        var after: [[String: String]] = []
        source.forEachNode { before.append($0.attributes) }
        back.forEachNode { after.append($0.attributes) }
        #expect(after == before)
        #expect(before[1]["xmlUrl"] == "https://feeds.bbci.co.uk/news/rss.xml")
        #expect(opml.output.contains("xmlUrl=\"https://example.org/feed?a=1&amp;b=2\""))
    }

    @Test(arguments: [
        ("xmlUrl", true), ("xml", true), ("xmlns", false), ("a:b", false), ("1a", false), ("-a", false), ("_note", true),
        ("ünïcode", true), ("a·b", true), ("a b", false), ("", false), ("a\u{0301}", true), ("\u{0301}a", false),
    ])
    func xmlNamesAreKeptAndOthersAreNot(name: String, kept: Bool) {
        #expect(XMLText.isName(name) == kept, "\(name)")
    }

    @Test func linkOutlinesLinkTheirTitles() throws {
        let file = Self.fixtures.appending(path: "links.opml").path
        let page = try Support.tool(file, "--fragment")
        #expect(page.status == 0, "\(page.stderr)")
        #expect(
            page.stdout.contains(
                "<h2 id=\"scripting-news\" class=\"outline-leaf\"><a class=\"outline-link\" href=\"http://scripting.com/\">Scripting News</a></h2>"))
        #expect(page.stdout.contains("<a class=\"outline-link\" href=\"http://hosting.opml.org/dave/spec/states.opml\">The states</a>"))
        #expect(page.stdout.contains("<h2 id=\"not-a-link\" class=\"outline-leaf\">Not a link</h2>"))
        #expect(
            page.stdout.contains(
                "<a class=\"outline-link\" href=\"https://daringfireball.net/\">Daring Fireball</a> <a class=\"outline-feed\" href=\"https://daringfireball.net/feeds/main\">feed</a>"
            ))
        // As cmark does with --unsafe, every URL is linked then.
        #expect(try Support.tool(file, "--fragment", "--unsafe").stdout.contains("href=\"javascript:alert(1)\""))
        let text = try Support.tool(file, "-t", "text")
        #expect(text.stdout.contains("• Scripting News <http://scripting.com/>\n"))
        #expect(text.stdout.contains("  • Daring Fireball <https://daringfireball.net/> (feed <https://daringfireball.net/feeds/main>)\n"))
    }

    @Test func theCommandLineTakesAReading() throws {
        let file = Self.fixtures.appending(path: "zavala.opml").path
        let spec = try Support.tool(file, "-t", "text", "--opml-expansion", "spec")
        #expect(spec.stdout.contains("▾ Projects\n  ▸ Garden\n  ▸ Taxes\n▸ Someday\n"), "\(spec.stdout)")
        #expect(spec.stderr.contains("zavala.opml:9:5: warning: expansionState: there is no line 6"), "\(spec.stderr)")
        let omni = try Support.tool(file, "-t", "opml", "--opml-expansion", "omni")
        #expect(omni.stdout.contains("<expansionState>2,6</expansionState>"))
        let bad = try Support.tool(file, "--opml-expansion", "zero")
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("Error: Unknown expansionState reading 'zero' (expected one of: spec, omni)"), "\(bad.stderr)")
    }
}

/// Attribute values in Markdown headings, as pandoc writes and reads them.
@Suite struct MarkdownAttributeValueTests {
    @Test func quotesBackslashesAndBracesRoundTripEscaped() throws {
        let value = #"say "hi" <&> C:\dir {x} it's"#
        let outline = Outline(nodes: [OutlineNode(title: "A", body: "x", attributes: ["note": value, "data-y": "{"])])
        var options = ConversionOptions()
        options.to = .markdown
        let written = Converter(options: options).write(outline)
        #expect(written.warnings.isEmpty, "\(written.warnings)")
        #expect(written.output.hasPrefix(#"# A {data-y="{" note="say \"hi\" \<\&> C:\\dir {x} it's"}"#), "\(written.output)")
        let back = try Support.outline(written.output)
        #expect(back.nodes.first?.attributes == ["note": value, "data-y": "{"])
        #expect(back.nodes.first?.title == "A")
    }

    @Test func pandocsEscapedValuesAreRead() throws {
        let node = try Support.outline(#"# T {#t k="a \"b\" \\ c \} &amp; d" q='x "y"' u=a\*b}"# + "\n").nodes[0]
        #expect(node.title == "T" && node.id == "t")
        #expect(node.attributes == ["k": #"a "b" \ c } & d"#, "q": #"x "y""#, "u": "a*b"])
    }

    @Test func theBlockMayBeFollowedByClosingHashesOrAMarkmapComment() throws {
        let outline = try Support.outline("# A {#a k=\"v\"} ##\n# B {.collapsed} <!-- markmap: fold -->\n# C \\{.x}\n")
        #expect(outline.nodes.map(\.title) == ["A", "B", "C {.x}"])
        #expect(outline.nodes[0].id == "a" && outline.nodes[0].attributes == ["k": "v"])
        #expect(outline.nodes[1].collapsed == true && outline.nodes[2].attributes.isEmpty)
    }

    @Test func aValueWithALineBreakIsLeftOutWithAWarning() throws {
        let outline = Outline(nodes: [OutlineNode(title: "A", attributes: ["k": "a\nb"])])
        var options = ConversionOptions()
        options.to = .markdown
        let written = Converter(options: options).write(outline)
        #expect(written.output == "# A\n")
        #expect(
            written.warnings.map(\.message) == [
                "attribute 'k' of section 'A' is left out of the Markdown output: a heading's attributes cannot hold a line break"
            ])
    }
}
