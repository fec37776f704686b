import FuzzSupport

/// XML section files in, JSON out.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(data, size, from: .xml, to: [.json])
    return 0
}
