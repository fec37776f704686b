import Foundation
import Testing

@testable import OutlineConvert

/// docs/sites.md, index pages: a folder's `index.md`, else its `README.md`, is its
/// `index.html`, and links to either, or to the folder, land on it.
@Suite struct SiteIndexPagesTests {
    private func site(_ files: [String: String], _ arguments: String...) throws -> (folder: URL, result: Support.Result) {
        let folder = try Support.temporaryDirectory()
        for (name, text) in files { try Support.write(text, to: folder.appending(path: "docs/" + name)) }
        let result = try Support.tool(arguments: ["docs", "-o", "site"] + arguments, cwd: folder)
        return (folder, result)
    }

    @Test func aReadmeIsItsFoldersIndexUnlessTheFolderHasAnIndex() throws {
        let (folder, result) = try site([
            "README.md": "# Home\n", "cli/README.md": "# CLI\n", "guide/index.md": "# Guide\n", "guide/README.md": "# About\n",
        ])
        defer { Support.remove(folder) }
        #expect(result.status == 0)
        #expect(Support.outputs(folder.appending(path: "site")) == ["cli/index.html", "guide/README.html", "guide/index.html", "index.html"])
    }

    @Test func linksToTheReadmeTheIndexOrTheFolderLandOnTheIndexPage() throws {
        let home = "# Home\n\n[a](cli/README.md) [b](cli/) [c](cli) [d](cli/index.html) [e](cli/README.md#usage) [f](guide/)\n"
        let (folder, result) = try site(
            ["README.md": home, "cli/README.md": "# CLI\n## Usage\n\n[up](../README.md) [root](../)\n", "guide/notes.md": "# Notes\n"], "--strict")
        defer { Support.remove(folder) }
        #expect(result.status == 0, "\(result.stderr)")
        let index = try Support.read(folder.appending(path: "site/index.html"))
        for (label, href) in [
            ("a", "cli/index.html"), ("b", "cli/index.html"), ("c", "cli/index.html"), ("d", "cli/index.html"), ("e", "cli/index.html#usage"),
        ] {
            #expect(index.contains(#"<a href="\#(href)">\#(label)</a>"#), "\(label)")
        }
        // A folder with no index page is left as written (a server shows what it has).
        #expect(index.contains(#"<a href="guide/">f</a>"#))
        let cli = try Support.read(folder.appending(path: "site/cli/index.html"))
        #expect(cli.contains(#"<a href="../index.html">up</a>"#) && cli.contains(#"<a href="../index.html">root</a>"#))
    }

    @Test func aMisspeltSectionOfAFolderLinkIsReported() throws {
        let (folder, result) = try site(["README.md": "# Home\n\n[x](cli/#nope)\n", "cli/README.md": "# CLI\n"])
        defer { Support.remove(folder) }
        #expect(result.stderr.contains("README.md:3:1: warning:"))
        #expect(result.stderr.contains("nope"))
    }

    @Test func theGeneratedIndexDoesNotReplaceAReadme() throws {
        let (folder, result) = try site(["README.md": "# Home\nmine\n", "a.md": "# A\n"], "--index")
        defer { Support.remove(folder) }
        #expect(result.status == 0)
        #expect(try Support.read(folder.appending(path: "site/index.html")).contains("<p>mine</p>"))
    }

    @Test func otherOutputsKeepTheReadmesName() throws {
        let (folder, result) = try site(["README.md": "# Home\n"], "-t", "json")
        defer { Support.remove(folder) }
        #expect(result.status == 0)
        #expect(Support.outputs(folder.appending(path: "site")) == ["README.json"])
    }
}
