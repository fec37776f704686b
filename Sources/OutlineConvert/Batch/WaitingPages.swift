#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A docs site's converted pages, waiting until every page has been read and their previous
/// / next links are known. They are held in memory while those held come to at most
/// `budget` bytes; beyond that each waits in a temporary file next to its output (one of the
/// run's temporary files: an interrupt removes it), so that a site of any size holds a
/// bounded amount of memory (docs/performance.md, "Docs sites").
final class WaitingPages: @unchecked Sendable {
    /// A page waiting: its bytes, or the temporary file that holds them.
    enum Page: Sendable {
        case held([UInt8])
        case stored(path: String, count: Int)
    }

    private let lock = Lock()
    private var held = 0
    private let budget: Int
    private let temporaries: TemporaryFiles

    /// Pages held up to `budget` bytes, the rest stored among `temporaries`.
    init(budget: Int, temporaries: TemporaryFiles) {
        self.budget = budget
        self.temporaries = temporaries
    }

    /// Keeps `bytes`, the page to be written at `output` (whose folder exists when the page
    /// does not fit in the budget).
    func keep(_ bytes: [UInt8], for output: String) throws -> Page {
        let fits = lock.withLock {
            guard bytes.count <= budget - held else { return false }
            held += bytes.count
            return true
        }
        // (A copy without the room its buffer was given to grow.)
        if fits { return .held(bytes.withUnsafeBufferPointer { Array($0) }) }
        let (descriptor, path) = try temporaries.create(for: output)
        do {
            try Files.writeAll(bytes, to: descriptor, path: output)
        } catch {
            close(descriptor)
            temporaries.remove(path)
            throw error
        }
        guard close(descriptor) == 0 else {
            let error = errno
            temporaries.remove(path)
            throw ConversionError.io(path: output, "cannot write: \(String(cString: strerror(error)))")
        }
        return .stored(path: path, count: bytes.count)
    }

    /// The bytes of `page`, which is no longer kept (its temporary file is removed).
    func take(_ page: Page) throws -> [UInt8] {
        switch page {
        case .held(let bytes):
            lock.withLock { held -= bytes.count }
            return bytes
        case .stored(let path, let count):
            defer { temporaries.remove(path) }
            return try Files.read(path, limit: count)
        }
    }
}
