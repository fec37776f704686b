/// Output under construction, as UTF-8 bytes: large outputs are appended to in place,
/// never copied through intermediate strings. (Appended to plainly: a buffer grown by hand
/// was faster optimized but slow to the point of timeouts in the sanitizer builds.)
struct ByteBuffer {
    /// The bytes written.
    private var storage: [UInt8] = []

    init(capacity: Int = 0) { storage.reserveCapacity(capacity) }

    /// Whether nothing has been written.
    var isEmpty: Bool { storage.isEmpty }

    /// The bytes written.
    consuming func finish() -> [UInt8] { storage }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    mutating func write(_ bytes: [UInt8]) { storage.append(contentsOf: bytes) }

    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write(UnsafeRawBufferPointer($0)) }
    }

    mutating func write(_ raw: UnsafeRawBufferPointer) {
        // As typed bytes: `append` then copies them in one go, not one by one as a sequence.
        storage.append(contentsOf: raw.assumingMemoryBound(to: UInt8.self))
    }

    /// Writes `text` with `&`, `<`, `>`, `"` and `'` escaped, safe in HTML text and attributes.
    mutating func write(escaping text: String) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for (index, byte) in bytes.enumerated() {
                let escape: StaticString
                switch byte {
                case UInt8(ascii: "&"): escape = "&amp;"
                case UInt8(ascii: "<"): escape = "&lt;"
                case UInt8(ascii: ">"): escape = "&gt;"
                case UInt8(ascii: "\""): escape = "&quot;"
                case UInt8(ascii: "'"): escape = "&#39;"
                default: continue
                }
                write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart..<index]))
                write(escape)
                runStart = index + 1
            }
            write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart...]))
        }
    }

    mutating func append(_ byte: UInt8) { storage.append(byte) }
}
