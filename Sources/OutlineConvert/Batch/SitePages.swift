/// A docs site's two passes over its pages (docs/sites.md): a site's pages link to their
/// neighbours in reading order, which depends on every page's title, so every page is read
/// and converted first (held in `WaitingPages`), and written once all are, each with its
/// previous / next links.
extension BatchRunner {
    /// The site's pages: see `run`.
    func runSite(
        _ jobs: [BatchJob], site: DocsSite, started: @escaping @Sendable (Int, BatchJob) -> Void,
        beforeWriting: ([(job: BatchJob, facts: PageFacts)], SiteNavigation) -> Bool, report: @escaping @Sendable (BatchResult) -> Void
    ) -> SiteNavigation? {
        let drafts = Slots<Draft>(
            jobs.map { .done(BatchResult(job: $0, outcome: .failed(.io(path: $0.input, "was not read")), warnings: [], title: nil)) })
        let read: @Sendable (Int, FileStatusLookup) -> BatchResult? = { index, lookup in
            started(index, jobs[index])
            drafts[index] = draft(jobs[index], site: site, lookup: lookup)
            return nil
        }
        pool.run(jobs, report: { _ in }, read)
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
            pool.run(round.map { jobs[$0] }, report: reportNow) { position, lookup in
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
}
