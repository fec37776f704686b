import Glibc

/// Turns an input's bytes into text, or says exactly where they stop being text.
enum SourceText {
    /// Validated UTF-8 text as bytes: no byte-order mark, LF line endings. NUL bytes and
    /// invalid UTF-8 are errors located by line and column (columns count characters, from 1).
    static func validated(_ bytes: consuming [UInt8], file: String) throws -> [UInt8] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let nul = bytes[...].firstIndex(ofByte: 0) {
            throw ConversionError.malformed(
                location(of: nul, in: bytes[...], file: file), "the file contains a NUL byte; it is not text")
        }
        if let invalid = firstInvalidUTF8(in: bytes) {
            throw ConversionError.malformed(location(of: invalid, in: bytes[...], file: file), "the file is not valid UTF-8")
        }
        return normalizingLineEndings(bytes)
    }

    /// The same bytes with CRLF and lone CR line endings turned into LF.
    static func normalizingLineEndings(_ bytes: consuming [UInt8]) -> [UInt8] {
        guard bytes[...].firstIndex(ofByte: 13) != nil else { return bytes }
        var normalized: [UInt8] = []
        normalized.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 13 {
                normalized.append(10)
            } else if !(byte == 10 && previous == 13) {
                normalized.append(byte)
            }
            previous = byte
        }
        return normalized
    }

    /// The same text with CRLF and lone CR line endings turned into LF.
    static func normalizingLineEndings(_ text: String) -> String {
        guard text.utf8.contains(13) else { return text }
        return String(decoding: normalizingLineEndings(Array(text.utf8)), as: UTF8.self)
    }

    /// Line and column of the byte at `index`. LF, CRLF and a lone CR each end a line.
    static func location(of index: Int, in bytes: ArraySlice<UInt8>, file: String) -> SourceLocation {
        var line = 1
        var lineStart = bytes.startIndex
        var i = bytes.startIndex
        while i < index {
            let byte = bytes[i]
            i += 1
            guard byte == 10 || byte == 13 else { continue }
            if byte == 13, i < index, bytes[i] == 10 { i += 1 }
            line += 1
            lineStart = i
        }
        // Count characters, not bytes: continuation bytes do not start one.
        let column = 1 + bytes[lineStart..<index].characterCount
        return SourceLocation(file: file, line: line, column: column)
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence
    /// (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF), or nil. Runs of
    /// ASCII are skipped eight bytes at a time; nothing is allocated.
    static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            let count = buffer.count
            let raw = UnsafeRawBufferPointer(buffer)
            var i = 0
            while i < count {
                if i + 8 <= count {
                    let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0 {
                        i += 8
                        continue
                    }
                }
                let lead = buffer[i]
                if lead < 0x80 {
                    i += 1
                    continue
                }
                let length: Int
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; high = 0x9F
                case 0xF0: length = 4; low = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; high = 0x8F
                default: return i
                }
                guard i + length <= count else { return i }
                guard (low...high).contains(buffer[i + 1]) else { return i }
                for k in 2..<length where buffer[i + k] & 0xC0 != 0x80 { return i }
                i += length
            }
            return nil
        }
    }
}

extension ArraySlice<UInt8> {
    /// The index of the first `byte`, found with memchr (a generic search costs several
    /// instructions a byte, and inputs are searched whole).
    func firstIndex(ofByte byte: UInt8) -> Int? {
        withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, Int32(byte), buffer.count) else { return nil }
            return startIndex + base.distance(to: UnsafeRawPointer(found))
        }
    }
}

extension Collection where Element == UInt8 {
    /// The number of characters (Unicode scalars) in UTF-8 bytes: continuation bytes do not start one.
    var characterCount: Int {
        reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
    }
}

/// Lines and columns of offsets asked for in increasing order, counted on from the last
/// one (going back starts over): a whole file's positions in one pass, however long its
/// lines are.
struct LineCounter {
    private var counted = 0
    private var line = 1
    private var lineStart = 0
    private var last = (offset: 0, column: 1)

    /// The 1-based line and column (in characters) of `offset` in `bytes`.
    mutating func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let offset = min(offset, bytes.count)
        if offset < counted { self = LineCounter() }
        if counted < offset {
            bytes.withUnsafeBufferPointer { bytes in
                // A plain count vectorizes; only the last line break's place is looked for.
                var newlines = 0
                for index in counted..<offset { newlines &+= bytes[index] == 10 ? 1 : 0 }
                if newlines > 0 {
                    line += newlines
                    var index = offset - 1
                    while bytes[index] != 10 { index -= 1 }
                    lineStart = index + 1
                }
            }
            counted = offset
        }
        let from: (offset: Int, column: Int) = last.offset >= lineStart && last.offset <= offset ? last : (lineStart, 1)
        last = (offset, from.column + bytes[from.offset..<offset].characterCount)
        return (line, last.column)
    }
}
