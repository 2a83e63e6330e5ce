import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A drift check reads a recorded stream's request live as recording read it, and stops where
/// the recording stopped: at its sentinel, after its number of events, after its time, or after
/// as many pieces as a reader that stopped early took. Against our stream server's `/forever`,
/// which only ends by itself after 30 seconds.
@Suite("Drift: a stream read live as it was recorded")
struct LiveStreamTests {
    static func read(_ path: String, like recorded: TrackStream) async throws -> LiveStream {
        let request = Track.Request(url: try StreamServer.url(path))
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        return try await LiveStream.read(request, through: session, like: recorded, since: ProcessInfo.processInfo.systemUptime)
    }

    @Test func theLimitIsWhereTheRecordingStopped() {
        #expect(TrackStream.End.stopped("sentinel [END]").limitToReadAgain == StreamLimit(sentinels: ["[END]"]))
        #expect(TrackStream.End.stopped("3 events").limitToReadAgain == StreamLimit(sentinels: [], events: 3))
        #expect(TrackStream.End.stopped("1 event").limitToReadAgain == StreamLimit(sentinels: [], events: 1))
        #expect(TrackStream.End.stopped("2.5 seconds").limitToReadAgain == StreamLimit(sentinels: [], seconds: 2.5))
        #expect(TrackStream.End.finished.limitToReadAgain == StreamLimit())
        #expect(TrackStream.End.stopped("something else").limitToReadAgain == StreamLimit())
    }

    @Test(.enabled(if: StreamServer.isAvailable))
    func anEventCountStopsItAsItStoppedTheRecording() async throws {
        let live = try await Self.read("/forever?gap=10", like: TrackStream(chunks: [], end: .stopped("3 events")))
        #expect(live.stream.end == .stopped("3 events"))
        #expect(live.stream.chunks.count == 3)
        #expect(String(decoding: live.body, as: UTF8.self) == (0..<3).map { "data: {\"tick\": \($0)}\n\n" }.joined())
    }

    @Test(.enabled(if: StreamServer.isAvailable))
    func aTimeStopsItAsItStoppedTheRecording() async throws {
        let live = try await Self.read("/forever?gap=10", like: TrackStream(chunks: [], end: .stopped("0.3 seconds")))
        #expect(live.stream.end == .stopped("0.3 seconds"))
        #expect(live.stream.chunks.reduce(0) { $0 + $1.length } == live.body.count)
    }

    @Test(.enabled(if: StreamServer.isAvailable))
    func aReaderThatStoppedEarlyStopsAfterAsManyPieces() async throws {
        let recorded = TrackStream(pieces: [13, 13, 13, 13], interval: 0.01)
        let cancelled = TrackStream(chunks: recorded.chunks, end: .cancelled)
        let live = try await Self.read("/forever?gap=10", like: cancelled)
        #expect(live.stream.end == .cancelled)
        #expect(live.stream.chunks.count == 4)
    }

    @Test(.enabled(if: StreamServer.isAvailable))
    func aStreamThatBreaksOffEndsWithItsError() async throws {
        let live = try await Self.read("/broken?count=2&gap=10", like: TrackStream(chunks: [], end: .finished))
        guard case .failed = live.stream.end else {
            Issue.record("ended \(live.stream.end), not with the connection's error")
            return
        }
        #expect(live.stream.chunks.count == 2)
    }
}
