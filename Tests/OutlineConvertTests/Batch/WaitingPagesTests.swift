import Foundation
import Testing

@testable import OutlineConvert

/// docs/performance.md, "Docs sites": a site's converted pages wait for their previous / next
/// links in memory up to a budget, and beyond it in temporary files; either way the same
/// pages are written.
@Suite struct WaitingPagesTests {
    /// Builds the site of `docs` into `folder` with pages waiting in at most `pageMemory`
    /// bytes; returns the outcomes, in job order, and how many temporary files the output
    /// held when the first page was reported (one worker: the others were still waiting).
    func build(_ dir: URL, into folder: String, pageMemory: Int, check: Bool = false) throws -> (
        outcomes: [BatchOutcome], waitingInFiles: Int
    ) {
        let input = dir.appending(path: "docs").path, output = dir.appending(path: folder).path
        let plan = try BatchPlan(inputs: [input], outputDirectory: output, format: .html)
        let site = DocsSite(links: SiteLinks(jobs: plan.jobs, outputDirectory: output), outputDirectory: output, options: SiteOptions())
        let runner = BatchRunner(
            converter: Converter(options: ConversionOptions()), workers: 1, check: check, temporaries: TemporaryFiles(), site: site,
            pageMemory: pageMemory)
        let outcomes = Outcomes()
        runner.run(plan.jobs) { result in
            if outcomes.all.isEmpty {
                outcomes.waitingInFiles = Support.listing(dir.appending(path: folder)).filter { $0.hasSuffix(".outline-render-tmp") }.count
            }
            outcomes.append(result.outcome)
        }
        return (outcomes.all, outcomes.waitingInFiles)
    }

    /// The outcomes reported (in job order, one at a time).
    final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var outcomes: [BatchOutcome] = []
        var waitingInFiles = 0
        var all: [BatchOutcome] { lock.withLock { outcomes } }
        func append(_ outcome: BatchOutcome) { lock.withLock { outcomes.append(outcome) } }
    }

    @Test func pagesOverTheBudgetWaitInTemporaryFilesAndAreWrittenTheSame() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        for number in 0..<12 {
            let text =
                "# Page \(number)\n\nText of page \(number).\n\n## A part {.collapsed}\n\n" + String(repeating: "More words. ", count: 40 * number)
            try Support.write(text, to: dir.appending(path: "docs/part\(number % 3)/page\(number).md"))
        }
        let pages = (0..<12).map { "part\($0 % 3)/page\($0).html" }.sorted()
        // Every page in memory, none (every one in a file), and some of each.
        for (folder, pageMemory, inFiles) in [("held", 256 << 20, 0...0), ("stored", 0, 11...11), ("mixed", 6_000, 1...10)] {
            let (outcomes, waitingInFiles) = try build(dir, into: folder, pageMemory: pageMemory)
            #expect(outcomes == Array(repeating: .written, count: 12))
            #expect(inFiles.contains(waitingInFiles), "\(folder): \(waitingInFiles) pages waiting in files")
            #expect(Support.listing(dir.appending(path: folder)) == pages, "\(folder): no temporary file is left")
        }
        for page in pages {
            let held = try Support.read(dir.appending(path: "held/\(page)"))
            #expect(held.contains("rel=\"next\"") || held.contains("rel=\"prev\""), "\(page) has its pager")
            #expect(try Support.read(dir.appending(path: "stored/\(page)")) == held)
            #expect(try Support.read(dir.appending(path: "mixed/\(page)")) == held)
        }
        // `--check` writes nothing, not even a page waiting, whatever the budget.
        let check = try build(dir, into: "checked", pageMemory: 0, check: true)
        #expect(check.outcomes == Array(repeating: .stale(missing: true), count: 12))
        #expect(!FileManager.default.fileExists(atPath: dir.appending(path: "checked").path))
        #expect(try build(dir, into: "stored", pageMemory: 0, check: true).outcomes == Array(repeating: .upToDate, count: 12))
    }
}
