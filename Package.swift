// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "outline-render",
    products: [
        .library(name: "OutlineConvert", targets: ["OutlineConvert"]),
        .executable(name: "outline-render", targets: ["outline-render"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CCmark", pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]),
        .systemLibrary(
            name: "CYaml", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // Turns Templates/* into string constants, so the binary needs no resource bundle.
        .executableTarget(name: "embed-templates"),
        .plugin(
            name: "EmbedTemplates", capability: .buildTool(),
            dependencies: ["embed-templates"]),
        .target(
            name: "OutlineConvert",
            dependencies: ["CLibXML2", "CCmark", "CYaml", "CZlib"],
            plugins: ["EmbedTemplates"]),
        // Release builds link the Swift runtime in: the binary runs where no Swift is
        // installed, and each run starts 2 MB lighter. (Not debug builds: the sanitizers'
        // allocator interposition needs the runtime's libraries shared.)
        .executableTarget(
            name: "outline-render",
            dependencies: ["OutlineConvert"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
        .testTarget(
            name: "OutlineConvertTests",
            dependencies: ["OutlineConvert"]),
        // The library from outside: no @testable import.
        .testTarget(
            name: "PublicAPITests",
            dependencies: ["OutlineConvert"]),
    ]
)
