import Foundation

/// One file of a batch: where it is read and where its output goes.
public struct BatchJob: Equatable, Sendable {
    /// The input path, as found (under the folder the user named).
    public let input: String
    /// The output path: the input's place mirrored under the output folder.
    public let output: String
}

/// What a batch will do: the jobs in folder order, and what was passed over and why.
/// Inside a folder, files are chosen by extension and then by content: an `.xml` whose root
/// is not `<outline>` (a pom.xml, an SVG) is skipped, as are hidden files and folders, the
/// output folder itself, and symbolic links that would loop. A file named on the command
/// line is always tried.
public struct BatchPlan: Sendable {
    /// The files to convert, in folder order.
    public private(set) var jobs: [BatchJob] = []
    /// Paths passed over, with the reason (`-v` lists them).
    public private(set) var skipped: [(path: String, reason: String)] = []

    /// Two inputs would write the same output, or an output would overwrite an input.
    public struct Conflict: Error, CustomStringConvertible {
        public let description: String
    }

    /// Plans `inputs` (files and folders) into `outputDirectory`, outputs named with `format`'s extension.
    public init(inputs: [String], outputDirectory: String, format: OutputFormat) throws {
        let outputRoot = TreeWalker.realPath(outputDirectory)
        for input in inputs {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
                var walker = TreeWalker(outputRoot: outputRoot)
                walker.walk(input, relative: "")
                skipped += walker.skipped
                jobs += walker.files.map {
                    BatchJob(input: $0.path, output: Self.outputPath(outputDirectory, $0.relative, format))
                }
            } else {
                let name = Path.lastComponent(input)
                jobs.append(BatchJob(input: input, output: Self.outputPath(outputDirectory, name, format)))
            }
        }
        try checkConflicts()
    }

    private func checkConflicts() throws {
        let directory = FileManager.default.currentDirectoryPath
        var byOutput: [String: String] = [:]
        let inputs = Set(jobs.map { Self.absolute($0.input, in: directory) })
        var problems: [String] = []
        for job in jobs {
            let key = Self.absolute(job.output, in: directory)
            if let other = byOutput[key] {
                problems.append("\(other) and \(job.input) would both write \(job.output)")
            } else {
                byOutput[key] = job.input
            }
            if inputs.contains(key) { problems.append("\(job.output) is an input; it would be overwritten") }
        }
        guard problems.isEmpty else { throw Conflict(description: problems.joined(separator: "\n")) }
    }

    private static func outputPath(_ directory: String, _ relative: String, _ format: OutputFormat) -> String {
        Path.join(directory, Path.deletingExtension(relative) + "." + format.fileExtension)
    }

    /// The absolute path with `.`, `..` and repeated `/` removed, lexically (no file system
    /// look-ups: Foundation's `standardizingPath` resolves every symbolic link on the way).
    static func absolute(_ path: String, in directory: String = FileManager.default.currentDirectoryPath) -> String {
        let full = Array(path.hasPrefix("/") ? path.utf8 : (directory + "/" + path).utf8)
        var parts: [ArraySlice<UInt8>] = []
        for part in full.split(separator: UInt8(ascii: "/")) where part != [UInt8(ascii: ".")] {
            if part.elementsEqual("..".utf8) { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + String(decoding: Array(parts.joined(separator: [UInt8(ascii: "/")])), as: UTF8.self)
    }
}

/// Walks a folder in name order, following symbolic links only where they cannot loop.
private struct TreeWalker {
    let outputRoot: String
    var files: [(path: String, relative: String)] = []
    var skipped: [(path: String, reason: String)] = []
    /// Real paths of the folders being walked (the current chain) and of all walked so far.
    private var visited: Set<String> = []

    init(outputRoot: String) { self.outputRoot = outputRoot }

    mutating func walk(_ directory: String, relative: String) {
        let real = Self.realPath(directory)
        guard !visited.contains(real) else {
            skipped.append((directory, "already converted through another path (a symbolic link loop or alias)"))
            return
        }
        visited.insert(real)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            skipped.append((directory, "cannot be read"))
            return
        }
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let path = Path.join(directory, name)
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            if name.hasPrefix(".") {
                skipped.append((path, "hidden"))
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                skipped.append((path, "a broken symbolic link"))
                continue
            }
            if isDirectory.boolValue {
                if Self.realPath(path) == outputRoot || BatchPlan.absolute(path) == outputRoot {
                    skipped.append((path, "the output folder"))
                    continue
                }
                walk(path, relative: relativePath)
            } else if let reason = Self.reasonToSkip(path) {
                if reason != "not an outline format" { skipped.append((path, reason)) }
            } else {
                files.append((path, relativePath))
            }
        }
    }

    /// The path with every symbolic link resolved (POSIX `realpath`), else the absolute path.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return BatchPlan.absolute(path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Nil for a file to convert; files of other types are left alone without a word.
    private static func reasonToSkip(_ path: String) -> String? {
        guard let format = InputFormat(pathExtension: Path.fileExtension(path)) else {
            return "not an outline format"
        }
        guard format == .xml else { return nil }
        let root = XMLRootName.of(file: path)
        return root == "outline" ? nil : "XML whose root is <\(root ?? "?")>, not <outline>"
    }
}
