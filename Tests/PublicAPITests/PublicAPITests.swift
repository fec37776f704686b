import Foundation
import OutlineConvert  // (not @testable: only what a user of the library can reach)
import Testing

/// The library used from outside, as `ConvertAnOutline.md` shows it: read, change the
/// collapse state, write.
@Suite struct PublicAPITests {
    @Test func readChangeAndWriteWithThePublicAPIOnly() throws {
        var options = ConversionOptions()
        options.from = .markdown
        options.to = .opml
        let converter = Converter(options: options)
        var document = try converter.read(Array("# Mac\nLaptops.\n# iPad\nTablets.\n".utf8), file: "notes.md")
        #expect(document.outline.nodes.map(\.id) == ["mac", "ipad"])
        document.outline.nodes[1].collapsed = true
        document.outline.nodes.append(OutlineNode(title: "iPhone", body: "Phones."))
        let opml = converter.write(document.outline, file: "notes.md")
        // The spec's reading by default (lines 1 and 3 are open), OmniOutliner's on request.
        #expect(opml.output.contains("<expansionState>1,3</expansionState>"))
        options.opmlExpansion = .omni
        #expect(Converter(options: options).write(document.outline).output.contains("<expansionState>0,2</expansionState>"))
        #expect(opml.output.contains("<outline text=\"iPhone\" _note=\"Phones.\"/>"))
        #expect(opml.warnings.isEmpty)
    }

    @Test func oneCallWithCollapseRules() throws {
        var options = ConversionOptions()
        options.to = .html
        options.html.fragment = true
        options.collapse.depth = 2
        let page = try Converter(options: options).convert(Array("# Mac\nLaptops.\n## MacBook\nLight.\n".utf8), file: "notes.md")
        #expect(page.output.contains("<details id=\"mac\" open>"))
        #expect(page.output.contains("<details id=\"macbook\">"))
    }

    @Test func errorsNameTheFileLineAndColumn() {
        #expect(throws: ConversionError.self) {
            try Converter(options: ConversionOptions()).convert(Array("<outline><x/></outline>".utf8), file: "a.xml")
        }
        do {
            _ = try Converter(options: ConversionOptions()).convert(Array("<outline><x/></outline>".utf8), file: "a.xml")
        } catch let error as ConversionError {
            #expect(error.location == SourceLocation(file: "a.xml", line: 1, column: 10))
        } catch {
            Issue.record("untyped error \(error)")
        }
    }

    /// The readers are reached through `Converter.read`: by the file's extension, or the
    /// format named in the options.
    @Test func eachFormatIsReadThroughTheConverter() throws {
        let reader = Converter(options: ConversionOptions())
        let markdown = try reader.read(Array("# A {#a}\nText.\n".utf8), file: "a.md").outline
        #expect(markdown.nodes.map(\.id) == ["a"] && markdown.nodes.first?.body == "Text.")
        let xml = try reader.read(Array("<outline><item title='B' collapsed='true'>b</item></outline>".utf8), file: "b.xml")
        #expect(xml.outline.nodes.first?.collapsed == true)
        let plist = try reader.read(Array("<plist><array><dict><key>name</key><string>C</string></dict></array></plist>".utf8), file: "c.plist")
        #expect(plist.outline.nodes.map(\.title) == ["C"])
        let json = try reader.read(Array(#"{"version": 1, "sections": [{"title": "D"}]}"#.utf8), file: "d.json")
        #expect(json.outline.nodes.map(\.title) == ["D"])
        let opml = Array("<opml><head><expansionState>1</expansionState></head><body><outline text='E' _note='e'/></body></opml>".utf8)
        #expect(try reader.read(opml, file: "e.opml").outline.nodes.first?.collapsed == false)
        var omni = ConversionOptions()
        omni.opmlExpansion = .omni
        #expect(try Converter(options: omni).read(opml, file: "e.opml").outline.nodes.first?.collapsed == true)
        var named = ConversionOptions()
        named.from = .xml
        #expect(
            try Converter(options: named).read(Array("<outline><item title='F'/></outline>".utf8), file: "f.txt").outline.nodes.map(\.title) == ["F"])
    }

    @Test func formatsByNameExtensionAndContent() {
        #expect(InputFormat(name: "md") == .markdown && InputFormat(pathExtension: "opml") == .opml)
        #expect(InputFormat(sniffing: Array("<plist><array/></plist>".utf8)[...]) == .plist)
        #expect(OutputFormat(name: "text")?.fileExtension == "txt" && OutputFormat.html.optionNames.contains("--fragment"))
        #expect(InputFormat.all.count == 9 && OutputFormat.all.count == 8)
        #expect(InputFormat(name: "outline") == .outline && OutputFormat(name: "outline") == .outline)
        // Strict CommonMark and mkdocs' dialect are read only when named (or, for mkdocs', in a
        // tree its mkdocs.yml configures): `.md` and sniffed text are GitHub's flavour.
        #expect(InputFormat(name: "commonmark")?.extensions == [] && InputFormat(sniffing: Array("| a |".utf8)[...]) == .markdown)
        #expect(InputFormat(name: "mkdocs")?.extensions == [] && InputFormat(sniffing: Array("/// note\n".utf8)[...]) == .markdown)
    }

    @Test func aPageWithATemplateOfItsOwn() throws {
        var options = ConversionOptions()
        options.html = HTMLOptions(accordion: true, template: try PageTemplate(text: "<main>{{content}}</main>", path: "t.html"))
        options.collapse = CollapseOptions(all: false)
        let outline = Outline(title: "T", nodes: [OutlineNode(title: "A", body: "a"), OutlineNode(title: "B", body: "b")])
        let page = Converter(options: options).write(outline)
        #expect(page.output.hasPrefix("<main>") && page.output.contains("<details id=\"a\" name=\"outline\">"))
        #expect(page.warnings.isEmpty)
    }

    @Test func warningsAreDiagnosticsWithAPlace() throws {
        let conversion = try Converter(options: ConversionOptions()).convert(Array("# A {#x}\n# B {#x}\n".utf8), file: "w.md")
        #expect(conversion.warnings == [Diagnostic(SourceLocation(file: "w.md", line: 2), "duplicate id 'x'; this one is renamed")])
        #expect(conversion.warnings.first?.description == "w.md:2: warning: duplicate id 'x'; this one is renamed")
        #expect(conversion.title == "A")
    }
}
