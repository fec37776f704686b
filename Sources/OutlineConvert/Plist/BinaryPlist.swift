/// Reads binary property lists (`bplist00`): the trailer, the offset table, then the
/// objects from the top one down. Every offset and count is checked against the file;
/// an object that contains itself, nesting past `maxDepth`, and shared objects expanding
/// past a budget (a few small objects referring to each other can stand for billions of
/// values) are refused. Errors name the byte offset; binary plists have no lines.
struct BinaryPlist {
    private let bytes: [UInt8]
    private let file: String
    private let maxDepth: Int
    private let offsets: [Int]
    private let referenceSize: Int
    private let top: Int
    /// Values still allowed to be decoded.
    private var budget: Int
    /// The objects being decoded, outermost first: one met again is a cycle.
    private var path: Set<Int> = []

    static func parse(_ bytes: [UInt8], file: String, maxDepth: Int) throws -> PlistValue {
        var reader = try BinaryPlist(bytes: bytes, file: file, maxDepth: maxDepth)
        return try reader.object(reader.top, depth: 0)
    }

    private init(bytes: [UInt8], file: String, maxDepth: Int) throws {
        self.bytes = bytes
        self.file = file
        self.maxDepth = maxDepth
        budget = 2 * bytes.count + 1024
        func fail(_ reason: String) -> ConversionError {
            .malformed(SourceLocation(file: file), "not a valid binary plist: \(reason)")
        }
        guard bytes.count >= 8 + 32 else { throw fail("the file is too short (truncated?)") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = Self.integer(bytes[(trailer + 8)..<(trailer + 16)])
        top = Self.integer(bytes[(trailer + 16)..<(trailer + 24)])
        let table = Self.integer(bytes[(trailer + 24)..<(trailer + 32)])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else { throw fail("bad sizes in the trailer") }
        guard count > 0, count <= bytes.count, top >= 0, top < count else { throw fail("bad object count in the trailer") }
        guard table >= 8, table <= trailer, count <= (trailer - table) / offsetSize else {
            throw fail("the offset table lies outside the file (truncated?)")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for index in 0..<count {
            let start = table + index * offsetSize
            let offset = Self.integer(bytes[start..<(start + offsetSize)])
            guard offset >= 8, offset < table else { throw fail("object \(index) lies outside the file") }
            offsets.append(offset)
        }
        self.offsets = offsets
    }

    /// A big-endian unsigned integer (up to 8 bytes), clamped to `Int.max`.
    private static func integer(_ slice: ArraySlice<UInt8>) -> Int {
        let value = slice.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return value > UInt64(Int.max) ? Int.max : Int(value)
    }

    private func fail(_ reason: String, object: Int) -> ConversionError {
        .malformed(SourceLocation(file: file), "not a valid binary plist: object \(object) (at byte \(offsets[object])): \(reason)")
    }

    private func slice(_ start: Int, _ count: Int, object: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, start <= bytes.count - 32, count <= bytes.count - 32 - start else {
            throw fail("it runs past the end of the data (truncated?)", object: object)
        }
        return bytes[start..<(start + count)]
    }

    private mutating func object(_ index: Int, depth: Int) throws -> PlistValue {
        guard index >= 0, index < offsets.count else {
            throw ConversionError.malformed(
                SourceLocation(file: file), "not a valid binary plist: a reference to object \(index), which does not exist")
        }
        budget -= 1
        guard budget >= 0 else {
            throw ConversionError.refused(
                SourceLocation(file: file), "the binary plist refers to shared objects so often that it stands for more values than its size allows")
        }
        guard depth < maxDepth else {
            throw ConversionError.refused(SourceLocation(file: file), "values nest deeper than \(maxDepth) levels, the limit for plist inputs")
        }
        let start = offsets[index]
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        // The count of a string, data, array or dict: the low nibble, or an integer after it.
        func count() throws -> (count: Int, next: Int) {
            guard low == 0x0F else { return (low, start + 1) }
            let head = try slice(start + 1, 1, object: index)
            guard let byte = head.first, byte & 0xF0 == 0x10 else { throw fail("a count that is not an integer", object: index) }
            let size = 1 << Int(byte & 0x0F)
            guard size <= 8 else { throw fail("a count that is not an integer", object: index) }
            return (Self.integer(try slice(start + 2, size, object: index)), start + 2 + size)
        }
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return PlistValue(kind: .bool(false))
            case 0x09: return PlistValue(kind: .bool(true))
            default: return PlistValue(kind: .other("null"))
            }
        case 0x1: return PlistValue(kind: .other("an integer"))
        case 0x2: return PlistValue(kind: .other("a real number"))
        case 0x3: return PlistValue(kind: .other("a date"))
        case 0x4: return PlistValue(kind: .other("data"))
        case 0x8: return PlistValue(kind: .other("a UID"))
        case 0x5:
            let (length, next) = try count()
            let text = try slice(next, length, object: index)
            guard text.allSatisfy({ $0 < 0x80 }) else { throw fail("an ASCII string with non-ASCII bytes", object: index) }
            return PlistValue(kind: .string(String(decoding: text, as: UTF8.self)))
        case 0x6:
            let (length, next) = try count()
            guard length <= Int.max / 2 else { throw fail("a string too long for the file", object: index) }
            let raw = try slice(next, length * 2, object: index)
            var units: [UInt16] = []
            units.reserveCapacity(length)
            var position = raw.startIndex
            while position < raw.endIndex {
                units.append(UInt16(raw[position]) << 8 | UInt16(raw[position + 1]))
                position += 2
            }
            guard let text = String(validating: units, as: UTF16.self) else { throw fail("a UTF-16 string that is not valid", object: index) }
            return PlistValue(kind: .string(text))
        case 0xA, 0xD:
            let (length, next) = try count()
            let isDict = marker >> 4 == 0xD
            guard length <= (bytes.count / referenceSize) / (isDict ? 2 : 1) else { throw fail("more references than the file holds", object: index) }
            let references = try slice(next, length * referenceSize * (isDict ? 2 : 1), object: index)
            func reference(_ number: Int) -> Int {
                let from = references.startIndex + number * referenceSize
                return Self.integer(references[from..<(from + referenceSize)])
            }
            guard path.insert(index).inserted else { throw fail("it contains itself", object: index) }
            defer { path.remove(index) }
            if !isDict {
                var elements: [PlistValue] = []
                for number in 0..<length { elements.append(try object(reference(number), depth: depth + 1)) }
                return PlistValue(kind: .array(elements))
            }
            var entries: [(key: String, value: PlistValue)] = []
            for number in 0..<length {
                guard case .string(let key) = try object(reference(number), depth: depth + 1).kind else {
                    throw fail("a dict key that is not a string", object: index)
                }
                entries.append((key, try object(reference(length + number), depth: depth + 1)))
            }
            return PlistValue(kind: .dict(entries))
        case 0xC: return PlistValue(kind: .other("a set"))
        default: throw fail("unknown object type 0x\(String(marker, radix: 16))", object: index)
        }
    }
}
