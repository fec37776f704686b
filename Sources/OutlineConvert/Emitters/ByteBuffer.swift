/// Output under construction, as UTF-8 bytes: large outputs are appended to in place,
/// never copied through intermediate strings.
struct ByteBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func write(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes `text` with `&`, `<`, `>`, `"` and `'` escaped, safe in HTML text and attributes.
    mutating func write(escaping text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): write("&amp;" as StaticString)
            case UInt8(ascii: "<"): write("&lt;" as StaticString)
            case UInt8(ascii: ">"): write("&gt;" as StaticString)
            case UInt8(ascii: "\""): write("&quot;" as StaticString)
            case UInt8(ascii: "'"): write("&#39;" as StaticString)
            default: bytes.append(byte)
            }
        }
    }

    mutating func write(_ raw: UnsafeRawBufferPointer) { bytes.append(contentsOf: raw) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }
}
