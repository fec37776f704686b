/// Text from an input or a file name, made safe to print in a one-line message: control
/// characters (a line feed, an escape sequence) are escaped, so a message can never forge
/// another line, and long text is cut short.
package enum Quote {
    /// At most `limit` characters of `text`, control characters escaped, `…` where cut.
    static func snippet(_ text: some StringProtocol, limit: Int = 60) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            append(scalar, to: &out)
            count += 1
        }
        return out
    }

    /// The whole of `text` on one line: control characters escaped (`\n`, `\t`, `\u{1B}`).
    package static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// A file name that is not valid UTF-8, shown with `\xNN` for each byte that is not.
    package static func name(bytes: some Collection<UInt8>) -> String {
        var out = ""
        var rest = Array(bytes)
        while let bad = SourceText.firstInvalidUTF8(in: rest) {
            out += oneLine(String(decoding: rest[..<bad], as: UTF8.self)) + "\\x" + String(rest[bad], radix: 16, uppercase: true)
            rest.removeFirst(bad + 1)
        }
        return out + oneLine(String(decoding: rest, as: UTF8.self))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        guard isControl(scalar) else {
            out.unicodeScalars.append(scalar)
            return
        }
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}
