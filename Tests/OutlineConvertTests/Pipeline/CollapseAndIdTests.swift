import Testing

@testable import OutlineConvert

/// docs/formats.md: collapse precedence and ids.
@Suite struct CollapseAndIdTests {
    let markdown = "# A {.collapsed}\ntext\n## B\ntext\n### C {.expanded}\ntext\n# D\ntext\n"

    func dump(_ configure: (inout ConversionOptions) -> Void = { _ in }) throws -> String {
        Support.dump(try Support.outline(markdown, configure)).replacingOccurrences(of: " | text", with: "")
    }

    @Test func defaultIsExpandedExceptMarkers() throws {
        #expect(try dump() == "[+] A #a\n  [-] B #b\n    [-] C #c\n[-] D #d")
    }

    @Test func collapseDepthClosesDeepNodesButNotMarkedOnes() throws {
        #expect(try dump { $0.collapse.depth = 2 } == "[+] A #a\n  [+] B #b\n    [-] C #c\n[-] D #d")
    }

    @Test func idRulesBeatMarkers() throws {
        #expect(
            try dump {
                $0.collapse.expand = ["a"]; $0.collapse.collapse = ["c", "d"]
            } == "[-] A #a\n  [-] B #b\n    [+] C #c\n[+] D #d")
    }

    @Test func allBeatsEverything() throws {
        #expect(
            try dump {
                $0.collapse.all = true; $0.collapse.collapse = ["d"]
            } == "[-] A #a\n  [-] B #b\n    [-] C #c\n[-] D #d")
        #expect(
            try dump {
                $0.collapse.all = false; $0.collapse.expand = ["a"]
            } == "[+] A #a\n  [+] B #b\n    [+] C #c\n[+] D #d")
    }

    @Test func unknownIdIsAWarning() throws {
        let conversion = try Support.convert(markdown) { $0.collapse.expand = ["nope"] }
        #expect(conversion.warnings.map(\.description) == ["test.md: warning: no section has the id 'nope'"])
    }

    @Test func leavesAreNotTouchedByBlanketRules() throws {
        let outline = try Support.outline("# A\n## Leaf\n") { $0.collapse.all = false }
        #expect(Support.dump(outline) == "[+] A #a\n  [-] Leaf #leaf")
    }

    @Test func slugsAreGitHubStyle() {
        #expect(IdentifierAssigner.slug("Hello, World!") == "hello-world")
        #expect(IdentifierAssigner.slug("  Two  spaces ") == "--two--spaces-")
        #expect(IdentifierAssigner.slug("C++ & Swift_5.9") == "c--swift_59")
        #expect(IdentifierAssigner.slug("Ünïcödé Ελληνικά") == "ünïcödé-ελληνικά")
        #expect(IdentifierAssigner.slug("!!!") == "section")
    }

    @Test func repeatedTitlesGetSuffixesInDocumentOrder() throws {
        let ids = Support.flatten(try Support.outline("# A\n# A\n## A\n# A-1\n")).map(\.node.id)
        #expect(ids == ["a", "a-1", "a-2", "a-1-1"])  // what github-slugger gives
    }

    @Test func explicitIdsWinAndSlugsAvoidThem() throws {
        let ids = Support.flatten(try Support.outline("# Mac\n# Other {#mac}\n")).map(\.node.id)
        #expect(ids == ["mac-1", "mac"])
    }

    @Test func anExplicitIdSpeltAsItsTitlesSlugIsStillExplicit() throws {
        // Our XML and plist writers spell out every id, so most ids read back are slugs: such
        // an id is not kept as a string, but it still wins over earlier slugs and repeats.
        let xml = """
            <outline><item title="Mac"/><item title="Mac" id="mac"/><item title="PC" id="mac"/><item title="Mac" id="mac"/></outline>
            """
        let conversion = try Support.convert(xml, file: "test.xml") { $0.to = .json }
        let ids = conversion.output.split(separator: "\n").filter { $0.contains("\"id\"") }.map { $0.trimmingPrefix(while: \.isWhitespace) }
        #expect(ids == [#""id": "mac-1","#, #""id": "mac","#, #""id": "mac-2","#, #""id": "mac-3","#])
        #expect(conversion.warnings.map(\.description).count == 2)

        var node = OutlineNode(title: "Mac", id: "mac")
        node.title = "Apple Mac"  // the id stays what it was
        #expect(node.id == "mac")
        #expect(OutlineNode(title: "Mac", id: "mac") == OutlineNode(title: "Mac", id: "mac"))
        #expect(OutlineNode(title: "Mac", id: "mac") != OutlineNode(title: "Mac", id: "mac-1"))
    }

    @Test func duplicateExplicitIdsWarnAndTheLaterIsRenamed() throws {
        let conversion = try Support.convert("# A {#x}\n# B {#x}\n") { $0.to = .json }
        #expect(conversion.output.contains("\"id\": \"x\""))
        #expect(conversion.output.contains("\"id\": \"x-1\""))
        #expect(conversion.warnings.map(\.description) == ["test.md:2: warning: duplicate id 'x'; this one is renamed"])
    }

    @Test func anIdMadeFromTheTitleIsKeptWhenTheTitleChanges() throws {
        var outline = try Support.outline("# Hello World\n# Other {#x}\n")
        #expect(outline.nodes[0].id == "hello-world")
        let before = outline.nodes[0]
        outline.nodes[0].title = "Changed"
        #expect(outline.nodes[0].id == "hello-world")
        // Equal as seen from outside, however the id is kept.
        var same = before
        same.id = "hello-world"
        #expect(same == before)
        same.id = "other"
        #expect(same != before)
    }
}
