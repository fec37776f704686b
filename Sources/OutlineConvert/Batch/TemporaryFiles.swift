import Foundation

/// The temporary files being written right now, so that an interrupt (Ctrl-C) can remove
/// them before the process exits. Once `removeAll()` has run, no new one may be created.
public final class TemporaryFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: Set<String> = []
    private var closed = false

    /// An empty registry.
    public init() {}

    /// Records `path`; false when the run is being interrupted (do not write it then).
    func register(_ path: String) -> Bool {
        lock.withLock {
            guard !closed else { return false }
            paths.insert(path)
            return true
        }
    }

    func unregister(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    /// Removes every temporary file still registered, and refuses new ones.
    public func removeAll() {
        lock.withLock {
            closed = true
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }
}
