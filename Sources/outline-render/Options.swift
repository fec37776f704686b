import OutlineConvert

/// One command-line option, declared once: parsing, `--help`, the completion scripts and
/// the man page test all read this table, and the build record's fingerprint covers
/// every conversion setting an option can change (`ConversionOptions.fingerprint`).
struct Option: Sendable {
    /// `-o`, `--output`: the short name first.
    let names: [String]
    /// The value's placeholder in help (`path`), or nil for a flag.
    let value: String?
    /// The help text, sentences; wrapped in `--help`.
    let help: String
    /// The default, as help shows it.
    var defaultValue: String? = nil
    /// The values to complete after it (format names, shells, …).
    var choices: [String]? = nil
    /// Whether only some writers use it (a warning when given with another output).
    var forWriter = false
    /// Whether only a site (a folder or several inputs to HTML) uses it: a warning when
    /// given with one file.
    var forSite = false
    /// Sets what it sets: a flag is given "", an option its value.
    let apply: @Sendable (inout Arguments, String) throws -> Void

    /// Whether completion offers file names for its value.
    var completesPath: Bool { ["path", "file", "folder"].contains(value ?? "") }
}

extension Arguments {
    static let inputNames = InputFormat.all.map(\.name).joined(separator: ", ")
    static let outputNames = OutputFormat.all.map(\.name).joined(separator: ", ")

    /// Every option, in the order `--help` lists them.
    static let table: [Option] = [
        Option(
            names: ["-o", "--output"], value: "path",
            help: "Write here instead of standard output. With a folder or several inputs: the folder the tree is mirrored into."
        ) {
            $0.output = $1
        },
        Option(
            names: ["-f", "--from"], value: "format", help: "Input format: \(inputNames).",
            defaultValue: "from the extension, else from the content", choices: InputFormat.all.map(\.name)
        ) {
            guard let format = InputFormat(name: $1) else {
                throw UsageError(message: "Unknown input format '\($1)' (expected one of: \(inputNames))")
            }
            $0.conversion.from = format
        },
        Option(
            names: ["-t", "--to"], value: "format", help: "Output format: \(outputNames).",
            defaultValue: "from the output's extension, else html", choices: OutputFormat.all.map(\.name)
        ) {
            guard let format = OutputFormat(name: $1) else {
                throw UsageError(message: "Unknown output format '\($1)' (expected one of: \(outputNames))")
            }
            $0.conversion.to = format
            $0.toWasGiven = true
        },
        Option(names: ["--title"], value: "text", help: "The document's title.") { $0.conversion.title = $1 },
        Option(names: ["--fragment"], value: nil, help: "HTML: only the outline markup, no page around it.", forWriter: true) { a, _ in
            a.conversion.html.fragment = true
        },
        Option(
            names: ["--template"], value: "file",
            help:
                "HTML: a page template with {{title}}, {{content}}, {{style}}, {{script}}, {{lang}}, {{index}}, {{toc}}, {{pager}} and {{canonical}} placeholders.",
            forWriter: true
        ) {
            $0.templatePath = $1
        },
        Option(names: ["--unsafe"], value: nil, help: "HTML: keep all raw HTML (by default, what GitHub keeps).", forWriter: true) { a, _ in
            a.conversion.html.unsafe = true
        },
        Option(names: ["--accordion"], value: nil, help: "HTML: opening a section closes its open siblings.", forWriter: true) { a, _ in
            a.conversion.html.accordion = true
        },
        Option(
            names: ["--toc"], value: nil,
            help: "HTML: a table of contents, beside the outline on wide screens (front matter 'toc: true' does it per page).",
            forWriter: true
        ) { a, _ in
            a.conversion.html.toc = true
        },
        Option(names: ["--ascii"], value: nil, help: "Text: markers -, +, * instead of ▾, ▸, •.", forWriter: true) { a, _ in
            a.conversion.ascii = true
        },
        Option(names: ["--expand-all"], value: nil, help: "Every section starts open.") { a, _ in a.conversion.collapse.all = true },
        Option(names: ["--collapse-all"], value: nil, help: "Every section starts closed.") { a, _ in a.conversion.collapse.all = false },
        Option(names: ["--expand"], value: "id", help: "This section starts open (repeatable).") {
            $0.conversion.collapse.expand.insert($1)
        },
        Option(names: ["--collapse"], value: "id", help: "This section starts closed (repeatable).") {
            $0.conversion.collapse.collapse.insert($1)
        },
        Option(names: ["--collapse-depth"], value: "n", help: "Sections at depth n or deeper start closed (the top is depth 1).") {
            guard let depth = Int($1), depth >= 0 else {
                throw UsageError(message: "'--collapse-depth' needs a whole number, 0 or more; got '\($1)'")
            }
            $0.conversion.collapse.depth = depth
        },
        Option(
            names: ["--opml-expansion"], value: "reading",
            help:
                "OPML expansionState as the spec numbers it (spec: shown lines from 1; Drummer, OPML Editor) or as OmniOutliner does (omni: every outline from 0; Zavala).",
            defaultValue: "read as the file was written, written as spec", choices: OPMLExpansionReading.allCases.map(\.rawValue)
        ) {
            guard let reading = OPMLExpansionReading(rawValue: $1) else {
                throw UsageError(message: "Unknown expansionState reading '\($1)' (expected one of: spec, omni)")
            }
            $0.conversion.opmlExpansion = reading
        },
        Option(names: ["-j", "--jobs"], value: "n", help: "Files converted at once.", defaultValue: "all cores") {
            guard let count = Int($1), count >= 1 else {
                throw UsageError(message: "'--jobs' needs a whole number, 1 or more; got '\($1)'")
            }
            $0.jobs = count
        },
        Option(names: ["--check"], value: nil, help: "Write nothing; exit 1 and list every output that is missing or differs (for CI).") {
            a, _ in a.check = true
        },
        Option(
            names: ["--max-input-size"], value: "size", help: "Refuse larger inputs unread: bytes, or with K, M or G (at most 1G).",
            defaultValue: "256M"
        ) {
            guard let size = byteCount($1) else {
                throw UsageError(message: "'--max-input-size' needs a size such as 1048576, 512K, 64M or 1G (at most 1G); got '\($1)'")
            }
            $0.conversion.maxInputSize = size
        },
        Option(names: ["--strict"], value: nil, help: "Every warning is an error (exit 1): a broken link, a missing section, a duplicate id, …") {
            a, _ in a.strict = true
        },
        Option(
            names: ["--index"], value: nil,
            help: "With a folder: also write index.html, a collapsible outline of the pages; every page links back to it."
        ) {
            a, _ in a.site.index = true
        },
        Option(
            names: ["--site-url"], value: "url",
            help: "With a folder to HTML: the site's address once published (https://…/): canonical links in every page, and sitemap.xml.",
            forSite: true
        ) {
            guard $1.hasPrefix("https://") || $1.hasPrefix("http://"), $1.count > 8,
                !$1.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" })
            else {
                throw UsageError(message: "--site-url takes an http:// or https:// address, such as https://example.org/docs/; got '\($1)'")
            }
            // Page paths are appended to it: a query or fragment would end up before them, and
            // user info would publish a password in every page.
            let authority = $1.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" }
            guard !$1.contains("?"), !$1.contains("#"), !authority.contains("@") else {
                throw UsageError(
                    message:
                        "--site-url takes the site's address without a query (?), fragment (#) or user (@), such as https://example.org/docs/; got '\($1)'"
                )
            }
            $0.site.siteURL = $1
        },
        Option(
            names: ["--cache-dir"], value: "folder", help: "Keep the record of what a folder run wrote here.",
            defaultValue: "$XDG_CACHE_HOME/outline-render, else ~/.cache/outline-render"
        ) {
            $0.cacheDirectory = $1
        },
        Option(names: ["--no-cache"], value: nil, help: "Keep no record: every file is converted every time.") { a, _ in a.noCache = true },
        Option(
            names: ["--config"], value: "file",
            help: "With a folder: the project's mkdocs.yml (by default the one in the folder or the one above it)."
        ) { $0.projectConfig = .file($1) },
        Option(names: ["--no-config"], value: nil, help: "With a folder: read no mkdocs.yml or book.toml, only the files.") {
            a, _ in a.projectConfig = .none
        },
        Option(
            names: ["--watch"], value: nil,
            help: "Convert, then convert again what changes (and remove the outputs of deleted inputs) until Ctrl-C."
        ) { a, _ in
            a.watch = true
        },
        Option(
            names: ["--error-format"], value: "format", help: "gnu (path:line:column: error: …) or github (GitHub Actions annotations).",
            defaultValue: "gnu", choices: ["gnu", "github"]
        ) {
            guard let format = Reporter.Format(rawValue: $1) else {
                throw UsageError(message: "Unknown error format '\($1)' (expected one of: gnu, github)")
            }
            $0.errorFormat = format
        },
        Option(names: ["-q", "--quiet"], value: nil, help: "No warnings, progress or summary; errors only.") { a, _ in a.quiet = true },
        Option(names: ["-v", "--verbose"], value: nil, help: "Say what is written, unchanged and skipped.") { a, _ in a.verbose = true },
        Option(
            names: ["--completion-script"], value: "shell", help: "Print the completion script for bash, zsh or fish.",
            choices: Completions.shells
        ) {
            guard Completions.shells.contains($1) else {
                throw UsageError(message: "Unknown shell '\($1)' (expected one of: \(Completions.shells.joined(separator: ", ")))")
            }
            $0.completionShell = $1
        },
        Option(names: ["--version"], value: nil, help: "Show the version.") { a, _ in a.version = true },
        Option(names: ["-h", "--help"], value: nil, help: "Show help information.") { a, _ in a.help = true },
    ]

    /// The option named `name`, if any.
    static func option(named name: String) -> Option? {
        table.first { $0.names.contains(name) }
    }

    /// The OPTIONS part of `--help`: two-space labels, help in a column at 26, wrapped at 80.
    static var optionsHelp: String {
        table.map { option in
            let label = "  " + option.names.joined(separator: ", ") + (option.value.map { " <\($0)>" } ?? "")
            let text = wrapped(option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""), indent: 26)
            let column = String(repeating: " ", count: 26)
            return label.count < 26
                ? label + String(repeating: " ", count: 26 - label.count) + text : label + "\n" + column + text
        }.joined(separator: "\n")
    }
}
