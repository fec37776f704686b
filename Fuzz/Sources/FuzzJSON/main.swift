import FuzzSupport

/// JSON in, every writer out.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(data, size, from: .json, to: [.json, .html, .markdown, .xml, .opml, .plist])
    return 0
}
