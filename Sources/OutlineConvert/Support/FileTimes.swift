#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file's times from `stat`, in nanoseconds: the one place that knows how each C library
/// names them (glibc `st_mtim`, Darwin `st_mtimespec`).
extension stat {
    /// The last change of the content.
    package var modifiedNanoseconds: Int64 {
        #if canImport(Darwin)
            Self.nanoseconds(st_mtimespec)
        #else
            Self.nanoseconds(st_mtim)
        #endif
    }

    /// The last change of the content or of the status (links, permissions, renames).
    var changedNanoseconds: Int64 {
        #if canImport(Darwin)
            Self.nanoseconds(st_ctimespec)
        #else
            Self.nanoseconds(st_ctim)
        #endif
    }

    private static func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
}
