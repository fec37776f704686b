/// Turns an input's bytes into text, or says exactly where they stop being text.
enum SourceText {
    /// Validated UTF-8 without a byte-order mark. NUL bytes and invalid UTF-8 are errors
    /// located by line and column (columns count characters, from 1).
    static func decode(_ bytes: [UInt8], file: String) throws -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if let nul = body.firstIndex(of: 0) {
            throw ConversionError.malformed(
                location(of: nul, in: body, file: file), "the file contains a NUL byte; it is not text")
        }
        if let text = String(validating: body, as: UTF8.self) { return text }
        throw ConversionError.malformed(
            location(of: firstInvalidByte(in: body), in: body, file: file),
            "the file is not valid UTF-8")
    }

    /// The same text with CRLF and lone CR line endings turned into LF.
    static func normalizingLineEndings(_ text: String) -> String {
        guard text.utf8.contains(13) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// Line and column of the byte at `index`.
    static func location(of index: Int, in bytes: ArraySlice<UInt8>, file: String) -> SourceLocation {
        var line = 1
        var lineStart = bytes.startIndex
        for i in bytes.startIndex..<index where bytes[i] == 10 {
            line += 1
            lineStart = i + 1
        }
        // Count characters, not bytes: continuation bytes do not start one.
        let column = bytes[lineStart..<index].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return SourceLocation(file: file, line: line, column: column)
    }

    private static func firstInvalidByte(in bytes: ArraySlice<UInt8>) -> Int {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = bytes.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return offset
            case .error: return offset
            }
        }
    }
}
