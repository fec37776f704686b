import FuzzSupport

/// Outliners' Markdown in, JSON and HTML out (wiki links and Logseq's blocks made), and back
/// through the outline writer: what it writes without a warning reads back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(data, size, from: .outline, to: [.json, .html, .text])
    fuzzOutlineRoundTrip(data, size)
    return 0
}
