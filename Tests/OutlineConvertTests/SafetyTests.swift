import Foundation
import Testing

@testable import OutlineConvert

/// SPEC §6's promise against hostile inputs and users: an input is never overwritten, one bad
/// file never stops the others, only regular files are read, no temporary file survives,
/// every message is one located line.
@Suite struct SafetyTests {
    // MARK: - Inputs are sacred

    @Test func anInputIsNeverTheOutputWhateverItsName() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# Notes\nimportant\n", to: dir.appending(path: "notes.md"))
        try FileManager.default.createSymbolicLink(atPath: dir.appending(path: "link.md").path, withDestinationPath: "notes.md")
        try FileManager.default.linkItem(atPath: dir.appending(path: "notes.md").path, toPath: dir.appending(path: "hard.md").path)
        try FileManager.default.createDirectory(at: dir.appending(path: "sub"), withIntermediateDirectories: true)
        for output in ["notes.md", "./notes.md", "sub/../notes.md", "link.md", "hard.md"] {
            let result = try Support.tool("notes.md", "-o", output, cwd: dir)
            #expect(result.status == 2, "\(output)")
            #expect(result.stderr.hasPrefix("Error: The output '\(output)' is the input 'notes.md'; it would be overwritten"), "\(output)")
        }
        #expect(try Support.read(dir.appending(path: "notes.md")) == "# Notes\nimportant\n")
        #expect(Support.listing(dir) == ["hard.md", "link.md", "notes.md"])
    }

    @Test func aBatchNeverWritesOverAnInputThroughALinkedFolder() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# N\n", to: dir.appending(path: "notes.html"))
        try Support.write("# Y\n", to: dir.appending(path: "y.md"))
        try FileManager.default.createSymbolicLink(atPath: dir.appending(path: "self").path, withDestinationPath: ".")
        let result = try Support.tool("notes.html", "y.md", "-o", "self", cwd: dir)
        #expect(result.status == 2)
        #expect(result.stderr == "Error: self/notes.html is an input (or another name for one); it would be overwritten\n")
        #expect(try Support.read(dir.appending(path: "notes.html")) == "# N\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appending(path: "y.html").path))
    }

    @Test func aLinkedSubfolderOfTheOutputPointingIntoTheInputIsCaught() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# X\n", to: dir.appending(path: "in/sub/x.md"))
        try Support.write("keep me\n", to: dir.appending(path: "in/sub/x.txt"))
        try FileManager.default.createDirectory(at: dir.appending(path: "out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appending(path: "out/sub").path, withDestinationPath: "../in/sub")
        let result = try Support.tool("in", "in/sub/x.txt", "-o", "out", "-t", "text", cwd: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("out/sub/x.txt is an input (or another name for one); it would be overwritten"))
        #expect(try Support.read(dir.appending(path: "in/sub/x.txt")) == "keep me\n")
    }

    @Test func anInputReplacedOrDeletedAfterPlanningFailsAloneAndNeverHangs() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        for name in ["a", "b", "c"] { try Support.write("# \(name)\n", to: dir.appending(path: "in/\(name).md")) }
        let input = dir.appending(path: "in").path, output = dir.appending(path: "out").path
        let plan = try BatchPlan(inputs: [input], outputDirectory: output, format: .html)
        try FileManager.default.removeItem(atPath: "\(input)/a.md")
        try FileManager.default.removeItem(atPath: "\(input)/b.md")
        #expect(mkfifo("\(input)/b.md", 0o644) == 0)
        let runner = BatchRunner(
            converter: Converter(options: ConversionOptions()), workers: 2, check: false, temporaries: TemporaryFiles(),
            protected: plan.inputIdentities)
        let results = plan.jobs.map(runner.convert)
        #expect(
            results.map(\.outcome) == [
                .failed(.io(path: "\(input)/a.md", "cannot read: no such file")),
                .failed(.io(path: "\(input)/b.md", "is a FIFO (named pipe); only regular files are read")),
                .written,
            ])
        #expect(Support.listing(dir.appending(path: "out")) == ["c.html"])
    }

    // MARK: - Only regular files, and no more than the limit

    /// Folders of thousands of entries fill `readdir`'s buffer to its end; a name must be read
    /// up to its NUL, not as the entry's whole 256-byte array (AddressSanitizer, which runs
    /// this suite, stopped the tool on it: a read past the buffer).
    @Test func foldersOfThousandsOfEntriesAreReadWithinTheirBuffer() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        for folder in ["in", "many"] {
            let url = dir.appending(path: folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for index in 0..<2_000 {
                FileManager.default.createFile(atPath: url.appending(path: "f\(index).dat").path, contents: nil)
            }
        }
        try Support.write("# A\n", to: dir.appending(path: "in/a.md"))
        let batch = try Support.tool("in", "-o", "out", cwd: dir)
        #expect(batch.status == 0 && Support.outputs(dir.appending(path: "out")) == ["a.html"], "\(batch.stderr)")
        // One file: stale temporary files are looked for in the output's folder.
        let one = try Support.tool("in/a.md", "-o", "many/a.html", cwd: dir)
        #expect(one.status == 0 && FileManager.default.fileExists(atPath: dir.appending(path: "many/a.html").path), "\(one.stderr)")
    }

    @Test func devicesAndFIFOsInAFolderAreSkippedAndNamedOnesRefused() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# ok\n", to: dir.appending(path: "d/ok.md"))
        try FileManager.default.createSymbolicLink(atPath: dir.appending(path: "d/zero.md").path, withDestinationPath: "/dev/zero")
        #expect(mkfifo(dir.appending(path: "d/pipe.md").path, 0o644) == 0)
        let batch = try Support.tool("d", "-o", "out", "-v", cwd: dir)
        #expect(batch.status == 0)
        #expect(batch.stderr.contains("d/pipe.md: skipped: a FIFO (named pipe), not a regular file"))
        #expect(batch.stderr.contains("d/zero.md: skipped: a character device, not a regular file"))
        #expect(batch.stderr.hasSuffix("outline-render: 1 file: 1 written, 0 unchanged, 0 failed, 2 skipped\n"))
        let pipe = try Support.tool("d/pipe.md", cwd: dir)
        #expect(pipe.status == 1 && pipe.stderr == "d/pipe.md: error: is a FIFO (named pipe); only regular files are read\n")
        let zero = try Support.tool("d/zero.md", cwd: dir)
        #expect(zero.status == 1 && zero.stderr == "d/zero.md: error: is a character device; only regular files are read\n")
    }

    @Test func theSizeLimitIsCheckedBeforeReading() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let sparse = dir.appending(path: "sparse.md").path
        #expect(truncate(sparse, 1 << 30) == 0 || (creat(sparse, 0o644) >= 0 && truncate(sparse, 1 << 30) == 0))
        let result = try Support.run("/usr/bin/env", ["time", "-f", "%M", Support.tool, "sparse.md"], cwd: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("sparse.md: error: is 1073741824 bytes, more than the limit of 268435456 (--max-input-size)\n"))
        #expect((Int(result.stderr.split(separator: "\n").last ?? "") ?? .max) < 100_000)  // KB: nothing was read
        try Support.write(String(repeating: "# x\n", count: 600), to: dir.appending(path: "big.md"))
        let small = try Support.tool("big.md", "--max-input-size", "2K", cwd: dir)
        #expect(small.status == 1 && small.stderr == "big.md: error: is 2400 bytes, more than the limit of 2048 (--max-input-size)\n")
        let stdin = try Support.tool("--max-input-size=1k", input: String(repeating: "# x\n", count: 600))
        #expect(stdin.status == 1 && stdin.stderr == "<stdin>: error: is more than the limit of 1024 bytes (--max-input-size)\n")
        #expect(try Support.tool("big.md", "--max-input-size", "2G", cwd: dir).status == 2)
    }

    @Test func aBinaryFileIsRefusedAfterItsFirstBytes() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let sparse = dir.appending(path: "sparse.md").path
        #expect(creat(sparse, 0o644) >= 0 && truncate(sparse, 200 << 20) == 0)
        let result = try Support.run("/usr/bin/env", ["time", "-f", "%M", Support.tool, "sparse.md"], cwd: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("sparse.md:1:1: error: the file contains a NUL byte; it is not text\n"))
        #expect((Int(result.stderr.split(separator: "\n").last ?? "") ?? .max) < 100_000)  // KB: 200 MB were not read
    }

    // MARK: - What cannot be read fails the run

    @Test func anUnreadableFolderOrFileFailsTheRunAndCheck() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# ok\n", to: dir.appending(path: "docs/ok.md"))
        try Support.write("# secret\n", to: dir.appending(path: "docs/locked/s.md"))
        try Support.write("# private\n", to: dir.appending(path: "docs/private.md"))
        try FileManager.default.createDirectory(at: dir.appending(path: "out"), withIntermediateDirectories: true)
        chmod(dir.path, 0o755)
        chmod(dir.appending(path: "docs/locked").path, 0o000)
        chmod(dir.appending(path: "docs/private.md").path, 0o000)
        chmod(dir.appending(path: "out").path, 0o777)
        let run = try Support.toolAsUnprivilegedUser(["docs", "-o", "out"], cwd: dir)
        #expect(run.status == 1)
        #expect(run.stderr.contains("docs/locked: error: cannot read the folder: Permission denied"))
        #expect(run.stderr.contains("docs/private.md: error: cannot read: Permission denied"))
        #expect(run.stderr.hasSuffix("outline-render: 3 files: 1 written, 0 unchanged, 2 failed\n"))
        let check = try Support.toolAsUnprivilegedUser(["docs", "-o", "out", "--check"], cwd: dir)
        #expect(check.status == 1)
        #expect(check.stderr.contains("docs/locked: error: cannot read the folder: Permission denied"))
    }

    @Test func aReadOnlyOutputFolderFailsEachFileAndLeavesNothing() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# a\n", to: dir.appending(path: "in/a.md"))
        try Support.write("# b\n", to: dir.appending(path: "in/b.md"))
        try FileManager.default.createDirectory(at: dir.appending(path: "out"), withIntermediateDirectories: true)
        chmod(dir.path, 0o755)
        chmod(dir.appending(path: "out").path, 0o555)
        let run = try Support.toolAsUnprivilegedUser(["in", "-o", "out"], cwd: dir)
        #expect(run.status == 1)
        #expect(run.stderr.contains("out/a.html: error: cannot write: Permission denied"))
        #expect(run.stderr.hasSuffix("outline-render: 2 files: 0 written, 0 unchanged, 2 failed\n"))
        #expect(Support.listing(dir.appending(path: "out")).isEmpty)
    }

    @Test func aNameThatIsNotUTF8IsAnErrorNotASkip() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("# ok\n", to: dir.appending(path: "bad/ok.md"))
        let name = dir.path + "/bad/caf\u{FFFD}.md"
        let raw = Array(dir.path.utf8) + Array("/bad/caf".utf8) + [0xE9] + Array(".md".utf8) + [0]
        let descriptor = raw.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
        #expect(descriptor >= 0)
        _ = write(descriptor, "# x\n", 4)
        close(descriptor)
        _ = name
        let batch = try Support.tool("bad", "-o", "out", cwd: dir)
        #expect(batch.status == 1)
        #expect(
            batch.stderr == """
                bad/caf\\xE9.md: error: the name is not valid UTF-8; rename the file (names appear in messages, links and the index)
                outline-render: 2 files: 1 written, 0 unchanged, 1 failed

                """)
        let check = try Support.tool("bad", "-o", "out", "--check", cwd: dir)
        #expect(check.status == 1)
        // Named directly: the shell passes the raw bytes.
        let direct = try Support.run("/bin/sh", ["-c", "'\(Support.tool)' \"$(printf 'bad/caf\\351.md')\""], cwd: dir)
        #expect(direct.status == 1)
        #expect(direct.stderr == "bad/caf\\xE9.md: error: the name is not valid UTF-8; rename the file\n")
    }

    // MARK: - Interrupts

    @Test(arguments: [[SIGINT, 130], [SIGTERM, 143], [SIGHUP, 129]] as [[Int32]])
    func aSignalRemovesEveryTemporaryFileAndExitsAsDocumented(pair: [Int32]) throws {
        let (signal, status) = (pair[0], pair[1])
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let page = String(repeating: "# Section\n\nSome *text* with [a link](https://example.org).\n\n", count: 2000)
        for index in 0..<200 { try Support.write(page, to: dir.appending(path: "in/d\(index % 10)/f\(index).md")) }
        let process = try Support.startTool(["in", "-o", "out", "-j", "2"], cwd: dir)
        Support.waitForFiles(in: dir.appending(path: "out"), count: 10)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        let files = Support.listing(dir.appending(path: "out"))
        #expect(files.count < 200)
        #expect(files.allSatisfy { $0.hasSuffix(".html") && !$0.contains(TemporaryFiles.suffix) })
    }

    /// A one-file run watches for interrupts only once it has a temporary file: caught
    /// while writing it, a signal removes it and exits 130; caught before, while reading,
    /// the signal ends the run as it ends any command (there is nothing to remove). This
    /// test runner's children inherit these signals blocked: the tool unblocks them.
    @Test(arguments: [true, false])
    func aSignalDuringAOneFileRunLeavesNothingBehind(whileWriting: Bool) throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let input =
            whileWriting
            ? String(repeating: "# Section\n\nSome *text* with [a link](https://example.org) and `code`.\n\n- a\n- b\n\n", count: 200_000)
            : "# Long\n\n" + String(repeating: "Plain words, line after line, in one long paragraph.\n", count: 800_000)
        try Support.write(input, to: dir.appending(path: "in.md"))
        let process = try Support.startTool(["in.md", "-o", "out.html"], cwd: dir)
        let temporary = { Support.listing(dir).contains { $0.hasSuffix(TemporaryFiles.suffix) } }
        if whileWriting {
            let deadline = Date().addingTimeInterval(60)
            while !temporary() && process.isRunning && Date() < deadline { usleep(1_000) }
            #expect(temporary(), "the run ended before its temporary file was seen")
        } else {
            usleep(200_000)  // reading 30 MB takes seconds in a test build
            #expect(!temporary())
        }
        kill(process.processIdentifier, whileWriting ? SIGINT : SIGTERM)
        process.waitUntilExit()
        if whileWriting {
            #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        } else {
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        }
        #expect(Support.listing(dir) == ["in.md"])
    }

    @Test func aRunAfterAKillRemovesStaleTemporariesAndEndsAsACleanRun() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let page = String(repeating: "# Section\n\nSome *text*.\n\n", count: 3000)
        for index in 0..<200 { try Support.write(page + "# File \(index)\n", to: dir.appending(path: "in/d\(index % 10)/f\(index).md")) }
        #expect(try Support.tool("in", "-o", "clean", cwd: dir).status == 0)
        let process = try Support.startTool(["in", "-o", "out", "-j", "2"], cwd: dir)
        Support.waitForFiles(in: dir.appending(path: "out"), count: 20)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // What a killed run may leave: a temporary file of a process that is gone.
        let stale = dir.appending(path: "out/d0/.f0.html.999999-abc" + TemporaryFiles.suffix)
        try Support.write("partial", to: stale)
        // Someone else's hidden file is not ours to remove.
        try Support.write("mine", to: dir.appending(path: "out/d0/.notes.tmp-abcdef"))
        let rerun = try Support.tool("in", "-o", "out", cwd: dir)
        #expect(rerun.status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: dir.appending(path: "out/d0/.notes.tmp-abcdef").path))
        for file in Support.outputs(dir.appending(path: "clean")) {
            #expect(try Data(contentsOf: dir.appending(path: "out/\(file)")) == Data(contentsOf: dir.appending(path: "clean/\(file)")), "\(file)")
        }
        #expect(Support.outputs(dir.appending(path: "out")).filter { !$0.hasPrefix("d0/.notes") } == Support.outputs(dir.appending(path: "clean")))
    }

    @Test func aFullDiskFailsEachFileAndLeavesNoTemporaryFile() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let small = dir.appending(path: "small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        // A 64 KiB tmpfs where this machine lets us mount one (root, in CI); /dev/full otherwise.
        let mounted = try Support.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", small.path]).status == 0
        defer { if mounted { _ = try? Support.run("/bin/umount", [small.path]) } }
        guard mounted else {
            let full = try Support.tool(Support.examples.appending(path: "products.md").path, "-o", "/dev/full")
            #expect(full.status == 1 && full.stderr.contains("No space left on device"))
            return
        }
        let page = String(repeating: "# Section\n\nSome text that takes room.\n\n", count: 1000)
        for index in 0..<4 { try Support.write(page, to: dir.appending(path: "in/f\(index).md")) }
        let result = try Support.tool("in", "-o", "small/out", cwd: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: cannot write: No space left on device"))
        #expect(Support.listing(small).allSatisfy { !$0.contains(TemporaryFiles.suffix) })
        #expect(Support.listing(dir.appending(path: "in")).count == 4)
        // One file is streamed to its temporary file: the disk fills midway, and the output
        // that was there is kept.
        try FileManager.default.removeItem(at: small.appending(path: "out"))
        let big = String(repeating: page, count: 3)
        try Support.write(big, to: dir.appending(path: "big.md"))
        try Support.write("old\n", to: small.appending(path: "big.html"))
        let one = try Support.tool("big.md", "-o", "small/big.html", cwd: dir)
        #expect(one.status == 1 && one.stderr.contains("error: cannot write: No space left on device"), "\(one.stderr)")
        #expect(try Support.read(small.appending(path: "big.html")) == "old\n")
        #expect(Support.listing(small) == ["big.html"])
    }

    @Test func tenThousandFilesInterruptedAtRandomThenRerunEqualACleanRun() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        for index in 0..<10_000 {
            try Support.write("# File \(index)\n\nText *\(index)*.\n\n## Part\n\nMore.\n", to: dir.appending(path: "in/d\(index % 50)/f\(index).md"))
        }
        #expect(try Support.tool("in", "-o", "clean", cwd: dir).status == 0)
        var generator = SeededGenerator(seed: 7)
        let signals: [(Int32, Int32)] = [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129), (SIGKILL, -1)]
        for round in 0..<4 {
            let (signal, status) = signals[round]
            let process = try Support.startTool(["in", "-o", "out", "-j", "2"], cwd: dir)
            usleep(UInt32.random(in: 100_000...1_500_000, using: &generator))
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            if process.terminationReason == .exit {
                // It may have finished before the signal; otherwise the status is documented.
                #expect(process.terminationStatus == status || process.terminationStatus == 0, "round \(round)")
                #expect(Support.listing(dir.appending(path: "out")).allSatisfy { !$0.contains(TemporaryFiles.suffix) }, "round \(round)")
            }
        }
        #expect(try Support.tool("in", "-o", "out", cwd: dir).status == 0)
        let clean = Support.outputs(dir.appending(path: "clean"))
        #expect(Support.outputs(dir.appending(path: "out")) == clean)
        for file in clean {
            #expect(try Data(contentsOf: dir.appending(path: "out/\(file)")) == Data(contentsOf: dir.appending(path: "clean/\(file)")), "\(file)")
        }
    }

    // MARK: - Generated links and messages

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

    @Test func aMessageIsAlwaysOneShortLine() throws {
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

    // MARK: - Markdown that would take cmark down

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

/// A small deterministic random number generator (SplitMix64), so failures repeat.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
