import Foundation
import Testing

@testable import OutlineConvert

/// docs/safety.md: Only regular files are read, and no more than the size limit; folders of any size are walked.
@Suite struct InputKindTests {

    /// Folders of thousands of entries fill `readdir`'s buffer to its end; a name must be read
    /// up to its NUL, not as the entry's whole 256-byte array (AddressSanitizer, which runs
    /// this suite, stopped the tool on it: a read past the buffer).
    @Test(.slow) func foldersOfThousandsOfEntriesAreReadWithinTheirBuffer() throws {
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
        // (A link out of the folder is not followed at all: docs/safety.md.)
        #expect(batch.stderr.contains("d/zero.md: warning: a symbolic link to /dev/zero, outside d; not followed"))
        #expect(batch.stderr.hasSuffix("outline-render: 1 file: 1 written, 0 unchanged, 0 failed, 1 skipped\n"))
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
}
