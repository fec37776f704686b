import Foundation
import Testing

@testable import OutlineConvert

/// Every input a fuzz target ever crashed on (`scripts/fuzz` keeps them in
/// Tests/fuzz-crashes/<target>/) converts or fails with a located one-line error.
@Suite struct FuzzRegressionTests {
    static let folder = Support.root.appending(path: "Tests/fuzz-crashes")

    /// (target, file) for every kept input.
    static var cases: [String] {
        let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        return files.filter { $0.contains("/") && !$0.hasSuffix("README.md") }.sorted()
    }

    @Test(arguments: cases)
    func aKeptCrashConvertsOrFailsWithALocatedError(path: String) throws {
        let bytes = Array(try Data(contentsOf: Self.folder.appending(path: path)))
        let from: InputFormat = path.hasPrefix("FuzzPlist/") ? .plist : path.hasPrefix("FuzzXML/") ? .xml : .markdown
        for output in OutputFormat.all {
            var options = ConversionOptions()
            options.from = from
            options.to = output
            do {
                _ = try Converter(options: options).convert(bytes, file: path)
            } catch let error as ConversionError {
                #expect(error.location.line > 0 && error.location.column > 0, "\(error)")
                #expect(!error.description.contains("\n"), "\(error)")
            }
        }
    }
}
