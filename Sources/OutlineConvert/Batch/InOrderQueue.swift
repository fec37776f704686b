/// Hands out job numbers and passes results on in job order. Each worker takes the jobs of
/// one output folder at a time: two workers creating files in the same folder wait on the
/// folder's lock in the kernel (on ext4, a large part of a run). When no folder is
/// left, a worker takes the second half of what another one has left.
final class InOrderQueue: @unchecked Sendable {
    private let lock = Lock()
    /// The jobs not yet taken: runs of consecutive job numbers, one folder's each.
    private var unclaimed: [Range<Int>]
    /// What each worker has left of the run it took.
    private var current: [Range<Int>]
    private var pending: [Int: BatchResult?] = [:]
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

    /// Notes that job `index` is done, with a result to report (nil: nothing to report).
    func finish(_ index: Int, result: BatchResult?) {
        lock.withLock {
            pending[index] = .some(result)
            while let ready = pending.removeValue(forKey: nextToReport) {
                if let ready { report(ready) }
                nextToReport += 1
            }
        }
    }
}
