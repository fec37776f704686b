extension MkDocsConfig {
    /// What an mkdocs project's `toc` extension says of its headings (docs/sites.md): the
    /// `slugify` and `separator` that make their ids, and the `permalink` beside each one
    /// (none unless asked for, as in mkdocs). mkdocs turns `toc` on in every project.
    static func headingOptions(_ options: YAMLNode?, file: String, warnings: inout [Diagnostic]) -> (
        slugs: SlugStyle, permalink: HTMLOptions.Permalink?
    ) {
        func located(_ node: YAMLNode) -> SourceLocation { SourceLocation(file: file, line: node.line, column: node.column) }
        var style = SlugStyle()
        if let node = options?["separator"], !node.isNull {
            if let text = node.text {
                style.separator = text
            } else {
                warnings.append(Diagnostic(located(node), "toc: separator is not text; '-' is used"))
            }
        }
        if let node = options?["slugify"], !node.isNull {
            if let function = slugFunction(node, located: located, warnings: &warnings) { style.function = function }
        }
        var permalink: HTMLOptions.Permalink?
        if let node = options?["permalink"], !node.isNull, node.bool != false {
            let label = options?["permalink_title"].flatMap { $0.isNull ? nil : $0.text }.flatMap { $0.isEmpty ? nil : $0 }
            // (`true`, else the text to show; Python-Markdown's `¶` is `&para;`.)
            let text = node.bool == true ? "\u{00B6}" : node.text ?? "\u{00B6}"
            permalink = HTMLOptions.Permalink(text: text, label: label ?? "Permanent link")
        }
        return (style, permalink)
    }

    /// The function a `slugify` option names by its YAML tag (`!!python/name:…`, or
    /// `!!python/object/apply:pymdownx.slugs.slugify` with its `kwds`), without running
    /// anything; nil, with a warning, for one not known here.
    private static func slugFunction(
        _ node: YAMLNode, located: (YAMLNode) -> SourceLocation, warnings: inout [Diagnostic]
    ) -> SlugStyle.Function? {
        let tag = node.tag ?? ""
        let name = ["tag:yaml.org,2002:python/name:", "tag:yaml.org,2002:python/object/apply:"].lazy
            .compactMap { tag.hasPrefix($0) ? String(tag.dropFirst($0.count)) : nil }.first
        switch name {
        case "markdown.extensions.toc.slugify": return .ascii
        case "markdown.extensions.toc.slugify_unicode": return .unicode
        case "pymdownx.slugs.slugify" where tag.contains("/apply:"):
            var options = SlugStyle.PymdownxOptions()
            let keywords = node["kwds"]
            if let value = keywords?["case"], !value.isNull {
                guard let text = value.text, let letterCase = SlugStyle.PymdownxOptions.Case(rawValue: text) else {
                    warnings.append(Diagnostic(located(value), "toc: slugify's case is not none, lower, lower-ascii or fold; none is used"))
                    return .pymdownx(options)
                }
                options.letterCase = letterCase
            }
            options.percentEncode = keywords?["percent_encode"]?.bool ?? false
            if let value = keywords?["normalize"], let text = value.text {
                guard ["NFC", "NFD", "NFKC", "NFKD"].contains(text) else {
                    warnings.append(Diagnostic(located(value), "toc: slugify's normalize is not NFC, NFD, NFKC or NFKD; NFC is used"))
                    return .pymdownx(options)
                }
                options.decomposed = text.hasSuffix("D")
            }
            return .pymdownx(options)
        default:
            let named = name.map { "'\(Quote.snippet($0))'" } ?? "a function named by a !!python/name: tag"
            warnings.append(
                Diagnostic(
                    located(node),
                    "toc: slugify is \(named), not markdown.extensions.toc.slugify, slugify_unicode or pymdownx.slugs.slugify; "
                        + "headings get mkdocs' default ids"))
            return nil
        }
    }
}
