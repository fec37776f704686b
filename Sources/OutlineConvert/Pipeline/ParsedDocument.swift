/// What a parser hands on: the outline, the warnings met, and how to render its bodies.
public struct ParsedDocument {
    /// The outline as the source states it (ids and collapse state not yet resolved).
    public var outline: Outline
    /// Warnings met while parsing.
    public var warnings: [Diagnostic]
    /// Renders the bodies; for Markdown, from the whole document's tree.
    let bodies: BodyRenderer

    init(outline: Outline, warnings: [Diagnostic] = [], bodies: BodyRenderer = BodyRenderer()) {
        self.outline = outline
        self.warnings = warnings
        self.bodies = bodies
    }
}
