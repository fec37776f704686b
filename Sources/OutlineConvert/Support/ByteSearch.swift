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
}

extension ArraySlice<UInt8> {
    /// The index of the first `byte`, if any.
    func firstIndex(ofByte byte: UInt8) -> Int? {
        withUnsafeBufferPointer { buffer in buffer.firstIndex(ofByte: byte).map { startIndex + $0 } }
    }
}
