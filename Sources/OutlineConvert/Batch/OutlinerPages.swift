/// How an outliner's page of a graph or vault shows where it is shown (HTML and text; the
/// outline itself is left as read, and a page converted on its own shows as any outline
/// does): without a `title::`, its title is its name, as the app names it (a journal's is
/// its date); a journal of a graph comes in its folder's navigation newest first, as
/// Logseq lists journals.
enum OutlinerPages {
    static func name(_ outline: inout Outline, file: String, index: WikiIndex) {
        let path = BatchPlan.absolute(file)
        if outline.title == nil { outline.title = index.pageName(of: path) }
        if index.app == .logseq, outline.order == nil, Path.lastComponent(Path.parent(path)) == "journals",
            let date = JournalDate(fileName: Path.deletingExtension(Path.lastComponent(path)))
        {
            outline.attributes[AttributeKey.order] = String(-(date.year * 10_000 + date.month * 100 + date.day))
        }
    }
}
