/// The ids given so far in one document, as bytes: all of them in one buffer, found
/// through an open-addressing table. Most ids are slugs made on the fly and never kept as
/// strings (see `OutlineNode.id`); a `Set<String>` of them took 5 MB for 66,000 nodes,
/// this takes a third of that, and inserting makes no string.
struct UsedIdentifiers {
    /// Each id's length (LEB128) and bytes, one after another.
    private var storage: [UInt8] = []
    /// 0 when empty; else the id's offset in `storage` plus one in the low 40 bits, and
    /// the top 24 bits of its hash above (compared first, so most probes read no bytes).
    private var slots: [UInt64]
    private var count = 0

    /// A set sized for `capacity` ids of `bytes` bytes in all (it grows past them if needed).
    init(capacity: Int, bytes: Int) {
        var size = 16
        while size * 4 < capacity * 5 { size *= 2 }
        slots = Array(repeating: 0, count: size)
        storage.reserveCapacity(bytes + 2 * capacity)
    }

    /// Adds `id`; false if it was there already.
    mutating func insert(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { insert($0) }
    }

    /// Adds the id spelt by `bytes`; false if it was there already.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let hash = Self.hash(bytes)
        let tag = hash & ~Self.offsetMask
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index] != 0 {
            if slots[index] & ~Self.offsetMask == tag, self.bytes(at: Int(slots[index] & Self.offsetMask) - 1).elementsEqual(bytes) {
                return false
            }
            index = (index + 1) & mask
        }
        slots[index] = tag | UInt64(storage.count + 1)
        var length = bytes.count
        while length >= 0x80 {
            storage.append(UInt8(truncatingIfNeeded: length) | 0x80)
            length >>= 7
        }
        storage.append(UInt8(length))
        storage.append(contentsOf: bytes)
        count += 1
        if count * 5 > slots.count * 4 { grow() }
        return true
    }

    private static let offsetMask: UInt64 = 1 << 40 - 1

    /// The hash only places ids; which ids are equal is decided by their bytes, so the
    /// per-process seed of `Hasher` (flooding cannot make the table slow) never changes
    /// an outcome.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }

    /// The id stored at `offset`.
    private func bytes(at offset: Int) -> ArraySlice<UInt8> {
        var index = offset
        var length = 0
        var shift = 0
        while storage[index] & 0x80 != 0 {
            length |= Int(storage[index] & 0x7F) << shift
            shift += 7
            index += 1
        }
        length |= Int(storage[index]) << shift
        return storage[(index + 1)..<(index + 1 + length)]
    }

    /// Twice the slots, every id placed again.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot != 0 {
            let hash = bytes(at: Int(slot & Self.offsetMask) - 1).withUnsafeBufferPointer(Self.hash)
            var index = Int(truncatingIfNeeded: hash) & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}
