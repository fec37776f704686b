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
}
