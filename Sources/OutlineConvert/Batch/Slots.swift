/// Values filled in by the workers, one slot each (a site's drafts, then its results).
final class Slots<Element: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var values: [Element]

    init(_ values: [Element]) { self.values = values }

    subscript(index: Int) -> Element {
        get { lock.withLock { values[index] } }
        set { lock.withLock { values[index] = newValue } }
    }
}
