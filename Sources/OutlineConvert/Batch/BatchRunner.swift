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
struct BatchResult: Sendable {
    /// The job this is the result of.
    let job: BatchJob
    /// How it ended.
    package let outcome: BatchOutcome
    /// Warnings met while converting it.
    package let warnings: [Diagnostic]
    /// The page title, when it converted.
    package let title: String?
    /// In a docs site: the page's ids and links, for the link check.
    var facts: PageFacts? = nil
    /// Whether it was converted in this run (not skipped as unchanged): only then do its
    /// facts hold its sections' text.
    package var converted = false
}

/// What each job of a batch does: its input read (or skipped, when the record of the last
/// run says it is unchanged), converted through the same per-document `Converter`, its
/// output written (or compared, with `check`) and recorded; in a docs site, the pages held
/// until every one is read, then written with their neighbours (`SitePages.swift`). The
/// jobs run on a `WorkerPool`: the bytes written never depend on the number of workers,
/// and results are handed to `report` one at a time and in job order.
package struct BatchRunner: Sendable {
    /// The per-document pipeline every job goes through.
    package let converter: Converter
    /// The threads the jobs run on.
    let pool: WorkerPool
    /// Write nothing; say which outputs are missing or differ.
    package let check: Bool
    /// The temporary files being written, for an interrupt to remove.
    package let temporaries: TemporaryFiles
    /// What the last run wrote; jobs whose input and output are as it recorded are skipped.
    let record: BuildRecord?
    /// The files that must never be written: every input of the run, by identity.
    package let protected: Set<FileIdentity>
    /// In a docs site: the run's links, its output folder, and where its index page is
    /// written (if it has one).
    let site: DocsSite?
    /// The output folders made (or found) so far: each is made once, not once per file.
    let folders: KnownFolders
    /// In a docs site: the pages converted, until every page is read.
    let waiting: WaitingPages

    /// A runner; `record`, when given, lets unchanged jobs be skipped; `site` makes the
    /// pages a docs site, whose converted pages are held in memory up to `pageMemory`
    /// bytes in all while they wait for the rest to be read (beyond it, in temporary files).
    /// Every file is written inside `outputDirectory`, when given, never through a
    /// symbolic link that leads out of it.
    init(
        converter: Converter, workers: Int, check: Bool, temporaries: TemporaryFiles, record: BuildRecord? = nil,
        protected: Set<FileIdentity> = [], site: DocsSite? = nil, pageMemory: Int = 256 << 20, outputDirectory: String? = nil
    ) {
        folders = KnownFolders(root: (outputDirectory ?? site?.outputDirectory).map(BatchPlan.resolved))
        // (`check` writes nothing, not even a temporary file.)
        waiting = WaitingPages(budget: check ? .max : pageMemory, temporaries: temporaries)
        self.converter = converter
        pool = WorkerPool(workers: workers)
        self.check = check
        self.temporaries = temporaries
        self.record = record
        self.protected = protected
        self.site = site
    }

    /// Runs `jobs`; `started` is told of each job as a worker takes it (for progress). In a
    /// docs site, returns its navigation (made once every page has been read), unless
    /// `beforeWriting`, shown every page that read well with its facts and the navigation
    /// before any page is written, says no: then nothing is written (the pages waiting
    /// and the folders made for them are removed) and the result is nil.
    @discardableResult
    func run(
        _ jobs: [BatchJob], started: @escaping @Sendable (Int, BatchJob) -> Void = { _, _ in },
        beforeWriting: ([(job: BatchJob, facts: PageFacts)], SiteNavigation) -> Bool = { _, _ in true },
        report: @escaping @Sendable (BatchResult) -> Void
    ) -> SiteNavigation? {
        guard let site else {
            pool.run(jobs, report: report) { index, lookup in
                started(index, jobs[index])
                return convert(jobs[index], lookup: lookup)
            }
            return nil
        }
        return runSite(jobs, site: site, started: started, beforeWriting: beforeWriting, report: report)
    }

    /// Converts one job; everything it holds is released before the next one starts.
    func convert(_ job: BatchJob) -> BatchResult {
        convert(job, lookup: FileStatusLookup())
    }

    private func convert(_ job: BatchJob, lookup: FileStatusLookup) -> BatchResult {
        switch draft(job, site: nil, lookup: lookup) {
        case .done(let result): return result
        case .unchanged(let result, _): return result
        case .converted(let conversion, let input, _): return deliver(job, conversion, input: input, lookup: lookup)
        }
    }

    /// A page read: known to be unchanged (with the pager it was written with), converted
    /// but not written yet (in a site, its bytes waiting apart), or done (it failed).
    enum Draft: Sendable {
        case done(BatchResult)
        case unchanged(BatchResult, pager: String)
        case converted(Conversion, input: (hash: String, status: String), waiting: WaitingPages.Page? = nil)

        /// The page's title and facts, for the site's navigation.
        var result: (title: String?, facts: PageFacts?) {
            switch self {
            case .done(let result), .unchanged(let result, _): (result.title, result.facts)
            case .converted(let conversion, _, _): (conversion.title, conversion.facts)
            }
        }
    }

    /// Reads `job` (converted unless the record, when `trusted`, says its output is as it was).
    func draft(_ job: BatchJob, site: DocsSite?, lookup: FileStatusLookup, trusted: Bool = true) -> Draft {
        let record = trusted ? record : nil
        // The input's status before it is read: when it is as recorded, it is not read at all.
        let status = self.record?.inputStatus(job.input, lookup: lookup) ?? ""
        if let (title, facts, warnings, pager) = record?.unchanged(job, status: status, lookup: lookup) {
            return .unchanged(
                BatchResult(job: job, outcome: check ? .upToDate : .unchanged, warnings: warnings, title: title, facts: facts), pager: pager)
        }
        let input: [UInt8]
        do {
            input = try converter.load(job.input)
        } catch {
            return .done(BatchResult(job: job, outcome: .failed(.unexpected(error, file: job.input)), warnings: [], title: nil))
        }
        if let (title, facts, warnings, pager) = record?.unchanged(job, status: status, input: input, lookup: lookup) {
            return .unchanged(
                BatchResult(job: job, outcome: check ? .upToDate : .unchanged, warnings: warnings, title: title, facts: facts), pager: pager)
        }
        do {
            var conversion = try converter.convert(input, file: job.input, site: site?.page(job))
            guard site != nil else { return .converted(conversion, input: (BuildRecord.hash(input), status)) }
            if !check { try folders.make(Path.parent(job.output)) }
            let page = try waiting.keep(conversion.bytes, for: job.output)
            conversion.bytes = []
            return .converted(conversion, input: (BuildRecord.hash(input), status), waiting: page)
        } catch {
            return .done(BatchResult(job: job, outcome: .failed(.unexpected(error, file: job.output)), warnings: [], title: nil))
        }
    }

    /// Writes (or with `check`, compares) a converted page, and records it.
    func deliver(
        _ job: BatchJob, _ conversion: Conversion, input: (hash: String, status: String), pager: String = "", lookup: FileStatusLookup
    ) -> BatchResult {
        var result = finish(job) { conversion }
        result.converted = true
        switch result.outcome {
        case .written, .unchanged, .upToDate:
            record?.record(
                job, inputHash: input.hash, status: input.status, title: result.title ?? "", facts: result.facts, warnings: result.warnings,
                pager: pager, includes: conversion.includedFiles, lookup: lookup)
        case .stale, .failed: break
        }
        return result
    }

    /// Puts `content` at `output`: written only when it differs, or with `check` only
    /// compared (`.upToDate` or `.stale`). The one place a single file and a batch job end.
    /// (`replacingLinks`: see `Files.write`.)
    package static func deliver(
        _ content: [UInt8], to output: String, check: Bool, temporaries: TemporaryFiles, protected: Set<FileIdentity>,
        replacingLinks: Bool = false
    ) throws -> BatchOutcome {
        if check {
            let current = try? Files.read(output, limit: content.count)
            return current == content ? .upToDate : .stale(missing: FileIdentity(path: output) == nil)
        }
        let outcome = try Files.write(content, to: output, temporaries: temporaries, protected: protected, replacingLinks: replacingLinks)
        return outcome == .written ? .written : .unchanged
    }

    /// Writes (or with `check`, compares) what `conversion` makes for `job`.
    func finish(_ job: BatchJob, _ conversion: () throws -> Conversion) -> BatchResult {
        do {
            let conversion = try conversion()
            if !check { try folders.make(Path.parent(job.output)) }
            let outcome = try Self.deliver(
                conversion.bytes, to: job.output, check: check, temporaries: temporaries, protected: protected, replacingLinks: true)
            return BatchResult(job: job, outcome: outcome, warnings: conversion.warnings, title: conversion.title, facts: conversion.facts)
        } catch {
            return BatchResult(job: job, outcome: .failed(.unexpected(error, file: job.output)), warnings: [], title: nil)
        }
    }
}
