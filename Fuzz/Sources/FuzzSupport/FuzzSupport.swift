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
            // (Text may be empty: a document of only an HTML comment shows nothing.)
            precondition(output == .text || !conversion.bytes.isEmpty, "empty output")
        } catch let error as ConversionError {
            precondition(error.location.line > 0 && error.location.column > 0, "unlocated error: \(error)")
            precondition(!error.description.contains("\n"), "error over several lines: \(error)")
        } catch {
            preconditionFailure("untyped error: \(error)")
        }
    }
}
