import FuzzSupport

/// Markdown in (GitHub's, mkdocs' or mdBook's, by the last byte), every writer out, with the
/// options that change what writers do.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let flags = size > 0 ? data[0] : 0
    fuzz(data, size, from: markdownDialect(data, size), to: [.html, .text, .json]) { options in
        options.html.fragment = flags & 1 != 0
        options.html.unsafe = flags & 2 != 0
        options.html.accordion = flags & 4 != 0
        options.ascii = flags & 8 != 0
        if flags & 16 != 0 { options.collapse.depth = Int(flags >> 5) }
        if flags & 32 != 0 { options.collapse.all = flags & 64 != 0 }
    }
    return 0
}
