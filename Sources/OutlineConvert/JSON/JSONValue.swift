/// A JSON value as read, with the byte offset where it starts (lines and columns are
/// worked out from it only when a message needs one). Object members keep their order.
struct JSONValue {
    enum Kind {
        case object([(key: String, value: JSONValue)])
        case array([JSONValue])
        case string(String)
        case number(String)
        case bool(Bool)
        case null
    }

    let kind: Kind
    let offset: Int

    /// What the value is, for messages: "an object", "a string", …
    var typeName: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// Reads JSON (RFC 8259) from UTF-8 bytes into `JSONValue`s: strict (no comments, no
/// trailing commas), with nesting limited to `maxDepth` arrays and objects. Errors are
/// `malformed`, or `refused` past the limit, at the offending byte's line and column.
struct JSONReader {
    private let bytes: [UInt8]
    private let file: String
    private let maxDepth: Int
    private var offset = 0
    private var depth = 0

    /// The single value in `bytes` (after an optional byte-order mark).
    static func parse(_ bytes: [UInt8], file: String, maxDepth: Int) throws -> JSONValue {
        var reader = JSONReader(bytes: bytes, file: file, maxDepth: maxDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        let value = try reader.value()
        reader.skipSpace()
        if reader.offset < bytes.count { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    /// The top-level keys of the object that `head` (a file's first bytes) starts, as far as
    /// they can be read; nil when the head is not the start of a JSON object.
    static func topLevelKeys(_ head: ArraySlice<UInt8>) -> [String]? {
        var reader = JSONReader(bytes: Array(head), file: "", maxDepth: 1 << 20)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        reader.skipSpace()
        guard reader.peek() == UInt8(ascii: "{") else { return nil }
        reader.offset += 1
        var keys: [String] = []
        while true {
            reader.skipSpace()
            guard reader.peek() == UInt8(ascii: "\""), let key = try? reader.string() else { return keys }
            keys.append(key)
            reader.skipSpace()
            guard reader.peek() == UInt8(ascii: ":") else { return keys }
            reader.offset += 1
            guard (try? reader.value()) != nil else { return keys }  // (a value cut off by the head's end)
            reader.skipSpace()
            guard reader.peek() == UInt8(ascii: ",") else { return keys }
            reader.offset += 1
        }
    }

    private init(bytes: [UInt8], file: String, maxDepth: Int) {
        self.bytes = bytes
        self.file = file
        self.maxDepth = maxDepth
    }

    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private func error(_ message: String, at position: Int? = nil) -> ConversionError {
        .malformed(SourceText.location(of: min(position ?? offset, bytes.count), in: bytes[...], file: file), message)
    }

    private mutating func skipSpace() {
        while offset < bytes.count, bytes[offset] == .space || bytes[offset] == .lineFeed || bytes[offset] == .carriageReturn || bytes[offset] == .tab
        {
            offset += 1
        }
    }

    private mutating func value() throws -> JSONValue {
        skipSpace()
        let start = offset
        guard let byte = peek() else { throw error("unexpected end of the file; a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): return JSONValue(kind: try object(), offset: start)
        case UInt8(ascii: "["): return JSONValue(kind: try array(), offset: start)
        case UInt8(ascii: "\""): return JSONValue(kind: .string(try string()), offset: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONValue(kind: .bool(true), offset: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONValue(kind: .bool(false), offset: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONValue(kind: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONValue(kind: .number(try number()), offset: start)
        default:
            throw error(
                "unexpected '\(Quote.snippet(String(decoding: bytes[offset..<min(offset + 1, bytes.count)], as: UTF8.self)))'; a value was expected")
        }
    }

    private mutating func enter() throws {
        depth += 1
        if depth > maxDepth {
            throw ConversionError.refused(
                SourceText.location(of: offset, in: bytes[...], file: file),
                "arrays and objects nest deeper than \(maxDepth) levels, the limit for JSON inputs")
        }
    }

    private mutating func object() throws -> JSONValue.Kind {
        try enter()
        offset += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else { throw error("a key in double quotes was expected") }
            let key = try string()
            skipSpace()
            guard peek() == UInt8(ascii: ":") else { throw error("':' was expected after the key") }
            offset += 1
            members.append((key, try value()))
            skipSpace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                depth -= 1
                return .object(members)
            default: throw error("',' or '}' was expected")
            }
        }
    }

    private mutating func array() throws -> JSONValue.Kind {
        try enter()
        offset += 1
        var elements: [JSONValue] = []
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipSpace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                depth -= 1
                return .array(elements)
            default: throw error("',' or ']' was expected")
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        let matches = offset + count <= bytes.count && word.withUTF8Buffer { bytes[offset..<(offset + count)].elementsEqual($0) }
        guard matches else { throw error("unexpected text; a value was expected") }
        offset += count
    }

    private mutating func number() throws -> String {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        func digits() -> Int {
            let from = offset
            while let byte = peek(), byte >= 48 && byte <= 57 { offset += 1 }
            return offset - from
        }
        let integer = digits()
        guard integer > 0, !(integer > 1 && bytes[offset - integer] == 48) else { throw error("malformed number", at: start) }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw error("malformed number", at: start) }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw error("malformed number", at: start) }
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// A string at a `"`: runs without escapes are copied as they are.
    private mutating func string() throws -> String {
        let open = offset
        offset += 1
        var text: [UInt8] = []
        var runStart = offset
        while true {
            guard let byte = peek() else { throw error("unterminated string", at: open) }
            switch byte {
            case UInt8(ascii: "\""):
                if text.isEmpty {
                    let result = try decoded(bytes[runStart..<offset], at: runStart)
                    offset += 1
                    return result
                }
                text += bytes[runStart..<offset]
                offset += 1
                return try decoded(text[...], at: open)
            case UInt8(ascii: "\\"):
                text += bytes[runStart..<offset]
                try escape(into: &text)
                runStart = offset
            case 0..<0x20:
                throw error("a control character must be escaped in a string")
            default:
                offset += 1
            }
        }
    }

    private func decoded(_ slice: ArraySlice<UInt8>, at position: Int) throws -> String {
        guard let text = String(validating: slice, as: UTF8.self) else { throw error("the string is not valid UTF-8", at: position) }
        return text
    }

    private mutating func escape(into text: inout [UInt8]) throws {
        let start = offset
        offset += 1
        guard let byte = peek() else { throw error("unterminated string") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(8)
        case UInt8(ascii: "f"): text.append(12)
        case UInt8(ascii: "n"): text.append(.lineFeed)
        case UInt8(ascii: "r"): text.append(.carriageReturn)
        case UInt8(ascii: "t"): text.append(.tab)
        case UInt8(ascii: "u"):
            var scalar = try hex4(at: start)
            if (0xD800..<0xDC00).contains(scalar) {
                guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw error("a lone surrogate \\u escape is not a character", at: start)
                }
                offset += 2
                let low = try hex4(at: start)
                guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate \\u escape is not a character", at: start) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("a lone surrogate \\u escape is not a character", at: start)
            }
            guard let character = Unicode.Scalar(scalar) else { throw error("invalid \\u escape", at: start) }
            // (No outline format but JSON can hold a NUL, and C tools stop reading at one.)
            guard scalar != 0 else { throw error("\\u0000 (NUL) is not allowed in an outline's text", at: start) }
            text += Array(String(Character(character)).utf8)
        default:
            throw error("invalid escape '\\\(Quote.snippet(String(decoding: [byte], as: UTF8.self)))'", at: start)
        }
    }

    private mutating func hex4(at start: Int) throws -> UInt32 {
        guard offset + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self), radix: 16),
            bytes[offset..<(offset + 4)].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw error("\\u needs four hexadecimal digits", at: start) }
        offset += 4
        return value
    }
}
