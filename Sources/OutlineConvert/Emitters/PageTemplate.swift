/// An HTML page template with `{{placeholder}}`s: `{{title}}` (the page title, escaped),
/// `{{content}}` (the outline markup), `{{style}}` (the default CSS), `{{script}}` (the
/// default script), `{{lang}}` (the page language), `{{index}}` (in a docs site, its
/// navigation and search, or with only an index a `<nav>` linking to it; elsewhere
/// nothing), `{{pager}}` (in a docs site, the previous / next links), `{{canonical}}`
/// (with `--site-url`, the page's canonical link) and `{{toc}}` (with `--toc`, the table of
/// contents; elsewhere nothing). Any other placeholder is an error.
public struct PageTemplate: Equatable, Sendable {
    /// The placeholders a template may use.
    public static let placeholders = ["title", "content", "style", "script", "lang", "index", "toc", "pager", "canonical"]

    /// The built-in page (Templates/default.html, .css, .js).
    public static let `default` = PageTemplate(builtIn: EmbeddedTemplates.files["default.html"] ?? "{{content}}")

    private let pieces: [Piece]

    /// The default page's style sheet and script.
    static var defaultStyle: String { EmbeddedTemplates.files["default.css"] ?? "" }
    static var defaultScript: String { EmbeddedTemplates.files["default.js"] ?? "" }

    /// The template's content, for telling templates apart.
    var fingerprint: String {
        pieces.map { if case .literal(let text) = $0 { text } else if case .placeholder(let name) = $0 { "{{\(name)}}" } else { "" } }.joined()
    }
    private enum Piece: Equatable {
        case literal(String)
        case placeholder(String)
    }

    /// Checks `text`; an unknown placeholder is an error located in `path`.
    public init(text: String, path: String) throws {
        pieces = try Self.split(text, path: path)
    }

    /// The built-in template; its placeholders are checked by the tests.
    private init(builtIn text: String) {
        pieces = (try? Self.split(text, path: "Templates/default.html")) ?? [.placeholder("content")]
    }

    /// Writes the page, with `writeContent` appending the outline markup in place of
    /// `{{content}}` (so a large document is never copied into the page a second time), and
    /// `writeCode` the script that highlights its code after the default script (it knows
    /// the code's languages once the content is written).
    func render(
        title: String, lang: String, site: PageSite? = nil, into page: inout ByteBuffer,
        toc writeTOC: (inout ByteBuffer) -> Void = { _ in }, code writeCode: (inout ByteBuffer) -> Void = { _ in },
        content writeContent: (inout ByteBuffer) -> Void
    ) {
        for piece in pieces {
            switch piece {
            case .literal(let text): page.write(text)
            case .placeholder("title"): page.write(escaping: site?.title(for: title) ?? title)
            case .placeholder("content"): writeContent(&page)
            case .placeholder("toc"): writeTOC(&page)
            case .placeholder("style"):
                Self.write(Self.defaultStyle, orLoad: ("@import url(\"", "outline-site/outline.css\");"), site: site, into: &page)
                for stylesheet in site?.stylesheets ?? [] {
                    page.write("\n@import url(\"" as StaticString)
                    page.write(PercentEncoding.quotable.encoded(stylesheet))
                    page.write("\");" as StaticString)
                }
            case .placeholder("script"):
                Self.write(
                    Self.defaultScript,
                    orLoad: (
                        "(function () { var script = document.createElement(\"script\"); script.src = \"",
                        "outline-site/outline.js\"; document.body.appendChild(script); })();"
                    ), site: site, into: &page)
                for script in site?.scripts ?? [] {
                    page.write("\n(function () { var script = document.createElement(\"script\"); " as StaticString)
                    if script.isModule { page.write("script.type = \"module\"; " as StaticString) }
                    page.write("script.src = \"" as StaticString)
                    page.write(PercentEncoding.quotable.encoded(script.url))
                    page.write("\"; document.body.appendChild(script); })();" as StaticString)
                }
                writeCode(&page)
                if let site, site.reloads { Self.writeReloader(site, into: &page) }
            case .placeholder("lang"): page.write(escaping: lang)
            case .placeholder("index"):
                guard let site else { continue }
                Self.writeSiteBlock(site, into: &page)
            case .placeholder("pager"):
                if site?.navigation == true { page.write(PageSite.pagerSlot) }
            case .placeholder("canonical"):
                guard let canonical = site?.canonical else { continue }
                page.write("\n<link rel=\"canonical\" href=\"" as StaticString)
                page.write(escaping: canonical)
                page.write("\">" as StaticString)
            case .placeholder: break
            }
        }
    }

    /// With `--watch`, what reloads the page after a rebuild that changed it: it adds
    /// `outline-site/reload.js` as a script every second (which works from `file://`, where
    /// nothing can be fetched), and that calls `outlineReload(stamp, pages, all)`: a new
    /// stamp, with this page among the changed ones (or `all`), reloads it. The stamp seen
    /// last is the root element's `data-outline-build`.
    private static func writeReloader(_ site: PageSite, into page: inout ByteBuffer) {
        page.write("\n(function () { var root = " as StaticString)
        page.write(JSONEmitter.quoted(site.root))
        page.write(", here = " as StaticString)
        page.write(JSONEmitter.quoted(site.href))
        page.write(
            """
            , seen = null;
              window.outlineReload = function (stamp, pages, all) {
                if (seen !== null && stamp !== seen && (all || pages.indexOf(here) >= 0)) return location.reload();
                seen = stamp;
                document.documentElement.setAttribute("data-outline-build", stamp);
              };
              (function poll() {
                var script = document.createElement("script");
                script.src = root + "outline-site/reload.js?" + Date.now();
                script.onload = script.onerror = function () { script.remove(); setTimeout(poll, 1000); };
                document.head.appendChild(script);
              })();
            })();
            """ as StaticString)
    }

    /// `inline`, or in a site with navigation (whose pages share their style and script,
    /// outline-site/outline.css and .js) what loads it: `load.before`, the site's root,
    /// `load.after`.
    private static func write(
        _ inline: String, orLoad load: (before: StaticString, after: StaticString), site: PageSite?, into page: inout ByteBuffer
    ) {
        guard let site, site.navigation else { return page.write(inline) }
        page.write(load.before)
        page.write(escaping: site.root)
        page.write(load.after)
    }

    /// A site page's name (linking home), repository and edit links, navigation (a control that holds the outline of the site, which the
    /// script draws from the shared `outline-site/nav.js`, or without script a frame of
    /// `outline-site/nav.html`) and search field (shown by the script), or only the link to
    /// the index in a site without navigation.
    private static func writeSiteBlock(_ site: PageSite, into page: inout ByteBuffer) {
        guard site.navigation || site.indexLink != nil else { return }
        page.write("\n<nav class=\"outline-index\" aria-label=\"Site\"" as StaticString)
        if site.navigation {
            page.write(" data-outline-root=\"" as StaticString)
            page.write(escaping: site.root)
            page.write("\" data-outline-page=\"" as StaticString)
            page.write(escaping: site.href)
            page.write("\"" as StaticString)
        }
        page.write(">" as StaticString)
        if site.logo != nil || site.logoIcon != nil {
            // (The logo is the name's picture: the name, or "Home", is its text.)
            page.write(
                site.homeLink == nil ? "<span class=\"outline-site-name\">" as StaticString : "<a class=\"outline-site-name\" href=\"" as StaticString
            )
            if let home = site.homeLink {
                page.write(escaping: home)
                page.write("\">" as StaticString)
            }
            if let logo = site.logo {
                page.write("<img class=\"outline-site-logo\" src=\"" as StaticString)
                page.write(escaping: logo)
                page.write(site.siteName == nil ? "\" alt=\"Home\">" as StaticString : "\" alt=\"\">" as StaticString)
            } else if let icon = site.logoIcon {
                // (One of the bundled icons' SVG, written as it is.)
                page.write("<span class=\"outline-site-logo outline-site-icon\" " as StaticString)
                page.write(site.siteName == nil ? "role=\"img\" aria-label=\"Home\">" as StaticString : "aria-hidden=\"true\">" as StaticString)
                page.write(icon)
                page.write("</span>" as StaticString)
            }
            page.write(escaping: site.siteName ?? "")
            page.write(site.homeLink == nil ? "</span>" as StaticString : "</a>" as StaticString)
        } else if let name = site.siteName {
            writeLink(name, to: site.homeLink, class: "outline-site-name", into: &page)
        }
        if let repository = site.repository { writeLink(repository.name, to: repository.url, class: "outline-repo", into: &page) }
        if let edit = site.editLink { writeLink("Edit this page", to: edit, class: "outline-edit", into: &page) }
        if let indexLink = site.indexLink {
            page.write("<a href=\"" as StaticString)
            page.write(escaping: indexLink)
            page.write("\">↑ Index</a>" as StaticString)
        }
        if site.navigation {
            page.write(
                "\n<details class=\"outline-site-menu\"><summary>Pages</summary>\n<div class=\"outline-site-tree\"></div>\n" as StaticString)
            page.write("<noscript><iframe class=\"outline-site-frame\" title=\"Site navigation\" src=\"" as StaticString)
            page.write(escaping: site.root)
            page.write("outline-site/nav.html\"></iframe></noscript>\n</details>\n" as StaticString)
            page.write(
                """
                <div class="outline-site-search" role="search" hidden>
                <label for="outline-render:search">Search the site</label>
                <input type="search" id="outline-render:search" placeholder="Type / to search the site" spellcheck="false" aria-controls="outline-render:results">
                <span class="outline-search-count" aria-live="polite"></span>
                <ul class="outline-search-results" id="outline-render:results" aria-label="Search results"></ul>
                </div>

                """ as StaticString)
        }
        page.write("</nav>" as StaticString)
    }

    /// `<a class="…" href="…">text</a>`, or a `<span>` when there is no address.
    private static func writeLink(_ text: String, to href: String?, class name: StaticString, into page: inout ByteBuffer) {
        page.write(href == nil ? "<span class=\"" as StaticString : "<a class=\"" as StaticString)
        page.write(name)
        if let href {
            page.write("\" href=\"" as StaticString)
            page.write(escaping: href)
        }
        page.write("\">" as StaticString)
        page.write(escaping: text)
        page.write(href == nil ? "</span>" as StaticString : "</a>" as StaticString)
    }

    private static func split(_ text: String, path: String) throws -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(text)
        var line = 1
        while let open = rest.firstRange(of: "{{") {
            let before = rest[..<open.lowerBound]
            line += before.count { $0 == "\n" }
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else { break }
            let name = rest[open.upperBound..<close.lowerBound].trimmed
            guard placeholders.contains(name) else {
                throw ConversionError.invalid(
                    SourceLocation(file: path, line: line),
                    "unknown placeholder '{{\(name)}}'; known: " + placeholders.map { "{{\($0)}}" }.joined(separator: ", "))
            }
            pieces.append(.literal(String(before)))
            pieces.append(.placeholder(name))
            rest = rest[close.upperBound...]
        }
        pieces.append(.literal(String(rest)))
        return pieces
    }
}
