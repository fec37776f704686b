/// A tree's `mkdocs.yml`, as far as this release reads it (docs/sites.md): the names its
/// `markdown_extensions` lists, which turn on mkdocs' dialect for the tree's Markdown (SPEC
/// §3.1.3, docs/formats.md), its `nav` and its `docs_dir`. It is found as mkdocs finds it
/// for a tree given as the project folder or as its `docs` folder: `mkdocs.yml` (or
/// `mkdocs.yaml`) in the folder, else in its parent. It is read as YAML (`YAMLReader`), its
/// tags never acted on.
package struct MkDocsConfig: Sendable {
    /// One entry of `nav`, as mkdocs reads it: a page or link (`path.md`, `Label: path.md`,
    /// `Label: https://…`), or a section (`Label: [entries]`). Whether a target is a page
    /// is settled against the site's pages (`SiteNavigation`).
    enum NavItem: Sendable, Equatable {
        case target(label: String?, String, SourceLocation)
        case section(label: String, [NavItem])
    }

    /// The file read.
    let file: String
    /// The folder the pages are in, which `nav` names them from (`docs_dir`, by default
    /// `docs` beside the file; one outside the file's folder is refused with a warning).
    let docsFolder: String
    /// `site_name`: shown on every page of the site, linking home, and in its title.
    let siteName: String?
    /// `site_url` (an `http:` or `https:` address without query, fragment or user), as
    /// `--site-url` gives it when the command line does not.
    let siteURL: String?
    /// `repo_url` (an `http:` or `https:` URL) and `repo_name` (by default from its host, as
    /// mkdocs names it): a link on every page.
    let repository: (url: String, name: String)?
    /// How a page's edit link is made from its path under the docs folder: `edit_uri`
    /// (by default `edit/master/docs/` on GitHub and GitLab, `src/default/docs/` on
    /// Bitbucket) or `edit_uri_template` (`{path}`, `{path_noext}`, `{path!q}`).
    private let editTemplate: String?
    /// The names `markdown_extensions` lists, with those of `theme.features` that change
    /// how Markdown renders (`content.code.annotate`); nil when it is absent (the dialect
    /// stays off).
    let extensions: Set<String>?
    /// pymdownx.magiclink's shorthand for the project's repository, when its options turn it
    /// on (`repo_url_shorthand`, with `user` and `repo`, the provider GitHub).
    let magicLinks: MagicLinkExtension?
    /// pymdownx snippets, when `markdown_extensions` turns them on, with their options.
    let snippets: SnippetIncludes?
    /// How `toc` makes headings' ids (`slugify`, `separator`).
    let slugStyle: SlugStyle
    /// `toc`'s `permalink` and `permalink_title`; nil when not asked for.
    let permalink: HTMLOptions.Permalink?
    /// `nav`; nil when it is absent (the navigation is built from the folders).
    let nav: [NavItem]?
    /// `extra_css`: files under the docs folder (paths from it) or `http:`/`https:`
    /// addresses, each with where it is named.
    let extraCSS: [(path: String, location: SourceLocation)]
    /// `extra_javascript`, as `extraCSS` (a mapping's `path`).
    let extraJavaScript: [(path: String, location: SourceLocation)]
    /// The `extra_javascript` paths given as `{path: …, type: module}`: loaded as modules.
    let moduleScripts: Set<String>
    /// `theme.logo` (mkdocs-material's): an image of the docs folder, or an address, shown
    /// before the site's name.
    let logo: (path: String, location: SourceLocation)?
    /// `theme.icon.logo` (mkdocs-material's): an icon by name (`material/library`), shown
    /// when there is no `theme.logo`.
    let logoIcon: (name: String, location: SourceLocation)?
    /// `theme.language`: the pages' `lang`.
    let language: String?
    /// `pymdownx.emoji`'s `options.custom_icons`: folders (paths from the project's folder,
    /// as written) whose SVG files are icons too (`CustomIcons`), each with where it is named.
    let customIcons: [(path: String, location: SourceLocation)]

    /// `validation` (mkdocs 1.6): how loud each kind of problem with links is, by mkdocs'
    /// levels and defaults.
    struct Validation: Sendable {
        enum Level: String, Sendable { case warn, info, ignore }
        /// `links.not_found`: a link to a file that is not there.
        var notFound = Level.warn
        /// `links.anchors`: a link to a section that is not there (mkdocs: info by default).
        var anchors = Level.info
        /// `nav.not_found`: `nav` naming what is not a page.
        var navNotFound = Level.warn
        /// `nav.omitted_files`: a page `nav` leaves out (and `not_in_nav` does not name).
        var omittedFiles = Level.info
        /// `links.absolute_links`: a link from the server's root (`/x`), left as it is.
        var absoluteLinks = Level.info
        /// `links.absolute_links: relative_to_docs`: such a link is from the docs folder,
        /// followed and checked like any other.
        var absoluteFromDocs = false
        /// `links.unrecognized_links`: a link to no file whose name has no extension
        /// (`guide/`, `setup`), left as it is.
        var unrecognizedLinks = Level.info
    }

    let validation: Validation

    /// The redirects plugin's `redirect_maps` (`plugins: [redirects: {redirect_maps: …}]`):
    /// an old page's path from the docs folder, and where it now is, with where it is named.
    let redirects: [(old: String, new: String, location: SourceLocation)]

    /// The label `nav` gives each page it names with one (the first, when it names a page
    /// twice), by the page's absolute path.
    var labels: [String: String] {
        var labels: [String: String] = [:]
        func collect(_ items: [NavItem]) {
            for item in items {
                switch item {
                case .section(_, let children): collect(children)
                case .target(let label?, let target, _):
                    let key = BatchPlan.absolute(target, in: BatchPlan.absolute(docsFolder))
                    if labels[key] == nil { labels[key] = label }
                case .target(nil, _, _): break
                }
            }
        }
        collect(nav ?? [])
        return labels
    }

    /// What every page shows of the project (its name and address, logo, language,
    /// repository, extra style and scripts, the labels of `nav` as titles, the edit links,
    /// how links from the root are read): a run's record is kept only while it is the same.
    var pageFingerprint: String {
        ([
            siteName ?? "", siteURL ?? "", repository?.url ?? "", repository?.name ?? "", editTemplate ?? "", logo?.path ?? "", logoIcon?.name ?? "",
            language ?? "", validation.absoluteFromDocs ? "absolute-from-docs" : "",
        ]
            + (extraCSS + extraJavaScript).map(\.path) + moduleScripts.sorted()
            + labels.map { $0.key + "\u{1}" + $0.value }.sorted())
            .joined(separator: "\u{0}")
    }
    /// The files of the docs folder that are no part of the site: mkdocs' own exclusions
    /// (hidden files, `templates/` at the top), then `exclude_docs`.
    let excluded: GitIgnorePatterns
    /// The pages that are in no navigation built from the folders (`not_in_nav`).
    let notInNav: GitIgnorePatterns?
    /// What `nav` holds that is no entry (a number, an empty section), a `docs_dir` outside.
    let warnings: [Diagnostic]

    /// The `mkdocs.yml` that configures the tree at `root`, if one does; a located error when
    /// that file is not YAML.
    static func load(forTreeAt root: String) throws -> MkDocsConfig? {
        for folder in [root, folderAbove(root)] {
            if let config = try load(in: folder) { return config }
        }
        return nil
    }

    /// The configuration `choice` names for the tree at `root`: the one found for it, the
    /// file given (a located error when it cannot be read), or none.
    static func load(_ choice: ProjectConfig, forTreeAt root: String) throws -> MkDocsConfig? {
        switch choice {
        case .found: return try load(forTreeAt: root)
        case .none: return nil
        case .file(let path):
            let bytes: [UInt8]
            do {
                bytes = try Files.read(path, limit: 1 << 20)
            } catch {
                throw ConversionError.io(path: path, "--config: " + ((error as? ConversionError)?.reason ?? "cannot read"))
            }
            return MkDocsConfig(try YAMLReader.documents(bytes, file: path).first, file: path)
        }
    }

    /// The folder of the pages (`docs_dir`) of the project whose configuration (by
    /// `choice`) is in `folder`, when that is a folder; nil for any other folder (one whose
    /// `mkdocs.yml` is not YAML too: `load` says why).
    static func docsFolder(ofProject folder: String, config choice: ProjectConfig = .found) -> String? {
        guard Files.isDirectory(folder) else { return nil }
        let config: MkDocsConfig?
        switch choice {
        case .found: config = try? load(in: folder)
        case .none: config = nil
        case .file:
            config = (try? load(choice, forTreeAt: folder)).flatMap {
                Path.same(BatchPlan.absolute(Path.parent($0.file)), BatchPlan.absolute(folder)) ? $0 : nil
            }
        }
        guard let config, Files.isDirectory(config.docsFolder) else { return nil }
        return config.docsFolder
    }

    /// Whether `inputs` are this project's docs folder alone: what `excluded` is matched from.
    func docsFolderIs(_ inputs: [String]) -> Bool {
        inputs.count == 1 && Path.same(BatchPlan.absolute(inputs[0]), BatchPlan.absolute(docsFolder))
    }

    /// The `mkdocs.yml` (or `mkdocs.yaml`) in `folder`, if there is one.
    private static func load(in folder: String) throws -> MkDocsConfig? {
        for name in ["mkdocs.yml", "mkdocs.yaml"] {
            let path = folder == "." ? name : Path.join(folder, name)
            guard let bytes = try? Files.read(path, limit: 1 << 20) else { continue }
            return MkDocsConfig(try YAMLReader.documents(bytes, file: path).first, file: path)
        }
        return nil
    }

    /// The folder that holds `root`, written as short as it can be (it names the file in
    /// messages): `docs` is in `.`, `a/docs/` in `a`, `.` in `..`.
    static func folderAbove(_ root: String) -> String {
        var folder = root
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        let last = Path.lastComponent(folder)
        return last == "." || last == ".." || folder == "/" ? Path.join(folder, "..") : Path.parent(folder)
    }

    /// The configuration `config` (the file's first document, nil when it is empty) says.
    init(_ config: YAMLNode?, file: String) {
        self.file = file
        var warnings: [Diagnostic] = []
        let folder = Path.parent(file)
        func inFolder(_ name: String) -> String { folder == "." ? name : Path.join(folder, name) }
        var docsFolder = inFolder("docs")
        if let node = config?["docs_dir"], let name = node.text, !node.isNull {
            // (A project's pages are its own: a file elsewhere on the machine is never one.)
            if !name.hasPrefix("/"), Path.isWithin(BatchPlan.absolute(inFolder(name)), BatchPlan.absolute(folder)) {
                docsFolder = inFolder(name)
            } else {
                warnings.append(
                    Diagnostic(
                        SourceLocation(file: file, line: node.line, column: node.column),
                        "docs_dir '\(Quote.snippet(name))' is not inside the project's folder; it is not read"))
            }
        }
        self.docsFolder = docsFolder
        extensions = config.flatMap { config in Self.extensionNames(in: config).map { $0.union(Self.markdownFeatures(in: config)) } }
        magicLinks = config?["markdown_extensions"].flatMap { Self.options(of: "pymdownx.magiclink", in: $0) }.flatMap(Self.magicLinks)
        snippets =
            extensions?.contains("pymdownx.snippets") == true
            ? Self.snippets(config?["markdown_extensions"].flatMap { Self.options(of: "pymdownx.snippets", in: $0) }, project: folder, file: file)
            : nil
        customIcons =
            extensions?.contains("pymdownx.emoji") == true
            ? (config?["markdown_extensions"].flatMap { Self.options(of: "pymdownx.emoji", in: $0) }?["options"]?["custom_icons"]?.items ?? [])
                .compactMap { item in
                    item.text.map { ($0, SourceLocation(file: file, line: item.line, column: item.column)) }
                }
            : []
        (slugStyle, permalink) = Self.headingOptions(
            config?["markdown_extensions"].flatMap { Self.options(of: "toc", in: $0) }, file: file, warnings: &warnings)
        (repository, editTemplate) = Self.repository(of: config, file: file, warnings: &warnings)
        siteURL = config?["site_url"].flatMap { node -> String? in
            guard let url = node.text, !node.isNull, !url.isEmpty else { return nil }
            let lower = url.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), !url.contains(where: { "?#@ ".contains($0) }) else {
                warnings.append(
                    Diagnostic(
                        SourceLocation(file: file, line: node.line, column: node.column),
                        "site_url '\(Quote.snippet(url))' is not an http:// or https:// address without ?, # or @; it is not used"))
                return nil
            }
            return url
        }
        siteName = config?["site_name"].flatMap { $0.isNull ? nil : $0.text }.map(TitleText.normalized).flatMap { $0.isEmpty ? nil : $0 }
        func files(_ key: String) -> [(path: String, location: SourceLocation)] {
            // (A script may be a mapping, `{path: x.js, defer: true}`: its path is read.)
            (config?[key]?.items ?? []).compactMap { item in
                (item.text ?? item["path"]?.text).map { ($0, SourceLocation(file: file, line: item.line, column: item.column)) }
            }
        }
        // (`plugins` is a sequence of names and one-key mappings, or a mapping.)
        let plugins = config?["plugins"]
        let redirectsPlugin = plugins?["redirects"] ?? plugins?.items?.lazy.compactMap { $0["redirects"] }.first
        redirects = (redirectsPlugin?["redirect_maps"]?.entries ?? []).compactMap { entry in
            guard let old = entry.key.text, let new = entry.value.text else { return nil }
            return (old, new, SourceLocation(file: file, line: entry.key.line, column: entry.key.column))
        }
        extraCSS = files("extra_css")
        extraJavaScript = files("extra_javascript")
        moduleScripts = Set((config?["extra_javascript"]?.items ?? []).compactMap { $0["type"]?.text == "module" ? $0["path"]?.text : nil })
        logo = config?["theme"]?["logo"].flatMap { node in
            node.isNull ? nil : node.text.map { ($0, SourceLocation(file: file, line: node.line, column: node.column)) }
        }
        logoIcon = config?["theme"]?["icon"]?["logo"].flatMap { node in
            node.isNull ? nil : node.text.map { ($0, SourceLocation(file: file, line: node.line, column: node.column)) }
        }
        language = config?["theme"]?["language"].flatMap { $0.isNull ? nil : $0.text }.flatMap { $0.isEmpty ? nil : $0 }
        func patterns(_ key: String) -> GitIgnorePatterns? {
            guard let node = config?[key], !node.isNull else { return nil }
            let at = SourceLocation(file: file, line: node.line, column: node.column)
            guard let text = node.text else {
                warnings.append(Diagnostic(at, "\(key) is a text of patterns, one a line; it is not read"))
                return nil
            }
            return GitIgnorePatterns(text) { warnings.append(Diagnostic(at, "\(key): '\(Quote.snippet($0))' is not a pattern; it is left out")) }
        }
        validation = Self.validation(config?["validation"], file: file, warnings: &warnings)
        excluded = GitIgnorePatterns(GitIgnorePatterns.mkDocsDefaults).followed(by: patterns("exclude_docs"))
        notInNav = patterns("not_in_nav")
        nav = config?["nav"].flatMap { $0.isNull ? nil : Self.navItems($0, file: file, warnings: &warnings) }
        self.warnings = warnings
    }

    /// The link to the page at `path` (under the docs folder, `/` between its parts) in
    /// the repository, to edit it (mkdocs' `edit_url`); nil without `edit_uri`.
    func editLink(path: String) -> String? {
        guard let editTemplate else { return nil }
        let noExtension = Path.deletingExtension(path)
        let uri =
            editTemplate.contains("{")
            ? editTemplate.replacing("{path!q}", with: PercentEncoding.unreserved.encoded(path)).replacing("{path_noext}", with: noExtension)
                .replacing("{path}", with: path)
            : editTemplate + path
        return URLReference.resolve(
            uri, against: repository.map { $0.url.hasSuffix("/") || uri.hasPrefix("?") || uri.hasPrefix("#") ? $0.url : $0.url + "/" } ?? "")
    }

    /// `repo_url` with its name, and the edit template, as mkdocs derives them; a located
    /// warning for a `repo_url` that is not an `http:` or `https:` URL (left out).
    private static func repository(of config: YAMLNode?, file: String, warnings: inout [Diagnostic]) -> ((url: String, name: String)?, String?) {
        func text(_ key: String) -> String? { config?[key].flatMap { $0.isNull ? nil : $0.text } }
        var repository: (url: String, name: String)?
        var host = ""
        if let node = config?["repo_url"], let url = text("repo_url") {
            host = Self.host(of: url) ?? ""
            if let name = repositoryName(of: url) {
                repository = (url, text("repo_name") ?? name)
            } else {
                warnings.append(
                    Diagnostic(
                        SourceLocation(file: file, line: node.line, column: node.column),
                        "repo_url '\(Quote.snippet(url))' is not an http:// or https:// address; it is not shown"))
            }
        }
        if let template = text("edit_uri_template"), !template.isEmpty { return (repository, template) }
        var edit =
            text("edit_uri")
            ?? (repository == nil
                ? nil : ["github.com": "edit/master/docs/", "gitlab.com": "edit/master/docs/", "bitbucket.org": "src/default/docs/"][host])
        if let uri = edit, !uri.isEmpty, !uri.hasSuffix("/") { edit = uri + "/" }
        return (repository, edit.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The levels `validation` gives: `nav.x` and `links.x`, or `x` for both (mkdocs'
    /// shorthand). A level that is not `warn`, `info` or `ignore` is a warning at it.
    private static func validation(_ node: YAMLNode?, file: String, warnings: inout [Diagnostic]) -> Validation {
        var validation = Validation()
        guard let node, !node.isNull else { return validation }
        func level(_ section: String, _ key: String) -> Validation.Level? {
            guard let value = node[section]?[key] ?? node[key], !value.isNull else { return nil }
            if key == "absolute_links", value.text == "relative_to_docs" {
                validation.absoluteFromDocs = true
                return .ignore
            }
            guard let text = value.text, let level = Validation.Level(rawValue: text) else {
                let also = key == "absolute_links" ? ", relative_to_docs" : ""
                warnings.append(
                    Diagnostic(
                        SourceLocation(file: file, line: value.line, column: value.column),
                        "validation: \(section).\(key) is not warn, info\(also) or ignore; mkdocs' default is used"))
                return nil
            }
            return level
        }
        validation.notFound = level("links", "not_found") ?? validation.notFound
        validation.anchors = level("links", "anchors") ?? validation.anchors
        validation.absoluteLinks = level("links", "absolute_links") ?? validation.absoluteLinks
        validation.unrecognizedLinks = level("links", "unrecognized_links") ?? validation.unrecognizedLinks
        validation.navNotFound = level("nav", "not_found") ?? validation.navNotFound
        validation.omittedFiles = level("nav", "omitted_files") ?? validation.omittedFiles
        return validation
    }

    /// The name of the repository at `url`, as mkdocs names it by its host (`GitHub`,
    /// `GitLab`, `Bitbucket`, else the host's first part); nil when `url` is not an
    /// `http:` or `https:` address.
    static func repositoryName(of url: String) -> String? {
        guard let host = host(of: url) else { return nil }
        let first = host.prefix { $0 != "." }
        return ["github.com": "GitHub", "bitbucket.org": "Bitbucket", "gitlab.com": "GitLab"][host]
            ?? (first.prefix(1).uppercased() + first.dropFirst())
    }

    /// The host of an `http:` or `https:` address, lowercase; nil for any other.
    private static func host(of url: String) -> String? {
        let lower = url.lowercased()
        let rest = lower.hasPrefix("https://") ? lower.dropFirst(8) : lower.hasPrefix("http://") ? lower.dropFirst(7) : nil
        let host = rest.map { String($0.prefix { $0 != "/" && $0 != "?" && $0 != "#" }) } ?? ""
        return host.isEmpty ? nil : host
    }

    /// The shorthand magiclink's options turn on: `repo_url_shorthand` true, a `user` and a
    /// `repo`, and the provider GitHub (its default); nil otherwise.
    private static func magicLinks(_ options: YAMLNode) -> MagicLinkExtension? {
        func flag(_ name: String) -> Bool { ["true", "yes", "on"].contains(options[name]?.text?.lowercased() ?? "") }
        guard flag("repo_url_shorthand"), let user = options["user"]?.text, let repo = options["repo"]?.text, !user.isEmpty, !repo.isEmpty,
            (options["provider"]?.text ?? "github") == "github"
        else { return nil }
        return MagicLinkExtension(user: user, repo: repo, normalizesSymbols: flag("normalize_issue_symbols"))
    }

    /// The features `theme.features` turns on that change how pages' Markdown renders:
    /// mkdocs-material's code annotations.
    private static func markdownFeatures(in config: YAMLNode) -> Set<String> {
        let features = config["theme"]?["features"]?.items?.compactMap(\.text) ?? []
        return features.contains(CodeInfoExtension.annotateFeature) ? [CodeInfoExtension.annotateFeature] : []
    }

    /// The names of the entries of the top-level `markdown_extensions` of `config`; nil
    /// when it has none. The key takes both of the forms mkdocs takes: a sequence of names
    /// or of one-key maps (`- pymdownx.mark`, `- toc: {…}`), or a map of names.
    static func extensionNames(in config: YAMLNode) -> Set<String>? {
        guard let extensions = config["markdown_extensions"] else { return nil }
        if let entries = extensions.entries { return Set(entries.compactMap { $0.key.text }) }
        let names = (extensions.items ?? []).compactMap { item in item.text ?? item.entries?.first?.key.text }
        return Set(names)
    }

    /// The options given to the extension `name` in `extensions` (`- name: {…}` or
    /// `name: {…}`), if any.
    private static func options(of name: String, in extensions: YAMLNode) -> YAMLNode? {
        if let entries = extensions.entries { return entries.last { $0.key.text == name }?.value }
        return extensions.items?.lazy.compactMap { $0[name] }.last
    }

    /// pymdownx snippets with the options `options` gives (paths from the project's
    /// `folder`, where mkdocs is run).
    private static func snippets(_ options: YAMLNode?, project folder: String, file: String) -> SnippetIncludes {
        func located(_ node: YAMLNode) -> SourceLocation { SourceLocation(file: file, line: node.line, column: node.column) }
        func texts(_ node: YAMLNode?) -> [(String, SourceLocation)] {
            guard let node, !node.isNull else { return [] }
            if let text = node.text { return [(text, located(node))] }
            return (node.items ?? []).compactMap { item in item.text.map { ($0, located(item)) } }
        }
        let bases = options?["base_path"].map(texts) ?? [(".", SourceLocation(file: file))]
        var snippets = SnippetIncludes(
            basePaths: bases.map { $0.0.hasPrefix("/") || folder == "." ? $0.0 : $0.0 == "." ? folder : Path.join(folder, $0.0) }, project: folder)
        snippets.autoAppend = texts(options?["auto_append"]).map { SnippetIncludes.Named(path: $0.0, location: $0.1) }
        snippets.checkPaths = options?["check_paths"]?.bool ?? false
        snippets.restrictBasePath = options?["restrict_base_path"]?.bool ?? true
        snippets.dedentSubsections = options?["dedent_subsections"]?.bool ?? false
        snippets.downloadsAddresses = options?["url_download"]?.bool ?? false
        return snippets
    }

    /// The entries of a `nav` node, read as mkdocs' `_data_to_navigation` reads it: a
    /// sequence's items in order (a one-key mapping is one entry), a mapping's keys each a
    /// labelled entry (a text value: a page or link; otherwise a section), a text alone an
    /// entry without a label. Anything else is left out with a warning.
    private static func navItems(_ node: YAMLNode, file: String, warnings: inout [Diagnostic]) -> [NavItem] {
        let location = SourceLocation(file: file, line: node.line, column: node.column)
        if let text = node.text, !node.isNull { return [.target(label: nil, text, location)] }
        if let items = node.items { return items.flatMap { navItems($0, file: file, warnings: &warnings) } }
        guard let entries = node.entries else { return [] }
        return entries.compactMap { entry in
            guard let label = entry.key.text else {
                warnings.append(Diagnostic(location, "a nav entry's label is not text; the entry is left out"))
                return nil
            }
            let at = SourceLocation(file: file, line: entry.value.line, column: entry.value.column)
            if let target = entry.value.text, !entry.value.isNull { return .target(label: label, target, at) }
            let children = navItems(entry.value, file: file, warnings: &warnings)
            guard !children.isEmpty else {
                warnings.append(Diagnostic(at, "the nav section '\(Quote.snippet(label))' holds no entry; it is left out"))
                return nil
            }
            return .section(label: label, children)
        }
    }
}
