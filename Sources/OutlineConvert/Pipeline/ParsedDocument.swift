/// What a reader hands on: the outline (each body with it) and the warnings met.
public struct ParsedDocument {
    /// The outline as the source states it (ids and collapse state not yet resolved).
    public var outline: Outline
    /// Warnings met while parsing.
    public var warnings: [Diagnostic]
    /// What the reader kept so that bodies render without a second parse (Markdown input).
    var bodies: ParsedBodies?

    init(outline: Outline, warnings: [Diagnostic] = [], bodies: ParsedBodies? = nil) {
        self.outline = outline
        self.warnings = warnings
        self.bodies = bodies
    }
}
