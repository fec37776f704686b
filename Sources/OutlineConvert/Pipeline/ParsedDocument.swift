/// What a reader hands on: the outline (each body with it) and the warnings met.
public struct ParsedDocument {
    /// The outline as the source states it (ids and collapse state not yet resolved).
    public var outline: Outline
    /// Warnings met while parsing.
    public var warnings: [Diagnostic]
    /// What the reader kept so that bodies render without a second parse (Markdown input).
    var bodies: ParsedBodies?
    /// How bodies that are not in `bodies` are read (outliners' Markdown has wiki links).
    var bodyFlavor = MarkdownFlavor.gitHub
    /// Whether it was read as outliners' Markdown: in a graph or vault, its HTML shows items
    /// as the apps show them (text with bullets), and a page without a title shows its name
    /// (only where it is shown: HTML and text; the outline keeps no title).
    var isBulletOutline = false
    /// The title of its first level-1 heading (Markdown input), which titles a README.
    var levelOneTitle: String?

    init(outline: Outline, warnings: [Diagnostic] = [], bodies: ParsedBodies? = nil) {
        self.outline = outline
        self.warnings = warnings
        self.bodies = bodies
    }
}
