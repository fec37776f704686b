import Foundation

/// How one job of a batch ended.
public enum BatchOutcome: Equatable, Sendable {
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
public struct BatchResult: Sendable {
    /// The job this is the result of.
    public let job: BatchJob
    /// How it ended.
    public let outcome: BatchOutcome
    /// Warnings met while converting it.
    public let warnings: [Diagnostic]
    /// The page title, when it converted.
    public let title: String?
    /// In a docs site: the page's ids and links, for the link check.
    public var facts: PageFacts? = nil
}

/// Runs a batch on `workers` threads. Every job goes through the same per-document
/// `Converter`; the bytes written never depend on the number of workers. Results are
/// handed to `report` one at a time and in job order, whatever order they finish in.
public struct BatchRunner: Sendable {
    /// The per-document pipeline every job goes through.
    public let converter: Converter
    /// How many files are converted at once.
    public let workers: Int
    /// Write nothing; say which outputs are missing or differ.
    public let check: Bool
    /// The temporary files being written, for an interrupt to remove.
    public let temporaries: TemporaryFiles
    /// What the last run wrote; jobs whose input and output are as it recorded are skipped.
    public let record: BuildRecord?
    /// The files that must never be written: every input of the run, by identity.
    public let protected: Set<FileIdentity>
    /// In a docs site: the run's links, and where its index page is written (if it has one).
    public let site: (links: SiteLinks, index: String?)?

    /// A runner; `record`, when given, lets unchanged jobs be skipped; `site` makes the
    /// pages a docs site.
    public init(
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
    public func run(
        _ jobs: [BatchJob], started: @escaping @Sendable (Int, BatchJob) -> Void = { _, _ in },
        report: @escaping @Sendable (BatchResult) -> Void
    ) {
        let queue = InOrderQueue(count: jobs.count, report: report)
        DispatchQueue.concurrentPerform(iterations: min(workers, max(jobs.count, 1))) { _ in
            while let index = queue.nextJob() {
                started(index, jobs[index])
                queue.finish(index, result: convert(jobs[index]))
            }
        }
    }

    /// Converts one job; everything it holds is released before the next one starts.
    public func convert(_ job: BatchJob) -> BatchResult {
        let input: [UInt8]
        do {
            input = try converter.load(job.input)
        } catch let error as ConversionError {
            return BatchResult(job: job, outcome: .failed(error), warnings: [], title: nil)
        } catch {
            return BatchResult(job: job, outcome: .failed(.io(path: job.input, "cannot read")), warnings: [], title: nil)
        }
        if let (title, facts, warnings) = record?.unchanged(job, input: input) {
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
            record?.record(job, input: input, title: result.title ?? "", facts: result.facts, warnings: result.warnings)
        case .stale, .failed: break
        }
        return result
    }

    /// Writes (or with `check`, compares) `index.html` in `outputDirectory`: every page by
    /// title, in folder order, converted like the pages themselves. Nil when one of the
    /// pages is that `index.html` already.
    public func index(of pages: [BatchResult], outputDirectory: String) -> BatchResult? {
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
    public func copy(_ source: String, to output: String) -> BatchOutcome {
        if let identity = FileIdentity(path: output), identity == FileIdentity(path: source) { return check ? .upToDate : .unchanged }
        do {
            let bytes = try Files.read(source, limit: 1 << 30)
            if !check { try FileManager.default.createDirectory(atPath: Path.parent(output), withIntermediateDirectories: true) }
            return try Self.deliver(bytes, to: output, check: check, temporaries: temporaries, protected: protected)
        } catch let error as ConversionError {
            return .failed(error)
        } catch {
            return .failed(.io(path: output, "cannot create the folder: \(error.localizedDescription)"))
        }
    }

    /// Puts `content` at `output`: written only when it differs, or with `check` only
    /// compared (`.upToDate` or `.stale`). The one place a single file and a batch job end.
    public static func deliver(
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
            if !check {
                try FileManager.default.createDirectory(atPath: Path.parent(job.output), withIntermediateDirectories: true)
            }
            let outcome = try Self.deliver(
                conversion.bytes, to: job.output, check: check, temporaries: temporaries, protected: protected)
            return BatchResult(job: job, outcome: outcome, warnings: conversion.warnings, title: conversion.title, facts: conversion.facts)
        } catch let error as ConversionError {
            return BatchResult(job: job, outcome: .failed(error), warnings: [], title: nil)
        } catch {
            let failure = ConversionError.io(path: job.output, "cannot create the folder: \(error.localizedDescription)")
            return BatchResult(job: job, outcome: .failed(failure), warnings: [], title: nil)
        }
    }
}

/// Hands out job numbers and passes results on in job order.
private final class InOrderQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var pending: [Int: BatchResult] = [:]
    private var nextToReport = 0
    private let count: Int
    private let report: @Sendable (BatchResult) -> Void

    init(count: Int, report: @escaping @Sendable (BatchResult) -> Void) {
        self.count = count
        self.report = report
    }

    func nextJob() -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
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
