#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads inputs whole, and writes outputs safely: a regular file is replaced atomically
/// (a temporary file in the same folder, then a rename) and only when its content changes;
/// anything else (a device, a pipe) is written in place. Nothing is left behind on failure.
package enum Files {
    /// What a write did.
    package enum Outcome: Equatable, Sendable {
        case written
        case unchanged
    }

    /// The default for `--max-input-size`: 256 MiB. cmark keeps a whole document's tree in
    /// memory (about 10 to 200 bytes per input byte) and aborts past 1 GiB in one buffer.
    package static let defaultMaxInputSize = ConversionOptions.defaultMaxInputSize

    /// Whether `path` is a regular file (following symbolic links).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Whether `path` is a folder (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Reads a whole regular file of at most `limit` bytes, or throws an error naming it.
    /// A FIFO, device or socket is refused without being read (opening a FIFO would block,
    /// `/dev/zero` never ends); the size is checked before reading, and a file that grows
    /// while being read stops at the limit. `inspect` sees the first bytes (up to 64 KiB)
    /// before the rest is read, so a file that is plainly not text can be refused early.
    package static func read(
        _ path: String, limit: Int = defaultMaxInputSize, inspect: (ArraySlice<UInt8>) throws -> Void = { _ in }
    ) throws -> [UInt8] {
        try withInput(path, limit: limit) { try read($0, inspect: inspect) }
    }

    /// The whole of an input file opened by `withInput`, from its start, as `read` reads it.
    static func read(_ file: InputFile, inspect: (ArraySlice<UInt8>) throws -> Void = { _ in }) throws -> [UInt8] {
        try read(file.descriptor, name: file.path, sizeHint: file.size, limit: file.limit, inspect: inspect)
    }

    /// Opens `path` for `body` (closed after), with `read`'s checks: a regular file of at
    /// most `limit` bytes.
    static func withInput<Result>(_ path: String, limit: Int, _ body: (InputFile) throws -> Result) throws -> Result {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ConversionError.io(path: path, "cannot read: \(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(path, "cannot read") }
        if let kind = FileKind(mode: info.st_mode).unreadableKind {
            throw ConversionError.io(path: path, "is \(kind); only regular files are read")
        }
        guard Int(info.st_size) <= limit else {
            throw ConversionError.io(path: path, "is \(info.st_size) bytes, more than the limit of \(limit) (--max-input-size)")
        }
        return try body(InputFile(path: path, descriptor: descriptor, size: Int(info.st_size), limit: limit))
    }

    /// The first bytes of an open file (up to `count`), read without moving its offset (so
    /// that whoever reads it on, libxml2 or `read`, starts at its start).
    static func head(of file: InputFile, count: Int) throws -> [UInt8] {
        var status = ReadStatus.filled
        let head = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            status = fill(&buffer, from: file.descriptor, filled: &initialized, positioned: true)
        }
        guard status != .failed else { throw failure(file.path, "cannot read") }
        return head
    }

    /// The first `count` bytes of a file (fewer if it is shorter); throws if it cannot be read.
    static func head(of path: String, count: Int) throws -> [UInt8] {
        try withInput(path, limit: Int.max) { try head(of: $0, count: count) }
    }

    private enum ReadStatus { case filled, endOfFile, failed }

    /// Reads from `descriptor` into `buffer` after its first `filled` bytes until it is full,
    /// the file ends or a read fails (EINTR is retried). `positioned`: from the file's byte
    /// `filled` on, without moving its offset.
    private static func fill(
        _ buffer: inout UnsafeMutableBufferPointer<UInt8>, from descriptor: Int32, filled: inout Int, positioned: Bool = false
    ) -> ReadStatus {
        while filled < buffer.count {
            let start = buffer.baseAddress.map { $0 + filled }
            let wanted = buffer.count - filled
            let count = positioned ? pread(descriptor, start, wanted, off_t(filled)) : Glibc.read(descriptor, start, wanted)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return .failed }
            if count == 0 { return .endOfFile }
            filled += count
        }
        return .filled
    }

    /// Reads standard input (a pipe, a file or a terminal) to its end, at most `limit` bytes.
    package static func readStandardInput(limit: Int = defaultMaxInputSize, inspect: (ArraySlice<UInt8>) throws -> Void = { _ in }) throws -> [UInt8]
    {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { throw failure("<stdin>", "cannot read") }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw ConversionError.io(path: "<stdin>", "is a directory") }
        let size = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        return try read(STDIN_FILENO, name: "<stdin>", sizeHint: size, limit: limit, inspect: inspect)
    }

    /// The size of the first piece handed to `inspect`.
    private static let headSize = 65_536

    /// Reads `descriptor` to its end, never more than `limit` bytes: first up to 64 KiB for
    /// `inspect`, then the rest into one buffer of the expected size (growing only for a pipe,
    /// a device, or a file that grows while being read).
    private static func read(
        _ descriptor: Int32, name: String, sizeHint: Int, limit: Int, inspect: (ArraySlice<UInt8>) throws -> Void
    ) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var capacity = min(headSize, limit + 1)
        var endOfFile = false
        var inspected = false
        while !endOfFile {
            var status = ReadStatus.filled
            bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                initialized = buffer.initialize(from: bytes).1
                status = fill(&buffer, from: descriptor, filled: &initialized)
            }
            endOfFile = status != .filled
            guard status != .failed else { throw failure(name, "cannot read") }
            guard bytes.count <= limit else {
                throw ConversionError.io(path: name, "is more than the limit of \(limit) bytes (--max-input-size)")
            }
            if !inspected {
                inspected = true
                try inspect(bytes[...])
            }
            // One byte past the expected size, to notice the end (or a file that grew).
            capacity = min(max(sizeHint + 1, bytes.count * 2), limit + 1)
        }
        return bytes
    }

    /// Writes `content` to `path` unless it already holds exactly that. A file whose identity
    /// is in `protected` (an input of the run, whatever name leads to it) is never written.
    /// With `replacingLinks`, a symbolic link at `path` is replaced by the file, never
    /// written through (a batch's outputs: docs/safety.md).
    @discardableResult
    package static func write(
        _ content: [UInt8], to path: String, temporaries: TemporaryFiles, protected: Set<FileIdentity> = [], replacingLinks: Bool = false
    ) throws -> Outcome {
        let existing = try existingOutput(path, protected: protected, replacingLinks: replacingLinks)
        if let existing, (existing.st_mode & S_IFMT) != S_IFREG {
            try writeInPlace(path) { try writeAll(content, to: $0, path: path) }
            return .written
        }
        if let existing, (try? read(path, limit: Int(existing.st_size))) == content {
            return .unchanged
        }
        return try replace(path, mode: existing.map { $0.st_mode & 0o7777 } ?? 0o644, temporaries: temporaries) { create in
            try writeAll(content, to: create().descriptor, path: path)
            return false
        }
    }

    /// `write`, with the content written by `produce` to a sink as it is made, so that it is
    /// never held whole: into a temporary file, renamed over `path` once complete unless
    /// `path` already held exactly that. A failed write throws (the sink's error). `produce`
    /// asks for the sink when the content starts: nothing is created before (a bad input
    /// leaves nothing behind, and a one-file run has no interrupt to watch for until then).
    package static func write(
        to path: String, temporaries: TemporaryFiles, protected: Set<FileIdentity> = [],
        streaming produce: (_ sink: @escaping () throws -> OutputSink) throws -> Void
    ) throws -> Outcome {
        let existing = try existingOutput(path, protected: protected)
        var opened: OutputSink?
        func sink(writingTo descriptor: () throws -> Int32) throws -> OutputSink {
            if let opened { return opened }
            let sink = OutputSink(descriptor: try descriptor(), name: path)
            opened = sink
            return sink
        }
        func written() throws -> Int {
            if let error = opened?.error { throw error }
            return opened?.count ?? 0
        }
        if let existing, (existing.st_mode & S_IFMT) != S_IFREG {
            try writeInPlace(path) { descriptor in
                try produce { try sink { descriptor } }
                _ = try written()
            }
            return .written
        }
        return try replace(path, mode: existing.map { $0.st_mode & 0o7777 } ?? 0o644, temporaries: temporaries) { create in
            try produce { try sink { try create().descriptor } }
            let count = try written()
            guard let existing, count == Int(existing.st_size) else { return false }
            return sameContent(path, try create().path)
        }
    }

    /// The status of what is at `path` already, nil if nothing (or, with `replacingLinks`,
    /// a symbolic link, which the rename replaces); an input of the run (by identity,
    /// whatever name leads to it) is refused.
    private static func existingOutput(_ path: String, protected: Set<FileIdentity>, replacingLinks: Bool = false) throws -> stat? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if protected.contains(FileIdentity(info)) {
            throw ConversionError.io(path: path, "is an input of this run; it is never overwritten")
        }
        var link = stat()
        if replacingLinks, lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK { return nil }
        return info
    }

    /// Writes a new `path` through a temporary file that `fill` writes; `fill` creates it
    /// when it needs it (its first call creates, later calls return the same file), and
    /// returns true when the file already at `path` is to be kept instead.
    private static func replace(
        _ path: String, mode: mode_t, temporaries: TemporaryFiles,
        fill: (_ create: @escaping () throws -> (descriptor: Int32, path: String)) throws -> Bool
    ) throws -> Outcome {
        var created: (descriptor: Int32, path: String)?
        var open = false
        func create() throws -> (descriptor: Int32, path: String) {
            if let created { return created }
            let file = try temporaries.create(for: path)
            (created, open) = (file, true)
            return file
        }
        do {
            let keep = try fill(create)
            let (descriptor, temporary) = try create()  // (an empty output: nothing was written)
            fchmod(descriptor, mode)
            open = false  // (closed even when close fails: the descriptor is not to be closed twice)
            guard close(descriptor) == 0 else { throw failure(path) }
            if keep {
                temporaries.remove(temporary)
                return .unchanged
            }
            guard rename(temporary, path) == 0 else { throw failure(path) }
            temporaries.forget(temporary)
            return .written
        } catch {
            if let (descriptor, temporary) = created {
                if open { close(descriptor) }
                temporaries.remove(temporary)
            }
            throw error
        }
    }

    /// Whether two files hold the same bytes (read a chunk at a time); false if either
    /// cannot be read.
    private static func sameContent(_ first: String, _ second: String) -> Bool {
        let a = open(first, O_RDONLY | O_CLOEXEC)
        let b = open(second, O_RDONLY | O_CLOEXEC)
        defer {
            if a >= 0 { close(a) }
            if b >= 0 { close(b) }
        }
        guard a >= 0, b >= 0 else { return false }
        let chunk = 1 << 20
        while true {
            var statusA = ReadStatus.filled
            var statusB = ReadStatus.filled
            let left = [UInt8](unsafeUninitializedCapacity: chunk) { buffer, filled in statusA = fill(&buffer, from: a, filled: &filled) }
            let right = [UInt8](unsafeUninitializedCapacity: chunk) { buffer, filled in statusB = fill(&buffer, from: b, filled: &filled) }
            guard statusA != .failed, statusB != .failed, left == right else { return false }
            if statusA == .endOfFile || left.count < chunk { return statusB == .endOfFile || right.count < chunk }
        }
    }

    /// The names in `directory` (without `.` and `..`), as bytes.
    static func entries(of directory: String) throws(ConversionError) -> [[UInt8]] {
        guard let stream = opendir(directory) else {
            throw ConversionError.io(path: directory, "cannot read the folder: \(String(cString: strerror(errno)))")
        }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        errno = 0
        while let entry = readdir(stream) {
            let name = Files.name(of: entry)
            if name != [46] && name != [46, 46] { names.append(name) }
        }
        guard errno == 0 else {
            throw ConversionError.io(path: directory, "cannot read the folder: \(String(cString: strerror(errno)))")
        }
        return names
    }

    /// The names in `folder` that are UTF-8 (none when it cannot be read).
    package static func names(in folder: String) -> [String] {
        ((try? entries(of: folder)) ?? []).compactMap { String(validating: $0, as: UTF8.self) }
    }

    /// The real path of `path` (every symbolic link resolved); nil when it leads nowhere.
    package static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The current directory ("." if it cannot be named).
    package static func currentDirectory() -> String {
        // (glibc's `getcwd(NULL, 0)` allocates the path's own size; a site asks often.)
        guard let path = getcwd(nil, 0) else { return "." }
        defer { free(path) }
        return String(cString: path)
    }

    /// A directory entry's name, up to its NUL. (Not `entry.pointee.d_name`: that copies the
    /// whole entry, 256 bytes of name, and an entry is only as long as its name, so reading
    /// the last of `readdir`'s buffer that way runs past its end.)
    static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return [] }
        let name = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
        return Array(UnsafeRawBufferPointer(start: name, count: strlen(name)))
    }

    /// Makes `folder` and any missing parents (as `mkdir -p`); a folder already there is fine.
    static func makeFolder(_ folder: String) throws {
        if mkdir(folder, 0o777) == 0 || errno == EEXIST && isFolder(folder) { return }
        guard errno == ENOENT, Path.parent(folder) != folder else { throw failure(folder, "cannot create the folder") }
        try makeFolder(Path.parent(folder))
        guard mkdir(folder, 0o777) == 0 || errno == EEXIST && isFolder(folder) else { throw failure(folder, "cannot create the folder") }
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Writes `text` to standard error (unbuffered: a message may be the last thing before an
    /// exit); a failed write is not reported, there is nowhere to.
    package static func writeToStandardError(_ text: String) {
        try? writeAll(Array(text.utf8), to: STDERR_FILENO, path: "<stderr>")
    }

    /// Writes `content` to standard output; a failed write (a full disk, a closed pipe) throws.
    package static func writeToStandardOutput(_ content: [UInt8]) throws {
        try writeAll(content, to: STDOUT_FILENO, path: "<stdout>")
    }

    /// Writes what is not a regular file (a device, a pipe) in place, through `fill`.
    private static func writeInPlace(_ path: String, _ fill: (Int32) throws -> Void) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        try fill(descriptor)
    }

    static func writeAll(_ content: [UInt8], to descriptor: Int32, path: String) throws {
        try content.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw failure(path) }
                offset += written
            }
        }
    }

    private static func failure(_ path: String, _ action: String = "cannot write") -> ConversionError {
        .io(path: path, "\(action): \(String(cString: strerror(errno)))")
    }
}

/// A file's identity: device and inode, the same whichever name (symbolic link, hard link,
/// `..` path) leads to it.
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The identity of the file `path` names, following symbolic links; nil if there is none.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }
}

/// Looks at files (`stat`, following symbolic links) through their folder's descriptor: a
/// batch asks about thousands of files in a few folders, and walking each whole path from
/// the root again costs the kernel more than the look itself. Files are best asked about
/// folder by folder; the two folders asked about last are held open (a job's input and
/// its output), no more. One thread at a time.
final class FileStatusLookup {
    private var folders: [(path: String, descriptor: Int32)] = []

    deinit { for folder in folders where folder.descriptor >= 0 { close(folder.descriptor) } }

    /// What `stat(path)` would say; nil (with `errno` set) when it cannot be looked at.
    func status(of path: String) -> stat? {
        status(of: Path.lastComponent(path), in: Path.parent(path))
    }

    /// What `stat` would say of the entry `name` of `folder` (for a caller that has both);
    /// with `following` false, what `lstat` would say (a symbolic link itself).
    func status(of name: String, in folder: String, following: Bool = true) -> stat? {
        let descriptor = self.descriptor(of: folder)
        var info = stat()
        // (A folder that can be searched but not read cannot be opened: then the whole path.)
        let found =
            descriptor >= 0
            ? fstatat(descriptor, name, &info, following ? 0 : AT_SYMLINK_NOFOLLOW)
            : following ? stat(Path.join(folder, name), &info) : lstat(Path.join(folder, name), &info)
        return found == 0 ? info : nil
    }

    /// The open folder `path`, the most recent first; -1 when it cannot be opened.
    private func descriptor(of path: String) -> Int32 {
        if let index = folders.firstIndex(where: { $0.path == path }) {
            if index > 0 { folders.swapAt(0, index) }
            return folders[0].descriptor
        }
        if folders.count == 2, let oldest = folders.popLast(), oldest.descriptor >= 0 { close(oldest.descriptor) }
        folders.insert((path, open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)), at: 0)
        return folders[0].descriptor
    }
}

/// The type of a file, from its mode, in words for messages.
enum FileKind {
    case regular, directory, other(String)

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .other("a FIFO (named pipe)")
        case S_IFCHR: self = .other("a character device")
        case S_IFBLK: self = .other("a block device")
        case S_IFSOCK: self = .other("a socket")
        default: self = .other("not a regular file")
        }
    }

    /// Nil for a regular file; otherwise what it is ("a directory", "a FIFO (named pipe)", …).
    var unreadableKind: String? {
        switch self {
        case .regular: nil
        case .directory: "a directory"
        case .other(let kind): kind
        }
    }
}
