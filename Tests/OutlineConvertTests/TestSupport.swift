import Foundation
import Testing

@testable import OutlineConvert

/// Shared helpers: paths, running the built tool and oracle commands, temporary folders.
enum Support {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examples = root.appending(path: "Examples")

    /// The `outline-render` binary built next to this test bundle.
    static var tool: String {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [here, here.deletingLastPathComponent(), root.appending(path: ".build/debug")] {
            let path = candidate.appending(path: "outline-render").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return root.appending(path: ".build/debug/outline-render").path
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutBytes: Data
    }

    /// Runs `executable` with `arguments`, feeding `input` on standard input.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil, cwd: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        if let cwd { process.currentDirectoryURL = cwd }
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        // Read both pipes while the process runs, so a large output cannot block it.
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let input { inPipe.fileHandleForWriting.write(input) }
        try? inPipe.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: outData)
    }

    /// Runs the built `outline-render`.
    @discardableResult
    static func tool(_ arguments: String..., input: String? = nil, cwd: URL? = nil) throws -> Result {
        try run(tool, arguments, input: input.map { Data($0.utf8) }, cwd: cwd)
    }

    /// Runs the built `outline-render` with an argument array.
    @discardableResult
    static func tool(arguments: [String], input: Data? = nil, cwd: URL? = nil) throws -> Result {
        try run(tool, arguments, input: input, cwd: cwd)
    }

    /// Runs the built `outline-render` as an unprivileged user (nobody, through `setpriv`,
    /// when the tests run as root), so that file permissions apply.
    static func toolAsUnprivilegedUser(_ arguments: [String], cwd: URL) throws -> Result {
        guard getuid() == 0 else { return try run(tool, arguments, cwd: cwd) }
        return try run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", tool] + arguments, cwd: cwd)
    }

    /// Starts the built `outline-render` in the background (standard error discarded), for
    /// tests that interrupt it.
    static func startTool(_ arguments: [String], cwd: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = cwd
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits, at most 20 seconds, until `folder` holds `count` files (hidden ones too).
    static func waitForFiles(in folder: URL, count: Int) {
        let deadline = Date().addingTimeInterval(20)
        while listing(folder).count < count && Date() < deadline { usleep(5_000) }
    }

    /// A new empty folder; remove it with `defer { Support.remove(dir) }`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "outline-render-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// The pages and assets in a folder tree: its files without a docs site's shared
    /// navigation and search files (`outline-site/`) and its 404 page
    /// (Tests/oracle/test_site_navigation.py tests both).
    static func outputs(_ url: URL) -> [String] {
        listing(url).filter { !$0.hasPrefix("outline-site/") && $0 != "404.html" }
    }

    /// A page's `<main>` element, without a docs site's previous / next links.
    static func mainElement(_ page: String) -> String {
        guard let start = page.firstRange(of: "<main"), let end = page.firstRange(of: "</main>") else { return "" }
        return String(page[start.lowerBound..<end.upperBound]).replacing(#/<nav class="outline-pager"[\s\S]*?</nav>/#, with: "")
    }

    /// The files in a folder tree (hidden ones too), relative paths, sorted.
    static func listing(_ url: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.appending(path: path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// Converts text in-process with the library.
    static func convert(_ text: String, file: String = "test.md", _ configure: (inout ConversionOptions) -> Void = { _ in }) throws -> Conversion {
        var options = ConversionOptions()
        configure(&options)
        return try Converter(options: options).convert(Array(text.utf8), file: file)
    }

    /// Parses Markdown and resolves ids and collapse state, in-process.
    static func outline(_ text: String, file: String = "test.md", _ configure: (inout ConversionOptions) -> Void = { _ in }) throws -> Outline {
        var options = ConversionOptions()
        configure(&options)
        return try Converter(options: options).read(Array(text.utf8), file: file).outline
    }

    /// The nodes of an outline in document order, with their depth.
    static func flatten(_ outline: Outline) -> [(depth: Int, node: OutlineNode)] {
        var result: [(Int, OutlineNode)] = []
        func visit(_ nodes: [OutlineNode], _ depth: Int) {
            for node in nodes {
                result.append((depth, node))
                visit(node.children, depth + 1)
            }
        }
        visit(outline.nodes, 1)
        return result
    }

    /// A one-line-per-node dump: indent, [+] collapsed or [-] open, title, #id, and body.
    static func dump(_ outline: Outline) -> String {
        flatten(outline).map { depth, node in
            String(repeating: "  ", count: depth - 1) + (node.isCollapsed ? "[+] " : "[-] ") + node.title + " #" + node.id
                + (node.body.isEmpty ? "" : " | " + node.body.replacingOccurrences(of: "\n", with: "⏎"))
        }.joined(separator: "\n")
    }

    /// Is a command on the PATH?
    static func has(_ command: String) -> Bool {
        (try? run("/bin/sh", ["-c", "command -v \(command)"]).status) == 0
    }
}

/// A small deterministic random number generator (SplitMix64), so failures repeat.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Trait where Self == ConditionTrait {
    /// Marks a slow test or suite (one that runs the built tool many times or on large
    /// inputs, or waits on other processes): it does not run when `OUTLINE_RENDER_QUICK`
    /// is set (`scripts/test --quick`).
    static var slow: Self {
        .disabled(if: ProcessInfo.processInfo.environment["OUTLINE_RENDER_QUICK"] != nil, "slow: not in the quick lane")
    }
}
