#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folders a run has made or found, so that each is made once, and never one that a
/// symbolic link in the output folder leads out of it (docs/safety.md).
final class KnownFolders: @unchecked Sendable {
    private let lock = Lock()
    private var known: Set<PathKey> = []
    /// The folders `make` created (not those it found), for `removeMade`.
    private var made: [String] = []
    /// The output folder, resolved (nil: a run of single files, whose outputs the user named).
    private let root: String?

    init(root: String?) { self.root = root }

    /// Makes `folder` and its parents unless that was done already; refuses one whose real
    /// place is outside the output folder.
    func make(_ folder: String) throws {
        guard !lock.withLock({ known.contains(PathKey(folder)) }) else { return }
        if let root {
            let real = BatchPlan.resolved(folder)
            guard Path.isWithin(real, root) else {
                throw ConversionError.io(
                    path: folder, "a symbolic link in the output folder leads to \(Quote.oneLine(real)), outside it; nothing is written there")
            }
        }
        var missing: [String] = []
        var info = stat()
        var probe = folder
        while lstat(probe, &info) != 0, errno == ENOENT, Path.parent(probe) != probe {
            missing.append(probe)
            probe = Path.parent(probe)
        }
        try Files.makeFolder(folder)
        lock.withLock {
            known.insert(PathKey(folder))
            made += missing
        }
    }

    /// Removes the folders `make` created, if empty (a run stopped before writing).
    func removeMade() {
        for folder in lock.withLock({ made }).sorted(by: { $0.utf8.count > $1.utf8.count }) { rmdir(folder) }
    }
}
