import Foundation
import Testing

@testable import OutlineConvert

/// README.md: the command line, run as a user runs it.
@Suite struct CommandLineTests {
    @Test func convertsAFileToStdoutAndInfersTheOutputFormat() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let plist = Support.examples.appending(path: "plist/products.plist").path
        let stdout = try Support.tool(plist, "-t", "text")
        #expect(stdout.status == 0)
        #expect(stdout.stdout.hasPrefix("Apple Products\n\n▾ Mac\n"))
        for (ext, start) in [("html", "<!DOCTYPE html>"), ("json", "{\n  \"version\": 1"), ("txt", "Apple Products")] {
            let out = dir.appending(path: "products.\(ext)")
            let result = try Support.tool(plist, "-o", out.path)
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
            #expect(try Support.read(out).hasPrefix(start))
        }
        #expect(try Support.tool(plist, "-o", dir.appending(path: "x.json").path, "--to", "text").status == 0)
        #expect(try Support.read(dir.appending(path: "x.json")).hasPrefix("Apple Products"))
    }

    @Test func readsStandardInputAndSniffsTheFormat() throws {
        let xml = try Support.read(Support.examples.appending(path: "xml/products.xml"))
        let result = try Support.tool("-t", "json", input: xml)
        #expect(result.status == 0)
        let viaDash = try Support.tool("-", "--to=json", input: xml)
        #expect(viaDash.stdout == result.stdout)
        let fromFile = try Support.tool(Support.examples.appending(path: "xml/products.xml").path, "-t", "json")
        #expect(fromFile.stdout == result.stdout)
        let markdown = try Support.tool("-t", "json", "--from", "markdown", input: "<outline/> is text here\n")
        #expect(markdown.stdout.contains("\"body\": \"<outline/> is text here\""))
    }

    @Test func collapseOptions() throws {
        let md = Support.examples.appending(path: "products.md").path
        func open(_ arguments: String...) throws -> [String] {
            let text = try Support.tool(arguments: [md, "-t", "text", "--ascii"] + arguments).stdout
            return text.split(separator: "\n").filter { $0.hasPrefix("- ") }.map { String($0.dropFirst(2)) }
        }
        #expect(try open() == ["Mac", "iPhone"])
        #expect(try open("--expand-all") == ["Mac", "iPad", "iPhone"])
        #expect(try open("--collapse-all") == [])
        #expect(try open("--expand", "ipad", "--collapse=mac") == ["iPad", "iPhone"])
        #expect(try open("--collapse-depth", "1") == [])
        #expect(try open("--collapse-depth", "2") == ["Mac", "iPhone"])
    }

    @Test func titleOverrides() throws {
        let result = try Support.tool(Support.examples.appending(path: "products.md").path, "--title", "Other <T>", "-t", "json")
        #expect(result.stdout.contains("\"title\": \"Other <T>\""))
    }

    @Test func userTemplateTitleAndFragment() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let input = Support.examples.appending(path: "products.md").path
        try Support.write(
            "<html lang=\"{{lang}}\"><title>{{title}}</title><style>{{style}}</style>\n<body>{{content}}<script>{{script}}</script>",
            to: dir.appending(path: "page.html"))
        let page = try Support.tool(input, "--template", dir.appending(path: "page.html").path, "--title", "Mine & yours")
        #expect(page.status == 0)
        #expect(page.stdout.hasPrefix("<html lang=\"en\"><title>Mine &amp; yours</title><style>/* outline-render default page."))
        #expect(page.stdout.contains("<body><h1 class=\"outline-page-title\">Mine &amp; yours</h1>"))
        #expect(page.stdout.contains("addEventListener(\"beforeprint\""))

        try Support.write("<p>\n{{ content }}\n{{footer}}", to: dir.appending(path: "bad.html"))
        let bad = try Support.tool(input, "--template", dir.appending(path: "bad.html").path, "-o", dir.appending(path: "out.html").path)
        #expect(bad.status == 1)
        #expect(
            bad.stderr
                == "\(dir.appending(path: "bad.html").path):3: error: unknown placeholder '{{footer}}'; known: {{title}}, {{content}}, {{style}}, {{script}}, {{lang}}, {{index}}, {{toc}}, {{pager}}, {{canonical}}\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir.appending(path: "out.html").path))

        let fragment = try Support.tool(input, "--fragment")
        #expect(fragment.stdout.hasPrefix("<h1 class=\"outline-page-title\">Apple Products</h1>\n<h2 class=\"outline-heading\">Mac</h2>"))
        #expect(!fragment.stdout.contains("<html"))
    }

    @Test func helpAndVersion() throws {
        let help = try Support.tool("--help")
        #expect(help.status == 0)
        for section in ["OVERVIEW:", "USAGE:", "ARGUMENTS:", "OPTIONS:", "--collapse-depth <n>", "-h, --help"] {
            #expect(help.stdout.contains(section))
        }
        #expect(try Support.tool("--version").stdout.hasPrefix("outline-render "))
    }

    @Test(arguments: [
        (["--frobnicate"], "Error: Unknown option '--frobnicate'"),
        (["-t", "pdf"], "Error: Unknown output format 'pdf'"),
        (["--collapse-depth", "x"], "Error: '--collapse-depth' needs a whole number"),
        (["-o"], "Error: Missing value for '-o'"),
        (["--fragment=yes"], "Error: Option '--fragment' takes no value"),
    ])
    func badUsageExitsTwo(arguments: [String], message: String) throws {
        let result = try Support.tool(arguments: arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message))
        #expect(result.stderr.contains("See 'outline-render --help' for more information."))
        #expect(result.stdout.isEmpty)
    }

    @Test func doubleDashEndsOptions() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# A\n", to: dir.appending(path: "-odd.md"))
        let result = try Support.tool("-t", "text", "--", "-odd.md", cwd: dir)
        #expect(result.status == 0)
        #expect(result.stdout == "• A\n")
    }

    @Test func writesOnlyWhenContentChangesAndKeepsTheMode() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let out = dir.appending(path: "p.html")
        let input = Support.examples.appending(path: "products.md").path
        #expect(try Support.tool(input, "-o", out.path).status == 0)
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old, .posixPermissions: 0o600], ofItemAtPath: out.path)
        #expect(try Support.tool(input, "-o", out.path, "-v").stderr.contains("unchanged"))
        #expect(try FileManager.default.attributesOfItem(atPath: out.path)[.modificationDate] as? Date == old)
        #expect(try Support.tool(input, "-o", out.path, "--collapse-all").status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: out.path)
        #expect(attributes[.modificationDate] as? Date != old)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(Support.listing(dir) == ["p.html"])  // no temporary file left
    }

    @Test func checkWritesNothingAndFailsOnMissingOrStaleOutput() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let out = dir.appending(path: "p.json").path
        let input = Support.examples.appending(path: "plist/products.plist").path
        let missing = try Support.tool(input, "-o", out, "--check")
        #expect(missing.status == 1 && missing.stderr.contains("missing"))
        #expect(Support.listing(dir).isEmpty)
        #expect(try Support.tool(input, "-o", out).status == 0)
        #expect(try Support.tool(input, "-o", out, "--check").status == 0)
        let stale = try Support.tool(input, "-o", out, "--check", "--collapse-all")
        #expect(stale.status == 1 && stale.stderr.contains("stale"))
    }

    /// One file is written as it is made, a chunk (1 MiB) at a time: the bytes must be those
    /// the library returns whole, on standard output and in a file, and a file that already
    /// holds them is left alone (its modification time kept).
    @Test(.slow) func largeOutputsAreStreamedWithTheSameBytes() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let markdown = (0..<19_000).map { "# Section \($0) & <more>\n\nText of section \($0), with *emphasis*.\n\n" }.joined()
        let input = dir.appending(path: "big.md")
        try Support.write(markdown, to: input)
        for format in [OutputFormat.html, .json, .text, .markdown] {
            var options = ConversionOptions()
            options.to = format
            let whole = try Converter(options: options).convert(Array(markdown.utf8), file: input.path).bytes
            #expect(whole.count > 1 << 20, "\(format): the output spans more than one chunk")
            let stdout = try Support.tool(input.path, "--to", "\(format)")
            #expect(stdout.status == 0 && Array(stdout.stdout.utf8) == whole, "\(format) on standard output")
            let output = dir.appending(path: "out.\(format)")
            #expect(try Support.tool(input.path, "--to", "\(format)", "-o", output.path).status == 0)
            #expect(try Array(Data(contentsOf: output)) == whole, "\(format) in a file")
        }
        // Written again unchanged: the file is not replaced. Changed: it is.
        let output = dir.appending(path: "out.html")
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: output.path)
        #expect(try Support.tool(input.path, "-o", output.path).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date == old)
        try Support.write(markdown + "# One more\n", to: input)
        #expect(try Support.tool(input.path, "-o", output.path).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date != old)
        #expect(try Support.read(output).contains("One more"))
        #expect(Support.listing(dir).count == 5, "no temporary file is left: \(Support.listing(dir))")
    }
}

/// Bad input: a located error on stderr, exit 1, nothing on stdout, no output file, and
/// an existing output left exactly as it was.
@Suite struct BadInputTests {
    static let password = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:x:0:0"

    static let cases: [(name: String, content: [UInt8], error: String)] = [
        (
            "malformed.xml", Array("<outline>\n  <section title=\"A\">\n  </sectoin>\n</outline>\n".utf8),
            "malformed.xml:3:13: error: Opening and ending tag mismatch: section line 2 and sectoin"
        ),
        (
            "wrongtype.plist", Array("<plist><array><dict><key>name</key><string>A</string>\n<key>items</key><dict/></dict></array></plist>".utf8),
            "wrongtype.plist:2:17: error: sections[0].items: expected an array, found a dict"
        ),
        (
            "unknown.xml", Array("<outline>\n  <chapter title=\"x\"/>\n</outline>".utf8),
            "unknown.xml:2:3: error: unknown element <chapter> in <outline>"
        ),
        (
            "laughs.xml",
            Array(
                ("<?xml version=\"1.0\"?>\n<!DOCTYPE o [\n <!ENTITY a \"aaaaaaaaaa\">\n"
                    + (1...9).map { " <!ENTITY a\($0) \"" + String(repeating: "&a\($0 == 1 ? "" : String($0 - 1));", count: 10) + "\">\n" }.joined()
                    + "]>\n<outline title=\"&a9;\"/>\n").utf8),
            "laughs.xml:3:25: error: entity declarations are not allowed (entity 'a')"
        ),
        (
            "xxe.plist",
            Array(
                "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<plist><array><string>&x;</string></array></plist>"
                    .utf8),
            "xxe.plist:2:56: error: entity declarations are not allowed (entity 'x')"
        ),
        (
            "parameter.xml", Array("<?xml version=\"1.0\"?>\n<!DOCTYPE o [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>\n<outline/>".utf8),
            "parameter.xml:2:54: error: entity declarations are not allowed (entity 'p')"
        ),
        (
            "deep.xml",
            Array(
                ("<outline>" + String(repeating: "<section title=\"d\">", count: 100_000) + String(repeating: "</section>", count: 100_000)
                    + "</outline>").utf8),
            "deep.xml:1:"
        ),
        (
            "deep.plist",
            Array(("<plist>" + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000) + "</plist>").utf8),
            "deep.plist:1:"
        ),
        ("invalid.md", [0x23, 0x20, 0x41, 0x0A, 0x62, 0xC3, 0x28, 0x0A], "invalid.md:2:2: error: the file is not valid UTF-8"),
        ("invalid.xml", Array("<outline title=\"".utf8) + [0xFF, 0xFE] + Array("\"/>".utf8), "invalid.xml:1:"),
        ("nul.md", Array("# A\nx\0y\n".utf8), "nul.md:2:2: error: the file contains a NUL byte"),
        ("nul.plist", Array("<plist><array>\0</array></plist>".utf8), "nul.plist:1:"),
        ("empty.xml", [], "empty.xml:1:1: error: the file is empty"),
        ("empty.plist", [], "empty.plist:1:1: error: the file is empty"),
        ("empty.md", [], "empty.md:1:1: error: the file is empty"),
        ("random.xml", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ ($0 >> 3) &* 31) }, "random.xml:1:"),
        ("cut.plist", Array("<?xml version=\"1.0\"?>\n<plist><array><dict><key>name</key><str".utf8), "cut.plist:2:"),
        ("cut.md", Array("# A\n\u{E9}".utf8).dropLast(), "cut.md:2:1: error: the file is not valid UTF-8"),
        (
            "malformed.opml", Array("<opml version=\"2.0\"><body>\n<outline text=\"a\">\n</body></opml>".utf8),
            "malformed.opml:3:8: error: Opening and ending tag mismatch: outline line 2 and body"
        ),
        (
            "notext.opml", Array("<opml version=\"2.0\">\n<body>\n  <outline _note=\"x\"/>\n</body></opml>".utf8),
            "notext.opml:3:3: error: an <outline> needs a text (or title) attribute"
        ),
        ("nobody.opml", Array("<opml version=\"2.0\"><head/></opml>".utf8), "nobody.opml:1:1: error: an OPML file needs a <body>"),
        (
            "xxe.opml",
            Array(
                "<?xml version=\"1.0\"?>\n<!DOCTYPE opml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<opml><body><outline text=\"&x;\"/></body></opml>"
                    .utf8),
            "xxe.opml:2:55: error: entity declarations are not allowed (entity 'x')"
        ),
        (
            "laughs.opml",
            Array(
                ("<?xml version=\"1.0\"?>\n<!DOCTYPE opml [\n <!ENTITY a \"aaaaaaaaaa\">\n"
                    + (1...9).map { " <!ENTITY a\($0) \"" + String(repeating: "&a\($0 == 1 ? "" : String($0 - 1));", count: 10) + "\">\n" }.joined()
                    + "]>\n<opml><body><outline text=\"&a9;\"/></body></opml>\n").utf8),
            "laughs.opml:3:25: error: entity declarations are not allowed (entity 'a')"
        ),
        (
            "deep.opml",
            Array(
                ("<opml><body>" + String(repeating: "<outline text=\"d\">", count: 100_000) + String(repeating: "</outline>", count: 100_000)
                    + "</body></opml>").utf8),
            "deep.opml:1:"
        ),
        (
            "version.json", Array("{\"version\": 2,\n \"body\": \"\", \"sections\": []}".utf8),
            "version.json:1:13: error: version: only version 1 is known, found 2"
        ),
        (
            "type.json",
            Array(
                "{\"version\": 1, \"body\": \"\", \"sections\": [\n  {\"title\": \"A\", \"children\": [{\"title\": \"B\", \"collapsed\": \"yes\"}]}]}"
                    .utf8),
            "type.json:2:59: error: sections[0].children[0].collapsed: expected a boolean, found a string"
        ),
        ("syntax.json", Array("{\"version\": 1,\n \"sections\": [,]}".utf8), "syntax.json:2:15: error: unexpected ','; a value was expected"),
        (
            "deep.json",
            Array(("{\"version\": 1, \"sections\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}").utf8),
            "deep.json:1:"
        ),
        ("cut.json", Array("{\"version\": 1, \"sections\": [{\"title\": \"A".utf8), "cut.json:1:39: error: unterminated string"),
        ("truncated.plist", Array(Self.binaryPlist.prefix(Self.binaryPlist.count - 20)), "truncated.plist: error: not a valid binary plist"),
        (
            "bad.plist", Array("{\n  title = \"T\";\n  sections = ( { name = A } );\n}".utf8),
            "bad.plist:3:27: error: ';' was expected after the value of 'name'"
        ),
        (
            "openstep.plist", Array("( { name = A; collapsed = maybe; } )".utf8),
            "openstep.plist:1:27: error: sections[0].collapsed: expected YES or NO, found 'maybe'"
        ),
    ]

    /// The binary form of the example plist (made by Python's plistlib).
    static let binaryPlist: [UInt8] =
        (try? Data(contentsOf: Support.root.appending(path: "Tests/fixtures/products-binary.plist"))).map { Array($0) } ?? []

    @Test(arguments: cases.indices)
    func badInputFailsWithALocatedErrorAndWritesNothing(index: Int) throws {
        let (name, content, expected) = Self.cases[index]
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let input = dir.appending(path: name)
        try Data(content).write(to: input)
        let stdout = try Support.tool(input.lastPathComponent, cwd: dir)
        #expect(stdout.status == 1)
        #expect(stdout.stdout.isEmpty)
        #expect(stdout.stderr.hasPrefix(expected), "\(stdout.stderr)")
        #expect(stdout.stderr.split(separator: "\n").count == 1)
        #expect(!stdout.stderr.contains(Self.password.prefix(20)))

        // An existing output survives untouched, and no temporary file appears.
        let output = dir.appending(path: "out.html")
        try Support.write("precious", to: output)
        let toFile = try Support.tool(input.lastPathComponent, "-o", "out.html", cwd: dir)
        #expect(toFile.status == 1)
        #expect(try Support.read(output) == "precious")
        #expect(Support.listing(dir) == [name, "out.html"].sorted())
    }

    @Test func billionLaughsStaysSmallAndFast() throws {
        let (name, content, _) = Self.cases[3]
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Data(content).write(to: dir.appending(path: name))
        let result = try Support.run("/usr/bin/env", ["time", "-f", "%M %U %S", Support.tool, name], cwd: dir)
        let figures = (result.stderr.split(separator: "\n").last ?? "").split(separator: " ")
        let peakKB = Int(figures.first ?? "") ?? .max
        let cpuSeconds = figures.dropFirst().compactMap { Double($0) }.reduce(0, +)
        #expect(result.status != 0)
        #expect(peakKB < 200_000)
        // Expanded, the entities would take gigabytes and minutes; refused, it takes neither.
        #expect(figures.count == 3 && cpuSeconds < 2)
    }

    @Test func writingToAFullDeviceFails() throws {
        let input = Support.examples.appending(path: "products.md").path
        let toFile = try Support.tool(input, "-o", "/dev/full")
        #expect(toFile.status == 1)
        #expect(toFile.stderr == "/dev/full: error: cannot write: No space left on device\n")
        let shell = try Support.run("/bin/sh", ["-c", "'\(Support.tool)' '\(input)' > /dev/full"])
        #expect(shell.status == 1)
        #expect(shell.stderr.contains("error: cannot write: No space left on device"))
    }

    @Test func missingInput() throws {
        let result = try Support.tool("/nonexistent/x.md")
        #expect(result.status == 1)
        #expect(result.stderr == "/nonexistent/x.md: error: cannot read: no such file\n")
    }
}
