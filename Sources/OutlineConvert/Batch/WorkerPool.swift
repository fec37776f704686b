import Dispatch

/// The threads a batch's jobs run on, and nothing else: each worker takes one output
/// folder's jobs at a time (`InOrderQueue`), and the results go to `report` in job order,
/// whatever order they finish in.
struct WorkerPool: Sendable {
    /// How many jobs run at once (at least one).
    let workers: Int

    init(workers: Int) {
        self.workers = max(1, workers)
    }

    /// Runs `work` for each of `jobs` (given its index, and the file status lookup of the
    /// worker running it); what it returns goes to `report` in job order (nil: nothing).
    func run(
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
}
