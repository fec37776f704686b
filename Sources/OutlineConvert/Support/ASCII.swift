/// Byte classes of ASCII, for readers and writers that work on UTF-8 bytes.
extension UInt8 {
    /// `A`–`Z` or `a`–`z`.
    var isASCIILetter: Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20) }
    /// `0`–`9`.
    var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    /// `0`–`9`, `A`–`F` or `a`–`f`.
    var isASCIIHexDigit: Bool { isASCIIDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self | 0x20) }
    /// HTML's white space: tab, line feed, form feed, carriage return, space.
    var isHTMLSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
}

extension UInt8 {
    /// CommonMark's ASCII punctuation (``!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~``): each may be
    /// backslash-escaped in Markdown and in pandoc's attributes.
    var isASCIIPunctuation: Bool {
        (0x21...0x2F).contains(self) || (0x3A...0x40).contains(self) || (0x5B...0x60).contains(self) || (0x7B...0x7E).contains(self)
    }
}

extension UInt8 {
    /// `\t`.
    static let tab: UInt8 = 0x09
    /// `\n`.
    static let lineFeed: UInt8 = 0x0A
    /// `\r`.
    static let carriageReturn: UInt8 = 0x0D
    /// ` `.
    static let space: UInt8 = 0x20
    /// `"`.
    static let quote: UInt8 = 0x22
    /// `\`.
    static let backslash: UInt8 = 0x5C
}

extension Unicode.Scalar {
    /// Whether the scalar is a word character as Python's `\w` reads one (letters, digits
    /// of any script, `_`): what Python-Markdown's patterns take for a word boundary.
    var isWordCharacter: Bool { self == "_" || properties.isAlphabetic || properties.numericType != nil }
}
