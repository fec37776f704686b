#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Output under construction, as UTF-8 bytes: large outputs are appended to in place,
/// never copied through intermediate strings. (Appended to plainly: a buffer grown by hand
/// was faster optimized but slow to the point of timeouts in the sanitizer builds.) With a
/// sink, every full chunk goes to it at once, so that the output is never held whole.
struct ByteBuffer {
    /// The bytes written and not yet handed to the sink.
    private var storage: [UInt8] = []
    private let sink: OutputSink?
    /// `storage` is handed to the sink when it holds this many bytes (never without one).
    private let flushSize: Int

    init(capacity: Int = 0, sink: OutputSink? = nil) {
        self.sink = sink
        flushSize = sink == nil ? Int.max : OutputSink.chunkSize
        storage.reserveCapacity(sink == nil ? capacity : OutputSink.chunkSize + 4096)
    }

    /// Whether nothing has been written.
    var isEmpty: Bool { storage.isEmpty && (sink?.count ?? 0) == 0 }

    /// The bytes written; with a sink, they have all gone to it and none are returned.
    consuming func finish() -> [UInt8] {
        guard let sink else { return storage }
        sink.write(storage)
        return []
    }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    mutating func write(_ bytes: [UInt8]) {
        storage.append(contentsOf: bytes)
        flushIfFull()
    }

    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write(UnsafeRawBufferPointer($0)) }
    }

    mutating func write(_ raw: UnsafeRawBufferPointer) {
        // As typed bytes: `append` then copies them in one go, not one by one as a sequence.
        storage.append(contentsOf: raw.assumingMemoryBound(to: UInt8.self))
        flushIfFull()
    }

    /// Writes `text` with `&`, `<`, `>`, `"` and `'` escaped, safe in HTML text and attributes.
    mutating func write(escaping text: String) {
        var text = text
        text.withUTF8 { write(escaping: $0) }
    }

    /// Writes UTF-8 `bytes` escaped as `write(escaping:)` does text.
    mutating func write(escaping bytes: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for (index, byte) in bytes.enumerated() {
            if byte > UInt8(ascii: ">") { continue }  // letters and most of UTF-8: the common case
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

    mutating func append(_ byte: UInt8) {
        storage.append(byte)
        flushIfFull()
    }

    private mutating func flushIfFull() {
        guard storage.count >= flushSize, let sink else { return }
        sink.write(storage)
        storage.removeAll(keepingCapacity: true)
    }
}

/// Where an output goes as it is written, a chunk at a time: standard output or a file
/// being written (`Converter.convertBeforeExit(_:file:streamingTo:)`). A failed write is
/// kept (the first one) and the rest is dropped, so that writers need not handle errors;
/// the caller checks `error` once the output is complete.
package final class OutputSink {
    /// The size of the chunks handed to the file: large enough that writes are few, small
    /// enough that an output of hundreds of megabytes is never held whole.
    static let chunkSize = 1 << 20

    private let descriptor: Int32
    private let name: String
    /// The bytes written so far.
    package private(set) var count = 0
    /// The first write that failed, naming the output; nil while all went well.
    package private(set) var error: ConversionError?

    /// A sink writing to `descriptor` (left open); `name` names it in an error.
    package init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    func write(_ bytes: [UInt8]) {
        guard error == nil else { return }
        do {
            try Files.writeAll(bytes, to: descriptor, path: name)
            count += bytes.count
        } catch let failure as ConversionError {
            error = failure
        } catch {
            self.error = .io(path: name, "cannot write")
        }
    }
}
