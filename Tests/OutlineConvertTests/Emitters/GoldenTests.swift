import Foundation
import Testing

@testable import OutlineConvert

/// The examples against golden outputs in Tests/golden. The goldens were checked by eye and
/// are re-checked by oracles on every run (Tests/oracle: cmark for the HTML bodies, plistlib
/// for the plist, the JSON Schema for the JSON).
@Suite struct GoldenTests {
    static let golden = Support.root.appending(path: "Tests/golden")

    static let cases: [(source: String, golden: String, arguments: [String])] = [
        ("products.md", "products.json", []), ("plist/products.plist", "products.json", []), ("xml/products.xml", "products.json", []),
        ("products.md", "products.txt", []), ("plist/products.plist", "products.txt", []), ("xml/products.xml", "products.txt", []),
        ("products.md", "products.html", []), ("plist/products.plist", "products.html", []), ("xml/products.xml", "products.html", []),
        ("products.md", "products.fragment.html", ["--fragment"]), ("xml/products.xml", "products.fragment.html", ["--fragment"]),
        ("people.md", "people.json", []), ("people.md", "people.txt", []), ("people.md", "people.html", []),
        ("people.md", "people.fragment.html", ["--fragment"]),
    ]

    @Test(arguments: cases.indices)
    func exampleMatchesItsGolden(index: Int) throws {
        let (source, golden, arguments) = Self.cases[index]
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let ext = golden.hasSuffix(".fragment.html") ? "html" : (golden as NSString).pathExtension
        let output = dir.appending(path: "out.\(ext)")
        let result = try Support.tool(arguments: [Support.examples.appending(path: source).path, "-o", output.path] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Support.read(output) == Support.read(Self.golden.appending(path: golden)), "\(source) → \(golden)")
    }

    /// Every example and fixture in every output format (HTML as a fragment: the page
    /// around it has goldens above). Written by the build before the speed work and checked
    /// by the oracles in Tests/oracle/test_formats.py, so that faster code writes the same bytes.
    static let everyFormat: [(source: String, to: String)] = {
        let sources = [
            "Examples/products.md", "Examples/people.md", "Examples/json/products.json", "Examples/xml/products.xml",
            "Examples/plist/products.plist", "Examples/opml/products.opml", "Examples/docs/index.md", "Examples/docs/guide/install.md",
            "Examples/docs/reference.xml", "Tests/fixtures/writers.json", "Tests/fixtures/products-openstep.plist",
            "Tests/fixtures/products-binary.plist",
        ]
        return sources.flatMap { source in OutputFormat.all.map { (source, $0.name) } }
    }()

    @Test(arguments: everyFormat.indices)
    func everyFormatWritesItsGoldenBytes(index: Int) throws {
        let (source, to) = Self.everyFormat[index]
        let extensions = ["text": "txt", "markdown": "md"]
        let name = source.replacing(/^(Examples|Tests)\//, with: "") + "." + (extensions[to] ?? to)
        let result = try Support.tool(arguments: [Support.root.appending(path: source).path, "--to", to] + (to == "html" ? ["--fragment"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try Support.read(Self.golden.appending(path: "formats/\(name)"))), "\(source) → \(to)")
    }
}
