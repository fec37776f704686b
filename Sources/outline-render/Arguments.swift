#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import OutlineConvert

/// The parsed command line.
struct Arguments {
    var inputs: [String] = []
    /// Inputs named on the command line whose names are not UTF-8 (shown with `\xNN`).
    var undecodableInputs: [String] = []
    var output: String?
    var conversion = ConversionOptions()
    var toWasGiven = false
    var templatePath: String?
    /// Options that only some writers use (`--ascii`, `--fragment`, …), as given.
    var writerOptions: [String] = []
    /// Options that only a site uses (`--site-url`), as given.
    var siteOptions: [String] = []
    var jobs: Int?
    var check = false
    var strict = false
    var cacheDirectory: String?
    var noCache = false
    /// `--config FILE` or `--no-config`.
    var projectConfig = ProjectConfig.found
    var watch = false
    /// What is site-wide (`--site-url`, `--index`).
    var site = SiteOptions()
    var errorFormat = Reporter.Format.gnu
    var quiet = false
    var verbose = false
    var help = false
    var version = false
    /// `--completion-script SHELL`: print that shell's completion script.
    var completionShell: String?

    /// A command line that cannot be run; exit status 2.
    struct UsageError: Error {
        let message: String
    }

    /// Parses `arguments`; those at `undecodable` positions were not UTF-8 (and are shown
    /// escaped): as inputs they fail one by one, as option values they are a usage error.
    init(_ arguments: [String], undecodable: Set<Int> = []) throws(UsageError) {
        var rest = Array(arguments.enumerated())[...]
        var onlyInputs = false
        while let (position, argument) = rest.popFirst() {
            if onlyInputs || argument == "-" || !argument.hasPrefix("-") {
                if undecodable.contains(position) { undecodableInputs.append(argument) } else { inputs.append(argument) }
                continue
            }
            if argument == "--" {
                onlyInputs = true
                continue
            }
            // `--name=value` and `-o value` alike.
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if undecodable.contains(position) || inlineValue == nil && rest.first.map({ undecodable.contains($0.offset) }) == true {
                    throw UsageError(message: "The value of '\(name)' is not valid UTF-8")
                }
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw UsageError(message: "Missing value for '\(name)'") }
                return next.element
            }
            func flag() throws(UsageError) {
                if inlineValue != nil { throw UsageError(message: "Option '\(name)' takes no value") }
            }
            guard let option = Self.option(named: name) else { throw UsageError(message: "Unknown option '\(name)'") }
            let given: String
            if option.value == nil {
                try flag()
                given = ""
            } else {
                given = try value()
            }
            do {
                try option.apply(&self, given)
            } catch let error as UsageError {
                throw error
            } catch {
                throw UsageError(message: "'\(name)': \(error)")
            }
            if option.forWriter { writerOptions.append(name) }
            if option.forSite { siteOptions.append(name) }
        }
        if inputs.isEmpty && undecodableInputs.isEmpty { inputs = ["-"] }
        if !toWasGiven, let output, let format = OutputFormat(pathExtension: Path.fileExtension(output)) {
            conversion.to = format
        }
    }

    /// `1024`, `64K`, `512M`, `1G` (powers of 1024; `KiB`, `MB` and the like accepted too),
    /// from 1 byte to 1 GiB − 1 (cmark aborts past 1 GiB in one buffer).
    static func byteCount(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard let number = Int(digits) else { return nil }
        let shifts: [String: Int] = ["": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20, "g": 30, "gb": 30, "gib": 30]
        guard let shift = shifts[text.dropFirst(digits.count).lowercased()], number.leadingZeroBitCount > shift + 1 else { return nil }
        let size = number << shift
        return size >= 1 && size <= 1 << 30 ? min(size, (1 << 30) - 1) : nil
    }

    /// A folder, several inputs, or an existing folder as `-o`: convert a tree.
    var isBatch: Bool {
        return inputs.count + undecodableInputs.count > 1 || inputs.contains { $0 != "-" && Files.isDirectory($0) }
            || (inputs != ["-"] && output.map(Files.isDirectory) == true)
    }

    /// `text` wrapped to lines of at most `width` characters, each after `indent`.
    static func wrapped(_ text: String, indent: Int, width: Int = 80) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && indent + line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    static let usage = "outline-render [<options>] [<input> ...] [-o <output>]"

    static var help: String {
        """
        OVERVIEW: Render collapsible outlines as HTML, text or JSON, or convert them between
        outline formats, keeping every section's initial collapse state.

        USAGE: \(usage)

        ARGUMENTS:
          <input>                 \(wrapped("A file (\(InputFormat.all.map { "." + ($0.extensions.first ?? $0.name) }.joined(separator: ", "))), a folder (converted recursively), or '-' for standard input. (default: -)", indent: 26))

        OPTIONS:
        \(optionsHelp)

        Collapse precedence, highest first: --expand-all/--collapse-all, --expand/--collapse,
        a marker in the source, --collapse-depth, expanded.
        Exit status: 0 converted, 1 an input failed or --check found stale output, 2 bad usage.

        """
    }
}
