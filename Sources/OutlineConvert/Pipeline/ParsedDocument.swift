/// What a reader hands on: the outline (each body with it) and the warnings met.
public struct ParsedDocument {
    /// The outline as the source states it (ids and collapse state not yet resolved).
    public var outline: Outline
    /// Warnings met while parsing.
    public var warnings: [Diagnostic]

    init(outline: Outline, warnings: [Diagnostic] = []) {
        self.outline = outline
        self.warnings = warnings
    }
}
