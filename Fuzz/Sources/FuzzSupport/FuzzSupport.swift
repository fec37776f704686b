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
            precondition(error.location.line > 0 && error.location.column > 0, "unlocated error: \(error)")
            precondition(!error.description.contains("\n"), "error over several lines: \(error)")
        } catch {
            preconditionFailure("untyped error: \(error)")
        }
    }
}
