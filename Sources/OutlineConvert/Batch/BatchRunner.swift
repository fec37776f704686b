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
    /// Whether it was converted in this run (not skipped as unchanged): only then do its
    /// facts hold its sections' text.
    package var converted = false
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
    /// In a docs site: the run's links, its output folder, and where its index page is
    /// written (if it has one).
    package let site: DocsSite?
    /// The output folders made (or found) so far: each is made once, not once per file.
    let folders: KnownFolders
    /// In a docs site: the pages converted, until every page is read.
    private let waiting: WaitingPages

    /// A runner; `record`, when given, lets unchanged jobs be skipped; `site` makes the
    /// pages a docs site, whose converted pages are held in memory up to `pageMemory`
    /// bytes in all while they wait for the rest to be read (beyond it, in temporary files).
    /// Every file is written inside `outputDirectory`, when given, never through a
    /// symbolic link that leads out of it.
    package init(
        converter: Converter, workers: Int, check: Bool, temporaries: TemporaryFiles, record: BuildRecord? = nil,
        protected: Set<FileIdentity> = [], site: DocsSite? = nil, pageMemory: Int = 256 << 20, outputDirectory: String? = nil
    ) {
        folders = KnownFolders(root: (outputDirectory ?? site?.outputDirectory).map(BatchPlan.resolved))
        // (`check` writes nothing, not even a temporary file.)
        waiting = WaitingPages(budget: check ? .max : pageMemory, temporaries: temporaries)
        self.converter = converter
        self.workers = max(1, workers)
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
    package func run(
        _ jobs: [BatchJob], started: @escaping @Sendable (Int, BatchJob) -> Void = { _, _ in },
        beforeWriting: ([(job: BatchJob, facts: PageFacts)], SiteNavigation) -> Bool = { _, _ in true },
        report: @escaping @Sendable (BatchResult) -> Void
    ) -> SiteNavigation? {
        guard let site else {
            runInOrder(jobs, report: report) { index, lookup in
                started(index, jobs[index])
                return convert(jobs[index], lookup: lookup)
            }
            return nil
        }
        // A site's pages link to their neighbours in reading order, which depends on every
        // page's title: every page is read and converted first, and written once all are.
        let drafts = Slots<Draft>(
            jobs.map { .done(BatchResult(job: $0, outcome: .failed(.io(path: $0.input, "was not read")), warnings: [], title: nil)) })
        let read: @Sendable (Int, FileStatusLookup) -> BatchResult? = { index, lookup in
            started(index, jobs[index])
            drafts[index] = draft(jobs[index], site: site, lookup: lookup)
            return nil
        }
        runInOrder(jobs, report: { _ in }, read)
        let pages = (0..<jobs.count).map { drafts[$0] }
        let navigation = site.navigation(of: jobs, drafts: pages)
        let facts = zip(jobs, pages).compactMap { job, draft in draft.result.facts.map { (job: job, facts: $0) } }
        guard beforeWriting(facts, navigation) else {
            for case .converted(_, _, let page?) in pages { _ = try? waiting.take(page) }
            folders.removeMade()
            return nil
        }
        // When every page is as it was and so is the navigation (its key is recorded with the
        // search index), every page's pager is the one it was written with.
        let asBefore =
            pages.allSatisfy { if case .unchanged = $0 { true } else { false } }
            && record?.unchanged(Self.searchIndexEntry(of: site), status: "", input: Array(navigation.key.utf8), lookup: FileStatusLookup()) != nil
        return writePages(jobs, drafts: pages, navigation: navigation, asBefore: asBefore, site: site, report: report)
    }

    /// Writes a site's pages, each with its pager from `navigation` (or, `asBefore`, the one
    /// it was written with), and returns the navigation of the pages written. A page that
    /// cannot be written is in no navigation: its neighbours are written again without it
    /// (rare: a page that converted is written unless the disk refuses it). Results are
    /// reported as the first round writes them; of a later round, only failures.
    private func writePages(
        _ jobs: [BatchJob], drafts: [Draft], navigation: SiteNavigation, asBefore: Bool, site: DocsSite,
        report: @escaping @Sendable (BatchResult) -> Void
    ) -> SiteNavigation {
        var (pages, navigation) = (drafts, navigation)
        let written = Slots<BatchResult?>(Array(repeating: nil, count: jobs.count))
        var toWrite = Array(jobs.indices)
        var firstRound = true
        while !toWrite.isEmpty {
            let (round, drafts, current) = (toWrite, pages, navigation)
            let onlyFailures = !firstRound
            let reportNow: @Sendable (BatchResult) -> Void = { result in
                if case .failed = result.outcome { report(result) } else if !onlyFailures { report(result) }
            }
            runInOrder(round.map { jobs[$0] }, report: reportNow) { position, lookup in
                let index = round[position]
                let pager: String
                if asBefore, case .unchanged(_, let recorded) = drafts[index] {
                    pager = recorded
                } else {
                    pager = current.pager(for: jobs[index].output)
                }
                let result = finish(jobs[index], draft: drafts[index], pager: pager, site: site, lookup: lookup)
                written[index] = result
                return result
            }
            firstRound = false
            var failed = false
            for index in round {
                if let result = written[index], case .failed = result.outcome, pages[index].result.title != nil {
                    pages[index] = .done(result)
                    failed = true
                }
            }
            guard failed else { break }
            let before = navigation
            navigation = site.navigation(of: jobs, drafts: pages)
            toWrite = jobs.indices.filter { index in
                // (A page that failed, `.done`, has no title.)
                guard pages[index].result.title != nil else { return false }
                return before.pager(for: jobs[index].output) != navigation.pager(for: jobs[index].output)
            }
            for index in toWrite {
                if case .converted = pages[index] { pages[index] = draft(jobs[index], site: site, lookup: FileStatusLookup(), trusted: false) }
            }
        }
        return navigation
    }

    /// Runs `work` for each job on the workers, each taking one output folder's jobs at a
    /// time; its results go to `report` in job order.
    private func runInOrder(
        _ jobs: [BatchJob], report: @escaping @Sendable (BatchResult) -> Void,
        _ work: @escaping @Sendable (Int, FileStatusLookup) -> BatchResult?
    ) {
        let count = min(workers, max(jobs.count, 1))
        let queue = InOrderQueue(jobs, workers: count, report: report)
        DispatchQueue.concurrentPerform(iterations: count) { worker in
            let lookup = FileStatusLookup()  // (a worker takes one folder's jobs at a time)
            while let index = queue.nextJob(worker: worker) {
                queue.finish(index, result: work(index, lookup))
            }
        }
    }

    /// Converts one job; everything it holds is released before the next one starts.
    package func convert(_ job: BatchJob) -> BatchResult {
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
    private func draft(_ job: BatchJob, site: DocsSite?, lookup: FileStatusLookup, trusted: Bool = true) -> Draft {
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

    /// A site's page written with its `pager`: an unchanged page stays as it is unless it
    /// was written with another pager, when it is converted again.
    private func finish(_ job: BatchJob, draft: Draft, pager: String, site: DocsSite, lookup: FileStatusLookup) -> BatchResult {
        switch draft {
        case .done(let result):
            return result
        case .unchanged(let result, let recorded) where recorded == pager:
            return result
        case .unchanged:
            return finish(job, draft: self.draft(job, site: site, lookup: lookup, trusted: false), pager: pager, site: site, lookup: lookup)
        case .converted(var conversion, let input, let page):
            if let page {
                do {
                    conversion.bytes = try waiting.take(page)
                } catch {
                    return BatchResult(
                        job: job, outcome: .failed(.unexpected(error, file: job.output)), warnings: [], title: nil)
                }
            }
            conversion.bytes = Self.splice(pager, into: conversion.bytes)
            return deliver(job, conversion, input: input, pager: pager, lookup: lookup)
        }
    }

    /// `page` with `pager` in place of its slot (the last: it follows the content).
    static func splice(_ pager: String, into page: [UInt8]) -> [UInt8] {
        let slot = Array(PageSite.pagerSlot.utf8)
        guard let start = page.withUnsafeBufferPointer({ $0.lastIndex(of: slot) }) else { return page }
        var spliced: [UInt8] = []
        spliced.reserveCapacity(page.count - slot.count + pager.utf8.count)
        spliced += page[..<start]
        spliced += pager.utf8
        spliced += page[(start + slot.count)...]
        return spliced
    }

    /// Writes (or with `check`, compares) a converted page, and records it.
    private func deliver(
        _ job: BatchJob, _ conversion: Conversion, input: (hash: String, status: String), pager: String = "", lookup: FileStatusLookup
    ) -> BatchResult {
        var result = finish(job) { conversion }
        result.converted = true
        switch result.outcome {
        case .written, .unchanged, .upToDate:
            record?.record(
                job, inputHash: input.hash, status: input.status, title: result.title ?? "", facts: result.facts, warnings: result.warnings,
                pager: pager, lookup: lookup)
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
