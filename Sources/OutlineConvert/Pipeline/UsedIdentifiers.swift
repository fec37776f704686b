/// The ids given so far in one document. Most ids are slugs of titles, made on the fly and
/// never kept (see `OutlineNode.id`): for those the set keeps the title (its storage is
/// shared, not copied) and slugs it again to compare. A `Set<String>` of the ids took
/// 5 MB for 66,000 nodes; this takes 1.7 MB, and inserting a slug makes no string.
struct UsedIdentifiers {
    /// Each id, or the title it is the slug of (see `slots`).
    private var entries: [String] = []
    /// 0 when empty; else the entry's index plus one in the low 32 bits, bit 32 set when
    /// the entry is a title, and 24 bits of the id's hash above (not those that place it;
    /// compared first, so that most probes compare no text).
    private var slots: [UInt64]

    /// A set sized for `capacity` ids (it grows past them if needed).
    init(capacity: Int) {
        slots = Array(repeating: 0, count: Self.slotCount(for: capacity))
        entries.reserveCapacity(capacity)
    }

    /// Adds `id`; false if it was there already.
    mutating func insert(_ id: String) -> Bool {
        var utf8 = id
        return utf8.withUTF8 { insert($0, entry: id, isTitle: false) }
    }

    /// Adds `IdentifierAssigner.slug(title)`; false if it was there already.
    mutating func insert(slugOf title: String) -> Bool {
        IdentifierAssigner.withSlug(of: title) { insert($0, entry: title, isTitle: true) }
    }

    private static let titleFlag: UInt64 = 1 << 32
    private static let tagMask: UInt64 = ~(1 << 40 - 1)

    private mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, entry: String, isTitle: Bool) -> Bool {
        let hash = Self.hash(bytes)
        let tag = hash << 40
        var index = start(hash)
        while slots[index] != 0 {
            if slots[index] & Self.tagMask == tag, self.entry(in: slots[index], equals: bytes) { return false }
            index = index + 1 == slots.count ? 0 : index + 1
        }
        entries.append(entry)
        slots[index] = tag | (isTitle ? Self.titleFlag : 0) | UInt64(entries.count)
        if entries.count >= slots.count * 9 / 10 { grow() }
        return true
    }

    /// Whether the id kept in `slot` is spelt `bytes`.
    private func entry(in slot: UInt64, equals bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var entry = entries[Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1]
        guard slot & Self.titleFlag == 0 else { return IdentifierAssigner.withSlug(of: entry) { $0.elementsEqual(bytes) } }
        return entry.withUTF8 { $0.elementsEqual(bytes) }
    }

    /// A quarter more slots than ids (not rounded up to a power of two: for 66,000 ids,
    /// 83,000 slots instead of 131,072).
    private static func slotCount(for ids: Int) -> Int { max(16, ids + ids / 4 + 1) }

    /// The slot where a probe for `hash` starts: the hash scaled to the slot count.
    private func start(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(slots.count)).high)
    }

    /// The hash only places ids; which ids are equal is decided by their text, so the
    /// per-process seed of `Hasher` (flooding cannot make the table slow) never changes
    /// an outcome.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }

    /// More slots, every id placed again.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: Self.slotCount(for: 2 * entries.count))
        for slot in old where slot != 0 {
            var entry = entries[Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1]
            let hash =
                slot & Self.titleFlag != 0
                ? IdentifierAssigner.withSlug(of: entry, Self.hash) : entry.withUTF8 { Self.hash($0) }
            var index = start(hash)
            while slots[index] != 0 { index = index + 1 == slots.count ? 0 : index + 1 }
            slots[index] = slot
        }
    }
}
