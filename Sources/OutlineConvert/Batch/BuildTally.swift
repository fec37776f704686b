/// Counts a build's outcomes and keeps the converted pages' titles, as results arrive.
final class BuildTally: @unchecked Sendable {
    private let lock = Lock()
    private(set) var written = 0, unchanged = 0, upToDate = 0, stale = 0, missing = 0, failed = 0
    private var files = 0
    /// Assets copied (or with `--check`, up to date) and those that failed or are stale.
    private var assetsCopied = 0, assetsUnchanged = 0
    /// Outputs of earlier runs removed (their source is gone).
    private var removed = 0
    private var converted: [BatchResult] = []
    /// Only a docs index needs the converted pages' titles.
    private let keepsPages: Bool

    /// `failed`: the failures found before converting (folders that cannot be read, …).
    init(keepsPages: Bool, failed: Int) {
        self.keepsPages = keepsPages
        self.failed = failed
        files = failed
    }

    /// The pages converted, in job order.
    var pages: [BatchResult] { lock.withLock { converted } }

    /// Counts a result; the index (`countsAsPage: false`) counts only when it fails or is stale.
    func add(_ result: BatchResult, countsAsPage: Bool = true) {
        lock.withLock {
            if countsAsPage { files += 1 }
            switch result.outcome {
            case .written: if countsAsPage { written += 1 }
            case .unchanged: if countsAsPage { unchanged += 1 }
            case .upToDate: if countsAsPage { upToDate += 1 }
            case .stale(let isMissing): if isMissing { missing += 1 } else { stale += 1 }
            case .failed: failed += 1
            }
            if keepsPages, countsAsPage, result.title != nil { converted.append(result) }
        }
    }

    /// `--check`: an output that no input makes any more.
    func addStale() { lock.withLock { stale += 1 } }

    /// Outputs removed because no input makes them any more.
    func addRemoved(_ count: Int) { lock.withLock { removed += count } }

    /// Counts a copied asset; a failed or stale one counts like a page's.
    func addAsset(_ outcome: BatchOutcome) {
        lock.withLock {
            switch outcome {
            case .written: assetsCopied += 1
            case .unchanged, .upToDate: assetsUnchanged += 1
            case .stale(let isMissing): if isMissing { missing += 1 } else { stale += 1 }
            case .failed: failed += 1
            }
        }
    }

    func summary(check: Bool, skipped: Int) -> String {
        lock.withLock {
            var parts =
                check
                ? ["\(upToDate) up to date", "\(stale) stale", "\(missing) missing", "\(failed) failed"]
                : ["\(written) written", "\(unchanged) unchanged", "\(failed) failed"]
            if skipped > 0 { parts.append("\(skipped) skipped") }
            if removed > 0 { parts.append("\(removed) removed") }
            if assetsCopied + assetsUnchanged > 0 {
                parts.append(
                    check
                        ? "\(assetsUnchanged) \(assetsUnchanged == 1 ? "asset" : "assets") up to date"
                        : "\(assetsCopied) \(assetsCopied == 1 ? "asset" : "assets") copied, \(assetsUnchanged) unchanged")
            }
            return "\(files) \(files == 1 ? "file" : "files")\(check ? " checked" : ""): " + parts.joined(separator: ", ")
        }
    }
}
