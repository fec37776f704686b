#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch
import OutlineConvert
import Synchronization

/// One run of the command: reads the inputs, converts them, writes the outputs, and says
/// how it went through the exit status (0 converted, 1 an input failed or `--check` found
/// stale output, 2 bad usage).
struct CLI {
    static let version = "0.1.0"

    /// This program's own file (size and time): a rebuilt outline-render may write other
    /// bytes, so a folder build's record is valid only for the program that wrote it.
    static var programIdentity: String {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "unknown" }
        return "\(info.st_size)-\(info.modifiedNanoseconds)-\(version)"
    }

    /// A folder build's exit status: 0, 1 when something failed or is stale, 2 when refused.
    static func exitStatus(_ status: BuildStatus) -> Int32 {
        switch status {
        case .succeeded: 0
        case .failed: 1
        case .refused: 2
        }
    }

    let arguments: [String]
    /// Positions in `arguments` of those that were not UTF-8 (shown there with `\xNN`).
    let undecodable: Set<Int>
    /// Set once an interrupt is being handled (see `Interruption`).
    let interruption = Interruption()

    /// The command line as the process received it: bytes, which need not be UTF-8.
    init(rawArguments: [[UInt8]]) {
        arguments = rawArguments.map { String(validating: $0, as: UTF8.self) ?? Quote.name(bytes: $0) }
        undecodable = Set(rawArguments.indices.filter { String(validating: rawArguments[$0], as: UTF8.self) == nil })
    }

    func run() -> Int32 {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, undecodable: undecodable)
        } catch {
            return usageError(error.message)
        }
        if parsed.help {
            print(Arguments.help, terminator: "")
            return 0
        }
        if let shell = parsed.completionShell {
            print(Completions.script(for: shell), terminator: "")
            return 0
        }
        if parsed.version {
            print("outline-render \(Self.version)")
            return 0
        }
        let reporter = Reporter(format: parsed.errorFormat, quiet: parsed.quiet, verbose: parsed.verbose, strict: parsed.strict)
        var options = parsed.conversion
        for option in parsed.writerOptions where !options.to.optionNames.contains(option) && !parsed.quiet {
            printError("outline-render: warning: '\(option)' has no effect on \(options.to) output")
        }
        if let path = parsed.templatePath {
            do {
                options.html.template = try PageTemplate(text: readText(path), path: path)
            } catch {
                reporter.error(ConversionError.unexpected(error, file: path))
                return 1
            }
        }
        // Interrupts are watched from the first temporary file on (before it, a signal has
        // nothing to remove and ends the run as usual): the watcher is a thread, and in a
        // process with two threads every malloc takes a lock, which a one-file run feels.
        let temporaries = TemporaryFiles { [interruption] in
            Self.removeTemporariesOnInterrupt($0, reporter: reporter, interruption: interruption)
        }
        Self.unblockInterrupts()
        for name in parsed.undecodableInputs {
            reporter.error(.io(path: name, "the name is not valid UTF-8; rename the file"))
        }
        let undecodableFailed: Int32 = parsed.undecodableInputs.isEmpty ? 0 : 1

        if parsed.watch && (parsed.output == nil || parsed.check || parsed.inputs.contains("-")) {
            return usageError("'--watch' needs '-o' and input files or folders, and does not go with '--check'")
        }
        if parsed.isBatch || parsed.watch { temporaries.expectFiles() }
        if parsed.isBatch {
            guard let output = parsed.output else {
                return usageError("Converting a folder or several inputs needs '-o <folder>'")
            }
            if parsed.site.index && options.to != .html {
                return usageError("'--index' writes an HTML page; it needs HTML output")
            }
            for option in parsed.siteOptions where options.to != .html && !parsed.quiet {
                printError("outline-render: warning: '\(option)' has no effect on \(options.to) output: it is for a site, in HTML")
            }
            var settings = BuildSettings(inputs: parsed.inputs, outputDirectory: output, programIdentity: Self.programIdentity)
            settings.check = parsed.check
            settings.jobs = parsed.jobs
            settings.cacheDirectory = parsed.cacheDirectory
            settings.noCache = parsed.noCache
            settings.projectConfig = parsed.projectConfig
            var site = parsed.site
            site.reloads = parsed.watch  // (open pages reload themselves after a rebuild)
            let builder = SiteBuilder(conversion: options, site: site, settings: settings, reporter: reporter, temporaries: temporaries)
            if parsed.watch { return watch(builder, output: output, reporter: reporter) }
            return max(Self.exitStatus(builder.build()), undecodableFailed)
        }
        if parsed.site.index { return usageError("'--index' is for folders and several inputs") }
        for option in parsed.siteOptions where !parsed.quiet {
            printError("outline-render: warning: '\(option)' has no effect on one file: it is for a site (a folder or several inputs)")
        }
        guard let input = parsed.inputs.first else { return undecodableFailed }
        if parsed.watch, let output = parsed.output {
            return watch(input, to: output, options: options, parsed: parsed, reporter: reporter, temporaries: temporaries)
        }
        return convertOne(
            input, to: parsed.output, options: options, parsed: parsed, reporter: reporter, temporaries: temporaries, beforeExit: true)
    }

    /// `beforeExit`: the process ends after this conversion, which may leave its tree to the
    /// operating system (see `Converter.convertBeforeExit`).
    private func convertOne(
        _ input: String, to output: String?, options: ConversionOptions, parsed: Arguments,
        reporter: Reporter, temporaries: TemporaryFiles, beforeExit: Bool = false
    ) -> Int32 {
        let name = input == "-" ? "<stdin>" : input
        // An input is never overwritten, whatever name the output gives it (a link, `..`).
        let protected = Set([input == "-" ? nil : FileIdentity(path: input)].compactMap { $0 })
        if let output, let identity = FileIdentity(path: output), protected.contains(identity) {
            return usageError("The output '\(Quote.oneLine(output))' is the input '\(Quote.oneLine(input))'; it would be overwritten")
        }
        do {
            let converter = Converter(options: options)
            if beforeExit && !parsed.check {
                guard input == "-" else {
                    // (Opened first: an input that cannot be read is the error, whatever the output.)
                    return try converter.withInput(input) { file in
                        try stream(name: name, to: output, reporter: reporter, temporaries: temporaries, protected: protected) { sink in
                            try converter.convertBeforeExit(file, streamingTo: sink)
                        }
                    }
                }
                var bytes = try converter.loadStandardInput()
                return try stream(name: name, to: output, reporter: reporter, temporaries: temporaries, protected: protected) { sink in
                    // Handed over, not copied: a reader that keeps nothing of the input lets it go once read.
                    let taken = bytes
                    bytes = []
                    return try converter.convertBeforeExit(taken, file: name, streamingTo: sink)
                }
            }
            let bytes = try input == "-" ? converter.loadStandardInput() : converter.load(input)
            let conversion = try converter.convert(bytes, file: name)
            conversion.warnings.forEach(reporter.warning)
            let strictFailure: Int32 = reporter.promoted > 0 ? 1 : 0  // --strict: the output is still written
            guard let output else {
                if !parsed.check { try Files.writeToStandardOutput(conversion.bytes) }
                return strictFailure
            }
            if !parsed.check { TemporaryFiles.removeStale(nextTo: output) }
            let outcome = try BatchRunner.deliver(
                conversion.bytes, to: output, check: parsed.check, temporaries: temporaries, protected: protected)
            reporter.outcome(outcome, input: name, output: output)
            if case .stale = outcome { return 1 }
            return strictFailure
        } catch {
            reporter.error(ConversionError.unexpected(error, file: name))
            return 1
        }
    }

    /// One file converted right before the process exits: its output goes to standard output
    /// or its file as it is made, never held whole (`-o` through a temporary file renamed
    /// once complete, and not at all when the file already holds exactly that).
    private func stream(
        name: String, to output: String?, reporter: Reporter, temporaries: TemporaryFiles, protected: Set<FileIdentity>,
        _ convert: (_ sink: @escaping () throws -> OutputSink) throws -> Conversion
    ) throws -> Int32 {
        var warnings: [Diagnostic] = []
        if let output {
            TemporaryFiles.removeStale(nextTo: output)
            let written = try Files.write(to: output, temporaries: temporaries, protected: protected) { sink in
                warnings = try convert(sink).warnings
            }
            warnings.forEach(reporter.warning)
            reporter.outcome(written == .written ? .written : .unchanged, input: name, output: output)
        } else {
            let sink = OutputSink(descriptor: STDOUT_FILENO, name: "<stdout>")
            warnings = try convert { sink }.warnings
            if let error = sink.error { throw error }
            warnings.forEach(reporter.warning)
        }
        return reporter.promoted > 0 ? 1 : 0  // --strict: the output is still written
    }

    // MARK: - Watch

    /// `--watch` with a folder or several inputs: the batch again on every change (its
    /// build record skips what did not change, and it removes the outputs of inputs that
    /// are gone). Runs until a signal ends the process (which removes temporary files); an
    /// input that is missing at the start ends it at once (status 1).
    private func watch(_ builder: SiteBuilder, output: String, reporter: Reporter) -> Int32 {
        if let missing = builder.settings.inputs.first(where: { FileIdentity(path: $0) == nil }) {
            reporter.error(.io(path: missing, "cannot read: there is no such file or folder; nothing to watch"))
            return 1
        }
        let roots = builder.foldersToWatch
        let watcher = FolderWatcher(roots: roots, excluding: output)
        watcher.start()
        _ = builder.build()
        reporter.summary("watching \(roots.map(Quote.oneLine).joined(separator: ", ")); Ctrl-C to stop")
        while true {
            watcher.waitForChange()
            _ = builder.build()
        }
    }

    /// `--watch` with one file: converted again on every change; its output removed when
    /// it is deleted. A file missing at the start ends it at once (status 1).
    private func watch(
        _ input: String, to output: String, options: ConversionOptions, parsed: Arguments, reporter: Reporter, temporaries: TemporaryFiles
    ) -> Int32 {
        guard FileIdentity(path: input) != nil else {
            reporter.error(.io(path: input, "cannot read: there is no such file or folder; nothing to watch"))
            return 1
        }
        // (The output may sit next to the input: its own changes do not count.)
        let watcher = FolderWatcher(roots: [Path.parent(input)], excluding: nil, ignoring: [Path.lastComponent(output)])
        watcher.start()
        while true {
            if FileIdentity(path: input) == nil {
                if unlink(output) == 0 { reporter.summary("\(Quote.oneLine(output)): removed, \(Quote.oneLine(input)) is gone") }
            } else {
                let status = convertOne(input, to: output, options: options, parsed: parsed, reporter: reporter, temporaries: temporaries)
                reporter.summary("\(Quote.oneLine(input)) → \(Quote.oneLine(output)): \(status == 0 ? "converted" : "failed")")
            }
            watcher.waitForChange()
        }
    }

    private func usageError(_ message: String) -> Int32 {
        printError("Error: \(message)\nUsage: \(Arguments.usage)\n  See 'outline-render --help' for more information.")
        return 2
    }

    /// A parent may hand its blocked signals down (Foundation's `Process` does): the run is
    /// to be interruptible whatever it inherited.
    private static func unblockInterrupts() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// SIGINT (Ctrl-C), SIGTERM and SIGHUP remove the temporary files being written, then
    /// exit with 128 + the signal's number (130, 143, 129), as shells report a killed command.
    /// Returns once the watch is on (a source is registered on libdispatch's own thread; a
    /// signal that came before would be lost).
    private static func removeTemporariesOnInterrupt(
        _ temporaries: TemporaryFiles, reporter: Reporter, interruption: Interruption
    ) -> [AnyObject] {
        let registered = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM, SIGHUP].map { number -> AnyObject in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            // (Weak: the registry keeps the sources.)
            source.setEventHandler { [weak temporaries] in
                interruption.begin()
                temporaries?.removeAll()
                reporter.clearProgress()
                printError("outline-render: interrupted")
                // Not exit(): other threads are still converting; nothing needs flushing.
                _exit(128 + number)
            }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source as AnyObject
        }
        for _ in sources { _ = registered.wait(timeout: .now() + 5) }
        return sources
    }
}

// MARK: - Input and messages

func printError(_ message: String) {
    Files.writeToStandardError(message + "\n")
}

func readText(_ path: String) throws -> String {
    let bytes = try Files.read(path, limit: 16 << 20)
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ConversionError.malformed(SourceLocation(file: path), "the file is not valid UTF-8")
    }
    return text
}

/// Whether an interrupt is being handled. Its handler removes the temporary files, then
/// ends the process with 128 + the signal; meanwhile the conversion may fail for want of
/// the file just removed, and its exit (status 1) must not come first: the main thread
/// leaves the exit to the handler (`waitIfBegun`).
final class Interruption: Sendable {
    private let begun = Atomic<Bool>(false)

    func begin() { begun.store(true, ordering: .sequentiallyConsistent) }

    /// Never returns once an interrupt is being handled: its handler ends the process.
    func waitIfBegun() {
        guard begun.load(ordering: .sequentiallyConsistent) else { return }
        while true { pause() }
    }
}
