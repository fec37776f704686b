/// Renders bodies (CommonMark) as HTML or plain text. Bodies are numbered in document
/// order: 0 is the outline's own body, then each node's in pre-order. A Markdown source
/// renders from its whole parsed tree, so a `[x][ref]` in one section resolves against a
/// definition in another and nothing is parsed twice; other sources parse each body alone.
struct BodyRenderer {
    private let document: CommonMarkDocument?
    private let blockRanges: [Range<Int>]

    /// Renders each body on its own.
    init() {
        document = nil
        blockRanges = []
    }

    /// Renders body `i` from the top-level blocks `blockRanges[i]` of `document`.
    init(document: CommonMarkDocument, blockRanges: [Range<Int>]) {
        self.document = document
        self.blockRanges = blockRanges
    }

    func appendHTML(_ body: String, number: Int, unsafe: Bool, to html: inout ByteBuffer) {
        let (document, range) = source(body, number: number)
        document?.appendHTML(ofBlocks: range, unsafe: unsafe, to: &html)
    }

    /// The body as plain text, each non-blank line starting with `indent`.
    func plainText(_ body: String, number: Int, indent: String = "") -> String {
        let (document, range) = source(body, number: number)
        return document.map { $0.plainText(ofBlocks: range, indent: indent) } ?? ""
    }

    private func source(_ body: String, number: Int) -> (CommonMarkDocument?, Range<Int>) {
        if let document, number < blockRanges.count { return (document, blockRanges[number]) }
        guard !body.isEmpty else { return (nil, 0..<0) }
        let alone = CommonMarkDocument(parsing: body)
        return (alone, 0..<alone.blockCount)
    }
}
