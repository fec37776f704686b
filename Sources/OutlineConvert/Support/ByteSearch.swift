#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one byte search: memchr, since a generic search costs several instructions a byte
/// and inputs are searched whole.
extension UnsafeBufferPointer<UInt8> {
    /// The index of the first `byte` at or after `start`, if any.
    func firstIndex(ofByte byte: UInt8, from start: Int = 0) -> Int? {
        guard let base = baseAddress, start < count, let found = memchr(base + start, Int32(byte), count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The index of the first occurrence of `pattern` (not empty) at or after `start`.
    func firstIndex(of pattern: [UInt8], from start: Int = 0) -> Int? {
        var at = start
        while let found = firstIndex(ofByte: pattern[0], from: at) {
            guard let base = baseAddress, found + pattern.count <= count else { return nil }
            if memcmp(base + found, pattern, pattern.count) == 0 { return found }
            at = found + 1
        }
        return nil
    }

    /// The index of the last occurrence of `pattern` (not empty), searched from the end.
    func lastIndex(of pattern: [UInt8]) -> Int? {
        guard let base = baseAddress, pattern.count <= count else { return nil }
        var index = count - pattern.count
        while index >= 0 {
            if base[index] == pattern[0] && memcmp(base + index, pattern, pattern.count) == 0 { return index }
            index -= 1
        }
        return nil
    }
}

extension [UInt8] {
    /// The bytes with each occurrence of `pattern` (not empty), from the left and not
    /// overlapping, replaced by `replacement`.
    func replacingBytes(_ pattern: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        withUnsafeBufferPointer { buffer in
            guard var found = buffer.firstIndex(of: pattern) else { return self }
            var out: [UInt8] = []
            out.reserveCapacity(buffer.count)
            var start = 0
            while true {
                out += buffer[start..<found]
                out += replacement
                start = found + pattern.count
                guard let next = buffer.firstIndex(of: pattern, from: start) else { break }
                found = next
            }
            out += buffer[start...]
            return out
        }
    }
}

extension ArraySlice<UInt8> {
    /// The index of the first `byte`, if any.
    func firstIndex(ofByte byte: UInt8) -> Int? {
        withUnsafeBufferPointer { buffer in buffer.firstIndex(ofByte: byte).map { startIndex + $0 } }
    }
}

extension ArraySlice<UInt8> {
    /// Whether `text` occurs in the bytes (memchr for its first byte, then a comparison).
    func contains(bytes text: String) -> Bool {
        let pattern = Array(text.utf8)
        guard let first = pattern.first else { return true }
        return withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var start = 0
            while let found = buffer.firstIndex(ofByte: first, from: start) {
                guard found + pattern.count <= buffer.count else { return false }
                if memcmp(base + found, pattern, pattern.count) == 0 { return true }
                start = found + 1
            }
            return false
        }
    }
}

extension StringProtocol {
    /// Whether `text` occurs in this string's bytes: a byte search, where `String.contains`
    /// goes through the string processing library's searcher (several times slower).
    func contains(bytes text: String) -> Bool {
        // (Most strings asked do not hold the first byte: memchr says so without a copy.)
        guard let first = text.utf8.first, containsByte(first) else { return text.isEmpty }
        var string = String(self)
        return string.withUTF8 { buffer in buffer.firstIndex(of: Array(text.utf8)) != nil }
    }
}

extension String {
    /// The text's lines, split at each `\n` by bytes (a split by `Character` breaks the text
    /// into graphemes first, several times slower, and never splits `\r\n`, one grapheme).
    func splitLines() -> [Substring] {
        var string = self
        // (Each line's end found by memchr, as an offset: an offset is an index in O(1) in a native string.)
        let ends = string.withUTF8 { bytes in
            var ends: [Int] = []
            var start = 0
            while let end = bytes.firstIndex(ofByte: .lineFeed, from: start) {
                ends.append(end)
                start = end + 1
            }
            return ends
        }
        var lines: [Substring] = []
        lines.reserveCapacity(ends.count + 1)
        var start = string.utf8.startIndex
        for end in ends {
            let index = string.utf8.index(string.utf8.startIndex, offsetBy: end)
            lines.append(string[start..<index])
            start = string.utf8.index(after: index)
        }
        lines.append(string[start...])
        return lines
    }
}

extension StringProtocol {
    /// Whether the string's bytes hold `byte` (memchr; `utf8.contains` goes byte by byte).
    func containsByte(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.firstIndex(ofByte: byte) != nil } ?? utf8.contains(byte)
    }

    /// Whether the two strings hold the same bytes (memcmp; `utf8.elementsEqual` goes byte
    /// by byte, and `==` compares by canonical equivalence).
    func hasSameBytes(as other: some StringProtocol) -> Bool {
        utf8.count == other.utf8.count && startsWithBytes(of: other)
    }

    /// Whether the string's bytes start with those of `prefix` (memcmp, as `hasSameBytes`).
    func startsWithBytes(of prefix: some StringProtocol) -> Bool {
        let count = prefix.utf8.count
        guard utf8.count >= count else { return false }
        let starts = utf8.withContiguousStorageIfAvailable { mine in
            prefix.utf8.withContiguousStorageIfAvailable { theirs in
                guard let mine = mine.baseAddress, let theirs = theirs.baseAddress else { return count == 0 }
                return memcmp(mine, theirs, count) == 0
            }
        }
        return (starts ?? nil) ?? utf8.starts(with: prefix.utf8)
    }
}

extension Substring {
    /// The bytes, copied at once (`Array(utf8)` copies a substring's byte by byte).
    var bytes: [UInt8] {
        utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(utf8)
    }
}

extension [ArraySlice<UInt8>] {
    /// The lines, each but the last followed by a line feed: one copy of each (the standard
    /// library's `joined(separator:)` goes byte by byte).
    func joinedLines() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(reduce(count) { $0 + $1.count })
        for (index, line) in enumerated() {
            if index > 0 { out.append(.lineFeed) }
            out += line
        }
        return out
    }
}
