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

    func run() -> Int32 { runReturningJobs().status }

    /// Runs the batch; also says which jobs it had (for `--watch`, to remove the outputs
    /// of inputs that are gone).
    func runReturningJobs() -> (status: Int32, jobs: [BatchJob]) {
        // The last run's record is read while the jobs are planned.
        let reading =
            parsed.noCache
            ? nil
            : BuildRecord.cacheFile(outputDirectory: outputDirectory, cacheDirectory: parsed.cacheDirectory).map(BuildRecord.Reading.init)
        let plan: BatchPlan
        do {
            plan = try BatchPlan(inputs: parsed.inputs, outputDirectory: outputDirectory, format: options.to)
        } catch {
            printError("Error: \(error)")
            return (2, [])
        }
        for skipped in plan.skipped { reporter.note("\(skipped.path): skipped: \(skipped.reason)") }
        plan.failures.forEach(reporter.error)
        if !parsed.check {
            TemporaryFiles.removeStale(inFoldersOf: plan.jobs.map(\.output))
        }

        // HTML into a folder is a docs site: links between pages, assets, the link check.
        let site =
            options.to == .html
            ? DocsSite(
                links: SiteLinks(jobs: plan.jobs, outputDirectory: outputDirectory),
                outputDirectory: outputDirectory, index: parsed.index ? Path.join(outputDirectory, "index.html") : nil,
                siteURL: options.siteURL)
            : nil
        // A site's pages depend on which files are inputs (their links point at them).
        let inputs =
            site == nil ? "" : BuildRecord.hash(Array(plan.jobs.map(\.input).joined(separator: "\u{0}").utf8)) + (parsed.index ? "+index" : "")
        let key = [options.fingerprint, Self.programIdentity, inputs].joined(separator: "\u{0}")
        let record = reading.map { BuildRecord($0, key: key) }
        if !parsed.check {
            // Earlier versions kept the record in the output folder, where a deploy published it.
            unlink(Path.join(outputDirectory, BuildRecord.legacyFileName))
        }
        let runner = BatchRunner(
            converter: Converter(options: options), workers: parsed.jobs ?? max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1),
            check: parsed.check, temporaries: temporaries, record: record, protected: plan.inputIdentities, site: site)
        let tally = Tally(keepsPages: parsed.index || site != nil, failed: plan.failures.count)
        let total = plan.jobs.count
        let reporter = reporter
        let navigation = runner.run(
            plan.jobs,
            started: { index, job in
                reporter.progress(index + 1, of: total, job.input)
            },
            report: { result in
                tally.add(result)
                Self.report(result, reporter: reporter)
            })
        reporter.clearProgress()

        // (When no page converted, there is no site to navigate or search.)
        if let site, let navigation, !tally.pages.isEmpty {
            navigation.warnings.forEach(reporter.warning)
            checkLinksAndCopyAssets(tally.pages, runner: runner, tally: tally)
            var results = site.sharedFiles(navigation: navigation).map { runner.write($0.bytes, to: $0.path) }
            results.append(runner.writeSearchIndex(of: site, navigation: navigation, pages: tally.pages))
            for result in results {
                tally.add(result, countsAsPage: false)
                Self.report(result, reporter: reporter)
            }
        }
        if parsed.index { writeIndex(tally.pages, runner: runner, tally: tally) }
        if !parsed.check { record?.save(temporaries: temporaries) }
        reporter.summary(tally.summary(check: parsed.check, skipped: plan.skipped.count))
        return (tally.failed + tally.stale + tally.missing + reporter.promoted > 0 ? 1 : 0, plan.jobs)
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

    /// The link check of a docs site, then its assets copied (or with `--check`, compared).
    private func checkLinksAndCopyAssets(_ pages: [BatchResult], runner: BatchRunner, tally: Tally) {
        let (warnings, assets) = SiteCheck.run(pages.compactMap { page in page.facts.map { (page.job, $0) } })
        warnings.forEach(reporter.warning)
        for asset in assets {
            let outcome = runner.copy(asset.source, to: asset.output)
            tally.addAsset(outcome)
            reporter.outcome(outcome, input: asset.source, output: asset.output)
        }
    }

    /// `index.html` in the output folder, unless the tree makes one itself.
    private func writeIndex(_ pages: [BatchResult], runner: BatchRunner, tally: Tally) {
        guard let result = runner.index(of: pages, outputDirectory: outputDirectory) else {
            reporter.note("\(outputDirectory)/index.html: made by the tree itself; no index written")
            return
        }
        tally.add(result, countsAsPage: false)
        Self.report(result, reporter: reporter)
    }
}

/// Counts outcomes and keeps the converted pages' titles, as results arrive.
private final class Tally: @unchecked Sendable {
    private let lock = Lock()
    private(set) var written = 0, unchanged = 0, upToDate = 0, stale = 0, missing = 0, failed = 0
    private var files = 0
    /// Assets copied (or with `--check`, up to date) and those that failed or are stale.
    private var assetsCopied = 0, assetsUnchanged = 0
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
