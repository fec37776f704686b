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
}
