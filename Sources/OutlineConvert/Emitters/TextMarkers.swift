/// The marker plain text writes before a section's title, and before a collapsible or
/// callout block's title in a body: ▾ open, ▸ closed, • not collapsible (with `--ascii`:
/// `-`, `+`, `*`), each followed by a space.
enum TextMarker {
    static func of(collapsible: Bool, open: Bool, ascii: Bool) -> StaticString {
        guard collapsible else { return ascii ? "* " : "• " }
        return open ? (ascii ? "- " : "▾ ") : (ascii ? "+ " : "▸ ")
    }
}
