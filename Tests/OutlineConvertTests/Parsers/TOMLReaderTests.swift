import Foundation
import Testing

@testable import OutlineConvert

/// TOML against Python's `tomllib`: for each document of Tests/fixtures/toml/cases.txt
/// (mdBook's own book.toml files, then cases of every form and of what TOML forbids),
/// Tests/golden/toml/values.txt holds what tomllib reads, leaf by leaf, as
/// `scripts/make-toml-goldens` writes it (`error` where it refuses the document,
/// `refused` where it holds a date, which `TOMLReader` refuses, `beyond 64 bits` for an
/// integer TOML says a reader refuses and tomllib reads).
@Suite struct TOMLReaderTests {
    private static func read(_ path: String) throws -> String {
        try String(contentsOf: Support.root.appending(path: path), encoding: .utf8)
    }

    /// The leaves of `value` as the golden file writes them, sorted.
    private static func leaves(_ value: TOMLValue, path: String = "", into out: inout [String]) {
        func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }
        switch value {
        case .table(let entries):
            if entries.isEmpty { out.append("\(path)\ttable0") }
            for entry in entries { leaves(entry.value, path: path + "/" + hex(entry.key), into: &out) }
        case .array(let items):
            if items.isEmpty { out.append("\(path)\tarray0") }
            for (number, item) in items.enumerated() { leaves(item, path: path + "/#\(number)", into: &out) }
        case .boolean(let value): out.append("\(path)\tbool\t\(value)")
        case .integer(let value): out.append("\(path)\tinteger\t\(value)")
        case .float(let value): out.append("\(path)\tfloat\t\(value.isNaN ? "nan" : String(value.bitPattern))")
        case .string(let value): out.append("\(path)\tstring\t\(hex(value))")
        }
    }

    @Test func everyDocumentReadsAsTomllibReadsIt() throws {
        let cases = try Self.read("Tests/fixtures/toml/cases.txt").components(separatedBy: "\n====\n")
        let golden = try Self.read("Tests/golden/toml/values.txt").components(separatedBy: "case ").dropFirst()
        #expect(cases.count == golden.count && cases.count > 100)
        for (number, (text, expected)) in zip(cases, golden).enumerated() {
            var lines = expected.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init)
            if lines.last == "" { lines.removeLast() }
            let value: TOMLValue
            do {
                value = try TOMLReader.read(Array(text.utf8), file: "case.toml")
            } catch let error as ConversionError {
                let expected =
                    lines == ["error"] || (lines == ["refused"] && error.reason.contains("dates and times"))
                    || (lines == ["beyond 64 bits"] && error.reason.contains("beyond 64 bits"))
                #expect(expected, "case \(number): \(text)\n\(error)")
                #expect(error.location.line >= 1 && error.location.column >= 1, "case \(number)")
                continue
            }
            var out: [String] = []
            Self.leaves(value, into: &out)
            #expect((out.isEmpty ? ["empty"] : out.sorted()) == lines, "case \(number): \(text)")
        }
    }

    @Test func deepNestingIsRefusedNotARunOutOfStack() {
        #expect(throws: ConversionError.self) { try TOMLReader.read(Array(("a = " + String(repeating: "[", count: 100_000)).utf8), file: "x.toml") }
        #expect(throws: ConversionError.self) {
            try TOMLReader.read(Array(("a = " + String(repeating: "{b = ", count: 100_000)).utf8), file: "x.toml")
        }
    }

    @Test func anErrorNamesItsLineAndColumn() {
        #expect(throws: ConversionError.malformed(SourceLocation(file: "book.toml", line: 3, column: 9), "a string has an unknown escape")) {
            try TOMLReader.read(Array("[book]\ntitle = \"x\"\nsrc = \"a\\q\"\n".utf8), file: "book.toml")
        }
    }
}

/// The readers of includes and TOML on random text of their own notation (a fixed seed):
/// each reads it or refuses it, never traps (an index out of range, a run out of stack).
@Suite struct NotationRandomTextTests {
    private static func texts(_ pieces: [String], count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in (0..<Int.random(in: 1...24, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined() }
    }

    @Test func tomlIsReadOrRefused() {
        let pieces = [
            "[", "]", "[[", "]]", "=", "\"", "'", "\"\"\"", "'''", "\\", "\\u", "a", "b.c", " ", "\n", "\r\n", "#", ",", "{", "}", "1", "0x", "_",
            "e", ".", "-", "+", "inf", "true", "1979-05-27", ":",
        ]
        var read = 0
        for text in Self.texts(pieces, count: 3000, seed: 37) where (try? TOMLReader.read(Array(text.utf8), file: "r.toml")) != nil { read += 1 }
        #expect(read > 0)
    }

    @Test func snippetLinesAreReadOrLeft() {
        let pieces = ["--8<--", "-8<-", " ", "\t", ";", "\"", "'", "a.md", ":", "1", "-2", ",", "[start:x]", "[end:x]", "\\\"", "\r", "sec", "8<"]
        var markers = 0
        for text in Self.texts(pieces, count: 3000, seed: 38) {
            let line = Array(text.utf8)
            if SnippetSyntax.marker(in: line) != nil { markers += 1 }
            _ = SnippetSyntax.sectionMarker(in: line)
            _ = SnippetSyntax.Target(text)
            _ = SnippetSyntax.select([(start: -2, end: nil), (start: 1, end: 3)], count: line.count)
        }
        #expect(markers > 0)
    }

    @Test func mdBookLinksAreReadOrLeft() {
        let pieces = ["{{", "}}", "#include", "#title", "#rustdoc_include", "#playground", " ", "\n", "\\", "a.rs", ":", "2", "x", "}"]
        var links = 0
        for text in Self.texts(pieces, count: 3000, seed: 39) {
            links += MdBookLinks.all(in: Array(text.utf8)).count
            _ = MdBookLinks.selection(text)
        }
        #expect(links > 0)
    }
}
