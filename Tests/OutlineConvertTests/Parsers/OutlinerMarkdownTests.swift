import Foundation
import Testing

@testable import OutlineConvert

/// Outliners' Markdown (Logseq pages, Drummer's and Obsidian's bullet outlines): read, found
/// among Markdown files, written back, and rendered.
@Suite struct OutlinerMarkdownTests {
    /// A Logseq page as the app writes it: page properties, tabs, properties under a title
    /// line, a folded block, an id, a heading block, code, a title line with markup.
    static let logseqPage = """
        alias:: Guide
        type:: [[Feature]]

        - ## Usage
        \t- Type `/Code block`
        \t  collapsed:: true
        \t  id:: 6103e488-22d4-4751-b27a-69b278067c26
        \t  updated-at:: 1609233703526
        \t\t- nested child
        \t- An example:
        \t  ```clojure
        \t  - (not an item)
        \t  ```
        - Read [[The basics]] **first**
        -
        \t- under a bare bullet
        """

    static func read(_ text: String, file: String = "Code block.md", from: InputFormat? = nil) throws -> Outline {
        try Support.outline(text, file: file) { $0.from = from }
    }

    /// The outline without its nodes' source lines, which differ from format to format.
    static func withoutLines(_ outline: Outline) -> Outline {
        func strip(_ nodes: [OutlineNode]) -> [OutlineNode] {
            nodes.map { node in
                var node = node
                node.line = 0
                node.children = strip(node.children)
                return node
            }
        }
        var outline = outline
        outline.nodes = strip(outline.nodes)
        return outline
    }

    @Test func eachItemIsANodeWithItsPropertiesStateAndBody() throws {
        let outline = try Self.read(Self.logseqPage)
        // The page's properties are the outline's attributes (its name, from its file, is
        // only shown: see below).
        #expect(outline.title == nil)
        #expect(outline.attributes == ["alias": "Guide", "type": "[[Feature]]"])
        let nodes = Support.flatten(outline)
        #expect(nodes.map(\.depth) == [1, 2, 3, 2, 1, 1, 2])
        #expect(
            nodes.map(\.node.title) == [
                "Usage", "Type /Code block", "nested child", "An example:", "Read The basics first", "Untitled", "under a bare bullet",
            ])
        let folded = nodes[1].node
        #expect(folded.isCollapsed && folded.id == "6103e488-22d4-4751-b27a-69b278067c26")
        #expect(folded.attributes == ["updated-at": "1609233703526", AttributeKey.outlinerTitle: "Type `/Code block`"])
        // Code stays code, its `- ` line included, without the item's indentation.
        #expect(nodes[3].node.body == "```clojure\n- (not an item)\n```" && nodes[3].node.children.isEmpty)
        // A heading marker and markup are kept where HTML and the writer find them.
        #expect(nodes[0].node.attributes == [AttributeKey.outlinerTitle: "## Usage"])
        #expect(nodes[4].node.attributes == [AttributeKey.outlinerTitle: "Read [[The basics]] **first**"])
        #expect(nodes[5].node.attributes == [AttributeKey.outlinerTitle: ""])
    }

    @Test func logseqPagesAndNestedBulletListsAreFoundAmongMarkdownFiles() throws {
        #expect(try Self.read(Self.logseqPage, file: "page.md").nodes.count == 3)
        #expect(try Self.read("- a\n\t- b\n- c\n", file: "page.md").nodes.map(\.title) == ["a", "c"])
        // A flat list, or a list after a paragraph, is Markdown: one preamble holding it.
        #expect(try Self.read("- a\n- b\n", file: "page.md").nodes.isEmpty)
        #expect(try Self.read("Intro\n\n- a\n  - b\n", file: "page.md").nodes.isEmpty)
        #expect(try Self.read("# A\n\n- a\n  - b\n", file: "page.md").nodes.map(\.title) == ["A"])
        // A `key:: value` line in code or in a paragraph is not a property; `--from
        // markdown` says Markdown.
        #expect(try Self.read("```\nkey:: value\n```\n", file: "page.md").nodes.isEmpty)
        #expect(try Self.read("# A\ntext\nkey:: value\n", file: "page.md").nodes.map(\.title) == ["A"])
        #expect(try Self.read(Self.logseqPage, file: "page.md", from: .markdown).nodes.isEmpty)
        // A flat list is an outline when asked for.
        #expect(try Self.read("- a\n- b\n", file: "page.md", from: .outline).nodes.map(\.title) == ["a", "b"])
    }

    @Test func spacesIndentAsWellAsTabsAndAnUnclosedFenceEndsWithItsItem() throws {
        let outline = try Self.read("- a\n  - b\n    text of b\n- c\n  ```\n  code\n- d\n", from: .outline)
        #expect(Support.flatten(outline).map(\.node.title) == ["a", "b", "c", "d"])
        #expect(outline.nodes[0].children[0].body == "text of b")
        #expect(outline.nodes[1].body == "```\ncode")
    }

    @Test func itWritesBackWhatItReadsThroughEveryFormat() throws {
        let original = try Self.read(Self.logseqPage)
        for format in OutputFormat.all where InputFormat(name: format.name) != nil {
            let written = try Support.convert(Self.logseqPage, file: "Code block.md") { $0.to = format }
            let back = try Support.outline(written.output, file: "Code block.\(format.fileExtension)") {
                $0.from = InputFormat(name: format.name)
            }
            #expect(Self.withoutLines(back) == Self.withoutLines(original), "through \(format.name)")
        }
    }

    @Test func otherFormatsWriteOutlinesThatReadBackTheSame() throws {
        let markdown = """
            ---
            title: Notes
            ---
            Intro with a list:

            - one
            - two

            # Plain *title* {#custom .collapsed role=x}
            Body line.
            key:: not a property

            ## Child
            """
        let original = try Support.outline(markdown)
        let written = try Support.convert(markdown) { $0.to = .outline }
        // Lines of a body that would read as items get a `\` more, which reading takes off.
        #expect(written.output.contains("\n\\- one\n") && written.warnings.isEmpty)
        let back = try Support.outline(written.output, file: "x.md") { $0.from = .outline }
        #expect(back.title == "Notes" && back.nodes[0].id == "custom" && back.nodes[0].isCollapsed)
        // (The title's markup is its title line.)
        #expect(back.nodes[0].attributes == ["role": "x", "outline-title": "Plain *title*"] && back.nodes[0].children.map(\.title) == ["Child"])
        #expect(Self.withoutLines(back) == Self.withoutLines(original))
    }

    @Test func plainTitlesThatLookLikeOutlinerSyntaxReadBackAsThemselves() throws {
        let titles = [
            "- x", "# y", "###### six", "key:: value", "a * b", "+ plus", "[[Page]]", "[[Page|label]] and more",
            "((64f0c1a2-0000-4000-8000-000000000001))",
            "{{embed [[x]]}}", "`\\[[code]]`", "back \\ slash", "\\- escaped", "ends with #", "\u{F8F0} private use \\[",
        ]
        let outline = Outline(nodes: titles.map { OutlineNode(title: $0) })
        var options = ConversionOptions()
        options.to = .outline
        let written = Converter(options: options).write(outline)
        let back = try Self.read(written.output, from: .outline)
        #expect(back.nodes.map(\.title) == titles)
        #expect(back.nodes.allSatisfy { $0.attributes.isEmpty }, "\(back.nodes.map(\.attributes))")
    }

    @Test func theEscapeIsReversedWhateverBackslashesALineHad() throws {
        let body = "- item\n\\- escaped by its author\n\\\\- two\n```\n- in code\n```\n  * nested"
        let outline = Outline(body: "key:: not a page property\n\n## not an item", nodes: [OutlineNode(title: "A", body: "k:: v\n" + body)])
        let written = Converter(
            options: {
                var options = ConversionOptions(); options.to = .outline; return options
            }()
        ).write(outline)
        #expect(written.output.contains("  ```\n  - in code\n  ```"))
        let back = try Support.outline(written.output, file: "x.md") { $0.from = .outline }
        #expect(back.body == outline.body && back.nodes.first?.body == "k:: v\n" + body && back.nodes.first?.attributes == [:])
    }

    @Test func htmlRendersATitleLineWithItsMarkupAndFoldsAsTheAppDid() throws {
        let html = try Support.convert(Self.logseqPage, file: "page.md") { $0.html.fragment = true }.output
        #expect(html.contains("<details id=\"6103e488-22d4-4751-b27a-69b278067c26\"><summary>"))
        #expect(html.contains("Type <code>/Code block</code>"))
        // On its own, a page is titled as any outline is (in a graph, by its name).
        #expect(!html.contains("outline-page-title") && !html.contains("outline-bullets"))
        #expect(html.contains("Read <a href=\"The%20basics.md\">The basics</a> <strong>first</strong>"))
        #expect(!html.contains("collapsed::") && !html.contains("updated-at") && !html.contains("alias::"))
        // The text output shows titles, never properties.
        let text = try Support.convert(Self.logseqPage, file: "page.md") { $0.to = .text }.output
        #expect(text.contains("▸ Type /Code block") && !text.contains("::"))
    }

    @Test func hostileOutlinesAreRefusedOrEscapedWithTheirPlace() throws {
        let deep = (0..<300).map { String(repeating: "\t", count: $0) + "- x" }.joined(separator: "\n")
        #expect {
            try Self.read(deep, from: .outline)
        } throws: { error in
            guard case .refused(let location, _) = error as? ConversionError else { return false }
            return location.line > 100 && location.line <= 300 && location.column > 0
        }
        let html = try Support.convert("- <script>alert(1)</script> [x](javascript:alert(1))\n\t- y\n", file: "p.md") { $0.html.fragment = true }
            .output
        #expect(!html.contains("<script>") && !html.contains("javascript:"))
        #expect(throws: ConversionError.self) { try Self.read("- a\u{0}\n", from: .outline) }
    }
}

/// A Logseq graph's names, and the links and blocks of its pages, in process (the site
/// itself: Tests/oracle/test_outliners.py).
@Suite struct WikiLinkTests {
    @Test func aGraphsLinksResolveByNameAliasBlockAndJournalDate() throws {
        let root = try Support.temporaryDirectory()
        defer { Support.remove(root) }
        let files = [
            "logseq/config.edn": "{:journal/page-title-format \"EEEE, dd.MM.yyyy\"}\n",
            "pages/Target.md": "alias:: Other\n\n- Parent\n  collapsed:: true\n\t- The **block**\n\t  id:: 64f0c1a2-0000-4000-8000-000000000001\n",
            "pages/a___b.md": "- Namespaced\n",
            "journals/2024_02_29.md": "- A leap day\n",
            "pages/Source.md": """
            - See ((64f0c1a2-0000-4000-8000-000000000001)), [[other]], [[A/B|ns]], [[Thursday, 29.02.2024]] and [[Nowhere]].
              #+BEGIN_QUERY
              {:query [[x]]}
              #+END_QUERY
              #+BEGIN_TIP
              A [[target]] tip.
              #+END_TIP
            \t- child
            """,
        ]
        for (name, text) in files { try Support.write(text, to: root.appending(path: name)) }
        let inputs = files.keys.filter { $0.hasSuffix(".md") }.map { root.appending(path: $0).path }
        let index = WikiIndex(app: .logseq, root: root.path, inputs: inputs)
        #expect(index.pageName(of: root.appending(path: "journals/2024_02_29.md").path) == "Thursday, 29.02.2024")
        #expect(index.block("64F0C1A2-0000-4000-8000-000000000001")?.title == "The block")
        var options = ConversionOptions()
        options.html.fragment = true
        options.wikiIndex = index
        let source = root.appending(path: "pages/Source.md").path
        let html = try Converter(options: options).convert(Array(try Data(contentsOf: URL(fileURLWithPath: source))), file: source).output
        #expect(html.contains("<a href=\"Target.md#64f0c1a2-0000-4000-8000-000000000001\">The block</a>"))
        #expect(html.contains("<a href=\"Target.md\">other</a>") && html.contains("<a href=\"a___b.md\">ns</a>"))
        #expect(html.contains("<a href=\"../journals/2024_02_29.md\">Thursday, 29.02.2024</a>"))
        #expect(html.contains("<span class=\"outline-missing-page\">Nowhere</span>"))
        #expect(html.contains("<pre><code class=\"language-query\">{:query [[x]]}\n</code></pre>"))
        #expect(html.contains("<div class=\"outline-callout outline-callout-tip\" role=\"note\">"))
        #expect(html.contains("A <a href=\"Target.md\">target</a> tip."))
        #expect(
            index.missingPageWarnings(shown: { _ in "Source.md" }).map(\.message) == ["links to a page that does not exist, shown as text: 'Nowhere'"]
        )
        // The page is titled by its name in the graph, the outline itself has no title.
        #expect(try Converter(options: options).read(Array("- x\n".utf8), file: source).outline.title == nil)
    }

    /// A graph or vault written to a temporary folder, its index, and a page of it as HTML.
    private static func graph(_ app: WikiIndex.App, _ files: [String: String]) throws -> (root: URL, html: (String) throws -> Conversion) {
        let root = try Support.temporaryDirectory()
        for (name, text) in files { try Support.write(text, to: root.appending(path: name)) }
        let inputs = files.keys.filter { $0.hasSuffix(".md") }.map { root.appending(path: $0).path }
        var options = ConversionOptions()
        options.html.fragment = true
        options.wikiIndex = WikiIndex(app: app, root: root.path, inputs: inputs)
        return (
            root,
            { page in
                let file = root.appending(path: page).path
                return try Converter(options: options).convert(Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
            }
        )
    }

    @Test func embedsShowThePageOrBlockTheyNameFoldedAsItIsThere() throws {
        let (root, html) = try Self.graph(
            .logseq,
            [
                "logseq/config.edn": "{}\n",
                "pages/Shown.md":
                    "- Shown's first\n  collapsed:: true\n\t- folded child\n- The block\n  id:: 64f0c1a2-0000-4000-8000-000000000002\n\t- its child [[Host]]\n",
                "pages/Host.md":
                    "- {{embed [[shown]]}}\n- Two at once:\n  {{embed ((64f0c1a2-0000-4000-8000-000000000002))}}\n  {{embed [[Nowhere]]}}\n- {{embed ((64f0c1a2-0000-4000-8000-000000000002))}}\n",
            ])
        defer { Support.remove(root) }
        let page = try html("pages/Host.md")
        let output = page.output
        // The page embed: every node of Shown, the folded one closed, with no id of its own.
        #expect(
            output.contains("<div class=\"outline-embed outline-bullets\">\n<h3 class=\"outline-heading\">Shown&#39;s first</h3>\n<details><summary>")
        )
        #expect(output.contains("folded child"))
        // The block embed: the block and its child, whose link starts from this page.
        #expect(output.components(separatedBy: "<a href=\"Host.md\">Host</a>").count == 3)
        #expect(!output.contains("id=\"64f0c1a2-0000-4000-8000-000000000002\""))
        // A paragraph with an embed of a page that does not exist keeps its links.
        #expect(output.contains("<span class=\"outline-missing-page\">Nowhere</span>"))
        #expect(page.warnings.isEmpty)
    }

    @Test func cyclesAndDeepEmbedsShowTheirLinkWithAWarningWhereTheyAre() throws {
        var files = [
            "logseq/config.edn": "{}\n", "pages/Self.md": "- Me\n- {{embed [[Self]]}}\n", "pages/A.md": "- a\n- {{embed [[B]]}}\n",
            "pages/B.md": "- {{embed [[A]]}}\n",
        ]
        for level in 0..<40 { files["pages/d\(level).md"] = "- {{embed [[d\(level + 1)]]}}\n" }
        files["pages/d40.md"] = "- bottom\n"
        let (root, html) = try Self.graph(.logseq, files)
        defer { Support.remove(root) }
        let itself = try html("pages/Self.md")
        #expect(
            itself.warnings.map(\.description).contains {
                $0.hasSuffix("Self.md:2: warning: '{{embed [[Self]]}}' embeds what holds it (a cycle): shown as a link")
            })
        #expect(itself.output.contains("<a href=\"Self.md\">Self</a>"))
        let cycle = try html("pages/A.md")
        #expect(
            cycle.warnings.map(\.message) == [
                "the embed here holds '{{embed [[A]]}}', which embeds what holds it (a cycle): that one is shown as a link"
            ])
        #expect(cycle.warnings.first?.location.line == 2)
        let deep = try html("pages/d0.md")
        #expect(
            deep.warnings.map(\.message) == [
                "embeds nest more than \(Embeds.maxDepth) deep at '{{embed [[d\(Embeds.maxDepth + 1)]]}}': shown as a link"
            ])
        #expect(deep.output.components(separatedBy: "<div class=\"outline-embed").count == Embeds.maxDepth + 1)
        #expect(!deep.output.contains("bottom"))
    }

    @Test func aVaultsNoteEmbedsANoteASectionOrABlock() throws {
        let (root, html) = try Self.graph(
            .obsidian,
            [
                ".obsidian/app.json": "{}\n",
                "Home.md": "# Home\n\n![[Other]]\n\n![[sub/Deep#Second part]]\n\n![[Deep#^quote]]\n\nInline ![[Other]] stays a link.\n",
                "Other.md": "---\naliases: [Another]\n---\nOther's text.\n\n> [!faq]- Folded\n> inside\n",
                "sub/Deep.md": "# First\n\none\n\n# Second part\n\ntwo, see [[Home]].\n\n# Third\n\nA quoted line\nand its end ^quote\n",
            ])
        defer { Support.remove(root) }
        let home = try html("Home.md").output
        #expect(home.contains("<div class=\"outline-embed\">\n<p>Other's text.</p>\n<details class=\"outline-callout outline-callout-faq\">"))
        #expect(
            home.contains(
                "<summary><span class=\"outline-title outline-level-2\">Second part</span></summary>\n<p>two, see <a href=\"Home.md\">Home</a>.</p>"))
        #expect(!home.contains(">one<") && !home.contains("Third"))
        #expect(home.contains("<div class=\"outline-embed\">\n<p>A quoted line\nand its end</p>\n</div>"))
        #expect(home.contains("<p>Inline <a href=\"Other.md\">Other</a> stays a link.</p>"))
        // The block id is not shown on its own page either: it is the paragraph's anchor.
        #expect(try html("sub/Deep.md").output.contains("<p><span id=\"^quote\"></span>A quoted line\nand its end</p>"))
    }

    @Test func tagsWithoutAPageGetOneWhereLogseqWouldWriteIt() throws {
        let (root, html) = try Self.graph(
            .logseq,
            [
                "logseq/config.edn": "{}\n",
                "pages/Known.md": "- a page\n",
                "pages/Carrier.md": """
                tags:: #[[Reading list]], known

                - Uses #project, #[[big idea]], #Known and #[[a/b?c]], not `#code`, [#label](x.md) or #+BEGIN_NOTE
                  #+BEGIN_QUERY
                  {:query #{"TODO"}}
                  #+END_QUERY
                """,
            ])
        defer { Support.remove(root) }
        let index = WikiIndex(
            app: .logseq, root: root.path, inputs: ["pages/Known.md", "pages/Carrier.md"].map { root.appending(path: $0).path })
        #expect(index.tagPages.map(\.relative).sorted() == ["pages/Reading list.md", "pages/a___b%3Fc.md", "pages/big idea.md", "pages/project.md"])
        let project = root.appending(path: "pages/project.md").path
        #expect(index.tagPage(project) == Array("title:: project\n".utf8))
        #expect(index.backlinks(of: project).map(\.name) == ["Carrier"])
        let page = try html("pages/Carrier.md").output
        #expect(page.contains("<a href=\"project.md\">#project</a>") && page.contains("<a href=\"a___b%253Fc.md\">#a/b?c</a>"))
        #expect(page.contains("<a href=\"Known.md\">#Known</a>"))
        // Names no file can have get no page.
        #expect(
            ["", " ", ".", "..", "a\u{0}b", "line\nbreak", String(repeating: "x", count: 300)].allSatisfy { WikiIndex.fileName(ofPage: $0) == nil })
        #expect(WikiIndex.fileName(ofPage: "../up") == "..___up")
    }

    @Test func aVaultsTagsArePagesInTagsListingTheNotesCarryingThem() throws {
        let (root, html) = try Self.graph(
            .obsidian,
            [
                ".obsidian/app.json": "{}\n",
                "meeting.md": "# A note named like a tag\n",
                "Notes/Tagged.md":
                    "---\ntags:\n  - recipe\n  - \"#Cooking\"\n---\n# Tagged\n\nSee #meeting, #inbox/to-read, not #1984 but #y1984, `#code`.\n",
            ])
        defer { Support.remove(root) }
        let inputs = ["meeting.md", "Notes/Tagged.md"].map { root.appending(path: $0).path }
        let index = WikiIndex(app: .obsidian, root: root.path, inputs: inputs)
        #expect(
            index.tagPages.map(\.relative).sorted() == [
                "tags/Cooking.md", "tags/inbox/to-read.md", "tags/meeting.md", "tags/recipe.md", "tags/y1984.md",
            ])
        #expect(index.tagPages.map(\.name).sorted() == ["#Cooking", "#inbox/to-read", "#meeting", "#recipe", "#y1984"])
        // A tag is never a note: `#meeting` goes to its tag page, `[[meeting]]` would go to the note.
        let meeting = root.appending(path: "tags/meeting.md").path
        #expect(index.tagPage(named: "Meeting") == meeting && index.page(named: "meeting") == inputs[0])
        #expect(index.backlinks(of: meeting).map(\.url) == ["../Notes/Tagged.md"])
        let page = try html("Notes/Tagged.md").output
        #expect(
            page.contains("<a href=\"../tags/meeting.md\">#meeting</a>") && page.contains("<a href=\"../tags/inbox/to-read.md\">#inbox/to-read</a>"))
        #expect(page.contains("not #1984 but <a href=\"../tags/y1984.md\">#y1984</a>") && page.contains("<code>#code</code>"))
    }

    @Test func backLinksFromNotesOfOneNameKeepOneOrderFromRunToRun() throws {
        // (Sets change their order with each process: without an order between notes of one
        // name, the page changed from build to build.)
        let (root, _) = try Self.graph(
            .obsidian,
            [
                ".obsidian/app.json": "{}\n",
                "Target.md": "# Target\n",
                "b/Same.md": "See [[Target]].\n",
                "a/Same.md": "See [[Target]].\n",
                "c/same.md": "See [[Target]].\n",
                "Other.md": "See [[Target]].\n",
            ])
        defer { Support.remove(root) }
        let inputs = ["Target.md", "b/Same.md", "a/Same.md", "c/same.md", "Other.md"].map { root.appending(path: $0).path }
        let index = WikiIndex(app: .obsidian, root: root.path, inputs: inputs)
        let links = index.backlinks(of: inputs[0])
        #expect(links.map(\.name) == ["Other", "Same", "Same", "same"])
        #expect(links.map(\.url) == ["Other.md", "a/Same.md", "b/Same.md", "c/same.md"])
    }

    @Test func aGraphReadByManyWorkersIsIndexedAsByOne() throws {
        let root = Support.root.appending(path: "Tests/real/logseq-docs")
        var inputs: [String] = []
        for folder in ["pages", "journals"] {
            let path = root.appending(path: folder).path
            inputs += try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".md") }.map { path + "/" + $0 }
        }
        let one = WikiIndex(app: .logseq, root: root.path, inputs: inputs)
        let many = WikiIndex(app: .logseq, root: root.path, inputs: inputs.reversed(), workers: 4)
        #expect(inputs.count > 200 && one.fingerprint == many.fingerprint)
        #expect(one.tagPages.map(\.input) == many.tagPages.map(\.input) && !one.tagPages.isEmpty)
    }

    @Test func aVaultsBlockLinksLeadToTheBlocksAnchor() throws {
        let files = [
            ".obsidian/app.json": "{}\n",
            "A.md": "# A\n\nFirst paragraph. ^blk-1\n\n- an item ^item-2\n",
            "sub/B.md": "# B\n\nSee [[A#^nope]], [[A#^blk-1]]\nand [[A#^item-2|the item]].\n\n![[A#^blk-1]]\n",
        ]
        let (root, html) = try Self.graph(.obsidian, files)
        defer { Support.remove(root) }
        let a = try html("A.md").output
        #expect(a.contains("<p><span id=\"^blk-1\"></span>First paragraph.</p>") && a.contains("<li><span id=\"^item-2\"></span>an item</li>"))
        let b = try html("sub/B.md").output
        #expect(b.contains("<a href=\"../A.md#%5Eblk-1\">A › ^blk-1</a>") && b.contains("<a href=\"../A.md#%5Eitem-2\">the item</a>"))
        // The embedded paragraph keeps no anchor: its own page has it.
        #expect(b.contains("outline-embed") && !b.contains("id=\"^blk-1\""))
        // As a site, a link to a block that has no anchor is a warning at its line.
        let output = root.appending(path: "site")
        let site = try Support.tool(root.path, "-o", output.path)
        #expect(site.status == 0)
        #expect(site.stderr.contains("sub/B.md:3: warning: no section '^nope' in ") && !site.stderr.contains("'^blk-1'"), "\(site.stderr)")
        #expect(try Support.read(output.appending(path: "sub/B.html")).contains("<a href=\"../A.html#%5Eblk-1\">"))
    }

    @Test func aNoteNamedLikeASchemeIsLinkedAsAPath() throws {
        // (A relative URL whose first segment holds `:` reads as a scheme: the link was cut.)
        let (root, html) = try Self.graph(
            .obsidian, [".obsidian/app.json": "{}\n", "javascript:alert(1).md": "# Evil\n", "Home.md": "See [[javascript:alert(1)]].\n"])
        defer { Support.remove(root) }
        let home = try html("Home.md").output
        #expect(home.contains("<a href=\"javascript%3Aalert%281%29.md\">javascript:alert(1)</a>"), "\(home)")
        let output = root.appending(path: "site")
        #expect(try Support.tool(root.path, "-o", output.path).status == 0)
        #expect(try Support.read(output.appending(path: "Home.html")).contains("<a href=\"javascript%3Aalert%281%29.html\">"))
    }
}
