#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files a batch wrote into its output folder, as paths below it, kept beside the
/// build record in the cache folder (never in the output folder, which a deploy publishes).
/// A later run removes those it does not write again, whose source is gone, and never a
/// file that no run wrote (a `CNAME`, a hand-made page): docs/safety.md.
struct OutputList: Sendable {
    /// The list's own file.
    package let path: String

    /// The list kept beside the build record `recordFile`.
    package init(recordFile: String) {
        path = Path.deletingExtension(recordFile) + ".outputs"
    }

    /// The paths the last run wrote (below its output folder); none when there is no list.
    package func read() -> [String] {
        guard let bytes = try? Files.read(path, limit: 1 << 30) else { return [] }
        return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Keeps `relatives` (paths below the output folder) as what this run wrote.
    package func save(_ relatives: [String], temporaries: TemporaryFiles) {
        var bytes: [UInt8] = []
        for relative in relatives.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            bytes += relative.utf8
            bytes.append(0)
        }
        _ = try? Files.write(bytes, to: path, temporaries: temporaries)
    }

    /// What a run that `made` these outputs leaves stale in `outputDirectory`: of what the
    /// last run wrote (`previous`) and, for a site built from the folders `pagesAside`,
    /// every page of outline-render's there (`ownPages`), those still there that this run
    /// did not make. Also `made` as paths below the output folder, the list to keep.
    package static func stale(
        made: [String], previous: [String], in outputDirectory: String, pagesAside inputFolders: [String]?
    ) -> (current: [String], gone: [String]) {
        let root = BatchPlan.absolute(outputDirectory)
        let current = made.compactMap { Path.relative(BatchPlan.absolute($0), below: root) }
        var seen = Set(current.map(PathKey.init))
        let candidates = previous + (inputFolders.map { ownPages(in: outputDirectory, inputFolders: $0, except: seen) } ?? [])
        return (current, present(candidates.filter { seen.insert(PathKey($0)).inserted }, in: outputDirectory))
    }

    /// Of `relatives` (what an earlier run wrote below `outputDirectory` and this one did
    /// not), those still there as regular files (never a link, never a folder), and not
    /// reached through a symbolic link that leads out of the output folder.
    private static func present(_ relatives: [String], in outputDirectory: String) -> [String] {
        let root = BatchPlan.resolved(outputDirectory)
        return relatives.filter { relative in
            guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else { return false }
            let path = Path.join(outputDirectory, relative)
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
            return Path.isWithin(BatchPlan.resolved(Path.parent(path)), root)
        }
    }

    /// The pages below `outputDirectory` that a run of outline-render wrote, as relative
    /// paths: HTML files that carry its generator mark in their head, and every file of the
    /// site's own folder. Hidden folders are not looked in, and links are not followed. This
    /// finds stale pages with no list at all (`--no-cache`, or a fresh clone of a committed
    /// site). Folders that hold inputs (`inputFolders`) are never looked in: an output folder that
    /// holds its input folder holds pages that are not this run's. Files in `except` (this
    /// run's outputs) are not read.
    static func ownPages(in outputDirectory: String, inputFolders: [String], except made: Set<PathKey> = []) -> [String] {
        var found: [String] = []
        var pending = [""]
        let root = BatchPlan.resolved(outputDirectory)
        let inputs = inputFolders.map(BatchPlan.resolved)
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? outputDirectory : Path.join(outputDirectory, relative)
            for bytes in (try? Files.entries(of: folder)) ?? [] {
                guard bytes.first != UInt8(ascii: "."), let name = String(validating: bytes, as: UTF8.self) else { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(Path.join(outputDirectory, path), &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    let real = Path.join(root, path)
                    if !inputs.contains(where: { Path.isWithin(real, $0) }) { pending.append(path) }
                case S_IFREG:
                    if made.contains(PathKey(path)) { continue }
                    if path.hasPrefix(DocsSite.sharedFolder + "/") {
                        found.append(path)
                    } else if Path.fileExtension(name) == "html",
                        let head = try? Files.head(of: Path.join(outputDirectory, path), count: 2048),
                        head[...].contains(bytes: "<meta name=\"generator\" content=\"outline-render\">")
                    {
                        found.append(path)
                    }
                default: continue
                }
            }
        }
        return found
    }

    /// Removes `relatives` (from `present`) below `outputDirectory`, then each folder that
    /// this leaves empty, up to the output folder; returns those that could not be removed.
    package static func remove(_ relatives: [String], from outputDirectory: String) -> [String] {
        var failed: [String] = []
        var folders: Set<PathKey> = []
        var emptied: [String] = []
        for relative in relatives {
            let path = Path.join(outputDirectory, relative)
            guard unlink(path) == 0 || errno == ENOENT else {
                failed.append(relative)
                continue
            }
            var folder = Path.parent(relative)
            while folder != "." && folder != "/" && folders.insert(PathKey(folder)).inserted {
                emptied.append(folder)
                folder = Path.parent(folder)
            }
        }
        // (The deepest first; rmdir leaves a folder that still holds anything.)
        for folder in emptied.sorted(by: { $0.utf8.count > $1.utf8.count }) { rmdir(Path.join(outputDirectory, folder)) }
        return failed
    }
}
