import Foundation
import PackagePlugin

/// Embeds every file of the package's `Templates/` folder and of its subfolders (one level:
/// `Templates/prism/`) into the target as string constants, keyed by their path there.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "Templates")
        func visible(_ folder: URL) throws -> [URL] {
            try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
                .filter { !$0.lastPathComponent.hasPrefix(".") }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
        func isFolder(_ url: URL) -> Bool { (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
        let files = try visible(templates).flatMap { isFolder($0) ? try visible($0).filter { !isFolder($0) } : [$0] }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding Templates/",
                executable: try context.tool(named: "embed-templates").url,
                arguments: [output.path, templates.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
