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
        let target = String(path.prefix { $0 != "/" })
        let from: InputFormat =
            ["FuzzPlist": .plist, "FuzzXML": .xml, "FuzzOPML": .opml, "FuzzJSON": .json, "FuzzOutline": .outline][target] ?? .markdown
        for output in OutputFormat.all {
            var options = ConversionOptions()
            options.from = from
            options.to = output
            do {
                _ = try Converter(options: options).convert(bytes, file: path)
            } catch let error as ConversionError {
                // (Binary plists have no lines: their errors name the file and the byte.)
                #expect(error.location.line > 0 && error.location.column > 0 || bytes.starts(with: Array("bplist00".utf8)), "\(error)")
                #expect(!error.description.contains("\n"), "\(error)")
            }
        }
    }

    /// What the round-trip target found: each writer's output (written without a warning)
    /// reads back to the same outline, and Markdown written twice is the same.
    @Test(arguments: cases.filter { $0.hasPrefix("FuzzRoundTrip/") })
    func aKeptRoundTripFailureRoundTrips(path: String) throws {
        let bytes = Array(try Data(contentsOf: Self.folder.appending(path: path)))
        func convert(_ input: [UInt8], from: InputFormat, to: OutputFormat) throws -> Conversion {
            var options = ConversionOptions()
            options.from = from
            options.to = to
            return try Converter(options: options).convert(input, file: path)
        }
        let json: Conversion
        do {
            json = try convert(bytes, from: .markdown, to: .json)
        } catch let error as ConversionError {
            // Refused input: nothing to round-trip, but the refusal must be located.
            #expect(error.location.line > 0, "\(error)")
            return
        }
        for (writer, reader) in [(OutputFormat.json, InputFormat.json), (.xml, .xml), (.opml, .opml), (.plist, .plist), (.markdown, .markdown)] {
            let written = try convert(bytes, from: .markdown, to: writer)
            guard written.warnings.isEmpty else { continue }
            let back = try convert(written.bytes, from: reader, to: writer == .markdown ? .markdown : .json)
            #expect(back.bytes == (writer == .markdown ? written.bytes : json.bytes), "\(writer)")
        }
    }

    /// What the outliner target found: the outline writer's output (written without a
    /// warning) reads back to the same outline (`-` then `-`: an empty first item is
    /// written after an empty one, which the reader takes for the page's properties).
    @Test(arguments: cases.filter { $0.hasPrefix("FuzzOutline/") })
    func aKeptOutlineFailureRoundTrips(path: String) throws {
        let bytes = Array(try Data(contentsOf: Self.folder.appending(path: path)))
        func convert(_ input: [UInt8], to: OutputFormat) throws -> Conversion {
            var options = ConversionOptions()
            options.from = .outline
            options.to = to
            return try Converter(options: options).convert(input, file: path)
        }
        guard let json = try? convert(bytes, to: .json) else { return }
        let written = try convert(bytes, to: .outline)
        guard written.warnings.isEmpty else { return }
        #expect(try convert(written.bytes, to: .json).bytes == json.bytes)
    }
}
