import CCmark
import Glibc

// No fastbins in glibc's allocator: cmark frees small blocks by the million and then asks
// for growing render buffers, and each large request first consolidates every fastbin,
// walking memory that has gone cold (2.5% of a large Markdown page's time; no other
// input measured faster or slower). Small blocks still go through the per-thread cache.
mallopt(M_MXFAST, 0)

let rawArguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
}
exit(CLI(rawArguments: rawArguments).run())
