import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// `gramophone verify --update` of a streamed track re-records it as a stream, as recording does:
/// its pieces, when each came, and how it ended (issue 40, item 7: it used to become one chunk
/// over 0 ms, and replays then stopped testing chunking and pacing).
@Suite("gramophone verify --update of a streamed track")
struct VerifyUpdateStreamTests {
    /// Records the drift server's v1 `/sse?count=4&gap=20` as a client reads it, piece by piece,
    /// into `folder/chat.json`; returns the file and the recorded URL.
    static func recordStream(in folder: URL) async throws -> (file: URL, url: URL) {
        let url = try #require(URL(string: try DriftServer.urls().v1.absoluteString + "/sse?count=4&gap=20"))
        let turntable = try Turntable(vinylNamed: "chat", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        let (bytes, _) = try await turntable.bytes(for: URLRequest(url: url))
        for try await _ in bytes.chunks {}
        try turntable.eject()
        return (folder.appendingPathComponent("chat.json"), url)
    }

    /// Where the live stream comes from: the drift server's v2 (the event data's `delta` renamed
    /// `text`), or our stream server, whose `/sse` sends the same events with ids.
    static let servers = ["drift v2", "stream server"]

    @Test(.enabled(if: DriftServer.isAvailable && StreamServer.isAvailable), arguments: servers)
    func updateReRecordsAStreamAsAStream(_ server: String) async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (file, url) = try await Self.recordStream(in: folder)
        let recorded = try #require(try Vinyl(contentsOf: file).tracks.first?.response?.stream)
        #expect(recorded.chunks.count == 5 && recorded.end == .stopped("sentinel [DONE]"), "\(recorded.summary)")
        let base = server == "drift v2" ? try DriftServer.urls().v2 : try StreamServer.url("")

        let update = try await VerifyCommandTests.run(["verify", file.path, "--base-url", base.absoluteString, "--update"])
        #expect(update.status == 1, "\(update.stdout)\(update.stderr)")
        #expect(update.stdout.contains("      events.message.data.delta: removed\n"), "\(update.stdout)")
        #expect(update.stderr.contains("updated \(file.path): 1 drifted track re-recorded, 0 untouched"), "\(update.stderr)")

        let track = try #require(try Vinyl(contentsOf: file).tracks.first)
        let response = try #require(track.response)
        #expect(String(decoding: response.body, as: UTF8.self).contains(#""text": "#), "the live events were written")
        let stream = try #require(response.stream, "the re-recorded track is still a stream")
        // Four events and the [DONE], each sent on its own 20 ms after the one before.
        #expect(stream.chunks.count == 5, "\(stream.summary)")
        #expect(stream.end == .stopped("sentinel [DONE]"), "\(stream.summary)")
        #expect(stream.chunks.map(\.offset) == stream.chunks.map(\.offset).sorted())
        #expect((stream.chunks.last?.offset ?? 0) > (stream.chunks.first?.offset ?? 0), "\(stream.summary)")
        #expect(stream.chunks.reduce(0) { $0 + $1.length } == response.body.count)

        // A replay hands it over as the server did: piece by piece.
        let player = try Turntable(vinylNamed: "chat", from: .folder(folder))
        let (replayed, _) = try await player.bytes(for: URLRequest(url: url))
        var pieces: [Data] = []
        for try await piece in replayed.chunks { pieces.append(piece) }
        #expect(pieces.count == 5)
        #expect(pieces.reduce(Data(), +) == response.body)
        let inspect = try await CLITests.run("inspect", file.path)
        #expect(inspect.stdout.contains("5 chunks over"), "\(inspect.stdout)")

        // The vinyl now matches the server it was updated from.
        let again = try await VerifyCommandTests.run(["verify", file.path, "--base-url", base.absoluteString])
        #expect(again.status == 0, "\(again.stdout)")
    }
}
