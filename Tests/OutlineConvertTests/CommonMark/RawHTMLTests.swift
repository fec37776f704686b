import Foundation
import Testing

@testable import OutlineConvert

/// SPEC §3.1.2, docs/formats.md: raw HTML is what GitHub's sanitizer keeps of it (the oracle
/// tests compare it with ammonia's reading of cmark-gfm's HTML); here, the hostile cases and
/// what a site makes of its URLs.
@Suite struct RawHTMLTests {
    private func fragment(_ text: String, unsafe: Bool = false) throws -> String {
        try Support.convert(text) {
            $0.html.fragment = true
            $0.html.unsafe = unsafe
        }.output
    }

    @Test func whatGitHubKeepsIsKeptAndTheRestDropped() throws {
        let html = try fragment(
            "<p align=\"center\" style=\"color:red\" class=\"x\" onclick=\"alert(1)\">\n<img src=\"logo.png\" width=\"200\" onerror=\"alert(1)\">\n</p>\n"
        )
        #expect(html == "<p align=\"center\">\n<img src=\"logo.png\" width=\"200\">\n</p>\n")
        #expect(
            try fragment("Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O.\n") == "<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O.</p>\n")
        // Elements that are not kept lose their tags; those whose content is code or data lose it too.
        #expect(try fragment("a <font color=red>b</font> <script>alert(1)</script> c\n") == "<p>a b  c</p>\n")
        #expect(try fragment("<style>\nbody { display: none }\n</style>\n\n<iframe src=\"https://x.org\"></iframe>\n\ntext\n") == "<p>text</p>\n")
        #expect(try fragment("<!-- a comment -->\n\n<!DOCTYPE html>\n\na <?php x ?> b\n") == "<p>a  b</p>\n")
    }

    @Test func urlsOfOtherSchemesAreDroppedHowEverTheyAreWritten() throws {
        let links = [
            "javascript:alert(1)", "JavaScript:alert(1)", "jav&#x61;script:alert(1)", "jav&#97script:x", "java&Tab;script:x",
            "java\tscript:x", " javascript:x", "javascript&colon;x", "vbscript:x", "data:text/html,x", "jav&eacute;script:x",
        ]
        for link in links {
            let html = try fragment("<a href=\"\(link)\">x</a>\n")
            #expect(html == "<p><a>x</a></p>\n", "\(link)")
        }
        #expect(try fragment("<img src=\"data:image/png;base64,AAAA\">\n") == "<img>\n")
        #expect(try fragment("<img srcset=\"a.png 1x, javascript:x 2x\" src=\"a.png\">\n") == "<img src=\"a.png\">\n")
        // Kept: relative URLs, the allowed schemes, and query strings whose `&name=` is no reference.
        for link in ["guide.md#x", "https://img.shields.io/badge/a-b?x=1&style=flat", "mailto:me@x.org", "?a=1&amp;b=2", "//cdn.x.org/a"] {
            #expect(try fragment("<a href=\"\(link)\">x</a>\n") == "<p><a href=\"\(link)\">x</a></p>\n", "\(link)")
        }
    }

    @Test func rawHTMLNeverChangesThePageAroundIt() throws {
        // What a scope leaves open closes at its end; an end tag that closes nothing there is dropped.
        #expect(
            try fragment("<div align=\"center\">\n\n**centred**\n\n</div>\n") == "<div align=\"center\">\n<p><strong>centred</strong></p>\n</div>\n")
        #expect(try fragment("<div>\n\ntext\n") == "<div>\n<p>text</p>\n</div>\n")
        // (A details tag in a line of text is text: `DetailsExtension`.)
        #expect(try fragment("a <b>bold\n\nnext</b> </div></body> </details>\n") == "<p>a <b>bold</b></p>\n<p>next  &lt;/details></p>\n")
        let page = try fragment("# A\n\n</div></details>\n\n<div><details>\n\n# B\n\ntext\n")
        #expect(page.components(separatedBy: "<div").count == page.components(separatedBy: "</div>").count)
        #expect(page.components(separatedBy: "<details").count == page.components(separatedBy: "</details>").count)
        // `<` that starts no tag is text; a tag never ended is dropped.
        #expect(try fragment("a < b and 3<4\n") == "<p>a &lt; b and 3&lt;4</p>\n")
        #expect(try fragment("<div title=\"x\n\ny\n") == "<p>y</p>\n")
    }

    @Test func deepOrEndlessRawHTMLIsBounded() throws {
        // At most `maxOpen` elements open in a scope: deeper start tags are dropped, and each
        // end tag searches no longer a list; all that is opened is closed.
        let deep = try fragment(String(repeating: "<div>", count: 300) + String(repeating: "</span>", count: 300) + "\n\nafter\n")
        #expect(deep.components(separatedBy: "<div>").count - 1 == HTMLSanitizer.maxOpen)
        #expect(deep.components(separatedBy: "</div>").count - 1 == HTMLSanitizer.maxOpen)
        #expect(!deep.contains("span") && deep.contains("<p>after</p>"))
        // A script never closed takes the rest of its block, however many `<` it holds.
        #expect(try fragment("<script>" + String(repeating: "<a ", count: 10_000) + "\n") == "")
    }

    @Test func unsafeKeepsItAllAsWritten() throws {
        let markdown = "<p align=center onclick=\"x()\"><img src=logo.png style=\"a\"></p>\n"
        #expect(try fragment(markdown, unsafe: true) == markdown)
        // The tag filter still applies, as on GitHub.
        #expect(try fragment("<div><script>x()</script></div>\n", unsafe: true) == "<div>&lt;script>x()&lt;/script></div>\n")
    }

    @Test func aSiteRewritesCopiesAndChecksTheURLsItKeeps() throws {
        let folder = try Support.temporaryDirectory()
        defer { Support.remove(folder) }
        try Support.write(
            """
            # Page

            <p align="center"><img src="img/logo.png" srcset="img/logo.png 1x, img/big.png 2x"></p>
            <picture><source srcset="img/dark.png"><img src="img/logo.png"></picture>

            See <a href="other.md#setup">setup</a>, <a href="other.md#nope">nope</a>,
            [old](#old) and <a href="#kept">kept</a>.

            <a name="old"></a><a id="kept"></a>
            """, to: folder.appending(path: "page.md"))
        try Support.write("# Other\n\n## Setup\n", to: folder.appending(path: "other.md"))
        try FileManager.default.createDirectory(at: folder.appending(path: "img"), withIntermediateDirectories: true)
        try Support.write("png", to: folder.appending(path: "img/logo.png"))
        try Support.write("png", to: folder.appending(path: "img/dark.png"))
        for unsafe in [false, true] {
            let site = folder.appending(path: unsafe ? "unsafe" : "safe")
            let result = try Support.tool(arguments: [folder.path, "-o", site.path] + (unsafe ? ["--unsafe"] : []))
            // Each warning at the URL's own line and column, and only those.
            #expect(result.stderr.contains("page.md:3:68: warning: no file 'img/big.png'"))
            #expect(result.stderr.contains("page.md:6:50: warning: no section 'nope'"))
            #expect(result.stderr.components(separatedBy: "warning:").count == 3, "\(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: site.appending(path: "img/dark.png").path))
            let page = try Support.read(site.appending(path: "page.html"))
            #expect(page.contains("<a href=\"other.html#setup\">setup</a>"))
        }
    }
}
