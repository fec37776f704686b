import Foundation
import Testing

@testable import OutlineConvert

/// docs/safety.md: Messages are one located line whatever a file or name holds; generated links never become schemes.
@Suite struct MessageSafetyTests {

    @Test func noFileNameBecomesASchemeInTheIndex() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# Evil\n", to: dir.appending(path: "in/javascript:alert(1).md"))
        try Support.write("# Data\n", to: dir.appending(path: "in/data:text,x.md"))
        try Support.write("# Fine\n", to: dir.appending(path: "in/ok page.md"))
        for extra in [[], ["--unsafe"]] {
            let result = try Support.tool(arguments: ["in", "-o", "out", "--index"] + extra, cwd: dir)
            #expect(result.status == 0)
            let index = try Support.read(dir.appending(path: "out/index.html"))
            let hrefs = index.split(separator: "href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(hrefs.contains("javascript%3Aalert%281%29.html"))
            #expect(hrefs.contains("data%3Atext%2Cx.html"))
            #expect(hrefs.contains("ok%20page.html"))
            // A scheme is letters, digits, `+`, `-`, `.` before the first `:`.
            #expect(hrefs.allSatisfy { href in !href.prefix { $0 != "/" && $0 != "#" }.contains(":") }, "\(hrefs)")
        }
    }

    @Test(.slow) func aMessageIsAlwaysOneShortLine() throws {
        let forged = "x\nREADME.md:1:1: error: forged"
        let plist = """
            <?xml version="1.0"?><plist version="1.0"><dict><key>sections</key><array><dict>
            <key>name</key><string>A</string><key>\(forged)</key><string>v</string></dict></array></dict></plist>
            """
        let conversion = try Support.convert(plist, file: "t.plist")
        #expect(
            conversion.warnings.map(\.description) == [
                #"t.plist:3:35: warning: sections[0].x\nREADME.md:1:1: error: forged: unknown key 'x\nREADME.md:1:1: error: forged' is ignored"#
            ])
        let result = try Support.tool("--from", "plist", input: plist)
        #expect(result.status == 0)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!result.stderr.contains("\nREADME.md"))
        let huge = String(repeating: "k", count: 5_000_000)
        let big = plist.replacingOccurrences(of: forged, with: huge)
        let long = try Support.tool("--from", "plist", input: big)
        #expect(long.stderr.split(separator: "\n").count == 1 && long.stderr.utf8.count < 400)
        // A file name with a line break, in a batch.
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("<outline><x/></outline>", to: dir.appending(path: "in/a\nREADME.md:1:1: error: forged.xml"))
        let batch = try Support.tool("in", "-o", "out", cwd: dir)
        #expect(
            batch.stderr
                == "in/a\\nREADME.md:1:1: error: forged.xml:1:10: error: unknown element <x> in <outline>; expected <section>, <item> or a first <detail>\noutline-render: 1 file: 0 written, 0 unchanged, 1 failed\n"
        )
    }

    @Test func anEmptyTitleIsNoTitle() throws {
        for text in ["---\ntitle: \"\"\n---\n# A\n", "---\ntitle:\n---\n# A\n", "---\ntitle: '  '\n---\n# A\n"] {
            let json = try Support.convert(text) { $0.to = .json }.output
            #expect(!json.contains("\"title\": \"\""), "\(text)")
            #expect(json.hasPrefix("{\n  \"version\": 1,\n  \"body\""), "\(text)")
            let html = try Support.convert(text) { $0.html.fragment = true }.output
            #expect(!html.contains("outline-page-title"), "\(text)")
        }
        #expect(try Support.outline("# A\n") { $0.title = "" }.title == nil)
    }

    @Test func linesCountCRAndCRLFLineEndings() throws {
        let cr = try Support.tool("--from", "markdown", input: "a\rb\r\u{0}c")
        #expect(cr.stderr == "<stdin>:3:1: error: the file contains a NUL byte; it is not text\n")
        let mixed = try Support.tool("--from", "markdown", input: "a\r\nb\rc\nd \u{0}")
        #expect(mixed.stderr == "<stdin>:4:3: error: the file contains a NUL byte; it is not text\n")
        let xml = try Support.tool("--from", "xml", input: "<outline>\r  <section title=\"a\">\r  <bogus/></section>\r</outline>\r")
        #expect(xml.stderr == "<stdin>:3:3: error: unknown element <bogus> in <section>; expected <section>, <item> or a first <detail>\n")
    }

    @Test func xmlLinesPast65535AreExact() throws {
        var lines = ["<outline>", "<section title=\"long\">" + String(repeating: "<item title=\"i\">t</item>", count: 2000) + "</section>"]
        lines += Array(repeating: "<!-- filler -->", count: 70_000)
        lines += ["<section title=\"s\"><item title=\"x\">y</item></section>", "  <bogus/>", "</outline>"]
        let result = try Support.tool("--from", "xml", input: lines.joined(separator: "\n"))
        #expect(result.stderr == "<stdin>:70004:3: error: unknown element <bogus> in <outline>; expected <section>, <item> or a first <detail>\n")
    }

    @Test func everyXMLAndPlistErrorHasALineAndAColumn() throws {
        // Seeded mutations of the examples: every error they cause must be located.
        var generator = SeededGenerator(seed: 20261130)
        for name in ["xml/products.xml", "plist/products.plist"] {
            let original = Array(try Data(contentsOf: Support.examples.appending(path: name)))
            for round in 0..<400 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let at = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[at] = Array("<>&\"'/=x \n".utf8).randomElement(using: &generator) ?? 0
                    case 1: bytes.remove(at: at)
                    default: bytes.insert(contentsOf: Array("<a>".utf8), at: at)
                    }
                }
                do {
                    _ = try Converter(options: ConversionOptions()).convert(bytes, file: name)
                } catch let error as ConversionError {
                    #expect(error.location.line > 0 && error.location.column > 0, "\(name) round \(round): \(error)")
                    #expect(!error.description.contains("\n"), "\(name) round \(round): \(error)")
                }
            }
        }
    }
}
