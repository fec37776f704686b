import Foundation
import Testing

@testable import OutlineConvert

/// What reading keeps of the bodies beside the outline (`ParsedBodies`) is used only while
/// the outline still holds those bodies where they were read.
@Suite struct ParsedBodiesTests {
    static let markdown =
        "Intro with [a link][ref].\n\n# A\n\nBody of *A*.\n\n## A1\n\nSee [ref].\n\n# B\n\n- one\n- two\n\n[ref]: https://example.org\n"

    static func html(_ outline: Outline, bodies: ParsedBodies?) -> String {
        var options = ConversionOptions()
        options.html.fragment = true
        var context = WriteContext(options: options, file: "t.md", pageTitle: "t", inputSize: 0)
        context.bodies = bodies
        return String(decoding: HTMLEmitter().write(outline, context: context).bytes, as: UTF8.self)
    }

    static func text(_ outline: Outline, bodies: ParsedBodies?) -> String {
        let context = WriteContext(options: ConversionOptions(), file: "t.md", pageTitle: "t", inputSize: 0, bodies: bodies)
        return String(decoding: TextEmitter().write(outline, context: context).bytes, as: UTF8.self)
    }

    @Test func bodiesRenderFromTheTreeReadWithTheDocument() throws {
        let document = try Converter(options: ConversionOptions()).read(Array(Self.markdown.utf8), file: "t.md")
        let page = Self.html(document.outline, bodies: document.bodies)
        // The definition is in another section: only the whole document's tree resolves it.
        #expect(page.contains("<p>See <a href=\"https://example.org\">ref</a>.</p>"))
        #expect(page.contains("<p>Intro with <a href=\"https://example.org\">a link</a>.</p>"))
    }

    @Test func aChangedOrMovedNodeRendersItsOwnBody() throws {
        let document = try Converter(options: ConversionOptions()).read(Array(Self.markdown.utf8), file: "t.md")
        var outline = document.outline
        outline.body = ""  // (the preamble, unchanged, would resolve its link from the tree)
        outline.nodes.swapAt(0, 1)
        outline.nodes[1].children[0].body = "Changed **here**."
        let cached = Self.html(outline, bodies: document.bodies)
        let alone = Self.html(outline, bodies: nil)
        #expect(cached.contains("<p>Changed <strong>here</strong>.</p>"))
        #expect(cached.contains("<li>one</li>"))
        // Moved bodies are parsed on their own, as an outline built by hand is.
        #expect(cached == alone)
        #expect(Self.text(outline, bodies: document.bodies) == Self.text(outline, bodies: nil))
    }

    @Test func closedSectionsAreSkippedInTextWithoutShiftingTheBodiesAfterThem() throws {
        var document = try Converter(options: ConversionOptions()).read(Array(Self.markdown.utf8), file: "t.md")
        document.outline.nodes[0].collapsed = true
        let text = Self.text(document.outline, bodies: document.bodies)
        #expect(text.hasSuffix("▸ A\n▾ B\n  • one\n  • two\n"), "\(text)")
    }

    @Test func theModelIsAPlainValue() {
        let node = OutlineNode(title: "Mac", id: "mac", body: "x")
        var other = node
        #expect(other == node)
        other.body = "y"
        #expect(other != node)
        other.body = "x"
        other.line = 3
        #expect(other != node)
    }
}
