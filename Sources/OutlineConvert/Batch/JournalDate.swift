/// A Logseq journal's date, from its file name (`2024_01_15`, also `2024-01-15`), written
/// the way Logseq titles journal pages: the tokens of its `:journal/page-title-format`
/// (`yyyy`, `yy`, `MMMM`, `MMM`, `MM`, `M`, `dd`, `d`, `do`, `EEEE`, `EEE`, `E`), anything
/// else as it is.
struct JournalDate: Comparable {
    let year: Int
    let month: Int
    let day: Int

    /// Logseq's default title format.
    static let defaultFormat = "MMM do, yyyy"

    init?(fileName: String) {
        let parts = fileName.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    static func < (a: JournalDate, b: JournalDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The day of the week, 0 for Sunday (Sakamoto's method).
    private var weekday: Int {
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        return (y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + day) % 7
    }

    /// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `21st`.
    private var ordinalDay: String {
        let suffix = (11...13).contains(day % 100) ? "th" : ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][day % 10]
        return String(day) + suffix
    }

    func formatted(_ format: String) -> String {
        let tokens: [(String, String)] = [
            ("yyyy", String(year)), ("yy", String(year % 100).leftPadded(2)), ("MMMM", Self.months[month - 1]),
            ("MMM", String(Self.months[month - 1].prefix(3))), ("MM", String(month).leftPadded(2)), ("M", String(month)),
            ("EEEE", Self.weekdays[weekday]), ("EEE", String(Self.weekdays[weekday].prefix(3))), ("E", String(Self.weekdays[weekday].prefix(3))),
            ("do", ordinalDay), ("dd", String(day).leftPadded(2)), ("d", String(day)),
        ]
        var result = ""
        var rest = format[...]
        while !rest.isEmpty {
            if let (token, value) = tokens.first(where: { rest.hasPrefix($0.0) }) {
                result += value
                rest = rest.dropFirst(token.count)
            } else {
                result.append(rest.removeFirst())
            }
        }
        return result
    }
}

extension String {
    /// The text with zeros before it up to `width` characters.
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
