#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The temporary files being written right now, so that an interrupt (Ctrl-C, SIGTERM,
/// SIGHUP) can remove them before the process exits. A name is registered before its file
/// is created, and `removeAll()` waits for creations under way, so no interrupt can fall
/// between the two; once `removeAll()` has run, no new one is created. Files are created,
/// renamed and removed outside the lock: on a slow disk, workers do not wait on each other.
///
/// Names are `.<output name>.<pid>-<random>.outline-render-tmp`, next to the output: a later
/// run removes those whose process is gone (after a SIGKILL or a power cut).
package final class TemporaryFiles: @unchecked Sendable {
    private let condition = Lock()
    private var paths: Set<String> = []
    private var creating = 0
    private var closed = false
    /// Runs once, before the first file; what it returns is kept with the registry.
    private var beforeFirstFile: (@Sendable (TemporaryFiles) -> [AnyObject])?
    private var kept: [AnyObject] = []

    /// The end of every temporary file's name.
    static let suffix = ".outline-render-tmp"

    /// An empty registry. `beforeFirstFile` runs once, before the first file is created
    /// (or at `expectFiles()`), and what it returns lives as long as the registry: the tool
    /// starts watching for interrupts there, so that a run that writes no file (a single
    /// output to standard output) never starts the watcher's thread.
    package init(beforeFirstFile: (@Sendable (TemporaryFiles) -> [AnyObject])? = nil) {
        self.beforeFirstFile = beforeFirstFile
    }

    /// Runs `beforeFirstFile` now, if it has not run (for runs that write many files).
    package func expectFiles() {
        condition.withLock { startIfFirst() }
    }

    /// Inside the lock.
    private func startIfFirst() {
        guard let start = beforeFirstFile else { return }
        beforeFirstFile = nil
        kept = start(self)
    }

    /// Creates an empty temporary file next to `output` and registers it; throws when the
    /// run is being interrupted or the folder cannot be written.
    func create(for output: String) throws -> (descriptor: Int32, path: String) {
        while true {
            let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let name = Self.stem(of: output) + "\(getpid())-\(random)" + Self.suffix
            let path = Path.join(Path.parent(output), name)
            try condition.withLock {
                guard !closed else { throw ConversionError.io(path: output, "interrupted") }
                startIfFirst()
                paths.insert(path)
                creating += 1
            }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            let error = errno
            let interrupted = condition.withLock {
                creating -= 1
                if descriptor < 0 { paths.remove(path) }
                condition.broadcast()
                return closed
            }
            if descriptor >= 0 && !interrupted { return (descriptor, path) }
            if descriptor >= 0 {
                close(descriptor)
                unlink(path)
                throw ConversionError.io(path: output, "interrupted")
            }
            guard error == EEXIST else { throw ConversionError.io(path: output, "cannot write: \(String(cString: strerror(error)))") }
        }
    }

    /// Removes `path`, then unregisters it.
    func remove(_ path: String) {
        unlink(path)
        condition.withLock { _ = paths.remove(path) }
    }

    /// Unregisters `path`, which a rename has made the output.
    func forget(_ path: String) {
        condition.withLock { _ = paths.remove(path) }
    }

    /// Removes every temporary file registered (waiting for those being created), and
    /// refuses new ones.
    package func removeAll() {
        condition.withLock {
            closed = true
            while creating > 0 { condition.wait() }
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }

    /// Removes the temporary files that earlier runs left next to `output` when they did not
    /// end (killed, or the machine stopped): ours by name, and only when their process is gone.
    @discardableResult
    package static func removeStale(nextTo output: String) -> Int {
        removeStale(in: Path.parent(output), prefix: stem(of: output))
    }

    /// `.<output name>.`, the start of its temporary files' names, the output's name cut
    /// (at a character's boundary) so that a whole name fits the 255 bytes its own does.
    static func stem(of output: String) -> String {
        let name = Path.lastComponent(output).utf8
        // (A process number has at most 7 digits on Linux, the random part 13.)
        let room = 255 - 2 - 7 - 1 - 13 - suffix.utf8.count
        guard name.count > room else { return "." + Path.lastComponent(output) + "." }
        var end = name.index(name.startIndex, offsetBy: room)
        while end > name.startIndex, name[end] & 0xC0 == 0x80 { end = name.index(before: end) }
        return "." + String(decoding: name[..<end], as: UTF8.self) + "."
    }

    /// Like `removeStale(nextTo:)` for every output of a batch: each folder is read once.
    @discardableResult
    package static func removeStale(inFoldersOf outputs: [String]) -> Int {
        Set(outputs.map(Path.parent)).reduce(0) { $0 + removeStale(in: $1, prefix: ".") }
    }

    private static func removeStale(in directory: String, prefix: String) -> Int {
        var removed = 0
        for entry in (try? Files.entries(of: directory)) ?? [] {
            let name = String(decoding: entry, as: UTF8.self)
            guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { continue }
            // `.<name>.<pid>-<random>.outline-render-tmp`
            let stem = name.dropLast(suffix.count)
            guard let dot = stem.lastIndex(of: "."),
                let pid = Int32(stem[stem.index(after: dot)...].prefix { $0 != "-" }),
                pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            if unlink(Path.join(directory, name)) == 0 { removed += 1 }
        }
        return removed
    }
}
