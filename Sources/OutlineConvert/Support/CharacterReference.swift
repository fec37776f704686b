/// XML and HTML character references (`&amp;`, `&#233;`, `&#xE9;`), as OPML `text` and
/// pandoc's attribute values hold them: the five XML names, `&nbsp;`, and numeric ones.
enum CharacterReference {
    private static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}"]

    /// `bytes` (UTF-8) with every reference in it decoded.
    static func decodeAll(_ bytes: ArraySlice<UInt8>) -> String {
        var result: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if let (length, value) = decode(bytes[index...]) {
                result += value.utf8
                index += length
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The length in bytes and the text of the reference `bytes` starts with, if it is one.
    static func decode(_ bytes: ArraySlice<UInt8>) -> (length: Int, text: String)? {
        guard bytes.first == UInt8(ascii: "&"), let semicolon = bytes.prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
        let name = String(decoding: bytes[(bytes.startIndex + 1)..<semicolon], as: UTF8.self)
        let length = semicolon - bytes.startIndex + 1
        if let text = named[name] { return (length, text) }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let number = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let number, number != 0, let scalar = Unicode.Scalar(number) else { return nil }
        return (length, String(Character(scalar)))
    }
}
