import Foundation
import Testing

@testable import OutlineConvert

/// The JSON reader on its own: the format `--to json` writes, read back.
@Suite struct JSONOutlineParserTests {
    static func parse(_ json: String) throws -> ParsedDocument {
        try JSONOutlineParser().parse(Array(json.utf8), file: "t.json")
    }

    @Test func everyFieldIsRead() throws {
        let document = try Self.parse(
            #"""
            {"version": 1, "title": "T", "body": "Pre.", "attributes": {"lang": "fr"},
             "sections": [{"id": "a", "title": "A", "collapsed": true, "body": "x",
                           "attributes": {"role": "r"},
                           "children": [{"title": "B", "body": "", "children": []}]}]}
            """#)
        let outline = document.outline
        #expect(outline.title == "T" && outline.body == "Pre." && outline.attributes == ["lang": "fr"])
        #expect(outline.nodes.count == 1)
        let node = outline.nodes[0]
        #expect((node.id, node.title, node.collapsed, node.body, node.attributes) == ("a", "A", true, "x", ["role": "r"]))
        // A missing `collapsed` says nothing: the collapse rules decide.
        #expect(node.children.map(\.title) == ["B"] && node.children[0].collapsed == nil)
        #expect(document.warnings.isEmpty)
    }

    @Test func aWrongTypeIsALocatedErrorNamingItsKeyPath() {
        #expect {
            try Self.parse(#"{"version": 1, "sections": [{"title": "A", "children": [{"title": "B", "collapsed": "yes"}]}]}"#)
        } throws: { error in
            guard let error = error as? ConversionError else { return false }
            return error.location.line == 1 && error.location.column > 0 && error.reason.contains("sections[0].children[0].collapsed")
        }
    }

    @Test func anotherVersionIsRefusedAndAnUnknownKeyIsAWarning() throws {
        #expect(throws: ConversionError.self) { try Self.parse(#"{"version": 2, "sections": []}"#) }
        let document = try Self.parse(#"{"version": 1, "sections": [{"title": "A", "colour": "red"}]}"#)
        #expect(document.warnings.count == 1 && document.warnings[0].message.contains("colour"))
    }
}

/// The binary and OpenStep forms of plist section files, each read on its own.
@Suite struct PlistFormTests {
    static let fixtures = Support.root.appending(path: "Tests/fixtures")

    /// The outline of a fixture as read and resolved, source lines left out (a binary plist
    /// has none, and the forms say the default state in different ways).
    static func outline(_ name: String, in folder: URL = fixtures) throws -> Outline {
        var outline = try Converter(options: ConversionOptions()).read(Array(try Data(contentsOf: folder.appending(path: name))), file: name).outline
        outline.mapNodes { $0.line = 0 }
        return outline
    }

    @Test func binaryAndOpenStepPlistsReadAsTheXMLOne() throws {
        let xml = try Self.outline("plist/products.plist", in: Support.examples)
        #expect(try Self.outline("products-binary.plist") == xml)
        #expect(try Self.outline("products-openstep.plist") == xml)
        #expect(xml.title == "Apple Products" && xml.nodes.first?.id == "mac")
    }

    @Test func openStepCollapsedTakesYesAndNo() throws {
        let outline = try PlistParser().parse(
            Array(#"{ sections = ( { name = A; collapsed = YES; detail = a; }, { name = B; collapsed = NO; detail = b; } ); }"#.utf8),
            file: "o.plist"
        ).outline
        #expect(outline.nodes.map(\.collapsed) == [true, false])
    }
}
