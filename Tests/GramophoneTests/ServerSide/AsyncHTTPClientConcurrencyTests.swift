#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

@testable import Gramophone

/// Many AsyncHTTPClient requests at once on one Turntable: each gets its own track's bytes.
/// Named so the ThreadSanitizer pass of scripts/test (`--filter Concurrency`) runs it.
@Suite("AsyncHTTPClient Concurrency")
struct AsyncHTTPClientConcurrencyTests {
    @Test func aHundredConcurrentReplaysFromOneTurntable() async throws {
        let tracks = (0..<10).map { index in
            Track(
                request: Track.Request(url: URL(string: "https://api.example.com/items/\(index)")!),
                outcome: .response(Track.Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"id":\#(index)}"#.utf8))))
        }
        let turntable = Turntable(vinyl: Vinyl(name: "items", tracks: tracks))
        let bodies = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for request in 0..<100 {
                group.addTask {
                    let index = request % 10
                    let response = try await turntable.execute(HTTPClientRequest(url: "https://api.example.com/items/\(index)"), timeout: .seconds(5))
                    return (index, Data(try await response.body.collect(upTo: 1024).readableBytesView))
                }
            }
            var bodies: [(Int, Data)] = []
            for try await body in group { bodies.append(body) }
            return bodies
        }
        #expect(bodies.count == 100)
        for (index, body) in bodies { #expect(body == Data(#"{"id":\#(index)}"#.utf8)) }
        #expect(turntable.playback.requestsAnswered == 100)
        #expect(turntable.playback.playCounts == Array(repeating: 10, count: 10))
    }

    @Test func concurrentStreamedReplaysEachGetEveryChunk() async throws {
        let body = Data((0..<20).map { "data: \($0)\n\n" }.joined().utf8)
        var response = Track.Response(status: 200, headers: ["Content-Type": "text/event-stream"], body: body)
        response.stream = TrackStream(chunks: (0..<20).map { TrackStream.Chunk(offset: Double($0) * 0.001, length: "data: \($0)\n\n".utf8.count) }, end: .finished)
        let turntable = Turntable(vinyl: Vinyl(name: "events", tracks: [Track(request: Track.Request(url: URL(string: "https://api.example.com/events")!), outcome: .response(response))]))
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    let response = try await turntable.execute(HTTPClientRequest(url: "https://api.example.com/events"), timeout: .seconds(5))
                    var chunks = 0
                    for try await _ in response.body { chunks += 1 }
                    return chunks
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 20, count: 50))
    }
}
#endif
