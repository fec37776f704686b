#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import OutlineConvert

/// A batch from the command line: plans the jobs, runs them in parallel, reports each
/// result in order, writes the docs index, and ends with a summary line.
struct Batch {
    let parsed: Arguments
    let options: ConversionOptions
    let outputDirectory: String
    let reporter: Reporter
    let temporaries: TemporaryFiles

    /// Runs the batch; returns the exit status.
    func run() -> Int32 {
        let cacheFile = parsed.noCache ? nil : BuildRecord.cacheFile(outputDirectory: outputDirectory, cacheDirectory: parsed.cacheDirectory)
        // The last run's record is read while the jobs are planned. `--check` compares every
        // output's bytes, whatever the record says.
        let reading = parsed.check ? nil : cacheFile.map(BuildRecord.Reading.init)
        let plan: BatchPlan
        do {
            plan = try BatchPlan(inputs: parsed.inputs, outputDirectory: outputDirectory, format: options.to)
        } catch {
            printError("Error: \(error)")
            return 2
        }
        for skipped in plan.skipped { reporter.note("\(skipped.path): skipped: \(skipped.reason)") }
        plan.warnings.forEach(reporter.warning)
        plan.failures.forEach(reporter.error)
        if !parsed.check {
            TemporaryFiles.removeStale(inFoldersOf: plan.jobs.map(\.output))
        }

        // HTML into a folder is a docs site: links between pages, assets, the link check.
        let site =
            options.to == .html
            ? DocsSite(
                links: SiteLinks(jobs: plan.jobs, outputDirectory: outputDirectory),
                outputDirectory: outputDirectory, index: parsed.site.index ? Path.join(outputDirectory, "index.html") : nil,
                siteURL: parsed.site.siteURL)
            : nil
        // A site's pages depend on which files are inputs (their links point at them).
        let inputs =
            site == nil ? "" : BuildRecord.hash(Array(plan.jobs.map(\.input).joined(separator: "\u{0}").utf8)) + "\u{0}" + parsed.site.fingerprint
        let key = [options.fingerprint, Self.programIdentity, inputs].joined(separator: "\u{0}")
        let record = reading.map { BuildRecord($0, key: key) }
        if !parsed.check {
            // Earlier versions kept the record in the output folder, where a deploy published it.
            unlink(Path.join(outputDirectory, BuildRecord.legacyFileName))
        }
        let runner = BatchRunner(
            converter: Converter(options: options), workers: parsed.jobs ?? max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1),
            check: parsed.check, temporaries: temporaries, record: record, protected: plan.inputIdentities, site: site,
            outputDirectory: outputDirectory)
        let tally = Tally(keepsPages: parsed.site.index || site != nil, failed: plan.failures.count)
        let total = plan.jobs.count
        let reporter = reporter
        // In a site, the link check runs once every page is read, before any is written: an
        // asset that would land on a page or on a file the site makes stops the run.
        var linkCheck: (warnings: [Diagnostic], assets: [(source: String, output: String)]) = ([], [])
        var conflicts: [String] = []
        let navigation = runner.run(
            plan.jobs,
            started: { index, job in
                reporter.progress(index + 1, of: total, job.input)
            },
            beforeWriting: { pages, _ in
                guard let site else { return true }
                linkCheck = SiteCheck.run(pages, links: site.links)
                conflicts = site.conflicts(of: linkCheck.assets, pages: plan.jobs)
                return conflicts.isEmpty
            },
            report: { result in
                tally.add(result)
                Self.report(result, reporter: reporter)
            })
        reporter.clearProgress()
        guard conflicts.isEmpty else {
            printError("Error: " + conflicts.map(Quote.oneLine).joined(separator: "\n"))
            return 2
        }
        var made = plan.jobs.map(\.output)

        // (When no page converted, there is no site to navigate or search.)
        if let site, let navigation, !tally.pages.isEmpty {
            navigation.warnings.forEach(reporter.warning)
            linkCheck.warnings.forEach(reporter.warning)
            for asset in linkCheck.assets {
                let outcome = runner.copy(asset.source, to: asset.output)
                tally.addAsset(outcome)
                reporter.outcome(outcome, input: asset.source, output: asset.output)
                made.append(asset.output)
            }
            var results = site.sharedFiles(navigation: navigation).map { runner.write($0.bytes, to: $0.path) }
            results.append(runner.writeSearchIndex(of: site, navigation: navigation, pages: tally.pages))
            for result in results {
                tally.add(result, countsAsPage: false)
                Self.report(result, reporter: reporter)
                made.append(result.job.output)
            }
        }
        if parsed.site.index, let index = writeIndex(tally.pages, runner: runner, tally: tally) { made.append(index) }
        if !parsed.check { record?.save(temporaries: temporaries) }
        removeStale(
            list: cacheFile.map(OutputList.init(recordFile:)), made: made,
            complete: plan.failures.isEmpty && parsed.inputs.allSatisfy { FileIdentity(path: $0) != nil }, tally: tally)
        reporter.summary(tally.summary(check: parsed.check, skipped: plan.skipped.count))
        return tally.failed + tally.stale + tally.missing + reporter.promoted > 0 ? 1 : 0
    }

    /// Removes what an earlier run wrote into the output folder and this one did not (its
    /// source is gone), or with `--check` reports it as stale: what the list kept beside
    /// the build record names, and in a site every page that carries outline-render's
    /// generator mark (so that a fresh clone, or `--no-cache`, which keeps no list, finds
    /// them too). `complete` is false when part of the tree could not be read, and then
    /// nothing is removed.
    private func removeStale(list: OutputList?, made: [String], complete: Bool, tally: Tally) {
        let previous = list?.read() ?? []
        let site = options.to == .html && parsed.inputs.allSatisfy(isDirectory)
        let (current, gone) = OutputList.stale(
            made: made, previous: previous, in: outputDirectory, pagesAside: site ? parsed.inputs : nil)
        if parsed.check {
            for relative in gone {
                reporter.error(file: Path.join(outputDirectory, relative), "stale: no input makes it any more; a build removes it")
                tally.addStale()
            }
            return
        }
        let left = complete ? OutputList.remove(gone, from: outputDirectory) : gone
        for relative in gone where complete && !left.contains(relative) {
            reporter.summary("\(Quote.oneLine(Path.join(outputDirectory, relative))): removed, no input makes it any more")
        }
        if complete && !gone.isEmpty { tally.addRemoved(gone.count - left.count) }
        guard let list, !(previous.isEmpty && current.isEmpty) else { return }
        list.save(current + left, temporaries: temporaries)
    }

    /// This program's own file (size and time): a rebuilt outline-render may write other bytes.
    private static var programIdentity: String {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "unknown" }
        return "\(info.st_size)-\(info.modifiedNanoseconds)-\(CLI.version)"
    }

    private static func report(_ result: BatchResult, reporter: Reporter) {
        result.warnings.forEach(reporter.warning)
        reporter.outcome(result.outcome, input: result.job.input, output: result.job.output)
    }

    /// `index.html` in the output folder, unless the tree makes one itself; returns its path
    /// when it made one.
    private func writeIndex(_ pages: [BatchResult], runner: BatchRunner, tally: Tally) -> String? {
        guard let result = runner.index(of: pages, outputDirectory: outputDirectory) else {
            reporter.note("\(outputDirectory)/index.html: made by the tree itself; no index written")
            return nil
        }
        tally.add(result, countsAsPage: false)
        Self.report(result, reporter: reporter)
        return result.job.output
    }
}

/// Counts outcomes and keeps the converted pages' titles, as results arrive.
private final class Tally: @unchecked Sendable {
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
