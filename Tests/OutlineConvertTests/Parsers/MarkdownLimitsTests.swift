import Testing

@testable import OutlineConvert

/// The limits' fast walk (memchr from line to line, bytes walked only in long paragraphs)
/// must find exactly what the walk over every byte finds.
@Suite struct MarkdownLimitsTests {
    /// A small deterministic generator (SplitMix64), so that a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static let pieces = [
        "word ", "![", "](", "![[]()", "> ", ">", "- ", "* ", "1. ", "  ", "\t", "\n", "\n\n", "[", "*", "_", "<b>", "`", "&",
        "\\", "é", "#", "x",
    ]

    /// Pieces that nest nothing: documents past the element budget without nesting first.
    static let flatPieces = ["word ", "![", "](", "![[]()", "\n", "\n\n", "[", "*", "_", "`", "&", "é"]

    static func document(seed: UInt64, length: Int, from pieces: [String] = pieces) -> [UInt8] {
        var generator = Generator(state: seed)
        var text = ""
        while text.utf8.count < length {
            // Runs of one piece make deep nesting and long paragraphs likely.
            let piece = pieces[generator.next(pieces.count)]
            text += String(repeating: piece, count: generator.next(4) == 0 ? 1 + generator.next(400) : 1)
        }
        return Array(text.utf8)
    }

    static func agree(_ bytes: [UInt8], maxInputSize: Int) -> Bool {
        let limits = MarkdownLimits(maxInputSize: maxInputSize)
        let fast = limits.firstViolation(bytes)
        let exact = limits.firstViolation(bytes, exact: true)
        return fast?.0 == exact?.0 && fast?.1 == exact?.1
    }

    @Test func fastWalkAgreesWithTheExactWalkOnGeneratedDocuments() {
        var violations = Set<String>()
        // Small documents, and a few past the smallest element budget (65,536).
        let sizes = (0..<300).map { (500 + $0 * 40, Self.pieces) } + (0..<8).map { (100_000 + $0 * 5_000, Self.flatPieces) }
        for (seed, (size, pieces)) in sizes.enumerated() {
            let bytes = Self.document(seed: UInt64(seed), length: size, from: pieces)
            let same = Self.agree(bytes, maxInputSize: 1 << 20)  // (not inside #expect: it would print the bytes)
            #expect(same, "seed \(seed)")
            if let (_, reason) = MarkdownLimits(maxInputSize: 1 << 20).firstViolation(bytes) {
                violations.insert(String(reason.prefix(20)))
            }
        }
        // Nesting and element violations were met, so each was compared (images and links:
        // the next test).
        #expect(violations.count == 2, "\(violations)")
    }

    @Test func fastWalkAgreesOnParagraphsAroundTheImageLinkLimit() {
        // 7,072 × 7,072 pairs pass 50,000,000; 7,071 × 7,071 do not. Spread over lines, after
        // other paragraphs, and with a nesting violation after the limit is passed.
        for count in [7_071, 7_072] {
            for perLine in [1, 50, 8_000] {
                var text = "# T\n\nintro\n\n"
                for index in 0..<count {
                    text += "![[]()"
                    if index % perLine == perLine - 1 { text += "\n" }
                }
                text += "\n" + String(repeating: ">", count: 300) + "\n"
                let bytes = Array(text.utf8)
                let same = Self.agree(bytes, maxInputSize: 256 << 20)
                #expect(same, "\(count) per \(perLine)")
                let found = MarkdownLimits().firstViolation(bytes)
                #expect(found?.1.hasPrefix(count == 7_072 ? "this paragraph opens" : "block quotes") == true, "\(count)")
            }
        }
    }
}
