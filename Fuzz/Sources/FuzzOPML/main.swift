import FuzzSupport

/// OPML in, JSON and OPML out.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(data, size, from: .opml, to: [.json, .opml])
    return 0
}
