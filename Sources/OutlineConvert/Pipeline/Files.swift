import Foundation

/// Reads inputs whole, and writes outputs safely: a regular file is replaced atomically
/// (a temporary file in the same folder, then a rename) and only when its content changes;
/// anything else (a device, a pipe) is written in place. Nothing is left behind on failure.
public enum Files {
    /// What a write did.
    public enum Outcome: Equatable, Sendable {
        case written
        case unchanged
    }

    /// Reads a whole file, or throws an error naming it.
    public static func read(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ConversionError.io(path: path, "cannot read: \(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        return try read(descriptor, name: path)
    }

    /// Reads standard input to its end.
    public static func readStandardInput() throws -> [UInt8] {
        try read(STDIN_FILENO, name: "<stdin>")
    }

    /// Reads `descriptor` to its end. A regular file is read in one go into uninitialised
    /// memory; a pipe or device (whose size is unknown) in growing chunks.
    private static func read(_ descriptor: Int32, name: String) throws -> [UInt8] {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(name, "cannot read") }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw ConversionError.io(path: name, "is a directory") }
        var bytes: [UInt8] = []
        var chunk = max(Int(info.st_size) + 1, 65_536)
        var endOfFile = false
        while !endOfFile {
            var failed = false
            let start = bytes.count
            let capacity = start + chunk
            let read = { (buffer: inout UnsafeMutableBufferPointer<UInt8>, initialized: inout Int) in
                var filled = start
                while filled < capacity {
                    let count = Foundation.read(descriptor, buffer.baseAddress.map { $0 + filled }, capacity - filled)
                    if count < 0 && errno == EINTR { continue }
                    if count < 0 { failed = true }
                    if count <= 0 { endOfFile = true; break }
                    filled += count
                }
                initialized = filled
            }
            if start == 0 {
                bytes = [UInt8](unsafeUninitializedCapacity: capacity, initializingWith: read)
            } else {
                // Only pipes and devices get here: grow, keeping what was read.
                let previous = bytes
                bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                    _ = buffer.initialize(from: previous)
                    initialized = start
                    read(&buffer, &initialized)
                }
            }
            guard !failed else { throw failure(name, "cannot read") }
            chunk = max(chunk, bytes.count / 2)
        }
        return bytes
    }

    /// Writes `content` to `path` unless it already holds exactly that.
    @discardableResult
    public static func write(_ content: [UInt8], to path: String, temporaries: TemporaryFiles? = nil) throws -> Outcome {
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists && (info.st_mode & S_IFMT) != S_IFREG {
            try writeInPlace(content, to: path)
            return .written
        }
        if exists, (try? read(path)) == content {
            return .unchanged
        }
        var template = Array(Path.join(Path.parent(path), "." + Path.lastComponent(path) + ".tmp-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure(path) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard temporaries?.register(temporary) ?? true else {
            close(descriptor)
            unlink(temporary)
            throw ConversionError.io(path: path, "interrupted")
        }
        defer { temporaries?.unregister(temporary) }
        do {
            try writeAll(content, to: descriptor, path: path)
            fchmod(descriptor, exists ? info.st_mode & 0o7777 : 0o644)
            guard close(descriptor) == 0 else { throw failure(path) }
            guard rename(temporary, path) == 0 else { throw failure(path) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        return .written
    }

    /// Writes `content` to standard output; a failed write (a full disk, a closed pipe) throws.
    public static func writeToStandardOutput(_ content: [UInt8]) throws {
        try writeAll(content, to: STDOUT_FILENO, path: "<stdout>")
    }

    private static func writeInPlace(_ content: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        try writeAll(content, to: descriptor, path: path)
    }

    private static func writeAll(_ content: [UInt8], to descriptor: Int32, path: String) throws {
        try content.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
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
