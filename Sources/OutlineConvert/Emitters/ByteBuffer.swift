/// Output under construction, as UTF-8 bytes: large outputs are appended to in place,
/// never copied through intermediate strings, and each write is one copy of its bytes.
struct ByteBuffer {
    /// The bytes written, then zeros: room for the next writes.
    private var storage: [UInt8] = []
    /// How many bytes of `storage` are written.
    private var count = 0

    init(capacity: Int = 0) { storage.reserveCapacity(capacity) }

    /// Whether nothing has been written.
    var isEmpty: Bool { count == 0 }

    /// The bytes written.
    consuming func finish() -> [UInt8] {
        var bytes = storage
        bytes.removeSubrange(count...)
        return bytes
    }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write(UnsafeRawBufferPointer($0)) }
    }

    mutating func write(_ raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, !raw.isEmpty else { return }
        makeRoom(raw.count)
        let at = count
        storage.withUnsafeMutableBytes { target in
            guard let base = target.baseAddress else { return }
            (base + at).copyMemory(from: source, byteCount: raw.count)
        }
        count += raw.count
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

    mutating func append(_ byte: UInt8) {
        makeRoom(1)
        storage[count] = byte
        count += 1
    }

    /// Makes sure `extra` more bytes fit after those written, zeroing room 64 KiB at a time
    /// (the array grows its capacity geometrically).
    private mutating func makeRoom(_ extra: Int) {
        let free = storage.count - count
        if free < extra { storage.append(contentsOf: repeatElement(0, count: max(extra - free, 1 << 16))) }
    }
}
