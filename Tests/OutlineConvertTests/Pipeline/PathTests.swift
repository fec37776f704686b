import Foundation
import Testing

@testable import OutlineConvert

/// Paths made absolute and taken apart, by bytes: the fast paths must agree with the long way.
@Suite struct PathTests {
    @Test func absolutePathsLoseEmptyDotAndDotDotParts() {
        #expect(BatchPlan.absolute("a/b.md", in: "/work") == "/work/a/b.md")
        #expect(BatchPlan.absolute("a/./b/../c.md", in: "/work") == "/work/a/c.md")
        #expect(BatchPlan.absolute("../x.md", in: "/work/docs") == "/work/x.md")
        #expect(BatchPlan.absolute("/a//b/", in: "/ignored") == "/a/b")
        #expect(BatchPlan.absolute(".hidden/x.md", in: "/r") == "/r/.hidden/x.md")
        #expect(BatchPlan.absolute("..", in: "/") == "/")
        #expect(BatchPlan.absolute("a", in: "/") == "/a")
        #expect(BatchPlan.absolute("a.", in: "/r/") == "/r/a.")
        #expect(BatchPlan.absolute("/", in: "/r") == "/")
    }

    @Test func fileExtensionsAreThoseOfTheLastComponent() {
        #expect(Path.fileExtension("docs/guide.md") == "md")
        #expect(Path.fileExtension("a.d/file") == "")
        #expect(Path.fileExtension("a/b.plist/") == "plist")
        #expect(Path.fileExtension(".bashrc") == "")
        #expect(Path.fileExtension("x/.md") == "")
        #expect(Path.fileExtension("archive.tar.gz") == "gz")
        #expect(Path.fileExtension("/") == "")
        #expect(Path.fileExtension("") == "")
    }

    /// Foundation is not linked into the tool any more: its percent decoding is the oracle here.
    @Test func percentDecodingAgreesWithFoundation() {
        for text in ["a%20b", "caf%C3%A9", "%e2%82%AC", "%zz", "%2", "100%", "%FF", "%C3", "plain", "%41%", "%%41", "a+b%2Fc"] {
            #expect(SiteLinks.decoded(text) == (text.removingPercentEncoding ?? text), "\(text)")
        }
    }

    @Test func foldersAreMadeWithTheirParentsAndAFileInTheWayIsALocatedError() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "folders-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Files.makeFolder(root + "/a/b/c")
        try Files.makeFolder(root + "/a/b/c")  // already there
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: root + "/a/b/c", isDirectory: &isFolder) && isFolder.boolValue)
        _ = FileManager.default.createFile(atPath: root + "/file", contents: Data("x".utf8))
        #expect(throws: ConversionError.io(path: root + "/file", "cannot create the folder: File exists")) {
            try Files.makeFolder(root + "/file")
        }
        #expect(throws: ConversionError.io(path: root + "/file/sub", "cannot create the folder: Not a directory")) {
            try Files.makeFolder(root + "/file/sub")
        }
    }
}
