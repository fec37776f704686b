// swift-tools-version:5.3
// libFuzzer targets for every reader and writer, built and run by scripts/fuzz with
// -sanitize=fuzzer,address and -parse-as-library: libFuzzer supplies `main`. (Tools 5.3
// on purpose: newer executable targets rename `main`, which libFuzzer's does not match.)
import PackageDescription

let fuzzers = ["FuzzMarkdown", "FuzzPlist", "FuzzXML", "FuzzWriters", "FuzzOPML", "FuzzJSON", "FuzzRoundTrip", "FuzzOutline"]

let package = Package(
    name: "outline-render-fuzz",
    dependencies: [.package(name: "outline-render", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "OutlineConvert", package: "outline-render")]),
    ] + fuzzers.map { .target(name: $0, dependencies: ["FuzzSupport"]) }
)
