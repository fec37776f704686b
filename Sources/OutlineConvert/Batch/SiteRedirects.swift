/// The pages that send a reader from a page's old place to its new one: the redirects
/// plugin's `redirect_maps` of an mkdocs project and `[output.html.redirect]` of an mdBook
/// one (docs/sites.md), written as mkdocs-redirects writes them (a canonical link, a
/// script that keeps the `#` part, a refresh for readers without script, a link).
enum SiteRedirects {
    /// For each redirect of `project` whose old page is no page or file of the site
    /// (`taken`: every output already written), the redirect page and its path; and what is
    /// wrong with the others: an old path that is not a Markdown file, or is taken; a new
    /// place that is neither a page of the site (`pages`: outputs by input) nor an `http:`
    /// or `https:` address.
    static func files(
        of project: MkDocsConfig, outputDirectory: String, pages: [PathKey: String], taken: Set<PathKey>
    ) -> (files: [(path: String, bytes: [UInt8])], warnings: [Diagnostic]) {
        var files: [(path: String, bytes: [UInt8])] = []
        var warnings: [Diagnostic] = []
        let docs = BatchPlan.absolute(project.docsFolder)
        let base = BatchPlan.absolute(outputDirectory)
        for redirect in project.redirects {
            let oldSource = BatchPlan.absolute(redirect.old, in: docs)
            guard ["md", "markdown"].contains(Path.fileExtension(redirect.old).lowercased()), Path.isWithin(oldSource, docs),
                let oldRelative = Path.relative(oldSource, below: docs)
            else {
                warnings.append(
                    Diagnostic(redirect.location, "redirect_maps: '\(Quote.snippet(redirect.old))' is not a Markdown file of the docs folder"))
                continue
            }
            let output = Path.join(base, Path.deletingExtension(oldRelative) + ".html")
            guard !taken.contains(PathKey(output)) else {
                warnings.append(
                    Diagnostic(redirect.location, "redirect_maps: '\(Quote.snippet(redirect.old))' is a page of the site; it is kept, not redirected")
                )
                continue
            }
            let (path, hash) = split(redirect.new)
            let target: String
            if ["https://", "http://"].contains(where: redirect.new.lowercased().hasPrefix) {
                target = redirect.new
            } else if let page = pages[PathKey(BatchPlan.absolute(path, in: docs))] {
                target = SiteLinks.relative(from: Path.parent(output), to: page) + hash
            } else {
                warnings.append(
                    Diagnostic(redirect.location, "redirect_maps: '\(Quote.snippet(redirect.new))' is not a page of the site; no redirect is written")
                )
                continue
            }
            files.append((output, page(to: target)))
        }
        return (files, warnings)
    }

    /// For each redirect of `book` (`/old.html` from the site's root) whose old page is no
    /// file of the site (`taken`), the redirect page and its path, to the new place as
    /// written (from the old page's folder, or an address), as mdBook writes it; and what is
    /// wrong: an old path that is not an `.html` page inside the site, or is taken; a new
    /// place from the site that lands on none of its files (written all the same, as
    /// mdBook writes it).
    static func files(ofBook book: MdBookProject, outputDirectory: String, taken: Set<PathKey>) -> (
        files: [(path: String, bytes: [UInt8])], warnings: [Diagnostic]
    ) {
        var files: [(path: String, bytes: [UInt8])] = []
        var warnings: [Diagnostic] = []
        let base = BatchPlan.absolute(outputDirectory)
        for redirect in book.redirects {
            let output = BatchPlan.absolute(String(redirect.old.drop { $0 == "/" }), in: base)
            guard Path.fileExtension(redirect.old).lowercased() == "html", Path.isWithin(output, base), !Path.same(output, base) else {
                warnings.append(
                    Diagnostic(redirect.location, "output.html.redirect: '\(Quote.snippet(redirect.old))' is not a page's path in the site"))
                continue
            }
            guard !taken.contains(PathKey(output)) else {
                warnings.append(
                    Diagnostic(
                        redirect.location, "output.html.redirect: '\(Quote.snippet(redirect.old))' is a page of the site; it is kept, not redirected")
                )
                continue
            }
            let lower = redirect.new.lowercased()
            if !lower.hasPrefix("https://") && !lower.hasPrefix("http://") && !redirect.new.hasPrefix("/") {
                let landing = BatchPlan.absolute(SiteLinks.decoded(split(redirect.new).0), in: Path.parent(output))
                if !taken.contains(PathKey(landing)) {
                    warnings.append(
                        Diagnostic(
                            redirect.location,
                            "output.html.redirect: '\(Quote.snippet(redirect.new))' leads to no page of the site from '\(Quote.snippet(redirect.old))'"
                        ))
                }
            }
            files.append((output, page(to: redirect.new)))
        }
        return (files, warnings)
    }

    /// `path#fragment` as the path and `#fragment` (or "").
    private static func split(_ target: String) -> (String, String) {
        guard let hash = target.firstIndex(of: "#") else { return (target, "") }
        return (String(target[..<hash]), String(target[hash...]))
    }

    /// The page that sends its reader to `url`, the `#` part they came with kept.
    private static func page(to url: String) -> [UInt8] {
        var html = ByteBuffer()
        html.write(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Redirecting...</title>\n<link rel=\"canonical\" href=\""
                as StaticString)
        html.write(escaping: url)
        html.write("\">\n<script>var anchor=window.location.hash.substr(1);location.href=\"" as StaticString)
        html.write(PercentEncoding.quotable.encoded(url))
        html.write("\"+(anchor?\"#\"+anchor:\"\")</script>\n<meta http-equiv=\"refresh\" content=\"0; url=" as StaticString)
        html.write(escaping: url)
        html.write("\">\n</head>\n<body>\nYou're being redirected to a <a href=\"" as StaticString)
        html.write(escaping: url)
        html.write("\">new destination</a>.\n</body>\n</html>\n" as StaticString)
        return html.finish()
    }
}
