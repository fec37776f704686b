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
            Int64(st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st_mtimespec.tv_nsec)
        #else
            Int64(st_mtim.tv_sec) * 1_000_000_000 + Int64(st_mtim.tv_nsec)
        #endif
    }

    /// The last change of the content or of the status (links, permissions, renames).
    package var changedNanoseconds: Int64 {
        #if canImport(Darwin)
            Int64(st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st_ctimespec.tv_nsec)
        #else
            Int64(st_ctim.tv_sec) * 1_000_000_000 + Int64(st_ctim.tv_nsec)
        #endif
    }
}
