import Foundation
import OutlineConvert

/// One run of the command: reads the inputs, converts them, writes the outputs, and says
/// how it went through the exit status (0 converted, 1 an input failed, 2 bad usage).
struct CLI {
    static let version = "0.1.0"

    let arguments: [String]

    init(arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        self.arguments = arguments
    }

    func run() -> Int32 {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments)
        } catch let error as Arguments.UsageError {
            printError("Error: \(error.message)\nUsage: \(Arguments.usage)\n  See 'outline-render --help' for more information.")
            return 2
        } catch {
            return 2
        }
        if parsed.help {
            print(Arguments.help, terminator: "")
            return 0
        }
        if parsed.version {
            print("outline-render \(Self.version)")
            return 0
        }
        var options = parsed.conversion
        do {
            if let path = parsed.templatePath {
                let text = try readText(path)
                options.html.template = try PageTemplate(text: text, path: path)
            }
        } catch {
            printError("\(error)")
            return 1
        }
        guard parsed.inputs.count == 1, let input = parsed.inputs.first else {
            printError("Error: give one input at a time\nUsage: \(Arguments.usage)")
            return 2
        }
        return convertOne(input, to: parsed.output, options: options, parsed: parsed)
    }

    private func convertOne(_ input: String, to output: String?, options: ConversionOptions, parsed: Arguments) -> Int32 {
        let name = input == "-" ? "<stdin>" : input
        do {
            let conversion = try Converter(options: options)
                .convert(input == "-" ? readStandardInput() : OutputFile.read(input), file: name)
            if !parsed.quiet { conversion.warnings.forEach { printError("\($0)") } }
            guard let output else {
                if parsed.check { return 0 }
                try OutputFile.writeToStandardOutput(conversion.bytes)
                return 0
            }
            if parsed.check {
                let current = FileManager.default.contents(atPath: output)
                guard let current, current.elementsEqual(conversion.bytes) else {
                    printError("\(output): \(current == nil ? "missing" : "stale") (from \(name))")
                    return 1
                }
                return 0
            }
            let outcome = try OutputFile.write(conversion.bytes, to: output)
            if parsed.verbose { printError("\(output): \(outcome == .written ? "written" : "unchanged")") }
            return 0
        } catch {
            printError("\(error)")
            return 1
        }
    }
}

// MARK: - Input and messages

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func readText(_ path: String) throws -> String {
    let bytes = try OutputFile.read(path)
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ConversionError.malformed(SourceLocation(file: path), "the file is not valid UTF-8")
    }
    return text
}

func readStandardInput() throws -> [UInt8] {
    [UInt8](FileHandle.standardInput.readDataToEndOfFile())
}
