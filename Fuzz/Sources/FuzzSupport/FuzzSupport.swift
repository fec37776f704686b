import OutlineConvert

/// Converts fuzzer input as `from` to `to`: nothing may crash or hang, and every error
/// must be typed and carry a line and a column (checked with `precondition`, which the
/// fuzzer reports as a crash).
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int, from: InputFormat, to outputs: [OutputFormat], configure: (inout ConversionOptions) -> Void = { _ in }) {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var options = ConversionOptions()
    options.from = from
    configure(&options)
    for output in outputs {
        options.to = output
        do {
            let conversion = try Converter(options: options).convert(bytes, file: "fuzz")
            // Only JSON is never empty: text of a lone HTML comment, or the HTML fragment of a
            // document that is only front matter, is rightly nothing (cmark's too).
            precondition(output != .json || !conversion.bytes.isEmpty, "empty JSON")
        } catch let error as ConversionError {
            // (Binary plists have no lines: their errors name the file and the byte.)
            precondition(
                error.location.line > 0 && error.location.column > 0 || bytes.starts(with: Array("bplist00".utf8)),
                "unlocated error: \(error)")
            precondition(!error.description.contains("\n"), "error over several lines: \(error)")
        } catch {
            preconditionFailure("untyped error: \(error)")
        }
    }
}

/// The Markdown dialect fuzzer input is read in, by its last byte: GitHub's, mkdocs' or
/// mdBook's.
public func markdownDialect(_ data: UnsafePointer<UInt8>, _ size: Int) -> InputFormat {
    let dialects = ["markdown", "mkdocs", "mdbook"].compactMap { InputFormat(name: $0) }
    return size > 1 ? dialects[Int(data[size - 1]) % dialects.count] : .markdown
}

/// Reads fuzzer input as Markdown and writes it in every round-trip format; whatever a
/// writer wrote without a warning must read back to the same outline (the same JSON), and
/// Markdown written twice must be the same bytes.
public func fuzzRoundTrip(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    func convert(_ input: [UInt8], from: InputFormat, to: OutputFormat) -> Conversion? {
        var options = ConversionOptions()
        options.from = from
        options.to = to
        return try? Converter(options: options).convert(input, file: "fuzz")
    }
    guard let json = convert(bytes, from: .markdown, to: .json) else { return }
    for (writer, reader) in [(OutputFormat.json, InputFormat.json), (.xml, .xml), (.opml, .opml), (.plist, .plist), (.markdown, .markdown)] {
        guard let written = convert(bytes, from: .markdown, to: writer), written.warnings.isEmpty else { continue }
        guard let back = convert(written.bytes, from: reader, to: writer == .markdown ? .markdown : .json) else {
            preconditionFailure("\(writer) output does not read back")
        }
        let expected = writer == .markdown ? written.bytes : json.bytes
        precondition(back.bytes == expected, "\(writer) does not round-trip")
    }
}

/// Reads fuzzer input as outliners' Markdown and writes it back as one: when the writer
/// warns of nothing, the outline reads back to the same JSON.
public func fuzzOutlineRoundTrip(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    func convert(_ input: [UInt8], to: OutputFormat) -> Conversion? {
        var options = ConversionOptions()
        options.from = .outline
        options.to = to
        return try? Converter(options: options).convert(input, file: "fuzz")
    }
    guard let json = convert(bytes, to: .json), let written = convert(bytes, to: .outline), written.warnings.isEmpty else { return }
    guard let back = convert(written.bytes, to: .json) else { preconditionFailure("outline output does not read back") }
    precondition(back.bytes == json.bytes, "outline does not round-trip")
}
