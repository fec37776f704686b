import Foundation

/// Writes outputs safely: a regular file is replaced atomically (a temporary file in the
/// same folder, then a rename) and only when its content changes; anything else (a device,
/// a pipe) is written in place. Nothing is left behind on failure.
public enum OutputFile {
    /// What a write did.
    public enum Outcome: Equatable, Sendable {
        case written
        case unchanged
    }

    /// Writes `content` to `path` unless it already holds exactly that.
    @discardableResult
    public static func write(_ content: String, to path: String) throws -> Outcome {
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists && (info.st_mode & S_IFMT) != S_IFREG {
            try writeInPlace(content, to: path)
            return .written
        }
        if exists, let current = FileManager.default.contents(atPath: path), current.elementsEqual(content.utf8) {
            return .unchanged
        }
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/." + name + ".tmp-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure(path) }
        let temporary = String(cString: template)
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
    public static func writeToStandardOutput(_ content: String) throws {
        try writeAll(content, to: STDOUT_FILENO, path: "<stdout>")
    }

    private static func writeInPlace(_ content: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        try writeAll(content, to: descriptor, path: path)
    }

    private static func writeAll(_ content: String, to descriptor: Int32, path: String) throws {
        var content = content
        try content.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw failure(path) }
                offset += written
            }
        }
    }

    private static func failure(_ path: String) -> ConversionError {
        .io(path: path, "cannot write: \(String(cString: strerror(errno)))")
    }
}
