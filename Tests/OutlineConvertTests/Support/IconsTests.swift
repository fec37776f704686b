import Testing

@testable import OutlineConvert

/// The bundled icon sets (`Templates/icons/`): the names, the chunks' base64 and zlib.
/// (Every icon's SVG is compared with mkdocs-material's own in Tests/oracle/test_icons.py.)
@Suite struct IconsTests {
    /// RFC 4648's test vectors (section 10), and what is not base64.
    @Test func base64IsDecodedAsRFC4648Says() {
        func decoded(_ text: String) -> String? {
            var text = text
            return text.withUTF8 { Icons.decodedBase64($0) }.map { String(decoding: $0, as: UTF8.self) }
        }
        let vectors = ["": "", "Zg==": "f", "Zm8=": "fo", "Zm9v": "foo", "Zm9vYg==": "foob", "Zm9vYmE=": "fooba", "Zm9vYmFy": "foobar"]
        for (encoded, text) in vectors { #expect(decoded(encoded) == text, "\(encoded)") }
        for bad in ["Zg=", "Z=g=", "Zg==Zg==", "Zm9v!", "Zm9\nv", "===="] { #expect(decoded(bad) == nil, "\(bad)") }
    }

    @Test func namesAreKnownWithoutInflatingAndEachChunkFindsItsIcons() {
        #expect(Icons.isIcon(Array("material-check".utf8)))
        #expect(Icons.isIcon(Array("fontawesome-brands-github".utf8)))
        #expect(!Icons.isIcon(Array("material-checkx".utf8)))
        #expect(!Icons.isIcon(Array("material-".utf8)))
        #expect(!Icons.isIcon(Array("rocket".utf8)))
        let chunks = IconStore()
        // The first and last names of all, and one either side of the first chunk's end.
        for name in ["fontawesome-brands-11ty", "simple-zyte", "material-check", "fontawesome-brands-adn", "fontawesome-brands-adversal"] {
            let svg = chunks.svg(named: Array(name.utf8))
            #expect(svg?.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"") == true, "\(name)")
            #expect(svg?.hasSuffix("</svg>") == true, "\(name)")
        }
        #expect(chunks.svg(named: Array("material-checkx".utf8)) == nil)
    }
}
