import Testing

@testable import OutlineConvert

/// docs/formats.md: plist section files.
@Suite struct PlistParserTests {
    func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n\(body)\n</plist>\n"
    }

    func outline(_ body: String) throws -> Outline { try Support.outline(plist(body), file: "t.plist") }

    func error(_ body: String) -> String? {
        do {
            _ = try outline(body)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func rootArrayOfSectionsWithStringAndDictItemsToAnyDepth() throws {
        let outline = try outline(
            """
            <array>
              <dict><key>name</key><string>Mac</string><key>collapsed</key><true/><key>id</key><string>m</string>
                <key>detail</key><string>About *Macs*.</string>
                <key>items</key><array>
                  <string>MacBook</string>
                  <dict><key>title</key><string>Deeper</string><key>items</key><array>
                    <dict><key>name</key><string>Deepest</string><key>detail</key><string>x</string></dict>
                  </array></dict>
                </array>
              </dict>
            </array>
            """)
        #expect(outline.title == nil)
        #expect(
            Support.dump(outline) == """
                [+] Mac #m | About *Macs*.
                  [-] MacBook #macbook
                  [-] Deeper #deeper
                    [-] Deepest #deepest | x
                """)
    }

    @Test func rootDictWithTitleAndSections() throws {
        let outline = try outline(
            "<dict><key>title</key><string>T &amp; U</string><key>sections</key><array><dict><key>name</key><string>A</string></dict></array></dict>")
        #expect(outline.title == "T & U")
        #expect(outline.nodes.map(\.title) == ["A"])
    }

    @Test func wrongTypesNameTheKeyPathAndLine() {
        #expect(
            error("<array>\n<dict><key>name</key><string>A</string><key>collapsed</key>\n<string>yes</string></dict></array>")
                == "t.plist:6:1: error: sections[0].collapsed: expected a boolean (<true/> or <false/>), found a string")
        #expect(
            error(
                "<array><dict><key>name</key><string>A</string><key>items</key><array>\n<string>a</string>\n  <dict><key>name</key><string>B</string><key>items</key><dict/></dict></array></dict></array>"
            )
                == "t.plist:6:58: error: sections[0].items[1].items: expected an array, found a dict")
        #expect(
            error("<array><dict><key>detail</key><string>no name</string></dict></array>")
                == "t.plist:4:8: error: sections[0]: a section needs a 'name' (or 'title') string")
        #expect(
            error("<array><dict><key>name</key><string>  </string></dict></array>")
                == "t.plist:4:29: error: sections[0].name: must not be empty")
        #expect(
            error("<string>x</string>")
                == "t.plist:4:1: error: the top value must be an array of sections or a dict, not a string")
    }

    @Test func notAPlistRoot() throws {
        #expect(throws: ConversionError.invalid(SourceLocation(file: "t.plist", line: 1, column: 1), "the root element is <outline>, not <plist>")) {
            try Support.outline("<outline/>", file: "t.plist")
        }
    }

    @Test func unknownKeysAreWarnings() throws {
        let conversion = try Support.convert(
            plist("<array><dict><key>name</key><string>A</string><key>colour</key><string>red</string></dict></array>"), file: "t.plist")
        #expect(conversion.warnings.map(\.description) == ["t.plist:4:64: warning: sections[0].colour: unknown key 'colour' is ignored"])
    }

    @Test func detailIsCommonMarkAndIsDedented() throws {
        let outline = try outline(
            "<array><dict><key>name</key><string>A</string><key>detail</key><string>\n      Some *text*\n        indented more\n      </string></dict></array>"
        )
        #expect(outline.nodes[0].body == "Some *text*\n  indented more")
        let html = try Support.convert(
            plist(
                "<array><dict><key>name</key><string>A &lt;b&gt;</string><key>detail</key><string>[a link](https://x.org) &lt;script&gt;</string></dict></array>"
            ), file: "t.plist"
        ) { $0.html.fragment = true }.output
        #expect(html.contains("<span class=\"outline-title outline-level-1\">A &lt;b&gt;</span>"))
        #expect(html.contains("<p><a href=\"https://x.org\">a link</a> </p>"))
    }
}

/// docs/formats.md: XML section files.
@Suite struct XMLSectionParserTests {
    func error(_ xml: String) -> String? {
        do {
            _ = try Support.outline(xml, file: "t.xml")
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func sectionsItemsDetailsAndAttributes() throws {
        let outline = try Support.outline(
            """
            <outline title="Apple Products">
              <detail>Preamble.</detail>
              <section title="Mac" collapsed="false" id="mac" class="wide">
                <detail>
                  Text under the heading.
                </detail>
                <item title="MacBook">Apple's &lt;ultraportable&gt; laptop.</item>
                <section title="Accessories" collapsed="true"><item title="Mouse"/></section>
              </section>
              <item title="Loose"><![CDATA[<b>cdata</b>]]></item>
            </outline>
            """, file: "t.xml")
        #expect(outline.title == "Apple Products")
        #expect(outline.body == "Preamble.")
        #expect(outline.nodes[0].attributes == ["class": "wide"])
        #expect(
            Support.dump(outline) == """
                [-] Mac #mac | Text under the heading.
                  [-] MacBook #macbook | Apple's <ultraportable> laptop.
                  [+] Accessories #accessories
                    [-] Mouse #mouse
                [-] Loose #loose | <b>cdata</b>
                """)
    }

    @Test func errorsCarryLineAndColumn() {
        #expect(
            error("<outline>\n  <section title=\"A\">\n    <bogus/>\n  </section>\n</outline>")
                == "t.xml:3:5: error: unknown element <bogus> in <section>; expected <section>, <item> or a first <detail>")
        #expect(
            error("<outline>\n <section title=\"A\" collapsed=\"yes\"/>\n</outline>")
                == "t.xml:2:2: error: collapsed must be \"true\" or \"false\", not \"yes\"")
        #expect(error("<outline><section/></outline>") == "t.xml:1:10: error: <section> needs a non-empty title attribute")
        #expect(
            error("<outline>\n<section title=\"A\">loose text</section></outline>")
                == "t.xml:2:20: error: text 'loose text' directly inside <section>; put it in a <detail>")
        #expect(
            error("<outline>\n<section title=\"A\"><item title=\"i\"/><detail>late</detail></section></outline>")
                == "t.xml:2:37: error: <detail> must be the first child of <section>")
        #expect(error("<sections/>") == "t.xml:1:1: error: the root element is <sections>, not <outline>")
        #expect(error("<outline>\n  <section title=\"A\">\n") == "t.xml:3:1: error: Premature end of data in tag section line 2")
    }
}
