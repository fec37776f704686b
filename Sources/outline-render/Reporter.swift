#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import OutlineConvert

/// Everything the command says on standard error: errors and warnings (GCC style or GitHub
/// Actions annotations), `-v` notes, a progress line when stderr is a terminal, and the
/// batch summary. Whole lines only, one writer at a time.
final class Reporter: BuildReporter, @unchecked Sendable {
    /// How problems are printed.
    enum Format: String {
        /// `path:line:column: error: message`
        case gnu
        /// `::error file=path,line=N,col=N::message`, shown on the pull request by GitHub Actions.
        case github
    }

    private let format: Format
    /// `--strict`: every warning is printed and counted as an error.
    private let strict: Bool
    private let quiet: Bool
    private let verbose: Bool
    private let showsProgress: Bool
    private let lock = Lock()
    private var progressShown = false

    /// Warnings printed as errors under `--strict`.
    private(set) var promoted = 0

    init(format: Format, quiet: Bool, verbose: Bool, strict: Bool = false) {
        self.format = format
        self.strict = strict
        self.quiet = quiet
        self.verbose = verbose
        showsProgress = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Why a folder run did not start or stopped before writing.
    func refusal(_ message: String) {
        clearProgress()
        printError("Error: \(message)")
    }

    func error(_ error: ConversionError) {
        emit(annotation("error", error.location, error.reason) ?? "\(error)")
    }

    /// A problem that is not tied to an input's content (a stale output, a conflict).
    func error(file: String, _ message: String) {
        emit(annotation("error", SourceLocation(file: file), message) ?? "\(file): error: \(message)")
    }

    func warning(_ diagnostic: Diagnostic) {
        if strict {
            lock.withLock { promoted += 1 }
            emit(annotation("error", diagnostic.location, diagnostic.message) ?? "\(diagnostic.location): error: \(diagnostic.message)")
            return
        }
        guard !quiet else { return }
        emit(annotation("warning", diagnostic.location, diagnostic.message) ?? "\(diagnostic)")
    }

    /// How one output ended: an error for a failure or a stale output, a `-v` note otherwise.
    func outcome(_ outcome: BatchOutcome, input: String, output: String) {
        switch outcome {
        case .failed(let error): self.error(error)
        case .stale(let missing): self.error(file: output, "\(missing ? "missing" : "stale"): regenerate it from \(input)")
        case .written: note("\(output): written")
        case .unchanged: note("\(output): unchanged")
        case .upToDate: note("\(output): up to date")
        }
    }

    /// (The message is made only when it is shown: a quiet batch has a note per file.)
    func note(_ message: @autoclosure () -> String) {
        guard verbose else { return }
        emit(message())
    }

    func summary(_ message: String) {
        guard !quiet else { return }
        emit("outline-render: " + message)
    }

    /// `[k/n] path` on one self-erasing line, on a terminal only.
    func progress(_ done: Int, of total: Int, _ path: String) {
        guard showsProgress else { return }
        lock.withLock {
            let name = Quote.oneLine(path)  // no escape sequence from a file name reaches the terminal
            let shown = name.count > 60 ? "…" + name.suffix(59) : name
            write("\r\u{1B}[2K[\(done)/\(total)] \(shown)")
            progressShown = true
        }
    }

    func clearProgress() {
        lock.withLock { clearProgressLine() }
    }

    /// Writes one line: control characters that reached it from file names or inputs are
    /// escaped, so no message can run over several lines or forge another.
    private func emit(_ line: String) {
        lock.withLock {
            clearProgressLine()
            write(Quote.oneLine(line) + "\n")
        }
    }

    private func clearProgressLine() {
        if progressShown { write("\r\u{1B}[2K") }
        progressShown = false
    }

    private func write(_ text: String) {
        Files.writeToStandardError(text)
    }

    /// A GitHub workflow command, with its data and properties escaped as GitHub requires.
    private func annotation(_ kind: String, _ location: SourceLocation, _ message: String) -> String? {
        guard format == .github else { return nil }
        func property(_ text: String) -> String {
            data(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
        }
        func data(_ text: String) -> String {
            text.replacing("%", with: "%25").replacing("\r", with: "%0D")
                .replacing("\n", with: "%0A")
        }
        var properties = ["file=\(property(location.file))"]
        if location.line > 0 { properties.append("line=\(location.line)") }
        if location.column > 0 { properties.append("col=\(location.column)") }
        return "::\(kind) \(properties.joined(separator: ","))::\(data(message))"
    }
}
