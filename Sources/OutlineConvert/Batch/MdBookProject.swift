/// An mdBook project (docs/sites.md): the folder holding `book.toml`, given as the folder
/// or as its pages' folder (`src`). Its `SUMMARY.md` lays out the site's navigation, its
/// pages' includes are pulled in (`MdBookIncludes`) and its Rust blocks read as mdBook
/// reads them.
struct MdBookProject: Sendable {
    /// The `book.toml` read.
    let file: String
    /// The folder of the pages: `[book] src`, by default `src` beside `book.toml`.
    let sourceFolder: String

    /// The folder holding `file`: nothing outside it is read for the book.
    var folder: String { Path.parent(file) }
    /// The `SUMMARY.md` of the book.
    var summary: String { Path.join(sourceFolder, "SUMMARY.md") }

    /// The project of the tree at `root`: a `book.toml` in it or in the folder above.
    static func load(forTreeAt root: String) -> MdBookProject? {
        for folder in [root, Path.join(root, "..")] {
            let file = folder == "." ? "book.toml" : Path.join(folder, "book.toml")
            guard Files.isRegularFile(file) else { continue }
            return MdBookProject(file: file, sourceFolder: Path.join(folder, "src"))
        }
        return nil
    }

    /// Whether `inputs` are this book's pages' folder alone.
    func sourceFolderIs(_ inputs: [String]) -> Bool {
        inputs.count == 1 && Path.same(BatchPlan.absolute(inputs[0]), BatchPlan.absolute(sourceFolder))
    }
}
