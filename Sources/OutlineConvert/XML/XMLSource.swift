#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An XML document as libxml2 reads it, a chunk at a time, with CR and CRLF line endings
/// made LF (libxml2 counts lines at LF only; XML reads them as LF anyway, XML 1.0 §2.11;
/// not in UTF-16 or UTF-32, whose bytes include NULs). From memory, or from a file: then
/// only the bytes that element positions still need are held (`window`), and the whole
/// document is read again only for a message that quotes or places text (`whole()`).
final class XMLSource {
    /// The document's bytes from `windowStart` to as far as libxml2 has read.
    private(set) var window: [UInt8]
    /// The offset in the document of `window`'s first byte.
    private(set) var windowStart = 0
    /// How many bytes libxml2 has been given.
    private var handedOver = 0
    private let file: InputFile?
    /// The bytes of a file read again whole, once asked for.
    private var reread: [UInt8]?
    /// How many bytes have been read from the file (before line endings are made LF).
    private var fileBytesRead = 0
    /// A CR ended the last chunk read from the file: an LF starting the next is its CRLF's.
    private var afterCR = false
    /// Why reading the file failed (libxml2 reports only that it stopped).
    private(set) var failure: ConversionError?

    /// The document in `bytes`.
    init(_ bytes: [UInt8]) {
        window = bytes[...].firstIndex(ofByte: 0) != nil ? bytes : SourceText.normalizingLineEndings(bytes)
        file = nil
    }

    /// The document in `file`, read a chunk at a time as libxml2 asks (the file is UTF-8
    /// or ASCII: its first bytes hold no NUL).
    init(file: InputFile) {
        window = []
        self.file = file
    }

    /// Whether a file whose first bytes are `head` can be read a chunk at a time: it has no
    /// NUL there, so it is not UTF-16 or UTF-32 (whose line endings are left as they are).
    static func streams(_ head: ArraySlice<UInt8>) -> Bool { head.firstIndex(ofByte: 0) == nil }

    /// How many bytes of the document have been read.
    var count: Int { windowStart + window.count }

    /// Fills `buffer` with the next bytes of the document; 0 at its end, -1 on failure.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count capacity: Int) -> Int {
        guard let file else {
            let count = min(capacity, window.count - handedOver)
            guard count > 0 else { return 0 }
            window.withUnsafeBufferPointer { bytes in
                if let base = bytes.baseAddress { buffer.update(from: base + handedOver, count: count) }
            }
            handedOver += count
            return count
        }
        while true {
            let read = Glibc.read(file.descriptor, buffer, capacity)
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else {
                failure = .io(path: file.path, "cannot read: \(String(cString: strerror(errno)))")
                return -1
            }
            fileBytesRead += read
            guard fileBytesRead <= file.limit else {
                failure = .io(path: file.path, "is more than the limit of \(file.limit) bytes (--max-input-size)")
                return -1
            }
            // CRLF and lone CR to LF, in place (most files have none: nothing to do).
            if !afterCR, UnsafeBufferPointer(start: buffer, count: read).firstIndex(ofByte: .carriageReturn) == nil {
                window.append(contentsOf: UnsafeBufferPointer(start: buffer, count: read))
                return read
            }
            var kept = 0
            var previous: UInt8 = afterCR ? 13 : 0
            for index in 0..<read {
                let byte = buffer[index]
                defer { previous = byte }
                if byte == .lineFeed && previous == .carriageReturn { continue }
                buffer[kept] = byte == .carriageReturn ? 10 : byte
                kept += 1
            }
            afterCR = previous == .carriageReturn
            window.append(contentsOf: UnsafeBufferPointer(start: buffer, count: kept))
            // (0 would be the end: a chunk that was only the LF of a CRLF is not.)
            if kept > 0 || read == 0 { return kept }
        }
    }

    /// Element positions need nothing before `offset` any more: let it go (in large steps,
    /// as each moves the rest of the window).
    func release(before offset: Int) {
        guard file != nil else { return }
        let dead = offset - windowStart
        guard dead > 262_144, dead > window.count / 2 else { return }
        window.removeSubrange(0..<dead)
        windowStart = offset
    }

    /// The whole document, for what needs more than the window (messages, and positions in
    /// an encoding other than UTF-8): read again from the file, once.
    func whole() -> [UInt8] {
        guard let file else { return window }
        if let reread { return reread }
        // (As much as has been read or the file then held, whichever is more; read without
        // moving the file's offset, as libxml2 goes on reading it.)
        let size = min(max(file.size, fileBytesRead), file.limit)
        let bytes = SourceText.normalizingLineEndings((try? Files.head(of: file, count: size)) ?? [])
        reread = bytes
        return bytes
    }

    /// 1-based line and column (in characters) of the byte at `offset`.
    func position(_ offset: Int) -> (line: Int, column: Int) {
        let bytes = whole()
        let location = SourceText.location(of: min(offset, bytes.count), in: bytes[...], file: "")
        return (location.line, location.column)
    }

    /// The line and byte column (1-based, as libxml2 counts) in characters instead.
    func column(line: Int, byteColumn: Int) -> Int {
        let bytes = whole()
        var start = 0
        var current = 1
        while current < line, let newline = bytes[start...].firstIndex(of: 10) {
            start = newline + 1
            current += 1
        }
        let end = min(start + max(byteColumn - 1, 0), bytes.count)
        return 1 + bytes[start..<end].characterCount
    }

    /// The offset of the first character of text directly inside the element whose start
    /// tag is at `offset` (not inside a child, a comment or a tag), if there is one.
    func firstText(inElementAt offset: Int) -> Int? {
        var scanner = XMLMarkupScanner(bytes: whole(), offset: offset)
        guard scanner.skipMarkup() == .startTag else { return nil }  // the element's own tag
        var depth = 0
        while let byte = scanner.peek() {
            if byte == UInt8(ascii: "<") {
                switch scanner.skipMarkup() {
                case .startTag: depth += 1
                case .endTag: if depth == 0 { return nil } else { depth -= 1 }
                case .emptyTag, .other: break
                case .cdata(let start): if depth == 0 { return start }
                }
            } else if depth == 0 && byte != .space && byte != .tab && byte != .lineFeed && byte != .carriageReturn {
                return scanner.offset
            } else {
                scanner.offset += 1
            }
        }
        return nil
    }
}

/// An input file opened for reading: a regular file within the size limit (see
/// `Converter.withInput`).
package struct InputFile: Sendable {
    /// Its name, as given.
    package let path: String
    let descriptor: Int32
    /// Its size when opened.
    let size: Int
    /// The most bytes it may hold (`--max-input-size`).
    let limit: Int
}
