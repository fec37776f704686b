import Foundation
import Testing

@testable import OutlineConvert

/// docs/safety.md: What cannot be read or written fails that file, and the run, and leaves nothing behind.
@Suite struct UnreadableInputTests {

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
}
