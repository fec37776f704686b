import FuzzSupport

/// Markdown in, JSON out (the lossless model).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(data, size, from: .markdown, to: [.json])
    return 0
}
