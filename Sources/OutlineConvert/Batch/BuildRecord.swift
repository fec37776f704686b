import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the last batch into a folder produced, so that a run with nothing to do converts
/// nothing: for each input, a hash of its bytes, the output's size and modification time
/// as written, the page title (for the index) and, in a docs site, its ids and links (for
/// the link check). It lives outside the output folder, in the user's cache folder
/// (`cacheFile`), so that a deploy of the output never publishes it, and belongs to one
/// set of options: a different `key` (options, template, program, the run's inputs) starts
/// afresh. A job is skipped only when its input is the same and its output is exactly as it
/// was left. An input is the same when its status (device, inode, size, modification and
/// change times) is as recorded, without reading it, or else when its bytes hash the same.
/// The change time cannot be set back by hand, but the clock that stamps it is coarse: a
/// status is recorded only for a file last changed a second or more before the run began
/// (as git does with "racily clean" files), so a later write always shows.
final class BuildRecord: @unchecked Sendable {
    /// Where earlier versions kept the record: inside the output folder (removed when seen).
    static let legacyFileName = ".outline-render-cache"

    /// The record's file for `outputDirectory`: in `cacheDirectory`, else
    /// `$XDG_CACHE_HOME/outline-render`, else `~/.cache/outline-render`; named by a hash of
    /// the output folder's real path. Nil when there is no such folder to use.
    static func cacheFile(outputDirectory: String, cacheDirectory: String?) -> String? {
        func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        let folder: String
        if let cacheDirectory {
            folder = cacheDirectory
        } else if let xdg = environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") {
            folder = Path.join(xdg, "outline-render")
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            folder = Path.join(home, ".cache/outline-render")
        } else {
            return nil
        }
        guard (try? Files.makeFolder(folder)) != nil else { return nil }
        return Path.join(folder, hash(Array(BatchPlan.resolved(outputDirectory).utf8)) + ".record")
    }

    fileprivate struct Entry {
        var input: String
        var inputHash: String
        /// The input's status when it was read ("" when too recent to trust).
        var inputStatus: String
        var output: String
        var outputSize: Int64
        var outputModified: Int64
        var title: String
        var facts: String
        var warnings: String
        /// In a docs site: the page's previous / next links (they depend on other pages).
        var pager: String
        /// The other files the output was made from (snippets), each with its status.
        var includes: String = ""
    }

    private let path: String
    private let key: String
    private let previous: [PathKey: Entry]
    private var current: [PathKey: Entry] = [:]
    /// Whether an entry was added or replaced since loading.
    private var changed = false
    private let lock = Lock()
    /// When this run began, in nanoseconds since 1970: statuses of files changed less than
    /// a second before are not recorded.
    private let started = BuildRecord.now()

    /// Loads the record at `path`, if it was made with the same `key`.
    package convenience init(path: String, key: String) {
        self.init(Reading(path: path), key: key)
    }

    /// The record `reading` has read, if it was made with the same `key`.
    package init(_ reading: Reading, key: String) {
        path = reading.path
        self.key = key
        previous = reading.entries(key: key)
        current.reserveCapacity(previous.count)  // (a rerun sees each job again)
    }

    /// A record read and parsed on another thread while the batch is planned: its key
    /// names the run's inputs, so it is known only once the plan is made, and a rerun with
    /// nothing to do spent a fifth of its time reading the record.
    final class Reading: @unchecked Sendable {
        // (Unchecked: `read` is written before `done` is left and read only after it is waited on.)
        let path: String
        private var read: (header: ArraySlice<UInt8>, entries: [PathKey: Entry])?
        private let done = DispatchGroup()

        /// Starts reading the record at `path`.
        package init(path: String) {
            self.path = path
            done.enter()
            DispatchQueue.global(qos: .userInitiated).async {
                self.read = (try? Files.read(path, limit: Int.max >> 1)).flatMap(BuildRecord.parse)
                self.done.leave()
            }
        }

        /// Its entries, once read, if it was made with `key`.
        fileprivate func entries(key: String) -> [PathKey: Entry] {
            done.wait()
            guard let read, read.header.elementsEqual((BuildRecord.header + BuildRecord.escaped(key)).utf8) else { return [:] }
            return read.entries
        }
    }

    /// The page title (and site facts, and the pager it was written with) when `job`'s
    /// output is known to be what its input converts to: by the input's `status` (from
    /// `inputStatus`, taken before reading it) alone, or by its bytes when `input` is given.
    /// (Files are looked at through `lookup`.)
    func unchanged(
        _ job: BatchJob, status: String, input: [UInt8]? = nil, lookup: FileStatusLookup
    ) -> (title: String, facts: PageFacts?, warnings: [Diagnostic], pager: String)? {
        guard let entry = previous[PathKey(job.input)], Path.same(entry.output, job.output),
            input.map({ entry.inputHash == Self.hash($0) }) ?? (!status.isEmpty && status == entry.inputStatus),
            let (size, modified) = Self.status(job.output, lookup: lookup), size == entry.outputSize, modified == entry.outputModified,
            includesUnchanged(entry, lookup: lookup)
        else { return nil }
        var kept = entry
        kept.inputStatus = status  // (now old enough to be trusted, perhaps)
        lock.withLock {
            current[PathKey(job.input)] = kept
            if status != entry.inputStatus { changed = true }
        }
        return (
            entry.title, entry.facts.isEmpty ? nil : PageFacts(encoded: entry.facts), Self.decodedWarnings(entry.warnings, file: job.input),
            entry.pager
        )
    }

    /// Whether every file the entry's output was made from besides its input has the
    /// status it had then (one too recent to trust never has).
    private func includesUnchanged(_ entry: Entry, lookup: FileStatusLookup) -> Bool {
        entry.includes.isEmpty
            || entry.includes.split(separator: "\u{2}").allSatisfy { include in
                let parts = include.split(separator: "\u{1}", omittingEmptySubsequences: false)
                return parts.count == 2 && !parts[1].isEmpty && inputStatus(String(parts[0]), lookup: lookup) == parts[1]
            }
    }

    /// Whether `job`'s output is as the last run left it (its size and modification time
    /// as recorded), whatever its input.
    func isAsLeft(_ job: BatchJob, lookup: FileStatusLookup) -> Bool {
        guard let entry = previous[PathKey(job.input)], Path.same(entry.output, job.output),
            let (size, modified) = Self.status(job.output, lookup: lookup)
        else { return false }
        return size == entry.outputSize && modified == entry.outputModified
    }

    /// The status of the input `path` to record and compare, taken before it is read: ""
    /// when there is none, or when it changed too recently to be trusted.
    func inputStatus(_ path: String, lookup: FileStatusLookup) -> String {
        guard let info = lookup.status(of: path) else { return "" }
        let changed = info.changedNanoseconds
        guard changed < started - 1_000_000_000 else { return "" }
        let modified = info.modifiedNanoseconds
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(modified):\(changed)"
    }

    /// Notes that `job`'s output now holds what the input of hash `inputHash` converts to
    /// (with `pager`, in a docs site); `status` is the input's as it was before it was read.
    /// The files in `includes` were read too: their statuses are taken now (a file changed
    /// since the run began has none, so the page is converted again next time).
    func record(
        _ job: BatchJob, inputHash: String, status: String, title: String, facts: PageFacts?, warnings: [Diagnostic], pager: String = "",
        includes: [String] = [], lookup: FileStatusLookup
    ) {
        guard let (size, modified) = Self.status(job.output, lookup: lookup) else { return }
        let entry = Entry(
            input: job.input, inputHash: inputHash, inputStatus: status, output: job.output, outputSize: size, outputModified: modified,
            title: title, facts: facts?.encoded ?? "", warnings: Self.encoded(warnings), pager: pager,
            includes: includes.map { $0 + "\u{1}" + inputStatus($0, lookup: lookup) }.joined(separator: "\u{2}"))
        lock.withLock {
            current[PathKey(job.input)] = entry
            changed = true
        }
    }

    /// Writes the record of this run (only the jobs it saw), unless it is the same as before.
    package func save(temporaries: TemporaryFiles) {
        let (entries, needed) = lock.withLock { (current, changed || current.count != previous.count) }
        guard needed else { return }
        var text = Self.header + Self.escaped(key) + "\n"
        for entry in entries.values.sorted(by: { $0.input.utf8.lexicographicallyPrecedes($1.input.utf8) }) {
            let input = entry.input
            text +=
                [
                    Self.escaped(input), entry.inputHash, entry.inputStatus, Self.escaped(entry.output), String(entry.outputSize),
                    String(entry.outputModified), Self.escaped(entry.title), Self.escaped(entry.facts),
                    Self.escaped(entry.warnings), Self.escaped(entry.pager), Self.escaped(entry.includes),
                ].joined(separator: "\t") + "\n"
        }
        _ = try? Files.write(Array(text.utf8), to: path, temporaries: temporaries)
    }

    // MARK: - The file: a header line with the key, then one tab-separated line per input

    /// The first line's start; a record of another version is not read.
    private static let header = "outline-render build record 5\t"

    /// The header line and the entries; nil when a line is not an entry.
    private static func parse(_ bytes: [UInt8]) -> (header: ArraySlice<UInt8>, entries: [PathKey: Entry])? {
        let lines = bytes.split(separator: 10)
        guard let first = lines.first else { return nil }
        var entries: [PathKey: Entry] = [:]
        entries.reserveCapacity(lines.count - 1)
        var fields: [String] = []
        fields.reserveCapacity(11)
        for line in lines.dropFirst() {
            fields.removeAll(keepingCapacity: true)
            for field in line.split(separator: 9, omittingEmptySubsequences: false) { fields.append(unescaped(field)) }
            guard fields.count == 11, let size = Int64(fields[4]), let modified = Int64(fields[5]) else { return nil }
            entries[PathKey(fields[0])] = Entry(
                input: fields[0], inputHash: fields[1], inputStatus: fields[2], output: fields[3], outputSize: size, outputModified: modified,
                title: fields[6], facts: fields[7], warnings: fields[8], pager: fields[9], includes: fields[10])
        }
        return (first, entries)
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// A page's warnings in one field (a skipped page's warnings are said again).
    private static func encoded(_ warnings: [Diagnostic]) -> String {
        warnings.map { "\($0.location.line)\u{2}\($0.location.column)\u{2}\($0.message)" }.joined(separator: "\u{1}")
    }

    private static func decodedWarnings(_ text: String, file: String) -> [Diagnostic] {
        text.split(separator: "\u{1}").compactMap { item in
            let fields = item.split(separator: "\u{2}", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let line = Int(fields[0]), let column = Int(fields[1]) else { return nil }
            return Diagnostic(SourceLocation(file: file, line: line, column: column), String(fields[2]))
        }
    }

    /// `\`, tab and line feed escaped with a backslash (rare in paths and titles).
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == .backslash || $0 == .tab || $0 == .lineFeed }) else { return text }
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case .backslash: out += [.backslash, .backslash]
            case .tab: out += [.backslash, UInt8(ascii: "t")]
            case .lineFeed: out += [.backslash, UInt8(ascii: "n")]
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func unescaped(_ field: ArraySlice<UInt8>) -> String {
        // (A byte search before any String is made: a record holds nine fields a page.)
        guard field.contains(.backslash) else { return String(decoding: field, as: UTF8.self) }
        // By bytes, as `escaped` wrote them (`\t` followed by a combining mark is still `\t`).
        var out: [UInt8] = []
        var escaping = false
        for byte in field {
            if escaping {
                out.append(byte == UInt8(ascii: "t") ? 9 : byte == UInt8(ascii: "n") ? 10 : byte)
                escaping = false
            } else if byte == .backslash {
                escaping = true
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func status(_ path: String, lookup: FileStatusLookup) -> (size: Int64, modified: Int64)? {
        guard let info = lookup.status(of: path) else { return nil }
        return (Int64(info.st_size), info.modifiedNanoseconds)
    }

    /// A 128-bit hash (two FNV-1a style lanes over 8-byte words, with different seeds and
    /// primes) and the length: not cryptographic, only to notice that a source changed.
    static func hash(_ bytes: [UInt8]) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x8422_2325_cbf2_9ce4
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset + 8 <= buffer.count {
                let word = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                a = (a ^ word) &* 0x0000_0100_0000_01B3
                b = (b ^ (word >> 32 | word << 32)) &* 0x0000_0100_0000_0129
                offset += 8
            }
            while offset < buffer.count {
                a = (a ^ UInt64(buffer[offset])) &* 0x0000_0100_0000_01B3
                b = (b ^ UInt64(buffer[offset])) &* 0x0000_0100_0000_0129
                offset += 1
            }
        }
        return String(a, radix: 16) + String(b, radix: 16) + "-" + String(bytes.count)
    }
}

extension ConversionOptions {
    /// Everything about the options that can change an output, as one stable string: every
    /// stored setting, found by reflection so that a new one cannot be left out (a setting
    /// a format does not use costs at most a rebuild), and the built-in templates.
    package var fingerprint: String {
        var parts: [String] = []
        Self.describe(self, into: &parts)
        parts += EmbeddedTemplates.files.keys.sorted().map { BuildRecord.hash(Array((EmbeddedTemplates.files[$0] ?? "").utf8)) }
        return parts.joined(separator: "\u{0}")
    }

    /// `value` as stable text: sets sorted, formats and templates by what tells them apart,
    /// structures field by field.
    fileprivate static func describe(_ value: Any, into parts: inout [String]) {
        switch value {
        case let set as Set<String>: parts.append(set.sorted().joined(separator: "\u{1}"))
        case let format as InputFormat: parts.append(format.name)
        case let format as OutputFormat: parts.append(format.name)
        case let template as PageTemplate: parts.append(template.fingerprint)
        case let index as WikiIndex: parts.append(index.fingerprint)
        case let icons as IconStore: parts.append(icons.fingerprint)
        default:
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                if let some = mirror.children.first { describe(some.value, into: &parts) } else { parts.append("-") }
            case .struct, .class:
                for child in mirror.children {
                    parts.append(child.label ?? "")
                    describe(child.value, into: &parts)
                }
            default: parts.append(String(describing: value))
            }
        }
    }
}

extension SiteOptions {
    /// Every site-wide setting that can change a page, as one stable string (see
    /// `ConversionOptions.fingerprint`).
    package var fingerprint: String {
        var parts: [String] = []
        ConversionOptions.describe(self, into: &parts)
        return parts.joined(separator: "\u{0}")
    }
}
