#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The memory tricks that pay for their place, in one place: which cmark trees take their
/// allocations from an arena, and what a process about to exit does not free at all. Each
/// was measured against the plain way (docs/performance.md, "Memory policy"), and so were
/// those that did not pay and are gone: giving freed pages back with `malloc_trim`, and
/// freeing large trees on another thread.
enum MemoryPolicy {
    /// Whether a cmark document takes its small allocations from an arena (`NodeArena`):
    /// yes, unless it is dense in headings, which it frees as they are read, for malloc to
    /// reuse (memory freed into an arena serves only that arena).
    static func usesArena(denseInHeadings: Bool) -> Bool { !denseInHeadings }

    /// Keeps `value` until the process exits instead of freeing it, node by node, just
    /// before: for a one-file run, as compilers do. LeakSanitizer (the sanitizer tests) is
    /// told, with everything the value holds: a suppression by name is not enough there,
    /// since it looks at only its first 5,000 leaks and a large tree has more.
    static func keepUntilExit(_ value: some Any) {
        let kept = Unmanaged.passRetained(Box(value)).toOpaque()
        #if canImport(Glibc)
            typealias Ignore = @convention(c) (UnsafeRawPointer?) -> Void
            if let ignore = dlsym(nil, "__lsan_ignore_object") { unsafeBitCast(ignore, to: Ignore.self)(kept) }
        #else
            _ = kept
        #endif
    }

    private final class Box<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
