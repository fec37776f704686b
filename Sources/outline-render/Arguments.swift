import Glibc
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
    var jobs: Int?
    var check = false
    var strict = false
    var cacheDirectory: String?
    var noCache = false
    var watch = false
    var index = false
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
    init(_ arguments: [String], undecodable: Set<Int> = []) throws {
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
            func value() throws -> String {
                if undecodable.contains(position) || inlineValue == nil && rest.first.map({ undecodable.contains($0.offset) }) == true {
                    throw UsageError(message: "The value of '\(name)' is not valid UTF-8")
                }
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw UsageError(message: "Missing value for '\(name)'") }
                return next.element
            }
            func flag() throws {
                if inlineValue != nil { throw UsageError(message: "Option '\(name)' takes no value") }
            }
            switch name {
            case "-o", "--output": output = try value()
            case "-f", "--from":
                let text = try value()
                guard let format = InputFormat(name: text) else {
                    throw UsageError(message: "Unknown input format '\(text)' (expected one of: \(Self.inputNames))")
                }
                conversion.from = format
            case "-t", "--to":
                let text = try value()
                guard let format = OutputFormat(name: text) else {
                    throw UsageError(message: "Unknown output format '\(text)' (expected one of: \(Self.outputNames))")
                }
                conversion.to = format
                toWasGiven = true
            case "--title": conversion.title = try value()
            case "--template": templatePath = try value(); writerOptions.append(name)
            case "--fragment": try flag(); conversion.html.fragment = true; writerOptions.append(name)
            case "--unsafe": try flag(); conversion.html.unsafe = true; writerOptions.append(name)
            case "--accordion": try flag(); conversion.html.accordion = true; writerOptions.append(name)
            case "--toc": try flag(); conversion.html.toc = true; writerOptions.append(name)
            case "--ascii": try flag(); conversion.ascii = true; writerOptions.append(name)
            case "--expand-all": try flag(); conversion.collapse.all = true
            case "--collapse-all": try flag(); conversion.collapse.all = false
            case "--expand": conversion.collapse.expand.insert(try value())
            case "--collapse": conversion.collapse.collapse.insert(try value())
            case "--collapse-depth":
                let text = try value()
                guard let depth = Int(text), depth >= 0 else {
                    throw UsageError(message: "'--collapse-depth' needs a whole number, 0 or more; got '\(text)'")
                }
                conversion.collapse.depth = depth
            case "--opml-expansion":
                let text = try value()
                guard let reading = OPMLExpansionReading(rawValue: text) else {
                    throw UsageError(message: "Unknown expansionState reading '\(text)' (expected one of: spec, omni)")
                }
                conversion.opmlExpansion = reading
            case "-j", "--jobs":
                let text = try value()
                guard let count = Int(text), count >= 1 else {
                    throw UsageError(message: "'--jobs' needs a whole number, 1 or more; got '\(text)'")
                }
                jobs = count
            case "--max-input-size":
                let text = try value()
                guard let size = Self.byteCount(text) else {
                    throw UsageError(message: "'--max-input-size' needs a size such as 1048576, 512K, 64M or 1G (at most 1G); got '\(text)'")
                }
                conversion.maxInputSize = size
            case "--check": try flag(); check = true
            case "--strict": try flag(); strict = true
            case "--cache-dir": cacheDirectory = try value()
            case "--no-cache": try flag(); noCache = true
            case "--watch": try flag(); watch = true
            case "--index": try flag(); index = true
            case "--error-format":
                let text = try value()
                guard let format = Reporter.Format(rawValue: text) else {
                    throw UsageError(message: "Unknown error format '\(text)' (expected one of: gnu, github)")
                }
                errorFormat = format
            case "-q", "--quiet": try flag(); quiet = true
            case "-v", "--verbose": try flag(); verbose = true
            case "-h", "--help": try flag(); help = true
            case "--version": try flag(); version = true
            case "--completion-script":
                let shell = try value()
                guard Completions.shells.contains(shell) else {
                    throw UsageError(message: "Unknown shell '\(shell)' (expected one of: \(Completions.shells.joined(separator: ", ")))")
                }
                completionShell = shell
            default: throw UsageError(message: "Unknown option '\(name)'")
            }
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
        return inputs.count + undecodableInputs.count > 1 || inputs.contains { $0 != "-" && isDirectory($0) }
            || (inputs != ["-"] && output.map(isDirectory) == true)
    }

    static let inputNames = InputFormat.all.map(\.name).joined(separator: ", ")
    static let outputNames = OutputFormat.all.map(\.name).joined(separator: ", ")

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

    /// Each option of the help text: its names (`-o`, `--output`) and its value's
    /// placeholder (`path`), if it takes one. The completion scripts and the man page test
    /// read the options from here, so they cannot drift from `--help`.
    static var options: [(names: [String], value: String?)] {
        help.split(whereSeparator: { $0 == "\n" }).compactMap { line -> ([String], String?)? in
            guard line.hasPrefix("  -") else { return nil }
            let words = line.dropFirst(2).split(separator: " ")
            var names: [String] = []
            var value: String?
            for word in words {
                if word.hasPrefix("-") && value == nil {
                    names.append(String(word.filter { $0 != "," }))
                } else if word.hasPrefix("<"), word.hasSuffix(">"), value == nil {
                    value = String(word.dropFirst().dropLast())
                } else {
                    break
                }
            }
            return names.isEmpty ? nil : (names, value)
        }
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
          -o, --output <path>     Write here instead of standard output. With a folder
                                  or several inputs: the folder the tree is mirrored into.
          -f, --from <format>     \(wrapped("Input format: \(inputNames). (default: from the extension, else from the content)", indent: 26))
          -t, --to <format>       \(wrapped("Output format: \(outputNames). (default: from the output's extension, else html)", indent: 26))
          --title <text>          The document's title.
          --fragment              HTML: only the outline markup, no page around it.
          --template <file>       HTML: a page template with {{title}}, {{content}},
                                  {{style}}, {{script}}, {{lang}}, {{index}} and
                                  {{toc}} placeholders.
          --unsafe                HTML: pass raw HTML in Markdown through.
          --accordion             HTML: opening a section closes its open siblings.
          --toc                   HTML: a table of contents, beside the outline on wide
                                  screens (front matter 'toc: true' does it per page).
          --ascii                 Text: markers -, +, * instead of ▾, ▸, •.
          --expand-all            Every section starts open.
          --collapse-all          Every section starts closed.
          --expand <id>           This section starts open (repeatable).
          --collapse <id>         This section starts closed (repeatable).
          --collapse-depth <n>    Sections at depth n or deeper start closed (the top
                                  is depth 1).
          --opml-expansion <reading>
                                  OPML expansionState as the spec numbers it (spec: shown
                                  lines from 1; Drummer, OPML Editor) or as OmniOutliner
                                  does (omni: every outline from 0; Zavala). (default:
                                  read as the file was written, written as spec)
          -j, --jobs <n>          Files converted at once. (default: all cores)
          --check                 Write nothing; exit 1 and list every output that is
                                  missing or differs (for CI).
          --max-input-size <size> Refuse larger inputs unread: bytes, or with K, M or
                                  G (at most 1G). (default: 256M)
          --strict                Every warning is an error (exit 1): a broken link, a
                                  missing section, a duplicate id, …
          --index                 With a folder: also write index.html, a collapsible
                                  outline of the pages; every page links back to it.
          --cache-dir <folder>    Keep the record of what a folder run wrote here.
                                  (default: $XDG_CACHE_HOME/outline-render, else
                                  ~/.cache/outline-render)
          --no-cache              Keep no record: every file is converted every time.
          --watch                 Convert, then convert again what changes (and remove
                                  the outputs of deleted inputs) until Ctrl-C.
          --error-format <format> gnu (path:line:column: error: …) or github (GitHub
                                  Actions annotations). (default: gnu)
          -q, --quiet             No warnings, progress or summary; errors only.
          -v, --verbose           Say what is written, unchanged and skipped.
          --completion-script <shell>
                                  Print the completion script for bash, zsh or fish.
          --version               Show the version.
          -h, --help              Show help information.

        Collapse precedence, highest first: --expand-all/--collapse-all, --expand/--collapse,
        a marker in the source, --collapse-depth, expanded.
        Exit status: 0 converted, 1 an input failed or --check found stale output, 2 bad usage.

        """
    }
}
