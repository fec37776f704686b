/// Byte classes of ASCII, for readers and writers that work on UTF-8 bytes.
extension UInt8 {
    /// `A`–`Z` or `a`–`z`.
    var isASCIILetter: Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20) }
    /// `0`–`9`.
    var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
}
