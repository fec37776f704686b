import Foundation
import Testing

@testable import OutlineConvert

/// YAML read by libyaml (`YAMLReader`), against PyYAML's composer: for each file of
/// Tests/fixtures/yaml (two real `mkdocs.yml` files, FastAPI's and mkdocs-material's, MIT:
/// Tests/real/README.md, and one of YAML's corners), Tests/golden/yaml holds the nodes
/// PyYAML reads, as `scripts/make-yaml-goldens` writes them.
@Suite struct YAMLReaderTests {
    @Test(arguments: ["hand", "fastapi", "mkdocs-material"])
    func nodesAreWhatPyYAMLComposes(name: String) throws {
        let file = Support.root.appending(path: "Tests/fixtures/yaml/\(name).yml")
        let documents = try YAMLReader.documents(Array(try Data(contentsOf: file)), file: file.path)
        var lines: [String] = []
        for document in documents { Self.write(document, depth: 0, into: &lines) }
        let golden = try String(contentsOf: Support.root.appending(path: "Tests/golden/yaml/\(name).nodes"), encoding: .utf8)
        #expect(lines == golden.split(separator: "\n").map(String.init))
    }

    @Test func theTagsOfRealFilesAreKeptAndNothingRuns() throws {
        let text = "a: !!python/name:material.extensions.emoji.twemoji\nb: !ENV [HOME, x]\nc: null\nd: 'null'\n"
        let root = try #require(try YAMLReader.documents(Array(text.utf8), file: "m.yml").first)
        #expect(root["a"]?.tag == "tag:yaml.org,2002:python/name:material.extensions.emoji.twemoji")
        #expect(root["a"]?.text == "")
        #expect(root["b"]?.tag == "!ENV" && root["b"]?.items?.compactMap(\.text) == ["HOME", "x"])
        #expect(root["c"]?.isNull == true && root["d"]?.isNull == false)
    }

    @Test func aSyntaxErrorIsLocatedAsPyYAMLLocatesIt() {
        // PyYAML: "mapping values are not allowed here" at line 2, column 5 (the second `:`).
        #expect(
            throws: ConversionError.malformed(
                SourceLocation(file: "m.yml", line: 2, column: 5), "YAML: mapping values are not allowed in this context")
        ) {
            try YAMLReader.documents(Array("a: b\nc: d: e\n".utf8), file: "m.yml")
        }
    }

    @Test func bytesThatAreNotUTF8AreLocatedAtTheirPlace() {
        // (libyaml gives an encoding error only its offset: line 2, column 3 here.)
        #expect(throws: ConversionError.malformed(SourceLocation(file: "m.yml", line: 2, column: 3), "YAML: invalid leading UTF-8 octet")) {
            try YAMLReader.documents(Array("a: b\nc:".utf8) + [0xFF, 0x0A], file: "m.yml")
        }
    }

    @Test func aliasesThatExpandWithoutEndAreRefused() {
        var text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...7 {
            text += "b\(level): &b\(level) [" + Array(repeating: level == 1 ? "*a" : "*b\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        #expect(throws: ConversionError.self) { try YAMLReader.documents(Array(text.utf8), file: "m.yml") }
    }

    @Test func collectionsNestedPastTheBoundAreRefusedWhereTheyPassIt() throws {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: ConversionError.refused(SourceLocation(file: "m.yml", line: 1, column: 257), "YAML: collections nest deeper than 256 levels"))
        {
            try YAMLReader.documents(Array(deep.utf8), file: "m.yml")
        }
        let fine = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(try YAMLReader.documents(Array(fine.utf8), file: "m.yml").count == 1)
    }

    /// A node as the golden files write it (see scripts/make-yaml-goldens).
    private static func write(_ node: YAMLNode, depth: Int, into lines: inout [String]) {
        let own: Set<String> = ["str", "int", "float", "bool", "null", "seq", "map", "timestamp", "binary", "merge", "omap", "pairs", "set", "value"]
        let tag = node.tag.map { $0.hasPrefix("tag:yaml.org,2002:") && own.contains(String($0.dropFirst(18))) ? "" : " " + $0 } ?? ""
        let place = " @\(node.line):\(node.column)"
        let pad = String(repeating: "  ", count: depth)
        switch node.kind {
        case .scalar(let text, let plain):
            lines.append(pad + "scalar " + (plain ? "plain" : "quoted") + " " + quoted(text) + tag + place)
        case .sequence(let items):
            lines.append(pad + "sequence" + tag + place)
            for item in items { write(item, depth: depth + 1, into: &lines) }
        case .mapping(let entries):
            lines.append(pad + "mapping" + tag + place)
            for entry in entries {
                write(entry.key, depth: depth + 1, into: &lines)
                write(entry.value, depth: depth + 1, into: &lines)
            }
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case _ where scalar.value < 32: out += "\\x{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
