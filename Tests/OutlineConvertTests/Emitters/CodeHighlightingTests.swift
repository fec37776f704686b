import Foundation
import Testing

@testable import OutlineConvert

/// docs/formats.md, "Code blocks": which Prism files a page needs, and info strings.
@Suite struct CodeHighlightingTests {
    @Test func everyLanguageLoadsAfterWhatItNeeds() throws {
        let table = CodeHighlighting.prismLanguages
        #expect(table.count > 250)
        for id in table.keys {
            let files = CodeHighlighting.files(for: [id])
            #expect(files.first == "prism-core.min.js")
            #expect(files.contains("prism-\(id).min.js"))
            for file in files {
                #expect(!CodeHighlighting.prismFile(file).isEmpty, "\(file)")
            }
            let loaded = files.dropFirst().map { String($0.dropFirst(6).dropLast(7)) }
            for (position, language) in loaded.enumerated() {
                let entry = try #require(table[language])
                for required in entry.requires { #expect(loaded[..<position].contains(required), "\(id): \(required) before \(language)") }
                for after in entry.after where loaded.contains(after) {
                    #expect(loaded[..<position].contains(after), "\(id): \(after) before \(language)")
                }
            }
        }
    }

    @Test func languagesAreFoundByAliasAndOnlyThoseNeededLoad() {
        #expect(CodeHighlighting.languageID("py") == "python")
        #expect(CodeHighlighting.languageID("Shell") == "bash")
        #expect(CodeHighlighting.languageID("html") == "markup")
        #expect(CodeHighlighting.languageID("no-such-language") == nil)
        #expect(CodeHighlighting.languageID("mjs") == "javascript" && CodeHighlighting.languageID("Console") == "shell-session")
        #expect(CodeHighlighting.files(for: []) == [])
        #expect(CodeHighlighting.files(for: ["cpp"]) == ["prism-core.min.js", "prism-clike.min.js", "prism-c.min.js", "prism-cpp.min.js"])
    }

    @Test func prismsTextCannotEndThePageScript() {
        var page = ByteBuffer()
        CodeHighlighting.writeInline("prism-markup.min.js", into: &page)
        let markup = String(decoding: page.finish(), as: UTF8.self)
        #expect(CodeHighlighting.prismFile("prism-markup.min.js").contains("<!--"))
        #expect(!markup.contains("<!--") && !markup.lowercased().contains("<script") && !markup.lowercased().contains("</script"))
        #expect(markup.contains("\\x3C!--"))
    }

    @Test func codeLanguagesAreCollectedFromThePagesHTML() throws {
        let html = try Support.convert("```py\nx\n```\n\n- ```rust,ignore\n  fn f() {}\n  ```\n\n```c++\nint\n```\n").output
        #expect(html.contains("Prism.languages.python") && html.contains("Prism.languages.rust"))
        #expect(!html.contains("Prism.languages.cpp"))
        #expect(html.contains("<code class=\"language-rust\">"))
    }

    @Test func infoStringsAreReadAsMdBookAndPymdownxReadThem() {
        typealias Info = CodeInfoExtension.Info
        #expect(CodeInfoExtension.read("rust,editable") == Info(language: "rust"))
        #expect(CodeInfoExtension.read("rust, ignore x") == Info(language: "rust"))
        #expect(CodeInfoExtension.read(",x") == Info(language: ",x"))
        #expect(CodeInfoExtension.read("{ .python title=\"x.py\" }") == Info(language: "python", title: "x.py"))
        #expect(CodeInfoExtension.read("{.js}") == Info(language: "js"))
        #expect(CodeInfoExtension.read("{ title=\"a\" }") == Info(language: "", title: "a"))
        #expect(CodeInfoExtension.read("py title='x y.py' linenums=\"1\"") == Info(language: "py", title: "x y.py", firstLine: 1))
        #expect(
            CodeInfoExtension.read("{ .py linenums=\"10 2\" hl_lines=\"2 4-5 x 0 9-3\" }")
                == Info(language: "py", firstLine: 10, markedLines: [2...2, 4...5]))
        #expect(CodeInfoExtension.read("py hl_lines=\"3\"") == Info(language: "py", markedLines: [3...3]))
        #expect(CodeInfoExtension.read("title=\"no lang\"") == Info(language: "", title: "no lang"))
        #expect(CodeInfoExtension.read("py subtitle=\"x\"") == Info(language: "py"))
        #expect(CodeInfoExtension.read("python") == Info(language: "python"))
        #expect(CodeInfoExtension.read("") == Info(language: ""))
    }

    /// As mdBook 0.5's `hide_lines_rust` reads them (`^(\\s*)#(.?)(.*)$`, mdBook's
    /// crates/mdbook-html/src/html/hide_lines.rs at 641d06a): `# x` and a `#` alone are
    /// hidden, `##x` is `#x` shown, any other `#x` is code.
    @Test func mdBooksBoringLinesAreReadAsMdBookReadsThem() {
        typealias Layout = CodeInfoExtension.LineLayout
        func boring(_ line: String) -> String? {
            Layout.boring(Array(line.utf8)).map { (String(decoding: $0.line, as: UTF8.self)) + ($0.hidden ? " (hidden)" : "") }
        }
        #expect(boring("# fn x() {}\n") == "fn x() {}\n (hidden)")
        #expect(boring("    # let y = 1;\n") == "    let y = 1;\n (hidden)")
        #expect(boring("#\n") == "\n (hidden)" && boring("  #") == "   (hidden)")
        #expect(boring("## shown\n") == "# shown\n")
        #expect(boring("    #let y = 1;\n") == nil)
        #expect(boring("#[derive(Debug)]\n") == nil && boring("#![allow(unused)]\n") == nil)
        #expect(boring("fn main() {}\n") == nil)
    }

    @Test func aTitleShowsAboveItsCodeAndAnyOtherControlCharacterStays() throws {
        let html = try Support.convert("```py title=\"a <b> & c.py\"\nx\u{1}y \"z\"\n```\n") { $0.html.fragment = true }.output
        #expect(
            html.contains("<div class=\"outline-code-title\">a &lt;b&gt; &amp; c.py</div>\n<pre><code class=\"language-py\">x\u{1}y &quot;z&quot;"))
    }
}
