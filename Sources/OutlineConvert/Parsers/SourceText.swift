#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
            if byte == .carriageReturn {
                normalized.append(.lineFeed)
            } else if !(byte == .lineFeed && previous == .carriageReturn) {
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

    /// Line and column of the byte at `index` (see `LineCounter`: LF, CRLF and a lone CR
    /// each end a line; columns count characters).
    static func location(of index: Int, in bytes: ArraySlice<UInt8>, file: String) -> SourceLocation {
        var counter = LineCounter()
        let (line, column) = bytes.withUnsafeBufferPointer { counter.position(of: index - bytes.startIndex, in: $0) }
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

extension Collection where Element == UInt8 {
    /// The number of characters (Unicode scalars) in UTF-8 bytes: continuation bytes do not start one.
    var characterCount: Int {
        reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
    }
}
