import Foundation
import Testing

/// README.md for folders and several inputs: a whole tree in one command.
@Suite struct BatchTests {
    /// A tree with good, bad, hidden, non-outline and symlinked files:
    /// ```
    /// docs/guide.md  docs/b.plist  docs/c.xml  docs/pom.xml (not an outline)  docs/notes.txt
    /// docs/.hidden.md  docs/.git/x.md  docs/sub/deep.md  docs/sub/bad.xml (broken)
    /// docs/sub/loop -> ..   docs/sub/outside -> ../../outside (outside/o.md: not followed, it leaves docs)
    /// ```
    func makeTree() throws -> URL {
        let dir = try Support.temporaryDirectory()
        let docs = dir.appending(path: "docs")
        try Support.write(try Support.read(Support.examples.appending(path: "products.md")), to: docs.appending(path: "guide.md"))
        try Support.write(try Support.read(Support.examples.appending(path: "plist/products.plist")), to: docs.appending(path: "b.plist"))
        try Support.write(try Support.read(Support.examples.appending(path: "xml/products.xml")), to: docs.appending(path: "c.xml"))
        try Support.write("<?xml version=\"1.0\"?>\n<!-- a build file -->\n<project/>\n", to: docs.appending(path: "pom.xml"))
        try Support.write("not an outline", to: docs.appending(path: "notes.txt"))
        try Support.write("# Hidden\n", to: docs.appending(path: ".hidden.md"))
        try Support.write("# In git\n", to: docs.appending(path: ".git/x.md"))
        try Support.write("---\ntitle: Deep page\n---\n# Deep\ntext\n", to: docs.appending(path: "sub/deep.md"))
        try Support.write("<outline>\n  <bogus/>\n</outline>\n", to: docs.appending(path: "sub/bad.xml"))
        try Support.write("# Outside\n", to: dir.appending(path: "outside/o.md"))
        try FileManager.default.createSymbolicLink(atPath: docs.appending(path: "sub/loop").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: docs.appending(path: "sub/outside").path, withDestinationPath: "../../outside")
        return dir
    }

    static let expectedOutputs = ["b.html", "c.html", "guide.html", "sub/deep.html"]

    func modificationDates(_ dir: URL) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for file in Support.outputs(dir) {
            dates[file] = try FileManager.default.attributesOfItem(atPath: dir.appending(path: file).path)[.modificationDate] as? Date
        }
        return dates
    }

    @Test func mirrorsTheTreeAndOneBadFileStopsNothing() throws {
        let dir = try makeTree()
        defer { Support.remove(dir) }
        let result = try Support.tool("docs", "-o", "site", "-v", cwd: dir)
        #expect(result.status == 1)
        #expect(Support.outputs(dir.appending(path: "site")) == Self.expectedOutputs)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("docs/sub/bad.xml:2:3: error: unknown element <bogus> in <outline>; expected <section>, <item> or a first <detail>"))
        #expect(lines.contains("docs/pom.xml: skipped: XML whose root is <project>, not <outline>"))
        #expect(lines.contains("docs/.hidden.md: skipped: hidden"))
        #expect(lines.contains("docs/sub/loop: skipped: already converted through another path (a symbolic link loop or alias)"))
        #expect(!lines.contains { $0.contains("notes.txt") })
        #expect(lines.last == "outline-render: 5 files: 4 written, 0 unchanged, 1 failed, 4 skipped")
        #expect(
            lines.contains {
                $0.hasPrefix("docs/sub/outside: warning: a symbolic link to ")
                    && $0.hasSuffix(", outside docs; not followed, nothing of it is published")
            })
        // The same converter as for one file: the outline is the single-file output's (the
        // page around it has the site's navigation, and shares its style and script).
        let single = try Support.tool("docs/guide.md", cwd: dir)
        let page = try Support.read(dir.appending(path: "site/guide.html"))
        #expect(page.contains("<nav class=\"outline-pager\""))
        #expect(Support.mainElement(page) == Support.mainElement(single.stdout))
    }

    @Test func aSecondRunRewritesNothing() throws {
        let dir = try makeTree()
        defer { Support.remove(dir) }
        Support.remove(dir.appending(path: "docs/sub/bad.xml"))
        #expect(try Support.tool("docs", "-o", "site", cwd: dir).status == 0)
        let site = dir.appending(path: "site")
        let old = Date(timeIntervalSince1970: 1_000_000)
        for file in Support.listing(site) {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: site.appending(path: file).path)
        }
        let second = try Support.tool("docs", "-o", "site", cwd: dir)
        #expect(second.status == 0)
        #expect(second.stderr.hasSuffix("\noutline-render: 4 files: 0 written, 4 unchanged, 0 failed, 4 skipped\n"))
        #expect(try modificationDates(site).values.allSatisfy { $0 == old })
        // Changing one source's text rewrites exactly its output, and the site's search index.
        try Support.write("---\ntitle: Deep page\n---\n# Deep\nchanged text\n", to: dir.appending(path: "docs/sub/deep.md"))
        #expect(try Support.tool("docs", "-o", "site", cwd: dir).stderr.contains("1 written, 3 unchanged"))
        var dates = try modificationDates(site)
        for shared in Support.listing(site) where shared.hasPrefix("outline-site/") {
            dates[shared] = try FileManager.default.attributesOfItem(atPath: site.appending(path: shared).path)[.modificationDate] as? Date
        }
        #expect(dates.filter { $0.value != old }.keys.sorted() == ["outline-site/search.js", "sub/deep.html"])
    }

    /// A rerun trusts an input's recorded status (size, times) instead of reading it, but
    /// never its modification time alone: a file rewritten with the same size and its old
    /// time set back is converted again, because its change time moved.
    @Test func anInputRewrittenWithItsOldTimeIsConvertedAgain() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let page = dir.appending(path: "docs/page.md")
        let old = Date(timeIntervalSince1970: 1_000_000)
        try Support.write("# Alpha\n", to: page)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: page.path)
        // The status of a file changed less than a second before a run is not recorded.
        Thread.sleep(forTimeInterval: 1.2)
        #expect(try Support.tool("docs", "-o", "site", cwd: dir).status == 0)
        #expect(try Support.tool("docs", "-o", "site", cwd: dir).stderr.contains("0 written, 1 unchanged"))
        try Support.write("# Gamma\n", to: page)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: page.path)
        Thread.sleep(forTimeInterval: 1.2)
        #expect(try Support.tool("docs", "-o", "site", cwd: dir).stderr.contains("1 written, 0 unchanged"))
        #expect(try Support.read(dir.appending(path: "site/page.html")).contains("Gamma"))
    }

    @Test func anOutputEditedByHandIsRewrittenAndCheckNoticesIt() throws {
        let dir = try makeTree()
        defer { Support.remove(dir) }
        Support.remove(dir.appending(path: "docs/sub/bad.xml"))
        #expect(try Support.tool("docs", "-o", "site", cwd: dir).status == 0)
        // The record is kept in the user's cache folder, never in the output.
        #expect(Support.listing(dir.appending(path: "site")).allSatisfy { !$0.hasPrefix(".") })
        let output = dir.appending(path: "site/guide.html")
        let original = try Support.read(output)
        try Support.write(original.replacingOccurrences(of: "MacBook", with: "MacBooK"), to: output)  // same size
        let check = try Support.tool("docs", "-o", "site", "--check", cwd: dir)
        #expect(check.status == 1 && check.stderr.contains("site/guide.html: error: stale"))
        #expect(try Support.tool("docs", "-o", "site", cwd: dir).stderr.contains("1 written, 3 unchanged"))
        #expect(try Support.read(output) == original)
        // Other options make other bytes: the record of the last run does not apply.
        #expect(try Support.tool("docs", "-o", "site", "--collapse-all", cwd: dir).stderr.contains("4 written, 0 unchanged"))
    }

    @Test func checkListsMissingAndStaleOutputsAndWritesNothing() throws {
        let dir = try makeTree()
        defer { Support.remove(dir) }
        Support.remove(dir.appending(path: "docs/sub/bad.xml"))
        let missing = try Support.tool("docs", "-o", "site", "--check", cwd: dir)
        #expect(missing.status == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.appending(path: "site").path))
        #expect(missing.stderr.contains("site/guide.html: error: missing: regenerate it from docs/guide.md"))
        #expect(missing.stderr.contains("site/outline-site/nav.js: error: missing: regenerate it from the site's pages"))
        // (The pages, the site's shared files and its 404 page.)
        #expect(missing.stderr.contains("site/404.html: error: missing"))
        #expect(missing.stderr.hasSuffix("outline-render: 4 files checked: 0 up to date, 0 stale, 10 missing, 0 failed, 4 skipped\n"))

        #expect(try Support.tool("docs", "-o", "site", cwd: dir).status == 0)
        let fresh = try Support.tool("docs", "-o", "site", "--check", cwd: dir)
        #expect(fresh.status == 0)
        #expect(fresh.stderr.hasSuffix("\noutline-render: 4 files checked: 4 up to date, 0 stale, 0 missing, 0 failed, 4 skipped\n"))

        try Support.write("# Edited\n", to: dir.appending(path: "docs/guide.md"))
        let before = try modificationDates(dir.appending(path: "site"))
        let stale = try Support.tool("docs", "-o", "site", "--check", "--collapse-depth", "1", cwd: dir)
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("site/guide.html: error: stale: regenerate it from docs/guide.md"))
        #expect(try modificationDates(dir.appending(path: "site")) == before)
    }

    @Test func bytesDoNotDependOnTheNumberOfJobs() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let names = ["products.md", "people.md", "plist/products.plist", "xml/products.xml"]
        for index in 0..<60 {
            let name = names[index % names.count]
            let ext = (name as NSString).pathExtension
            try Support.write(
                try Support.read(Support.examples.appending(path: name)), to: dir.appending(path: "in/f\(index / 10)/doc\(index).\(ext)"))
        }
        try Support.write("<outline><x/></outline>", to: dir.appending(path: "in/f3/broken.xml"))
        try Support.write("# warn {#d}\n# again {#d}\n", to: dir.appending(path: "in/f1/warn.md"))
        let one = try Support.tool("in", "-o", "one", "-j", "1", "--index", cwd: dir)
        let two = try Support.tool("in", "-o", "two", "-j", "2", "--index", cwd: dir)
        let many = try Support.tool("in", "-o", "many", "--jobs=8", "--index", cwd: dir)
        #expect(one.status == 1 && two.status == 1 && many.status == 1)
        #expect(Support.outputs(dir.appending(path: "one")) == Support.outputs(dir.appending(path: "two")))
        for file in Support.outputs(dir.appending(path: "one")) {
            let a = try Data(contentsOf: dir.appending(path: "one/\(file)"))
            #expect(a == (try Data(contentsOf: dir.appending(path: "two/\(file)"))), "\(file)")
            #expect(a == (try Data(contentsOf: dir.appending(path: "many/\(file)"))), "\(file)")
        }
        // Messages come out whole and in the same order whatever the scheduling.
        #expect(one.stderr == two.stderr.replacingOccurrences(of: "two/", with: "one/"))
        #expect(one.stderr == many.stderr.replacingOccurrences(of: "many/", with: "one/"))
        #expect(one.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("in/") || $0.hasPrefix("outline-render: ") })
    }

    @Test func theOutputFolderInsideTheInputFolderIsNeverReadBack() throws {
        let dir = try makeTree()
        defer { Support.remove(dir) }
        #expect(try Support.tool("docs", "-o", "docs/site", cwd: dir).status == 1)
        let second = try Support.tool("docs", "-o", "docs/site", "-v", cwd: dir)
        #expect(second.stderr.contains("docs/site: skipped: the output folder"))
        #expect(Support.outputs(dir.appending(path: "docs/site")) == Self.expectedOutputs)
    }

    @Test func severalFilesAndConflicts() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let examples = Support.examples.path
        let ok = try Support.tool("\(examples)/people.md", "\(examples)/xml/products.xml", "-o", "out", "-t", "json", cwd: dir)
        #expect(ok.status == 0)
        #expect(Support.outputs(dir.appending(path: "out")) == ["people.json", "products.json"])
        let clash = try Support.tool("\(examples)/products.md", "\(examples)/xml/products.xml", "-o", "out2", cwd: dir)
        #expect(clash.status == 2)
        #expect(clash.stderr == "Error: \(examples)/products.md and \(examples)/xml/products.xml would both write out2/products.html\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appending(path: "out2").path))
        let noOutput = try Support.tool(examples, cwd: dir)
        #expect(noOutput.status == 2 && noOutput.stderr.hasPrefix("Error: Converting a folder or several inputs needs '-o <folder>'"))
    }

    @Test func anExplicitNonOutlineFileIsTried() throws {
        let dir = try makeTree()
        defer { Support.remove(dir) }
        let result = try Support.tool("docs/pom.xml", "docs/guide.md", "-o", "site", cwd: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("docs/pom.xml:3:1: error: the root element is <project>, not <outline>\n"))
    }

    @Test func githubAnnotations() throws {
        let dir = try makeTree()
        defer { Support.remove(dir) }
        try Support.write("# A {#x}\n# B {#x}\n", to: dir.appending(path: "docs/dup, 100%.md"))
        let result = try Support.tool("docs", "-o", "site", "--error-format", "github", cwd: dir)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "::error file=docs/sub/bad.xml,line=2,col=3::unknown element <bogus> in <outline>; expected <section>, <item> or a first <detail>"))
        #expect(lines.contains("::warning file=docs/dup%2C 100%25.md,line=2::duplicate id 'x'; this one is renamed"))
        let check = try Support.tool("docs", "-o", "fresh", "--check", "--error-format=github", cwd: dir)
        #expect(check.stderr.contains("::error file=fresh/guide.html::missing: regenerate it from docs/guide.md"))
    }

    @Test func theDocsIndexListsEveryPageByTitle() throws {
        let dir = try makeTree()
        defer { Support.remove(dir) }
        #expect(try Support.tool("docs", "-o", "site", "--index", cwd: dir).status == 1)
        let index = try Support.read(dir.appending(path: "site/index.html"))
        #expect(index.contains("<title>Index</title>"))
        #expect(index.contains("@import url(\"outline-site/outline.css\");"))  // the pages' own template and style
        let links = index.components(separatedBy: "<li><a href=\"").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(
            links == [
                "b.html\">Apple Products", "c.html\">Apple Products", "guide.html\">Apple Products",
                "sub/deep.html\">Deep page",
            ])
        // A tree that makes its own index.html keeps it.
        try Support.write("# My own index\n", to: dir.appending(path: "docs/index.md"))
        #expect(try Support.tool("docs", "-o", "site", "--index", cwd: dir).status == 1)
        #expect(try Support.read(dir.appending(path: "site/index.html")).contains("<title>My own index</title>"))
    }

    @Test func progressOnlyOnATerminal() throws {
        let dir = try makeTree()
        defer { Support.remove(dir) }
        // `script` runs the tool with a pseudo-terminal as its stderr.
        let terminal = try Support.run("/usr/bin/script", ["-qec", "'\(Support.tool)' docs -o site", "/dev/null"], cwd: dir)
        #expect(terminal.stdout.contains("\r\u{1B}[2K[1/5] docs/b.plist"))
        #expect(terminal.stdout.contains("[5/5] docs/sub/deep.md"))
        // What remains on screen: each message line starts clean (the progress line was
        // erased first), and the summary is last.
        let screen = terminal.stdout.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map {
            ($0.components(separatedBy: "\u{1B}[2K").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(screen.allSatisfy { !$0.hasPrefix("[") }, "\(screen)")
        #expect(screen.contains("docs/sub/bad.xml:2:3: error: unknown element <bogus> in <outline>; expected <section>, <item> or a first <detail>"))
        #expect(screen.last?.hasPrefix("outline-render: 5 files: 4 written") == true)
        let quiet = try Support.run("/usr/bin/script", ["-qec", "'\(Support.tool)' docs -o site2 -q", "/dev/null"], cwd: dir)
        #expect(!quiet.stdout.contains("["))
        #expect(quiet.stdout.hasPrefix("docs/sub/bad.xml:2:3: error:"))
        let piped = try Support.tool("docs", "-o", "site3", cwd: dir)
        #expect(!piped.stderr.contains("\u{1B}"))
    }

    /// A page may not be written where a docs site keeps its own files (docs/sites.md).
    @Test func aPageInTheSitesOwnFolderIsAConflict() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# Nav\n", to: dir.appending(path: "docs/outline-site/nav.md"))
        try Support.write("# A\n", to: dir.appending(path: "docs/a.md"))
        let site = try Support.tool("docs", "-o", "site", cwd: dir)
        #expect(site.status == 2)
        #expect(site.stderr.contains("docs/outline-site/nav.md would write site/outline-site/nav.html, in the folder of the site's own"))
        #expect(!FileManager.default.fileExists(atPath: dir.appending(path: "site").path))
        // Outside a site (JSON), the folder is an ordinary one.
        #expect(try Support.tool("docs", "-o", "json", "-t", "json", cwd: dir).status == 0)
    }

    @Test func aSymlinkLoopTerminates() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# A\n", to: dir.appending(path: "t/a/x.md"))
        try FileManager.default.createSymbolicLink(atPath: dir.appending(path: "t/a/up").path, withDestinationPath: "../..")
        try FileManager.default.createSymbolicLink(atPath: dir.appending(path: "t/a/self").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: dir.appending(path: "t/b").path, withDestinationPath: "a")
        let result = try Support.tool("t", "-o", "out", cwd: dir)
        #expect(result.status == 0)
        #expect(Support.outputs(dir.appending(path: "out")) == ["a/x.html"])
    }

    @Test(.slow) func interruptingLeavesNoTemporaryFiles() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let big = String(repeating: "# Section\n\nSome *text* with [a link](https://example.org).\n\n", count: 4000)
        for index in 0..<300 { try Support.write(big, to: dir.appending(path: "in/d\(index % 10)/f\(index).md")) }
        let process = try Support.startTool(["in", "-o", "out", "-j", "2"], cwd: dir)
        // Wait until some outputs exist, so that the interrupt lands mid-batch.
        Support.waitForFiles(in: dir.appending(path: "out"), count: 20)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let files = Support.listing(dir.appending(path: "out"))  // hidden files too: temporaries are hidden
        #expect(files.count < 300)
        #expect(files.allSatisfy { $0.hasSuffix(".html") && !$0.contains(".tmp-") })
        #expect(Support.listing(dir.appending(path: "in")).count == 300)
    }
}
