@_spi(_Unicode) import Swift

/// The `slugify` and `separator` options of an mkdocs project's `toc` extension: which
/// function makes a heading's id from its text (docs/sites.md). Each is the Python
/// function it names, character for character.
struct SlugStyle: Equatable, Sendable {
    /// The functions `slugify` may name.
    enum Function: Equatable, Sendable {
        /// `markdown.extensions.toc.slugify`, the default: NFKD, then ASCII only.
        case ascii
        /// `markdown.extensions.toc.slugify_unicode`: every script's letters kept.
        case unicode
        /// `pymdownx.slugs.slugify(case=…, percent_encode=…, normalize=…)`.
        case pymdownx(PymdownxOptions)
    }

    /// The keyword arguments of `pymdownx.slugs.slugify`.
    struct PymdownxOptions: Equatable, Sendable {
        enum Case: String, Equatable, Sendable {
            /// As written.
            case none
            /// `str.lower()`.
            case lower
            /// Only `A`–`Z` lowercased.
            case lowerASCII = "lower-ascii"
            /// `str.casefold()`, here `str.lower()` (docs/sites.md: `ß` stays `ß`).
            case fold
        }
        var letterCase = Case.none
        var percentEncode = false
        /// NFD instead of NFC (`normalize: NFD` or `NFKD`; the compatibility forms are read
        /// as the canonical ones).
        var decomposed = false
    }

    var function = Function.ascii
    /// What joins words (`separator`).
    var separator = "-"

    /// `slugify(text, separator)` for a style other than the default (`MkDocsSlug.slug`),
    /// given a title's text as Python-Markdown's `toc` gives it: white space collapsed.
    func slug(_ title: String) -> String {
        let text = title.unicodeScalars.split(whereSeparator: Self.isSpace).map(String.init).joined(separator: " ")
        switch function {
        case .ascii: return MkDocsSlug.slug(text, separator: separator)
        case .unicode:
            // (`re.sub(r'[^\w\s-]', '', value).strip().lower()`, then `[sep\s]+` → sep.)
            let kept = text.unicodeScalars.filter { Self.isWord($0) || Self.isSpace($0) || $0 == "-" }
            let trimmed = Self.trimmingSpaces(kept[...])
            var result = String.UnicodeScalarView()
            var inRun = false
            for scalar in Self.lowercased(trimmed).unicodeScalars {
                if Self.isSpace(scalar) || separator.unicodeScalars.contains(scalar) {
                    if !inRun { result += separator.unicodeScalars }
                    inRun = true
                } else {
                    result.append(scalar)
                    inRun = false
                }
            }
            return String(result)
        case .pymdownx(let options):
            // (Normalized, tags removed, trimmed, cased; then all but `\w`, `-` and spaces
            // removed, and each space the separator.)
            let normalized = String(String.UnicodeScalarView(options.decomposed ? Array(text._nfd) : Array(text._nfc)))
            let trimmed = Self.trimmingSpaces(Self.removingTags(normalized)[...])
            let cased: String.UnicodeScalarView
            switch options.letterCase {
            case .none: cased = trimmed
            case .lower, .fold: cased = Self.lowercased(trimmed).unicodeScalars
            case .lowerASCII: cased = String.UnicodeScalarView(trimmed.map { ("A"..."Z").contains($0) ? Unicode.Scalar(UInt8($0.value) | 0x20) : $0 })
            }
            var result = String.UnicodeScalarView()
            for scalar in cased where Self.isWord(scalar) || scalar == "-" || scalar == " " {
                if scalar == " " { result += separator.unicodeScalars } else { result.append(scalar) }
            }
            let slug = String(result)
            return options.percentEncode ? PercentEncoding.pythonQuote.encoded(slug) : slug
        }
    }

    /// Python's `\w` in a `str` pattern: letters, numbers (`str.isalnum()`) and `_`. Not
    /// `Unicode.Scalar.isWordCharacter`, which takes Unicode's Alphabetic: that holds marks
    /// (Devanagari's vowel signs) that Python's `\w` leaves out of a slug.
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return UInt8(scalar.value).isASCIILetter || UInt8(scalar.value).isASCIIDigit || scalar == "_" }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return scalar.properties.numericType != nil
        }
    }

    /// Python's `\s` and `str.isspace()`: Unicode's white space and the four information
    /// separators (U+001C–U+001F).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || (scalar.value >= 0x1C && scalar.value <= 0x1F)
    }

    /// `str.strip()`.
    private static func trimmingSpaces(_ scalars: Substring.UnicodeScalarView) -> String.UnicodeScalarView {
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else {
            return String.UnicodeScalarView()
        }
        return String.UnicodeScalarView(scalars[first...last])
    }

    /// `str.lower()`: each character's full lowercase mapping, and a capital sigma that
    /// ends a word final (`ς`), as Python's Final_Sigma rule.
    static func lowercased(_ scalars: String.UnicodeScalarView) -> String {
        let all = Array(scalars)
        var result = String.UnicodeScalarView()
        for (index, scalar) in all.enumerated() {
            guard scalar == "\u{03A3}" else {
                result += scalar.properties.lowercaseMapping.unicodeScalars
                continue
            }
            func cased(_ range: some Sequence<Int>) -> Bool {
                for other in range where !all[other].properties.isCaseIgnorable { return all[other].properties.isCased }
                return false
            }
            let final = cased((0..<index).reversed()) && !cased(index + 1..<all.count)
            result.append(final ? "\u{03C2}" : "\u{03C3}")
        }
        return String(result)
    }

    /// What pymdownx's `RE_TAGS` (`</?[^>]*>`) leaves of `text`.
    private static func removingTags(_ text: String) -> Substring.UnicodeScalarView {
        guard text.unicodeScalars.contains("<") else { return text[...].unicodeScalars }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let open = scalars.firstIndex(of: "<") {
            result += scalars[..<open]
            guard let close = scalars[open...].firstIndex(of: ">") else {
                result += scalars[open...]
                return String(result)[...].unicodeScalars
            }
            scalars = scalars[scalars.index(after: close)...]
        }
        result += scalars
        return String(result)[...].unicodeScalars
    }
}
