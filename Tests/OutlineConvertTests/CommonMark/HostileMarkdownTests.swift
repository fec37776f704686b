import Foundation
import Testing

@testable import OutlineConvert

/// docs/safety.md: Markdown that would take cmark down is refused where it starts; a batch goes on.
@Suite struct HostileMarkdownTests {

    @Test func markdownWithinTheLimitsConvertsAndBeyondIsRefusedWhereItStarts() throws {
        let fine =
            String(repeating: "> ", count: 200) + "x\n\n" + (0..<200).map { String(repeating: "  ", count: $0) + "- y\n" }.joined()
            + "\n" + String(repeating: "[", count: 100_000) + "\n"
        for format in ["html", "text", "json"] {
            let result = try Support.tool("-t", format, "--from", "markdown", input: "# T\n" + fine)
            #expect(result.status == 0 && !result.stdout.isEmpty)
        }
        let cases: [(String, String)] = [
            (
                "# T\n" + String(repeating: ">", count: 100_000) + " x\n",
                "<stdin>:2:257: error: block quotes and list items nest deeper than 256 levels, the limit for Markdown inputs"
            ),
            (
                "# T\n" + (0..<300).map { String(repeating: "  ", count: $0) + "* a\n" }.joined(),
                "<stdin>:258:513: error: block quotes and list items nest deeper than 256 levels, the limit for Markdown inputs"
            ),
            (
                "# T\n\ntext\n" + String(repeating: "![[]()", count: 8000) + "\n",
                "<stdin>:3:1: error: this paragraph opens 7072 images (`![`) and 7072 links (`](`); cmark takes time that grows with their product (limit 50000000): split it into paragraphs"
            ),
        ]
        for (input, message) in cases {
            let result = try Support.tool("--from", "markdown", input: input)
            #expect(result.status == 1)
            #expect(result.stderr == message + "\n")
        }
        let budget = try Support.tool("--from", "markdown", "--max-input-size", "1M", input: String(repeating: "[", count: 70_000))
        #expect(budget.stderr.hasPrefix("<stdin>:1:65537: error: more than 65536 Markdown elements"))
    }

    @Test func oneHostileFileInABatchStopsNothing() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# A\n", to: dir.appending(path: "in/a.md"))
        try Support.write(String(repeating: ">", count: 2_000_000), to: dir.appending(path: "in/b.md"))
        try Support.write(String(repeating: "![[]()", count: 100_000), to: dir.appending(path: "in/c.md"))
        try Support.write("# D\n", to: dir.appending(path: "in/d.md"))
        let result = try Support.tool("in", "-o", "out", cwd: dir)
        #expect(result.status == 1)
        #expect(Support.outputs(dir.appending(path: "out")) == ["a.html", "d.html"])
        #expect(result.stderr.hasSuffix("outline-render: 4 files: 2 written, 0 unchanged, 2 failed\n"))
    }

    @Test func headingAttributesAndManyEqualTitlesStayCorrect() throws {
        let attributes = try Support.outline("# x {#id .a - k=v \(String(repeating: "- ", count: 5000))}\n")
        #expect(attributes.nodes.first?.id == "id")
        #expect(attributes.nodes.first?.attributes["k"] == "v")
        let equal = try Support.outline(String(repeating: "# a\n", count: 3000) + "# a-5 {#a-5}\n")
        let ids = equal.nodes.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.prefix(6) == ["a", "a-1", "a-2", "a-3", "a-4", "a-6"])
        #expect(ids.last == "a-5")
    }
}
