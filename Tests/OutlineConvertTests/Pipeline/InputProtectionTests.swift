import Foundation
import Testing

@testable import OutlineConvert

/// docs/safety.md: An input is never overwritten or deleted, whatever names, links or races the run meets.
@Suite struct InputProtectionTests {

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
        // (Refused twice over: the link leads out of the output folder, onto an input.)
        #expect(result.stderr.contains("in/sub/x.md would write out/sub/x.txt, which a symbolic link in the output folder leads to "))
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
}
