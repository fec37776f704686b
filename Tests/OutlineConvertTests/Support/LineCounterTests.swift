import Foundation
import Testing

@testable import OutlineConvert

/// The one rule for lines and columns: LF, CRLF and a lone CR each end a line; columns
/// count characters.
@Suite struct LineCounterTests {
    @Test func everyKindOfLineEndCountsOnce() {
        let bytes = Array("a\nb\r\nc\rdé\rx".utf8)
        var counter = LineCounter()
        let positions = bytes.indices.map { counter.position(of: $0, in: bytes) }
        #expect(positions.map(\.line) == [1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 4, 5])
        // "é" is two bytes and one character: the CR after it is in column 3.
        #expect(positions[10] == (4, 3))
        // Asked out of order, and one offset alone, the answers are the same.
        for offset in bytes.indices.reversed() {
            var fresh = LineCounter()
            #expect(fresh.position(of: offset, in: bytes) == positions[offset])
            #expect(SourceText.location(of: offset, in: bytes[...], file: "f").line == positions[offset].line)
        }
    }

    @Test func jsonNodesAndErrorsAgreeOnLinesInAFileWithCarriageReturns() throws {
        let json = "{\"version\": 1,\r\"sections\": [\r{\"title\": \"A\"},\r{\"title\": \"B\", \"collapsed\": \"x\"}]}"
        #expect(throws: ConversionError.self) { try JSONOutlineParser().parse(Array(json.utf8), file: "t.json") }
        do {
            _ = try JSONOutlineParser().parse(Array(json.utf8), file: "t.json")
        } catch let error as ConversionError {
            #expect(error.location.line == 4)
        }
        let good = "{\"version\": 1,\r\"sections\": [\r{\"title\": \"A\"},\r{\"title\": \"B\"}]}"
        #expect(try JSONOutlineParser().parse(Array(good.utf8), file: "t.json").outline.nodes.map(\.line) == [3, 4])
    }
}
