import CCmark
import Testing

@testable import OutlineConvert

/// The allocator that serves cmark while a document is parsed (`NodeArena`): small blocks
/// recycled by size class within their own arena, large blocks from malloc, and a block
/// freed anywhere else kept until its arena goes.
@Suite struct NodeArenaTests {
    private let memory = NodeArena.memory.pointee

    private func calloc(_ size: Int) throws -> UnsafeMutableRawPointer {
        try #require(memory.calloc(1, size))
    }

    private func fill(_ block: UnsafeMutableRawPointer, _ count: Int, from seed: UInt8) {
        for offset in 0..<count { block.storeBytes(of: seed &+ UInt8(truncatingIfNeeded: offset), toByteOffset: offset, as: UInt8.self) }
    }

    private func holds(_ block: UnsafeMutableRawPointer, _ count: Int, from seed: UInt8) -> Bool {
        (0..<count).allSatisfy { block.load(fromByteOffset: $0, as: UInt8.self) == seed &+ UInt8(truncatingIfNeeded: $0) }
    }

    private func isZero(_ block: UnsafeMutableRawPointer, _ count: Int) -> Bool {
        (0..<count).allSatisfy { block.load(fromByteOffset: $0, as: UInt8.self) == 0 }
    }

    @Test func aSmallBlockFreedInItsArenaIsReusedForTheSameClassAndZeroedAgain() throws {
        let arena = NodeArena(textSize: 1000)
        try NodeArena.run(in: arena) {
            let first = try calloc(40)
            fill(first, 40, from: 7)
            memory.free(first)
            let again = try calloc(40)
            #expect(again == first)
            #expect(isZero(again, 40))
            // 33 to 48 bytes are one class; 100 bytes is another, served from fresh room.
            memory.free(again)
            let other = try calloc(100)
            #expect(other != first)
            let sameClass = try calloc(33)
            #expect(sameClass == first)
        }
    }

    @Test func blocksFreedOutsideTheirArenaAreNeverRecycled() throws {
        let arena = NodeArena(textSize: 1000)
        let block = try NodeArena.run(in: arena) { try calloc(40) }
        memory.free(block)  // no arena current: kept until the arena goes
        let next = try NodeArena.run(in: arena) { try calloc(40) }
        #expect(next != block)

        // Freed while another arena is current, it is not that arena's to reuse either.
        let stranger = try NodeArena.run(in: arena) { try calloc(40) }
        let other = NodeArena(textSize: 1000)
        try NodeArena.run(in: other) {
            memory.free(stranger)
            let reused = try calloc(40)
            #expect(reused != stranger)
        }
    }

    @Test func reallocKeepsTheContentAcrossClassesAndIntoAndOutOfMalloc() throws {
        let arena = NodeArena(textSize: 1000)
        try NodeArena.run(in: arena) {
            let small = try #require(memory.realloc(nil, 20))
            fill(small, 20, from: 1)
            // Within its class (17 to 32 bytes) the block stays where it is.
            let grown = try #require(memory.realloc(small, 30))
            #expect(grown == small)
            #expect(holds(grown, 20, from: 1))
            fill(grown, 30, from: 2)
            // Past it, the content moves to a larger block, then to malloc, then back.
            let larger = try #require(memory.realloc(grown, 300))
            #expect(larger != grown)
            #expect(holds(larger, 30, from: 2))
            fill(larger, 300, from: 3)
            let large = try #require(memory.realloc(larger, 5000))
            #expect(holds(large, 300, from: 3))
            fill(large, 5000, from: 4)
            let largest = try #require(memory.realloc(large, 50000))
            #expect(holds(largest, 5000, from: 4))
            let shrunk = try #require(memory.realloc(largest, 10))
            #expect(holds(shrunk, 10, from: 4))
            memory.free(shrunk)
        }
    }

    @Test func largeBlocksAndBlocksWithoutAnArenaComeFromMalloc() throws {
        // A large block in an arena, and any block with none: freed through malloc, on
        // any thread, whether or not an arena is current then.
        let arena = NodeArena(textSize: 1000)
        let large = try NodeArena.run(in: arena) { try calloc(4096) }
        #expect(isZero(large, 4096))
        fill(large, 4096, from: 5)
        memory.free(large)
        let plain = try calloc(40)
        fill(plain, 40, from: 6)
        try NodeArena.run(in: arena) {
            memory.free(plain)
            let reused = try calloc(40)
            #expect(reused != plain)
        }
        #expect(memory.calloc(Int.max, 2) == nil)  // the size overflows: no block
    }

    @Test func manyBlocksSpanSeveralChunksWithoutOverlapping() throws {
        let arena = NodeArena(textSize: 100)
        try NodeArena.run(in: arena) {
            var blocks: [UnsafeMutableRawPointer] = []
            for index in 0..<50_000 {
                let block = try calloc(24 + index % 3 * 100)
                #expect(Int(bitPattern: block) % 8 == 0)
                block.storeBytes(of: index, as: Int.self)
                blocks.append(block)
            }
            #expect(Set(blocks).count == blocks.count)
            #expect(blocks.indices.allSatisfy { blocks[$0].load(as: Int.self) == $0 })
        }
    }

    @Test func cmarkParsingInAnArenaRendersWhatItRendersWithMalloc() throws {
        let text = String(repeating: "# Title *one*\n\nA [link][ref] and `code`, > quote\n\n- a\n- b\n\n[ref]: /url\n", count: 300)
        func html(in arena: NodeArena?) throws -> String {
            let allocator = NodeArena.memory(of: arena)
            return try NodeArena.run(in: arena) {
                let parser = try #require(cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, allocator))
                defer { cmark_parser_free(parser) }
                text.withCString { cmark_parser_feed(parser, $0, text.utf8.count) }
                let document = try #require(cmark_parser_finish(parser))
                defer { cmark_node_free(document) }
                let rendered = try #require(cmark_render_html(document, CMARK_OPT_DEFAULT))
                defer { allocator.pointee.free(rendered) }  // (from the tree's allocator)
                return String(cString: rendered)
            }
        }
        let withMalloc = try html(in: nil)
        #expect(withMalloc.contains("<a href=\"/url\">link</a>"))
        #expect(try html(in: NodeArena(textSize: text.utf8.count)) == withMalloc)
    }
}
