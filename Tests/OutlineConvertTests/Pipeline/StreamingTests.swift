import Foundation
import Testing

@testable import OutlineConvert

/// A one-file run reads an XML section file, an XML plist or an OPML file a chunk at a time,
/// holding only the bytes element positions still need. It must give exactly what reading
/// the whole file gives: the same output, the same warnings, the same errors at the same
/// lines and columns, whatever the line endings and wherever a chunk ends.
@Suite struct StreamingTests {
    /// What converting `bytes` gives, as text to compare: the output and the warnings, or
    /// the error. Read whole (`convert`), then streamed from a file (`convertBeforeExit`).
    private func outcomes(_ bytes: [UInt8], name: String, in dir: URL) throws -> (whole: String, streamed: String) {
        let path = dir.appending(path: name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let converter = Converter(options: ConversionOptions())
        func describe(_ convert: () throws -> Conversion) -> String {
            do {
                let conversion = try convert()
                return String(decoding: conversion.bytes, as: UTF8.self) + conversion.warnings.map(\.description).joined(separator: "\n")
            } catch {
                return "error: \(error)"
            }
        }
        let whole = describe { try converter.convert(bytes, file: path) }
        let streamed = describe { try converter.withInput(path) { try converter.convertBeforeExit($0) } }
        return (whole, streamed)
    }

    /// An outline of about `count` nodes with bodies of many short lines: a few megabytes
    /// in any format, so that the window is let go of many times and many chunks end
    /// between the CR and the LF of a CRLF.
    private func largeOutline(_ count: Int) -> Outline {
        let body = (0..<8).map { "Line \($0) of a body & <some> \"markup\"." }.joined(separator: "\n")
        var nodes: [OutlineNode] = []
        for index in 0..<count {
            let leaf = OutlineNode(title: "Leaf \(index) é", body: body)
            nodes.append(OutlineNode(title: "Section \(index)", collapsed: index % 3 == 0, body: body, children: [leaf]))
        }
        return Outline(title: "Large", body: "Preamble.", nodes: nodes)
    }

    private func written(_ outline: Outline, as format: OutputFormat) -> [UInt8] {
        var options = ConversionOptions()
        options.to = format
        return Converter(options: options).write(outline).bytes
    }

    /// The same bytes with CRLF, or lone CR, line endings.
    private func withLineEndings(_ bytes: [UInt8], _ ending: [UInt8]) -> [UInt8] {
        bytes.flatMap { $0 == 10 ? ending : [$0] }
    }

    @Test(.slow) func examplesAndLargeFilesGiveWhatTheWholeFileGives() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        var inputs: [(name: String, bytes: [UInt8])] = []
        let examples = FileManager.default.enumerator(atPath: Support.examples.path)?.compactMap { $0 as? String } ?? []
        for file in examples where ["xml", "opml", "plist"].contains(Path.fileExtension(file)) {
            inputs.append((Path.lastComponent(file), try Array(Data(contentsOf: Support.examples.appending(path: file)))))
        }
        #expect(inputs.count >= 3)
        let large = largeOutline(4000)
        for format in [OutputFormat.xml, .opml, .plist] {
            let bytes = written(large, as: format)
            #expect(bytes.count > 2_000_000, "\(format): large enough to be read in many chunks")
            inputs.append(("large.\(format)", bytes))
        }
        for (name, bytes) in inputs {
            for (ending, label) in [([UInt8(10)], "LF"), ([13, 10], "CRLF"), ([13], "CR")] {
                let (whole, streamed) = try outcomes(withLineEndings(bytes, ending), name: name, in: dir)
                #expect(!whole.hasPrefix("error"), "\(name) (\(label)) converts: \(whole.prefix(300))")
                #expect(whole == streamed, "\(name) with \(label) line endings")
            }
        }
    }

    /// Errors and warnings near the end of a large file are placed from the whole file,
    /// read again: the window no longer holds the start of their lines.
    @Test(.slow) func problemsFarIntoALargeFileArePlacedExactly() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let large = largeOutline(3000)
        let xml = String(decoding: written(large, as: .xml), as: UTF8.self)
        let opml = String(decoding: written(large, as: .opml), as: UTF8.self)
        let plist = String(decoding: written(large, as: .plist), as: UTF8.self)
        let end = "</outline>"
        #expect(xml.hasSuffix(end + "\n") && opml.contains("</body>") && plist.contains("</array>"))
        func beforeEnd(_ text: String, _ marker: String, _ insert: String) -> [UInt8] {
            guard let range = text.range(of: marker, options: .backwards) else { return [] }
            return Array((text[..<range.lowerBound] + insert + text[range.lowerBound...]).utf8)
        }
        let cases: [(String, [UInt8])] = [
            ("unknown.xml", beforeEnd(xml, end, "  <bogus/>\n")),
            ("stray.xml", beforeEnd(xml, end, "  stray text é\n")),
            ("malformed.xml", beforeEnd(xml, end, "  <section title=\"x\"></item>\n")),
            ("entity.xml", beforeEnd(xml, end, "  <item title=\"&nope;\"/>\n")),
            ("collapsed.xml", beforeEnd(xml, end, "  <item title=\"é\" collapsed=\"maybe\"/>\n")),
            ("late-detail.xml", beforeEnd(xml, end, "  <detail>late</detail>\n")),
            ("latin1.xml", Array(xml.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"ISO-8859-1\"").utf8)),
            ("warning.opml", beforeEnd(opml, "</body>", "  <note/>\n")),
            ("no-text.opml", beforeEnd(opml, "</body>", "  <outline/>\n")),
            ("key.plist", beforeEnd(plist, "</array>", "<dict><key>title</key></dict>\n")),
            ("string.plist", beforeEnd(plist, "</array>", "<string>x<b/></string>\n")),
        ]
        for (name, bytes) in cases {
            #expect(!bytes.isEmpty, "\(name): the marker is there")
            for (ending, label) in [([UInt8(10)], "LF"), ([13, 10], "CRLF")] {
                let (whole, streamed) = try outcomes(withLineEndings(bytes, ending), name: name, in: dir)
                #expect(whole == streamed, "\(name) (\(label)): \(whole.suffix(300)) against \(streamed.suffix(300))")
                if name != "latin1.xml" && name != "warning.opml" {
                    #expect(whole.hasPrefix("error") && !whole.contains(":0:"), "\(name) fails, placed: \(whole.prefix(300))")
                }
            }
        }
    }
}
