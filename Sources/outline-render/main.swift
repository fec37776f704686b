#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let rawArguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
}
let cli = CLI(rawArguments: rawArguments)
let status = cli.run()
cli.interruption.waitIfBegun()
exit(status)
