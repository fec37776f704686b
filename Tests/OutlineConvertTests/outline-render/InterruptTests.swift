import Foundation
import Testing

@testable import OutlineConvert

/// docs/safety.md: A signal or a full disk leaves no temporary file, and a rerun ends as a clean run.
@Suite(.slow) struct InterruptTests {

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
            // No deadline: under ThreadSanitizer, beside the suite's other runs on two cores,
            // reading the input alone took over a minute. The run ends by itself if it never
            // writes, and then the expectation fails.
            while !temporary() && process.isRunning { usleep(1_000) }
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
}
