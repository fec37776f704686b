/// Options of the HTML output (SPEC §5.1).
public struct HTMLOptions: Equatable, Sendable {
    /// Only the outline markup, no page around it.
    public var fragment = false
    /// Pass raw HTML in Markdown through (cmark's `--unsafe`).
    public var unsafe = false
    /// Siblings exclude each other: opening one closes the others (`<details name=…>`).
    public var accordion = false
    /// A user page template to use instead of the default.
    public var template: PageTemplate?

    public init(fragment: Bool = false, unsafe: Bool = false, accordion: Bool = false, template: PageTemplate? = nil) {
        self.fragment = fragment
        self.unsafe = unsafe
        self.accordion = accordion
        self.template = template
    }
}

/// Writes an outline as HTML: a collapsible node is `<details id=…>` (with `open` exactly
/// when expanded) whose `<summary>` holds the title in a heading element, then the body's
/// HTML, then the children; a node with neither body nor children is just its heading.
/// The page's language is the front matter's `lang`, else `en`.
/// Headings give screen readers an outline: a node at depth d is `h(d)`, or `h(d+1)` when
/// the page has a title (its `h1`); past `h6`, `role=heading` with `aria-level`.
struct HTMLEmitter {
    let options: HTMLOptions
    let bodies: BodyRenderer

    /// The whole page, or only the outline markup with `fragment`.
    func render(_ outline: Outline, pageTitle: String) -> String {
        var html = ""
        var number = 0
        let offset = outline.title == nil ? 0 : 1
        if let title = outline.title { html += "<h1 class=\"outline-title\">\(title.htmlEscaped)</h1>\n" }
        html += bodies.html(outline.body, number: 0, unsafe: options.unsafe)
        write(outline.nodes, depth: 1, offset: offset, group: "outline", into: &html, number: &number)
        guard !options.fragment else { return html }
        let lang = outline.attributes["lang"] ?? "en"
        return (options.template ?? .default).render(title: pageTitle, content: html, lang: lang)
    }

    private func write(_ nodes: [OutlineNode], depth: Int, offset: Int, group: String, into html: inout String, number: inout Int) {
        for node in nodes {
            number += 1
            let id = node.id.htmlEscaped
            let heading = headingTags(level: depth + offset)
            guard node.isCollapsible else {
                html += "\(heading.open) id=\"\(id)\" class=\"outline-leaf\">\(node.title.htmlEscaped)\(heading.close)\n"
                continue
            }
            html += "<details id=\"\(id)\""
            if options.accordion { html += " name=\"\(group.htmlEscaped)\"" }
            if !node.isCollapsed { html += " open" }
            html += "><summary>\(heading.open)>\(node.title.htmlEscaped)\(heading.close)"
            html += "<a class=\"outline-permalink\" href=\"#\(id)\" aria-label=\"Link to this section\">#</a></summary>\n"
            html += bodies.html(node.body, number: number, unsafe: options.unsafe)
            write(node.children, depth: depth + 1, offset: offset, group: node.id, into: &html, number: &number)
            html += "</details>\n"
        }
    }

    private func headingTags(level: Int) -> (open: String, close: String) {
        level <= 6
            ? ("<h\(level)", "</h\(level)>")
            : ("<span role=\"heading\" aria-level=\"\(level)\"", "</span>")
    }
}
