#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch

/// How one job of a batch ended.
package enum BatchOutcome: Equatable, Sendable {
    /// The output was written (it was missing or differed).
    case written
    /// The output already held exactly this; it was not touched.
    case unchanged
    /// `--check`: the output holds exactly this.
    case upToDate
    /// `--check`: the output is missing (`missing`) or differs.
    case stale(missing: Bool)
    /// The input could not be converted or the output not written.
    case failed(ConversionError)
}

/// A finished job: its outcome, warnings, and the page title (for a docs index).
package struct BatchResult: Sendable {
    /// The job this is the result of.
    package let job: BatchJob
    /// How it ended.
    package let outcome: BatchOutcome
    /// Warnings met while converting it.
    package let warnings: [Diagnostic]
    /// The page title, when it converted.
    package let title: String?
    /// In a docs site: the page's ids and links, for the link check.
    package var facts: PageFacts? = nil
}

/// Runs a batch on `workers` threads. Every job goes through the same per-document
/// `Converter`; the bytes written never depend on the number of workers. Results are
/// handed to `report` one at a time and in job order, whatever order they finish in.
package struct BatchRunner: Sendable {
    /// The per-document pipeline every job goes through.
    package let converter: Converter
    /// How many files are converted at once.
    package let workers: Int
    /// Write nothing; say which outputs are missing or differ.
    package let check: Bool
    /// The temporary files being written, for an interrupt to remove.
    package let temporaries: TemporaryFiles
    /// What the last run wrote; jobs whose input and output are as it recorded are skipped.
    package let record: BuildRecord?
    /// The files that must never be written: every input of the run, by identity.
    package let protected: Set<FileIdentity>
    /// In a docs site: the run's links, and where its index page is written (if it has one).
    package let site: (links: SiteLinks, index: String?)?
    /// The output folders made (or found) so far: each is made once, not once per file.
    private let folders = KnownFolders()

    /// A runner; `record`, when given, lets unchanged jobs be skipped; `site` makes the
    /// pages a docs site.
    package init(
        converter: Converter, workers: Int, check: Bool, temporaries: TemporaryFiles, record: BuildRecord? = nil,
        protected: Set<FileIdentity> = [], site: (links: SiteLinks, index: String?)? = nil
    ) {
        self.converter = converter
        self.workers = max(1, workers)
        self.check = check
        self.temporaries = temporaries
        self.record = record
        self.protected = protected
        self.site = site
    }

    /// Runs `jobs`; `started` is told of each job as a worker takes it (for progress).
    package func run(
        _ jobs: [BatchJob], started: @escaping @Sendable (Int, BatchJob) -> Void = { _, _ in },
        report: @escaping @Sendable (BatchResult) -> Void
    ) {
        let count = min(workers, max(jobs.count, 1))
        let queue = InOrderQueue(jobs, workers: count, report: report)
        DispatchQueue.concurrentPerform(iterations: count) { worker in
            let lookup = FileStatusLookup()  // (a worker takes one folder's jobs at a time)
            while let index = queue.nextJob(worker: worker) {
                started(index, jobs[index])
                queue.finish(index, result: convert(jobs[index], lookup: lookup))
            }
        }
    }

    /// Converts one job; everything it holds is released before the next one starts.
    package func convert(_ job: BatchJob) -> BatchResult {
        convert(job, lookup: FileStatusLookup())
    }

    private func convert(_ job: BatchJob, lookup: FileStatusLookup) -> BatchResult {
        // The input's status before it is read: when it is as recorded, it is not read at all.
        let status = record?.inputStatus(job.input, lookup: lookup) ?? ""
        if let (title, facts, warnings) = record?.unchanged(job, status: status, lookup: lookup) {
            return BatchResult(job: job, outcome: check ? .upToDate : .unchanged, warnings: warnings, title: title, facts: facts)
        }
        let input: [UInt8]
        do {
            input = try converter.load(job.input)
        } catch let error as ConversionError {
            return BatchResult(job: job, outcome: .failed(error), warnings: [], title: nil)
        } catch {
            return BatchResult(job: job, outcome: .failed(.io(path: job.input, "cannot read")), warnings: [], title: nil)
        }
        if let (title, facts, warnings) = record?.unchanged(job, status: status, input: input, lookup: lookup) {
            return BatchResult(job: job, outcome: check ? .upToDate : .unchanged, warnings: warnings, title: title, facts: facts)
        }
        let page = site.map { site in
            PageSite(
                links: site.links.page(job),
                indexLink: site.index.flatMap { index in
                    // (The index page itself needs no link to itself.)
                    BatchPlan.absolute(index) == BatchPlan.absolute(job.output)
                        ? nil : SiteLinks.relative(from: Path.parent(BatchPlan.absolute(job.output)), to: BatchPlan.absolute(index))
                })
        }
        let result = finish(job) { try converter.convert(input, file: job.input, site: page) }
        switch result.outcome {
        case .written, .unchanged, .upToDate:
            record?.record(
                job, input: input, status: status, title: result.title ?? "", facts: result.facts, warnings: result.warnings, lookup: lookup)
        case .stale, .failed: break
        }
        return result
    }

    /// Writes (or with `check`, compares) `index.html` in `outputDirectory`: every page by
    /// title, in folder order, converted like the pages themselves. Nil when one of the
    /// pages is that `index.html` already.
    package func index(of pages: [BatchResult], outputDirectory: String) -> BatchResult? {
        let path = Path.join(outputDirectory, "index.html")
        guard !pages.contains(where: { BatchPlan.absolute($0.job.output) == BatchPlan.absolute(path) }) else { return nil }
        let entries = pages.compactMap { page in page.title.map { (page.job.output, $0) } }
        let markdown = DocsIndex.markdown(title: "Index", pages: entries, outputDirectory: outputDirectory)
        var options = converter.options
        options.from = .markdown
        options.title = nil
        options.collapse = CollapseOptions()
        let indexConverter = Converter(options: options)
        return finish(BatchJob(input: "index", output: path)) {
            try indexConverter.convert(Array(markdown.utf8), file: "index.md")
        }
    }

    /// Copies an asset of a docs site to `output` (atomically, only when it differs; with
    /// `check` only compared). A file that is its own destination is left alone.
    package func copy(_ source: String, to output: String) -> BatchOutcome {
        if let identity = FileIdentity(path: output), identity == FileIdentity(path: source) { return check ? .upToDate : .unchanged }
        do {
            let bytes = try Files.read(source, limit: 1 << 30)
            if !check { try folders.make(Path.parent(output)) }
            return try Self.deliver(bytes, to: output, check: check, temporaries: temporaries, protected: protected)
        } catch let error as ConversionError {
            return .failed(error)
        } catch {
            return .failed(.io(path: output, "\(error)"))
        }
    }

    /// Puts `content` at `output`: written only when it differs, or with `check` only
    /// compared (`.upToDate` or `.stale`). The one place a single file and a batch job end.
    package static func deliver(
        _ content: [UInt8], to output: String, check: Bool, temporaries: TemporaryFiles, protected: Set<FileIdentity>
    ) throws -> BatchOutcome {
        if check {
            let current = try? Files.read(output, limit: content.count)
            return current == content ? .upToDate : .stale(missing: FileIdentity(path: output) == nil)
        }
        let outcome = try Files.write(content, to: output, temporaries: temporaries, protected: protected)
        return outcome == .written ? .written : .unchanged
    }

    private func finish(_ job: BatchJob, _ conversion: () throws -> Conversion) -> BatchResult {
        do {
            let conversion = try conversion()
            if !check { try folders.make(Path.parent(job.output)) }
            let outcome = try Self.deliver(
                conversion.bytes, to: job.output, check: check, temporaries: temporaries, protected: protected)
            return BatchResult(job: job, outcome: outcome, warnings: conversion.warnings, title: conversion.title, facts: conversion.facts)
        } catch let error as ConversionError {
            return BatchResult(job: job, outcome: .failed(error), warnings: [], title: nil)
        } catch {
            return BatchResult(job: job, outcome: .failed(.io(path: job.output, "\(error)")), warnings: [], title: nil)
        }
    }
}

/// The folders a run has made or found, so that each is made once.
private final class KnownFolders: @unchecked Sendable {
    private let lock = Lock()
    private var known: Set<String> = []

    /// Makes `folder` and its parents unless that was done already.
    func make(_ folder: String) throws {
        guard !lock.withLock({ known.contains(folder) }) else { return }
        try Files.makeFolder(folder)
        lock.withLock { _ = known.insert(folder) }
    }
}

/// Hands out job numbers and passes results on in job order. Each worker takes the jobs of
/// one output folder at a time: two workers creating files in the same folder wait on the
/// folder's lock in the kernel (on ext4, a large part of a run). When no folder is
/// left, a worker takes the second half of what another one has left.
private final class InOrderQueue: @unchecked Sendable {
    private let lock = Lock()
    /// The jobs not yet taken: runs of consecutive job numbers, one folder's each.
    private var unclaimed: [Range<Int>]
    /// What each worker has left of the run it took.
    private var current: [Range<Int>]
    private var pending: [Int: BatchResult] = [:]
    private var nextToReport = 0
    private let report: @Sendable (BatchResult) -> Void

    init(_ jobs: [BatchJob], workers: Int, report: @escaping @Sendable (BatchResult) -> Void) {
        var runs: [Range<Int>] = []
        var start = 0
        for index in jobs.indices.dropFirst() where Path.parent(jobs[index].output) != Path.parent(jobs[index - 1].output) {
            runs.append(start..<index)
            start = index
        }
        if !jobs.isEmpty { runs.append(start..<jobs.count) }
        unclaimed = runs.reversed()
        current = Array(repeating: 0..<0, count: workers)
        self.report = report
    }

    /// The next job for `worker`, or nil when every job is taken.
    func nextJob(worker: Int) -> Int? {
        lock.withLock {
            if current[worker].isEmpty {
                if let run = unclaimed.popLast() {
                    current[worker] = run
                } else if let (other, run) = current.enumerated().max(by: { $0.element.count < $1.element.count }), run.count > 1 {
                    let middle = run.lowerBound + run.count / 2
                    current[other] = run.lowerBound..<middle
                    current[worker] = middle..<run.upperBound
                }
            }
            return current[worker].popFirst()
        }
    }

    func finish(_ index: Int, result: BatchResult) {
        lock.withLock {
            pending[index] = result
            while let ready = pending.removeValue(forKey: nextToReport) {
                report(ready)
                nextToReport += 1
            }
        }
    }
}
