#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import OutlineConvert

/// Waits for something to change in folders: a file created, written, deleted or renamed
/// (editors that save by renaming a new file over the old one included). inotify on Linux,
/// every folder below the roots watched (hidden ones and the output folder left out);
/// elsewhere, or when inotify is not available, a poll of the files' sizes and times.
final class FolderWatcher {
    private let roots: [String]
    private let excluded: String?
    /// File names whose changes do not count (a single file's output, next to its input).
    private let ignoredNames: Set<String>
    #if canImport(Glibc)
        private var descriptor: Int32 = -1
        /// The watches of the folders below the roots.
        private var folderWatches: Set<Int32> = []
        /// The watches of the roots' parents, each with the roots' names in it: a root that is
        /// deleted and made again (a checkout, `rm -r` and a copy) is seen and watched again.
        private var parentWatches: [Int32: Set<String>] = [:]
        /// Whether a folder made since the last look was watched only now: what was written
        /// in it before counts as a change.
        private var watchedLate = false
    #endif
    private var snapshot: [String: String] = [:]

    /// Watches `roots` (folders, or the folders of files), leaving out `excluded` (the
    /// output folder, whose writes are the watcher's own; nil for none).
    init(roots: [String], excluding excluded: String?, ignoring ignoredNames: Set<String> = []) {
        self.roots = roots
        self.excluded = excluded
        self.ignoredNames = ignoredNames
    }

    deinit {
        #if canImport(Glibc)
            if descriptor >= 0 { close(descriptor) }
        #endif
    }

    /// Starts watching now, so that nothing that changes from here on is missed (call it
    /// before the first conversion).
    func start() {
        #if canImport(Glibc)
            if startInotify() { return }
        #endif
        snapshot = Self.takeSnapshot(roots, excluding: excluded)
    }

    /// Blocks until something changed, then lets a burst of changes (a save, a checkout)
    /// settle for 100 ms, so that it is one rebuild.
    func waitForChange() {
        #if canImport(Glibc)
            if startInotify() {
                var events = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                var relevant = watchedLate
                watchedLate = false
                while !relevant {
                    while poll(&events, 1, -1) <= 0 {}
                    relevant = drain()
                }
                while poll(&events, 1, 100) > 0 { _ = drain() }
                return
            }
        #endif
        let before = snapshot.isEmpty ? Self.takeSnapshot(roots, excluding: excluded) : snapshot
        while true {
            usleep(300_000)
            let now = Self.takeSnapshot(roots, excluding: excluded)
            if now != before {
                usleep(100_000)
                snapshot = Self.takeSnapshot(roots, excluding: excluded)
                return
            }
        }
    }

    #if canImport(Glibc)
        /// One inotify instance for the watcher's life (so that what changes during a rebuild
        /// is still queued when the rebuild ends), watching every folder now below the roots:
        /// watching a folder again is a no-op, and new folders are added before each wait.
        private func startInotify() -> Bool {
            let first = descriptor < 0
            if first { descriptor = inotify_init1(Int32(IN_CLOEXEC)) }
            guard descriptor >= 0 else { return false }
            let mask = UInt32(
                IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
                    | IN_DELETE_SELF | IN_MOVE_SELF)
            for folder in Self.folders(roots, excluding: excluded) {
                let watch = inotify_add_watch(descriptor, folder, mask)
                if watch >= 0, folderWatches.insert(watch).inserted, !first { watchedLate = true }
            }
            for root in roots {
                // (IN_MASK_ADD: the parent may be watched as a folder already, with more.)
                let watch = inotify_add_watch(descriptor, Path.parent(root), UInt32(IN_CREATE | IN_MOVED_TO | IN_MASK_ADD))
                if watch >= 0 { parentWatches[watch, default: []].insert(Path.lastComponent(root)) }
            }
            return true
        }

        /// Reads the queued events; whether one of them is about a file that counts (not an
        /// ignored name, not one of the tool's own temporary files).
        private func drain() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            var relevant = false
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let watch = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if !folderWatches.contains(watch), let names = parentWatches[watch] {
                    // (Only a root's own name counts in its parent.)
                    if names.contains(name) { relevant = true }
                } else if name.isEmpty || (!ignoredNames.contains(name) && !name.hasSuffix(".outline-render-tmp")) {
                    relevant = true
                }
                offset += header + length
            }
            return relevant
        }
    #endif

    /// Every folder below `roots` (and the roots), but hidden ones and `excluded`.
    private static func folders(_ roots: [String], excluding excluded: String?) -> [String] {
        var found: [String] = []
        var pending = roots
        var seen: Set<String> = []
        while let folder = pending.popLast() {
            // (The output folder may appear only after the first run: resolved each time.)
            let real = BatchPlan.resolved(folder)
            guard real != excluded.map(BatchPlan.resolved), seen.insert(real).inserted else { continue }
            found.append(folder)
            let names = Files.names(in: folder)
            for name in names where !name.hasPrefix(".") {
                let path = folder + "/" + name
                if Files.isDirectory(path) { pending.append(path) }
            }
        }
        return found
    }

    /// Each file's size and modification time, by path (the polling fallback).
    private static func takeSnapshot(_ roots: [String], excluding excluded: String?) -> [String: String] {
        var files: [String: String] = [:]
        for folder in folders(roots, excluding: excluded) {
            for name in Files.names(in: folder) {
                var info = stat()
                let path = folder + "/" + name
                if stat(path, &info) == 0 { files[path] = "\(info.st_size)-\(info.modifiedNanoseconds)" }
            }
        }
        return files
    }
}
