/// A TOML value (TOML 1.0), as `TOMLReader` reads it. Dates and times are refused: no
/// `book.toml` setting takes one.
indirect enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    /// A table, its keys in the order written.
    case table([(key: String, value: TOMLValue)])

    static func == (a: TOMLValue, b: TOMLValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x == y
        case (.integer(let x), .integer(let y)): x == y
        case (.float(let x), .float(let y)): x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.boolean(let x), .boolean(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.table(let x), .table(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// A table's value at `key`; nil for a missing key or another value.
    subscript(key: String) -> TOMLValue? {
        if case .table(let entries) = self { return entries.first { $0.key == key }?.value }
        return nil
    }

    /// A string's text; nil for another value.
    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// Reads TOML 1.0 (book.toml: there is no TOML library in Debian to link), every form
/// but dates and times, which are refused with a located error, as is anything TOML
/// does not allow (a key defined twice, a table opened twice). Python's `tomllib` is the
/// oracle (`scripts/make-toml-goldens`, `TOMLReaderTests`).
struct TOMLReader {
    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// How many arrays and inline tables are open (at most `maxDepth`: no file runs the
    /// reader out of stack).
    private var depth = 0
    private static let maxDepth = 128

    /// The document in `bytes` (from `file`) as a table.
    static func read(_ bytes: [UInt8], file: String) throws -> TOMLValue {
        try readWithLocations(bytes, file: file).value
    }

    /// The document in `bytes` (from `file`) as a table, and where each key is set (by its
    /// keys from the top), for messages about what the values mean.
    static func readWithLocations(_ bytes: [UInt8], file: String) throws -> (value: TOMLValue, locations: [[String]: SourceLocation]) {
        var reader = TOMLReader(bytes: bytes, file: file)
        return try reader.document()
    }

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    // MARK: - The document: key/value pairs and table headers

    private mutating func document() throws -> (value: TOMLValue, locations: [[String]: SourceLocation]) {
        var tree = Tree()
        while true {
            skipBlank()
            guard index < bytes.count else { break }
            let at = location
            if bytes[index] == UInt8(ascii: "[") {
                let isArray = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "[")
                index += isArray ? 2 : 1
                skipSpace()
                let path = try key()
                skipSpace()
                guard take(isArray ? "]]" : "]") else { throw error("a table header is not closed with \(isArray ? "]]" : "]")") }
                try endOfLine()
                try tree.open(path, arrayItem: isArray, at: at)
            } else {
                let path = try key()
                skipSpace()
                guard take("=") else { throw error("a key is not followed by =") }
                skipSpace()
                let value = try self.value()
                try endOfLine()
                try tree.set(path, value, at: at)
            }
        }
        return (tree.value, tree.locations)
    }

    // MARK: - Keys

    private mutating func key() throws -> [String] {
        var parts = [try simpleKey()]
        while true {
            let save = index
            skipSpace()
            guard take(".") else {
                index = save
                return parts
            }
            skipSpace()
            parts.append(try simpleKey())
        }
    }

    private mutating func simpleKey() throws -> String {
        guard index < bytes.count else { throw error("a key is missing") }
        switch bytes[index] {
        case UInt8(ascii: "\""): return try basicString(multiline: false)
        case UInt8(ascii: "'"): return try literalString(multiline: false)
        default:
            let start = index
            while index < bytes.count, Self.isBareKey(bytes[index]) { index += 1 }
            guard index > start else { throw error("a key is missing") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }

    private static func isBareKey(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    // MARK: - Values

    private mutating func value() throws -> TOMLValue {
        guard index < bytes.count else { throw error("a value is missing") }
        guard depth < Self.maxDepth else { throw error("arrays and inline tables are nested more than \(Self.maxDepth) deep") }
        depth += 1
        defer { depth -= 1 }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return .string(try starts("\"\"\"") ? basicString(multiline: true) : basicString(multiline: false))
        case UInt8(ascii: "'"):
            return .string(try starts("'''") ? literalString(multiline: true) : literalString(multiline: false))
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "{"): return try inlineTable()
        case UInt8(ascii: "t") where starts("true"):
            index += 4
            return .boolean(true)
        case UInt8(ascii: "f") where starts("false"):
            index += 5
            return .boolean(false)
        default: return try number()
        }
    }

    private mutating func array() throws -> TOMLValue {
        index += 1
        var items: [TOMLValue] = []
        while true {
            try skipBlankInArray()
            if take("]") { return .array(items) }
            items.append(try value())
            try skipBlankInArray()
            if take(",") { continue }
            guard take("]") else { throw error("an array's values are not separated by commas") }
            return .array(items)
        }
    }

    private mutating func inlineTable() throws -> TOMLValue {
        let at = location
        index += 1
        var table = Tree()
        skipSpace()
        if take("}") { return table.value }
        while true {
            skipSpace()
            let path = try key()
            skipSpace()
            guard take("=") else { throw error("a key is not followed by =") }
            skipSpace()
            try table.set(path, try value(), at: at)
            skipSpace()
            if take("}") { return table.value }
            guard take(",") else { throw error("an inline table's entries are not separated by commas, on one line") }
        }
    }

    private mutating func number() throws -> TOMLValue {
        let start = index
        while index < bytes.count, !Self.endsValue(bytes[index]) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        index = start
        if case .tooLarge? = Self.number(text) { throw error("the integer \(text) is beyond 64 bits; TOML's integers are not") }
        guard case .value(let value)? = Self.number(text) else {
            if text.contains(where: { $0 == ":" }) || (text.count >= 10 && text.dropFirst(4).first == "-") {
                throw error("dates and times are not read here")
            }
            throw error("'\(Quote.snippet(text))' is not a TOML value")
        }
        index += text.utf8.count
        return value
    }

    private static func endsValue(_ byte: UInt8) -> Bool {
        [UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#"), .space, .tab, .lineFeed, .carriageReturn].contains(byte)
    }

    /// A TOML integer or float, by TOML's grammar (`tooLarge`: an integer beyond 64 bits,
    /// which TOML says a reader refuses); nil for anything else.
    static func number(_ text: String) -> Number? {
        var body = Substring(text)
        var sign = ""
        if let first = body.first, first == "+" || first == "-" {
            sign = first == "-" ? "-" : ""
            body = body.dropFirst()
        }
        switch body {
        case "inf": return .value(.float(sign == "-" ? -.infinity : .infinity))
        case "nan": return .value(.float(.nan))
        default: break
        }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where body.hasPrefix(prefix) {
            guard text.first != "+", text.first != "-", let digits = digitsWithUnderscores(body.dropFirst(2), radix: radix) else { return nil }
            guard let value = UInt64(digits, radix: radix), value <= UInt64(Int64.max) else { return .tooLarge }
            return .value(.integer(Int64(value)))
        }
        // (Decimal: an integer part without leading zeros, then a fraction or an exponent.)
        let integerEnd = body.firstIndex { $0 == "." || $0 == "e" || $0 == "E" } ?? body.endIndex
        guard let integer = digitsWithUnderscores(body[..<integerEnd], radix: 10), integer.count == 1 || integer.first != "0" else { return nil }
        if integerEnd == body.endIndex { return Int64(sign + integer).map { .value(.integer($0)) } ?? .tooLarge }
        var rest = body[integerEnd...]
        var float = sign + integer
        if rest.first == "." {
            let fractionEnd = rest.dropFirst().firstIndex { $0 == "e" || $0 == "E" } ?? rest.endIndex
            guard let fraction = digitsWithUnderscores(rest[rest.index(after: rest.startIndex)..<fractionEnd], radix: 10) else { return nil }
            float += "." + fraction
            rest = rest[fractionEnd...]
        }
        if let e = rest.first, e == "e" || e == "E" {
            var exponent = rest.dropFirst()
            var exponentSign = ""
            if let first = exponent.first, first == "+" || first == "-" {
                exponentSign = String(first)
                exponent = exponent.dropFirst()
            }
            guard let digits = digitsWithUnderscores(exponent, radix: 10) else { return nil }
            float += "e" + exponentSign + digits
            rest = rest[rest.endIndex...]
        }
        guard rest.isEmpty, let value = Double(float) else { return nil }
        return .value(.float(value))
    }

    enum Number {
        case value(TOMLValue)
        case tooLarge
    }

    /// `text` without its underscores, each between two digits of `radix`; nil otherwise.
    private static func digitsWithUnderscores(_ text: Substring, radix: Int) -> String? {
        guard let first = text.first, let last = text.last, first != "_", last != "_", !text.contains("__") else { return nil }
        let digits = text.filter { $0 != "_" }
        guard digits.allSatisfy({ $0.isASCII && $0.hexDigitValue.map { $0 < radix } == true }) else { return nil }
        return String(digits)
    }

    // MARK: - Strings

    private mutating func basicString(multiline: Bool) throws -> String {
        index += multiline ? 3 : 1
        if multiline { _ = take("\r\n") || take("\n") }
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("a string is not closed") }
            let byte = bytes[index]
            if byte == .quote {
                if closes(byte, multiline: multiline, into: &out) { break }
            } else if byte == .backslash {
                let backslash = index
                index += 1
                guard index < bytes.count else { throw error("a string is not closed") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "t"): out.append(.tab)
                case UInt8(ascii: "n"): out.append(.lineFeed)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "r"): out.append(.carriageReturn)
                case .quote: out.append(.quote)
                case .backslash: out.append(.backslash)
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    let count = escape == UInt8(ascii: "u") ? 4 : 8
                    guard index + count <= bytes.count, let code = UInt32(String(decoding: bytes[index..<(index + count)], as: UTF8.self), radix: 16),
                        bytes[index..<(index + count)].allSatisfy(\.isASCIIHexDigit), let scalar = Unicode.Scalar(code)
                    else { throw error("a \\u escape is not a Unicode scalar value") }
                    out += Array(String(Character(scalar)).utf8)
                    index += count
                case .space, .tab, .lineFeed, .carriageReturn:
                    guard multiline else { throw error("a string has an unknown escape") }
                    // (A line-ending backslash: the white space and line breaks after it go.)
                    index -= 1
                    while index < bytes.count, bytes[index] == .space || bytes[index] == .tab { index += 1 }
                    guard index < bytes.count, bytes[index] == .lineFeed || starts("\r\n") else { throw error("a string has an unknown escape") }
                    while index < bytes.count, [.space, .tab, .lineFeed, .carriageReturn].contains(bytes[index]) {
                        if bytes[index] == .lineFeed { newLine(at: index) }
                        index += 1
                    }
                default:
                    index = backslash
                    throw error("a string has an unknown escape")
                }
            } else {
                try stringByte(byte, multiline: multiline, into: &out)
            }
        }
        return try text(out)
    }

    private mutating func literalString(multiline: Bool) throws -> String {
        index += multiline ? 3 : 1
        if multiline { _ = take("\r\n") || take("\n") }
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("a string is not closed") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") {
                if closes(byte, multiline: multiline, into: &out) { break }
            } else {
                try stringByte(byte, multiline: multiline, into: &out)
            }
        }
        return try text(out)
    }

    /// At a quote of the string's own kind: whether it ends the string (in a multi-line one,
    /// three quotes, and up to two more before them kept as text), taking what it reads;
    /// else the quote is text.
    private mutating func closes(_ quote: UInt8, multiline: Bool, into out: inout [UInt8]) -> Bool {
        guard multiline else {
            index += 1
            return true
        }
        var quotes = 0
        while index + quotes < bytes.count, bytes[index + quotes] == quote, quotes < 5 { quotes += 1 }
        guard quotes >= 3 else {
            out.append(quote)
            index += 1
            return false
        }
        out += [UInt8](repeating: quote, count: quotes - 3)
        index += quotes
        return true
    }

    /// One byte of a string's text: a control character is an error (but tabs, and line
    /// breaks in a multi-line string).
    private mutating func stringByte(_ byte: UInt8, multiline: Bool, into out: inout [UInt8]) throws {
        if byte == .lineFeed, multiline {
            newLine(at: index)
        } else if byte == .carriageReturn, multiline, index + 1 < bytes.count, bytes[index + 1] == .lineFeed {
            // (A CRLF line break is read as a line feed, as tomllib reads it.)
            index += 1
            return
        } else if (byte < 0x20 && byte != .tab) || byte == 0x7F {
            throw error(byte == .lineFeed ? "a string is not closed on its line" : "a string holds a control character")
        }
        out.append(byte)
        index += 1
    }

    private func text(_ bytes: [UInt8]) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw error("a string is not UTF-8") }
        return text
    }

    // MARK: - Space, comments and lines

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == .space || bytes[index] == .tab { index += 1 }
    }

    /// Blank lines, comments and white space before the next key or header.
    private mutating func skipBlank() {
        while index < bytes.count {
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != .lineFeed { index += 1 }
            }
            if take("\r\n") || take("\n") { continue }
            return
        }
    }

    private mutating func skipBlankInArray() throws {
        while true {
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "#") { try comment() }
            if take("\r\n") || take("\n") { continue }
            return
        }
    }

    /// What may end a line: white space, a comment, the line break or the end.
    private mutating func endOfLine() throws {
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "#") { try comment() }
        guard index == bytes.count || take("\r\n") || take("\n") else { throw error("a line goes on after its value") }
    }

    private mutating func comment() throws {
        while index < bytes.count, bytes[index] != .lineFeed {
            if bytes[index] == .carriageReturn, index + 1 < bytes.count, bytes[index + 1] == .lineFeed { return }
            if (bytes[index] < 0x20 && bytes[index] != .tab) || bytes[index] == 0x7F { throw error("a comment holds a control character") }
            index += 1
        }
    }

    private mutating func take(_ text: StaticString) -> Bool {
        guard starts(text) else { return false }
        for offset in 0..<text.utf8CodeUnitCount where text.utf8Start[offset] == .lineFeed { newLine(at: index + offset) }
        index += text.utf8CodeUnitCount
        return true
    }

    private func starts(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        return index + count <= bytes.count && UnsafeBufferPointer(start: text.utf8Start, count: count).elementsEqual(bytes[index..<(index + count)])
    }

    private mutating func newLine(at position: Int) {
        line += 1
        lineStart = position + 1
    }

    private var location: SourceLocation {
        SourceLocation(file: file, line: line, column: String(decoding: bytes[lineStart..<min(index, bytes.count)], as: UTF8.self).count + 1)
    }

    private func error(_ message: String) -> ConversionError { .malformed(location, message) }
}
