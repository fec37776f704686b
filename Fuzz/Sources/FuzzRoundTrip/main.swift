import FuzzSupport

/// Markdown in, through every round-trip format and back: nothing may change.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzRoundTrip(data, size)
    return 0
}
