import Foundation
import Testing

@testable import OutlineConvert

/// `FileStatusLookup` answers what `stat` answers, through the folders it holds open.
@Suite struct FileStatusLookupTests {
    @Test func itSaysWhatStatSaysAcrossFoldersLinksAndMissingFiles() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try Support.write("a", to: dir.appending(path: "in/a.md"))
        try Support.write("bb", to: dir.appending(path: "out/a.html"))
        try Support.write("ccc", to: dir.appending(path: "third/c.md"))
        try FileManager.default.createSymbolicLink(atPath: dir.appending(path: "in/link.md").path, withDestinationPath: "../third/c.md")
        let paths = [
            "in/a.md", "out/a.html", "in/a.md", "third/c.md", "in/link.md", "out/a.html", "in/missing.md", "gone/x.md", "in", "in/a.md",
        ].map { dir.appending(path: $0).path }

        let lookup = FileStatusLookup()
        for path in paths {
            var expected = stat()
            let found = lookup.status(of: path)
            guard stat(path, &expected) == 0 else {
                #expect(found == nil, "\(path) does not exist")
                continue
            }
            let info = try #require(found, "\(path)")
            #expect(FileIdentity(info) == FileIdentity(expected))
            #expect(info.st_size == expected.st_size && info.st_mode == expected.st_mode)
        }
    }
}
