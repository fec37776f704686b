import Foundation
import Testing

@testable import OutlineConvert

/// docs/formats.md from the command line: the new readers in folders, the writers as
/// folder outputs, and what the readers warn about instead of failing.
@Suite struct FormatTests {
    @Test func opmlAndOutlineJSONTakePartInFoldersAndOtherJSONIsSkipped() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write(try Support.read(Support.examples.appending(path: "opml/products.opml")), to: dir.appending(path: "docs/a.opml"))
        try Support.write(try Support.read(Support.examples.appending(path: "json/products.json")), to: dir.appending(path: "docs/b.json"))
        try Support.write("{\"name\": \"site\", \"version\": \"1.0.0\", \"dependencies\": {}}\n", to: dir.appending(path: "docs/package.json"))
        try Support.write("{\"compilerOptions\": {\"strict\": true}}\n", to: dir.appending(path: "docs/tsconfig.json"))
        try Support.write("# Page\n", to: dir.appending(path: "docs/c.md"))
        let result = try Support.tool("docs", "-o", "site", "-v", cwd: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Support.outputs(dir.appending(path: "site")) == ["a.html", "b.html", "c.html"])
        #expect(result.stderr.contains("docs/package.json: skipped: JSON that is not an outline"))
        #expect(result.stderr.contains("docs/tsconfig.json: skipped: JSON that is not an outline"))
        // Named on the command line, a non-outline JSON is tried, and fails with a located error.
        let named = try Support.tool("docs/package.json", cwd: dir)
        #expect(named.status == 1)
        #expect(named.stderr.hasPrefix("docs/package.json:1:29: error: version: only version 1 is known, found a string"), "\(named.stderr)")
    }

    @Test func aFolderConvertsToEveryRoundTripFormatAndBackUnchanged() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let examples = Support.examples.path
        let html = try Support.tool(examples, "-o", "site", cwd: dir)
        #expect(html.status == 0, "\(html.stderr)")
        #expect(
            Support.outputs(dir.appending(path: "site")) == [
                "docs/guide/configure.html", "docs/guide/install.html", "docs/images/logo.png", "docs/index.html", "docs/reference.html",
                "github/index.html", "json/products.html", "mkdocs/index.html", "opml/products.html", "people.html",
                "plist/products.html", "products.html", "xml/products.html",
            ])
        let json = try Support.tool(examples, "-o", "json", "-t", "json", cwd: dir)
        #expect(json.status == 0)
        // Every format written and read back (JSON is the one compared against).
        for format in OutputFormat.all.map(\.name) where InputFormat(name: format) != nil && format != "json" {
            let written = try Support.tool(examples, "-o", format, "-t", format, cwd: dir)
            #expect(written.status == 0, "\(written.stderr)")
            let back = try Support.tool(format, "-o", "\(format)-json", "-t", "json", cwd: dir)
            #expect(back.status == 0, "\(back.stderr)")
            for file in Support.outputs(dir.appending(path: "json")) {
                let original = try Support.read(dir.appending(path: "json/\(file)"))
                #expect(try Support.read(dir.appending(path: "\(format)-json/\(file)")) == original, "\(format): \(file)")
            }
        }
    }

    @Test func aFolderWrittenOntoItselfIsRefusedBeforeAnythingIsWritten() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# A\n\ntext\n", to: dir.appending(path: "docs/a.md"))
        try Support.write("<outline><item title=\"B\"/></outline>", to: dir.appending(path: "docs/b.xml"))
        let result = try Support.tool("docs", "-o", "docs", "--to", "markdown", cwd: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("docs/a.md is an input (or another name for one); it would be overwritten"))
        #expect(try Support.read(dir.appending(path: "docs/a.md")) == "# A\n\ntext\n")
        #expect(Support.listing(dir.appending(path: "docs")) == ["a.md", "b.xml"])
        let single = try Support.tool("docs/a.md", "-o", "docs/a.md", "--to", "markdown", cwd: dir)
        #expect(single.status == 2)
        #expect(try Support.read(dir.appending(path: "docs/a.md")) == "# A\n\ntext\n")
    }

    /// A feed reader's export whose folders have a `title` and no `text` reads with the
    /// title as text; the attribute is kept.
    @Test func anOPMLOutlineWithOnlyATitleIsTitledByIt() throws {
        let opml = """
            <opml version="1.0"><body><outline title="News"><outline text="Feed" type="rss" xmlUrl="https://example.org/f"/></outline></body></opml>
            """
        let result = try Support.tool("--from", "opml", "-t", "json", input: opml)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let outline = try OPMLParser().parse(Array(opml.utf8), file: "feeds.opml").outline
        #expect(outline.nodes.map(\.title) == ["News"])
        #expect(outline.nodes.first?.attributes["title"] == "News")
        #expect(outline.nodes.first?.children.map(\.title) == ["Feed"])
    }

    @Test func aBadExpansionStateIsAWarningNotAFailure() throws {
        let opml = """
            <opml version="2.0"><head><expansionState>0, x, 7,-1</expansionState></head>
            <body><outline text="A" _note="n"><outline text="B" _note="m"/></outline></body></opml>
            """
        let result = try Support.tool("--from", "opml", "-t", "text", input: opml)
        #expect(result.status == 0)
        #expect(result.stdout == "▾ A\n  n\n  ▸ B\n")
        #expect(result.stderr.contains("<stdin>:1:27: warning: expansionState: 'x' is not a node number; it is ignored"), "\(result.stderr)")
        #expect(result.stderr.contains("expansionState: there is no node 7 (the outline has 2); it is ignored"))
        #expect(result.stderr.contains("expansionState: '-1' is not a node number"))
    }

    @Test func emptyEntriesOfAnExpansionStateAreSkippedQuietly() throws {
        let opml = """
            <opml version="2.0"><head><expansionState>,1,,</expansionState></head>
            <body><outline text="A" _note="n"><outline text="B" _note="m"/></outline></body></opml>
            """
        let result = try Support.tool("--from", "opml", "-t", "json", input: opml)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        // Both readings land `1` on a node with a note, so the spec's is taken (line 1 is A);
        // OmniOutliner's, forced, makes it node 1 (B).
        let outline = try OPMLParser().parse(Array(opml.utf8), file: "x.opml").outline
        #expect(outline.nodes.map(\.collapsed) == [false] && outline.nodes.first?.children.map(\.collapsed) == [true])
        let omni = try OPMLParser(expansion: .omni).parse(Array(opml.utf8), file: "x.opml").outline
        #expect(omni.nodes.map(\.collapsed) == [true] && omni.nodes.first?.children.map(\.collapsed) == [false])
    }

    @Test func contentDecidesTheFormatWithoutAnExtension() throws {
        let samples: [(String, Data)] = [
            ("opml", Data("<?xml version=\"1.0\"?>\n<opml><body><outline text=\"O\"/></body></opml>".utf8)),
            ("json", Data("{\"version\": 1, \"body\": \"\", \"sections\": [{\"title\": \"J\"}]}".utf8)),
            ("binary plist", try Data(contentsOf: Support.root.appending(path: "Tests/fixtures/products-binary.plist"))),
            ("markdown", Data("{not json}\n# M\n".utf8)),
        ]
        for (name, data) in samples {
            let result = try Support.tool(arguments: ["-t", "text"], input: data)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(name)")
        }
    }

    @Test func openStepTakesYesAndNoCommentsAndEscapes() throws {
        let plist = """
            // a comment
            { title = "Caf\\U00e9 \\"quoted\\""; /* block */ sections = (
                { name = A; collapsed = YES; detail = "line\\none"; items = ( "B c", { title = D; collapsed = 0; } ); },
                plain-leaf,
            ); }
            """
        let outline = try Support.outline(plist, file: "t.plist")
        #expect(outline.title == "Café \"quoted\"")
        #expect(outline.nodes.map(\.title) == ["A", "plain-leaf"])
        #expect(outline.nodes[0].isCollapsed && outline.nodes[0].body == "line\none")
        #expect(outline.nodes[0].children.map(\.title) == ["B c", "D"])
    }

    @Test func binaryPlistsThatLieAreRefusedNotFollowed() throws {
        // A binary plist whose top array holds itself, and one whose arrays share children
        // so that 30 small objects stand for 2^30 values.
        func binary(_ objects: [[UInt8]], top: Int = 0) -> [UInt8] {
            var data = Array("bplist00".utf8)
            var offsets: [Int] = []
            for object in objects {
                offsets.append(data.count)
                data += object
            }
            let table = data.count
            for offset in offsets { data += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
            data += [0, 0, 0, 0, 0, 0, 2, 1]
            data += withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
            data += withUnsafeBytes(of: UInt64(top).bigEndian, Array.init)
            data += withUnsafeBytes(of: UInt64(table).bigEndian, Array.init)
            return data
        }
        let cycle = binary([[0xA1, 0]])
        #expect(throws: ConversionError.self) { try PlistParser().parse(cycle, file: "c.plist") }
        let bomb = binary((0..<30).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x51, 0x61]])
        do {
            _ = try PlistParser().parse(bomb, file: "b.plist")
            Issue.record("the bomb was read")
        } catch let error as ConversionError {
            #expect(
                error.description.contains("stands for more values than its size allows") || error.description.contains("nest deeper"), "\(error)")
        }
    }
}

/// Writer options come from the writers: one given with another output is a warning.
@Suite struct WriterOptionTests {
    @Test func anOptionTheOutputIgnoresIsAWarning() throws {
        let ignored = try Support.tool("-t", "markdown", "--ascii", "--fragment", input: "# A\n")
        #expect(ignored.status == 0)
        #expect(ignored.stderr.contains("warning: '--ascii' has no effect on markdown output"))
        #expect(ignored.stderr.contains("warning: '--fragment' has no effect on markdown output"))
        let used = try Support.tool("-t", "text", "--ascii", input: "# A\n")
        #expect(used.stderr.isEmpty && used.stdout == "* A\n")
        let help = try Support.tool("--help")
        for format in OutputFormat.all { #expect(help.stdout.contains(format.name)) }
        for format in InputFormat.all { #expect(help.stdout.contains(format.name)) }
    }

    /// `--site-url` is for a site: on one file, or with a folder to another format, it
    /// is a warning, and the output is what it is without it.
    @Test func aSiteOptionElsewhereIsAWarning() throws {
        let plain = try Support.tool("-t", "html", input: "# A\n")
        let one = try Support.tool("-t", "html", "--site-url", "https://example.org/", input: "# A\n")
        #expect(one.status == 0 && one.stdout == plain.stdout)
        #expect(one.stderr.contains("warning: '--site-url' has no effect on one file"))
        let folder = try Support.temporaryDirectory()
        defer { Support.remove(folder) }
        try Support.write("# A\n", to: folder.appendingPathComponent("docs/a.md"))
        let json = try Support.tool("docs", "-o", "out", "-t", "json", "--site-url", "https://example.org/", "--no-cache", cwd: folder)
        #expect(json.status == 0 && json.stderr.contains("warning: '--site-url' has no effect on json output"))
        let site = try Support.tool("docs", "-o", "site", "--site-url", "https://example.org/", "--no-cache", cwd: folder)
        #expect(site.status == 0 && !site.stderr.contains("warning"), "\(site.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("site/sitemap.xml").path))
    }
}
