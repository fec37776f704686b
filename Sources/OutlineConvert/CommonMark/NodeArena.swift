internal import CCmark
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The memory of one cmark tree. Most of cmark's allocations are small (a node, a
/// delimiter, a short text); here they are cut from large chunks and recycled by size,
/// without going through glibc's malloc, whose bookkeeping for millions of small blocks
/// was a large part of a Markdown conversion (docs/performance.md). Larger blocks (a long paragraph's text, rendered HTML) go to malloc.
///
/// cmark's allocator interface (`cmark_mem`) has no context argument, so the arena that
/// serves a call is the one made current on the calling thread by `withCurrent`: a
/// document is parsed inside it, on one thread. A call outside it (rendering, freeing the
/// tree, maybe on several threads at once) is served by malloc, and a small block freed
/// outside it is kept until the arena goes: an arena is never shared between threads.
final class NodeArena {
    /// The allocator to give cmark (`cmark_parser_new_with_mem`, `cmark_node_new_with_mem`).
    /// (Unsafe only in name: three function pointers, set once and never written again.)
    nonisolated(unsafe) static let memory: UnsafeMutablePointer<cmark_mem> = {
        let memory = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        memory.initialize(
            to: cmark_mem(
                calloc: { count, size in NodeArena.allocate(count, size, zeroed: true) },
                realloc: { pointer, size in NodeArena.reallocate(pointer, size) },
                free: { pointer in NodeArena.free(pointer) }))
        return memory
    }()

    /// Where the arena is, for the allocator's functions (which get no context): a plain
    /// pointer, so that a call is a few loads, with no reference counting or access checks.
    private let state: UnsafeMutablePointer<State>

    private struct State {
        /// The free part of the current chunk.
        var next: UnsafeMutableRawPointer?
        var end: UnsafeMutableRawPointer?
        /// The last chunk; each chunk's first word points at the one before (allocated
        /// zeroed: a block never used is zero).
        var lastChunk: UnsafeMutableRawPointer?
        var chunkSize: Int
        /// Freed small blocks by size class, each list linked through the blocks' first word.
        let freed: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    }

    /// An arena for the tree of a text of `textSize` bytes (its first chunk about that size:
    /// a tree takes several times its text).
    init(textSize: Int) {
        let freed = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: Self.classCount + 1)
        freed.initialize(repeating: nil, count: Self.classCount + 1)
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(next: nil, end: nil, lastChunk: nil, chunkSize: min(max(textSize, 4 << 10), Self.largestChunk), freed: freed))
    }

    deinit {
        var chunk = state.pointee.lastChunk
        while let current = chunk {
            chunk = current.load(as: UnsafeMutableRawPointer?.self)
            Glibc.free(current)
        }
        state.pointee.freed.deallocate()
        state.deallocate()
    }

    private static let largestChunk = 4 << 20

    /// The allocator of a tree in `arena`, or cmark's own (malloc) without one.
    static func memory(of arena: NodeArena?) -> UnsafeMutablePointer<cmark_mem> {
        guard arena == nil else { return memory }
        guard let standard = cmark_get_default_mem_allocator() else { fatalError("cmark has no allocator") }
        return standard
    }

    /// Runs `body` with `arena`, if any, serving cmark's allocations on this thread.
    static func run<Result>(in arena: NodeArena?, _ body: () throws -> Result) rethrows -> Result {
        guard let arena else { return try body() }
        return try arena.withCurrent(body)
    }

    /// Runs `body` with this arena serving cmark's allocations on this thread.
    private func withCurrent<Result>(_ body: () throws -> Result) rethrows -> Result {
        let previous = pthread_getspecific(Self.current)
        pthread_setspecific(Self.current, state)
        defer { pthread_setspecific(Self.current, previous) }
        return try body()
    }

    /// The thread's current arena (see `withCurrent`).
    private static let current: pthread_key_t = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else { fatalError("no thread-specific key for cmark's allocator") }
        return key
    }()

    // MARK: - Blocks

    // Every block is preceded by a header word. A small block's: bit 0 set, its size class
    // in bits 1–7 (the block holds class × 16 bytes), its size in bits 8–18 and the
    // address of its arena above (so that a block is only ever recycled by the arena whose
    // chunk holds it). A large block's: bit 0 clear, its size above; it stands at the end of
    // 16 bytes taken from malloc. Small blocks are 8-byte aligned (cmark keeps pointers and
    // integers in them, nothing wider); large ones 16.

    /// Blocks up to this size are small.
    private static let smallLimit = 1024
    private static let classCount = smallLimit / 16

    private static func arena() -> UnsafeMutablePointer<State>? {
        pthread_getspecific(current)?.assumingMemoryBound(to: State.self)
    }

    /// The arena's address as kept in its blocks' headers: 45 bits from the fourth up (the
    /// state is 8-byte aligned), so that two arenas of a 48-bit address space never share one.
    private static func tag(_ arena: UnsafeMutablePointer<State>) -> UInt64 {
        UInt64(UInt(bitPattern: arena)) >> 3 & (1 << 45 - 1)
    }

    private static func header(of block: UnsafeMutableRawPointer) -> UInt64 {
        block.load(fromByteOffset: -8, as: UInt64.self)
    }

    private static func allocate(_ count: Int, _ size: Int, zeroed: Bool) -> UnsafeMutableRawPointer? {
        let (total, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow else { return nil }
        if total <= smallLimit, let arena = arena() { return small(total, zeroed: zeroed, in: arena) }
        return large(total, zeroed: zeroed)
    }

    private static func large(_ size: Int, zeroed: Bool) -> UnsafeMutableRawPointer? {
        let (total, overflow) = size.addingReportingOverflow(16)
        guard !overflow, let base = zeroed ? calloc(1, total) : malloc(total) else { return nil }
        base.storeBytes(of: UInt64(size) << 1, toByteOffset: 8, as: UInt64.self)
        return base + 16
    }

    private static func small(_ size: Int, zeroed: Bool, in arena: UnsafeMutablePointer<State>) -> UnsafeMutableRawPointer? {
        let sizeClass = max(1, (size + 15) / 16)
        let block: UnsafeMutableRawPointer
        if let reused = arena.pointee.freed[sizeClass] {
            arena.pointee.freed[sizeClass] = reused.load(as: UnsafeMutableRawPointer?.self)
            block = reused
            if zeroed { memset(block, 0, size) }
        } else {
            let bytes = 8 + sizeClass * 16
            let room = arena.pointee.next.flatMap { next in arena.pointee.end.map { next.distance(to: $0) } } ?? 0
            guard let start = room >= bytes ? arena.pointee.next : newChunk(holding: bytes, in: arena) else { return nil }
            arena.pointee.next = start + bytes
            block = start + 8
        }
        block.storeBytes(of: tag(arena) << 19 | UInt64(size) << 8 | UInt64(sizeClass) << 1 | 1, toByteOffset: -8, as: UInt64.self)
        return block
    }

    /// Starts a new chunk, each twice the last up to `largestChunk`, and returns where its
    /// blocks start; nil without memory.
    private static func newChunk(holding bytes: Int, in arena: UnsafeMutablePointer<State>) -> UnsafeMutableRawPointer? {
        let size = max(arena.pointee.chunkSize, bytes + 16)
        guard let chunk = calloc(1, size) else { return nil }
        chunk.storeBytes(of: arena.pointee.lastChunk, as: UnsafeMutableRawPointer?.self)
        arena.pointee.lastChunk = chunk
        arena.pointee.end = chunk + size
        arena.pointee.chunkSize = min(arena.pointee.chunkSize * 2, largestChunk)
        return chunk + 16
    }

    private static func reallocate(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let pointer else { return allocate(1, size, zeroed: false) }
        let header = header(of: pointer)
        let isSmall = header & 1 != 0
        if !isSmall, size > smallLimit {
            guard let base = realloc(pointer - 16, size + 16) else { return nil }
            base.storeBytes(of: UInt64(size) << 1, toByteOffset: 8, as: UInt64.self)
            return base + 16
        }
        if isSmall, size <= Int(header >> 1 & 0x7F) * 16 {
            pointer.storeBytes(of: header & ~(0x7FF << 8) | UInt64(size) << 8, toByteOffset: -8, as: UInt64.self)
            return pointer
        }
        guard let moved = allocate(1, size, zeroed: false) else { return nil }
        let oldSize = Int(isSmall ? header >> 8 & 0x7FF : header >> 1)
        moved.copyMemory(from: pointer, byteCount: min(oldSize, size))
        free(pointer)
        return moved
    }

    private static func free(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        let header = header(of: pointer)
        guard header & 1 != 0 else { return Glibc.free(pointer - 16) }
        // A small block is recycled by its own arena; freed outside it, it is kept until the
        // arena goes.
        guard let arena = arena(), header >> 19 == tag(arena) else { return }
        let sizeClass = Int(header >> 1 & 0x7F)
        pointer.storeBytes(of: arena.pointee.freed[sizeClass], as: UnsafeMutableRawPointer?.self)
        arena.pointee.freed[sizeClass] = pointer
    }
}
