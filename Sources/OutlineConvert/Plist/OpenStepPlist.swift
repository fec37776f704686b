/// Reads the old ASCII (OpenStep) property-list form: `{ key = value; … }` dicts,
/// `( value, … )` arrays, quoted strings (with `\n`, `\"`, `\U00E9` and octal escapes) and
/// unquoted ones (letters, digits and `_$+/:.-`), `<hex>` data, and `//` and `/* */`
/// comments. Everything is a string; errors carry the line and column.
struct OpenStepPlist {
    private let bytes: [UInt8]
    private let file: String
    private let maxDepth: Int
    private var offset = 0
    private var depth = 0
    private var lines = LineCounter()

    static func parse(_ bytes: [UInt8], file: String, maxDepth: Int) throws -> PlistValue {
        var reader = OpenStepPlist(bytes: bytes, file: file, maxDepth: maxDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        let value = try reader.value()
        try reader.skipSpace()
        if reader.offset < bytes.count { throw reader.error("unexpected text after the top value") }
        return value
    }

    private init(bytes: [UInt8], file: String, maxDepth: Int) {
        self.bytes = bytes
        self.file = file
        self.maxDepth = maxDepth
    }

    private func error(_ reason: String, at position: Int? = nil) -> ConversionError {
        .malformed(SourceText.location(of: min(position ?? offset, bytes.count), in: bytes[...], file: file), reason)
    }

    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipSpace() throws {
        while let byte = peek() {
            if byte == .space || byte == .tab || byte == .lineFeed || byte == .carriageReturn {
                offset += 1
            } else if byte == UInt8(ascii: "/") && offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "/") {
                while let next = peek(), next != .lineFeed { offset += 1 }
            } else if byte == UInt8(ascii: "/") && offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "*") {
                let start = offset
                offset += 2
                while offset + 1 < bytes.count && !(bytes[offset] == UInt8(ascii: "*") && bytes[offset + 1] == UInt8(ascii: "/")) { offset += 1 }
                guard offset + 1 < bytes.count else { throw error("unterminated comment", at: start) }
                offset += 2
            } else {
                return
            }
        }
    }

    private mutating func position(_ start: Int) -> (line: Int, column: Int) {
        lines.position(of: start, in: bytes)
    }

    private mutating func value() throws -> PlistValue {
        try skipSpace()
        let start = offset
        guard let byte = peek() else { throw error("unexpected end of the file; a value was expected") }
        let place = position(start)
        let kind: PlistValue.Kind
        switch byte {
        case UInt8(ascii: "{"): kind = try dict()
        case UInt8(ascii: "("): kind = try array()
        case UInt8(ascii: "\""), UInt8(ascii: "'"): kind = .string(try quoted())
        case UInt8(ascii: "<"):
            guard let close = bytes[offset...].firstIndex(of: UInt8(ascii: ">")) else { throw error("unterminated data") }
            offset = close + 1
            kind = .other("data")
        default:
            guard let word = unquoted() else {
                throw error("unexpected '\(Quote.snippet(String(decoding: [byte], as: UTF8.self)))'; a value was expected")
            }
            kind = .string(word)
        }
        return PlistValue(kind: kind, line: place.line, column: place.column)
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= maxDepth else {
            let place = position(offset)
            throw ConversionError.refused(
                SourceLocation(file: file, line: place.line, column: place.column),
                "values nest deeper than \(maxDepth) levels, the limit for plist inputs")
        }
    }

    private mutating func dict() throws -> PlistValue.Kind {
        try enter()
        defer { depth -= 1 }
        offset += 1
        var entries: [(key: String, value: PlistValue)] = []
        while true {
            try skipSpace()
            if peek() == UInt8(ascii: "}") {
                offset += 1
                return .dict(entries)
            }
            let keyStart = offset
            guard case .string(let key) = try value().kind else { throw error("a dict key must be a string", at: keyStart) }
            try skipSpace()
            guard peek() == UInt8(ascii: "=") else { throw error("'=' was expected after the key '\(Quote.snippet(key))'") }
            offset += 1
            entries.append((key, try value()))
            try skipSpace()
            guard peek() == UInt8(ascii: ";") else { throw error("';' was expected after the value of '\(Quote.snippet(key))'") }
            offset += 1
        }
    }

    private mutating func array() throws -> PlistValue.Kind {
        try enter()
        defer { depth -= 1 }
        offset += 1
        var elements: [PlistValue] = []
        while true {
            try skipSpace()
            if peek() == UInt8(ascii: ")") {
                offset += 1
                return .array(elements)
            }
            elements.append(try value())
            try skipSpace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: ")"): continue
            default: throw error("',' or ')' was expected")
            }
        }
    }

    private mutating func unquoted() -> String? {
        let start = offset
        while let byte = peek(), Self.isWordByte(byte) { offset += 1 }
        return offset > start ? String(decoding: bytes[start..<offset], as: UTF8.self) : nil
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): true
        default: false
        }
    }

    private mutating func quoted() throws -> String {
        let open = offset
        let quote = bytes[offset]
        offset += 1
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error("unterminated string", at: open) }
            offset += 1
            if byte == quote { break }
            guard byte == UInt8(ascii: "\\") else {
                text.append(byte)
                continue
            }
            guard let escaped = peek() else { throw error("unterminated string", at: open) }
            offset += 1
            switch escaped {
            case UInt8(ascii: "n"): text.append(.lineFeed)
            case UInt8(ascii: "t"): text.append(.tab)
            case UInt8(ascii: "r"): text.append(.carriageReturn)
            case UInt8(ascii: "a"): text.append(7)
            case UInt8(ascii: "b"): text.append(8)
            case UInt8(ascii: "f"): text.append(12)
            case UInt8(ascii: "v"): text.append(11)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                let digits = bytes[offset..<min(offset + 4, bytes.count)]
                guard digits.count == 4, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else { throw error("\\U needs four hexadecimal digits of a character", at: offset - 2) }
                offset += 4
                text += Array(String(Character(scalar)).utf8)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(escaped - 48)
                var digits = 1
                while digits < 3, let next = peek(), next >= 48 && next <= 55 {
                    value = value * 8 + Int(next - 48)
                    offset += 1
                    digits += 1
                }
                guard value < 0x80 else { throw error("only ASCII octal escapes are read", at: offset - digits - 1) }
                text.append(UInt8(value))
            default: text.append(escaped)
            }
        }
        guard let string = String(validating: text, as: UTF8.self) else { throw error("the string is not valid UTF-8", at: open) }
        return string
    }
}
