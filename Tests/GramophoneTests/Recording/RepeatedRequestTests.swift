import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request sent again during a recording run (a reconnect, a poll) is another visit: it
/// reaches the server and is recorded as the request's next occurrence; a replay gives the
/// occurrences in order, then the last repeats, or, playing each track once, the request misses.
@Suite("Repeated requests are recorded and replayed as occurrences")
struct RepeatedRequestTests {
    /// httpbin's `/uuid` answers each visit with a new identifier: the visits tell themselves apart.
    static func visit(_ session: any NetworkSession, _ base: String) async throws -> String {
        let (body, _) = try await session.data(for: URLRequest(url: URL(string: "\(base)/uuid")!))
        return try #require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["uuid"] as? String)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func aRepeatWithinOneRecordingRunReachesTheServerAndReplaysInOrder() async throws {
        let base = try HTTPBin.baseURL().absoluteString
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var live: [String] = []
        do {
            let recording = try Turntable(vinylNamed: "visits", from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
            live.append(try await Self.visit(recording, base))
            live.append(try await Self.visit(recording, base))
            #expect(recording.playback.recordedCount == 2)
            try recording.eject()
        }
        #expect(live[0] != live[1], "the second visit reached the server")
        #expect(try Vinyl(contentsOf: folder.appendingPathComponent("visits.json")).tracks.count == 2)

        let replay = try Turntable(vinylNamed: "visits", from: .folder(folder))
        #expect(try await Self.visit(replay, base) == live[0])
        #expect(try await Self.visit(replay, base) == live[1])
        #expect(try await Self.visit(replay, base) == live[1], "the last occurrence repeats")
        #expect(replay.playback.playCounts == [1, 2])

        let playOnce = try Turntable(vinylNamed: "visits", from: .folder(folder), matching: .attributes([.method, .url], playOnce: true))
        #expect(try await Self.visit(playOnce, base) == live[0])
        #expect(try await Self.visit(playOnce, base) == live[1])
        await #expect(throws: TurntableError.self) { try await Self.visit(playOnce, base) }
    }

    /// New episodes of a vinyl that has the request already: its recorded occurrence answers,
    /// the network is not asked again (only this run's recordings make a repeat a new visit).
    @Test(.enabled(if: HTTPBin.isAvailable))
    func anOccurrenceRecordedBeforeStillAnswersItsRepeats() async throws {
        let base = try HTTPBin.baseURL().absoluteString
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first: String
        do {
            let recording = try Turntable(vinylNamed: "visit", from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
            first = try await Self.visit(recording, base)
            try recording.eject()
        }
        let more = try Turntable(vinylNamed: "visit", from: .folder(folder), recording: Recording(mode: .newEpisodes, environment: RecordingFixtures.localEnvironment))
        #expect(try await Self.visit(more, base) == first)
        #expect(try await Self.visit(more, base) == first)
        #expect(more.playback.recordedCount == 0)
    }
}
