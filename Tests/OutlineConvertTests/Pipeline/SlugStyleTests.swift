import Testing

@testable import OutlineConvert

/// docs/sites.md, "An mkdocs project's headings": the slug styles on random text of every
/// kind of character (the Python functions themselves are the oracle of
/// Tests/oracle/test_mkdocs_slugify.py; here, what holds whatever the text).
@Suite struct SlugStyleTests {
    private static let styles: [SlugStyle] = [
        SlugStyle(function: .ascii, separator: "_"), SlugStyle(function: .unicode),
        SlugStyle(function: .pymdownx(.init(letterCase: .lower))), SlugStyle(function: .pymdownx(.init(letterCase: .none))),
        SlugStyle(function: .pymdownx(.init(letterCase: .lowerASCII, decomposed: true))),
        SlugStyle(function: .pymdownx(.init(letterCase: .fold, percentEncode: true))),
    ]

    /// Random text: ASCII, Latin with marks, Greek, CJK, Devanagari, white space of several
    /// kinds, controls, tags.
    private static func text(_ random: inout SeededGenerator) -> String {
        let pieces: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0xC0...0x24F, 0x300...0x36F, 0x391...0x3C9, 0x4E00...0x4E80, 0x900...0x97F, 0x2000...0x200B, 0x1...0x1F,
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...24, using: &random) {
            let range = pieces[Int.random(in: 0..<pieces.count, using: &random)]
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) { scalars.append(scalar) }
            if Int.random(in: 0..<10, using: &random) == 0 { scalars += "<b>".unicodeScalars }
        }
        return String(scalars)
    }

    @Test func aSlugHoldsNoWhiteSpaceNorTagAndAnEncodedOneIsASCII() {
        var random = SeededGenerator(seed: 37)
        for _ in 0..<3_000 {
            let title = Self.text(&random)
            for style in Self.styles {
                let slug = style.slug(title)
                #expect(!slug.unicodeScalars.contains(where: SlugStyle.isSpace), "\(style) \(title.debugDescription)")
                if case .pymdownx(let options) = style.function {
                    #expect(!slug.contains("<"))
                    if options.percentEncode { #expect(slug.utf8.allSatisfy { $0 < 0x80 }) }
                }
            }
        }
    }

    @Test func pythonsLowerMakesASigmaThatEndsAWordFinal() {
        #expect(SlugStyle.lowercased("ΟΔΟΣ ΣΑΣ Σ".unicodeScalars) == "οδος σας σ")
        #expect(SlugStyle(function: .unicode).slug("  Ünï   Σίσυφος ") == "ünï-σίσυφος")
    }
}
