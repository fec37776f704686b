/// Where a value is in a nested document (`sections[2].children[0].collapsed`), for
/// messages: built step by step as a reader descends (one small allocation a step) and
/// spelled out only when a message needs it.
indirect enum KeyPath: CustomStringConvertible {
    case root
    case key(KeyPath, String)
    case index(KeyPath, Int)

    /// The path one key further down.
    func appending(_ key: String) -> KeyPath { .key(self, key) }
    /// The path to an element of the array here.
    func appending(index: Int) -> KeyPath { .index(self, index) }

    var description: String {
        switch self {
        case .root: return ""
        case .key(.root, let key): return Quote.snippet(key, limit: 40)
        case .key(let parent, let key): return "\(parent).\(Quote.snippet(key, limit: 40))"
        case .index(let parent, let index): return "\(parent)[\(index)]"
        }
    }

    /// `reason`, after the path and a colon unless this is the root.
    func message(_ reason: String) -> String {
        if case .root = self { return reason }
        return "\(self): \(reason)"
    }
}
