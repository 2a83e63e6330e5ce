import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Recording.reRecordAfter`: a stale vinyl records again locally, and on CI or with `.never`
/// replays as it is and says so, without failing or recording.
@Suite("Expiry: reRecordAfter")
struct ExpiryTests {
    static let day: TimeInterval = 86_400

    /// A vinyl `stale` holding httpbin's /uuid, dated `age` seconds ago; its bytes and the uuid.
    static func staleVinyl(in folder: URL, base: URL, age: TimeInterval) async throws -> (file: URL, bytes: Data, uuid: Data) {
        let turntable = try Turntable(vinylNamed: "stale", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        let (uuid, _) = try await turntable.data(from: base.appendingPathComponent("uuid"))
        try turntable.eject()
        let file = folder.appendingPathComponent("stale.json")
        var vinyl = try Vinyl(contentsOf: file)
        for index in vinyl.tracks.indices { vinyl.tracks[index].recordedAt = Date(timeIntervalSinceNow: -age) }
        try vinyl.write(to: file)
        return (file, try Data(contentsOf: file), uuid)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func aStaleVinylRecordsAgainLocally() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try await Self.staleVinyl(in: folder, base: base, age: 10 * Self.day)

        let turntable = try Turntable(vinylNamed: "stale", from: .folder(folder), recording: Recording(reRecordAfter: 7 * Self.day, environment: [:]))
        let staleness = try #require(turntable.playback.staleness)
        #expect(staleness.isReRecorded && staleness.limit == 7 * Self.day)
        #expect(turntable.playback.mode == .all)
        let (uuid, _) = try await turntable.data(from: base.appendingPathComponent("uuid"))
        #expect(uuid != old.uuid)  // httpbin answers a new uuid each time: this one came live
        #expect(turntable.playback.recordedCount == 1)
        try turntable.eject()

        let written = try Vinyl(contentsOf: old.file)
        #expect(written.tracks.count == 1 && written.tracks[0].response?.body == uuid)
        #expect(try #require(written.tracks[0].recordedAt).timeIntervalSinceNow > -Self.day)
        // Fresh now: the next Turntable replays it.
        let next = try Turntable(vinylNamed: "stale", from: .folder(folder), recording: Recording(reRecordAfter: 7 * Self.day, environment: [:]))
        #expect(next.playback.staleness == nil && next.playback.mode == .once)
    }

    @Test(.enabled(if: HTTPBin.isAvailable), arguments: [["CI": "true"], ["CI": "1", "GRAMOPHONE_RECORD_MODE": "once"]])
    func onCIAStaleVinylReplaysAndOnlySaysSo(environment: [String: String]) async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try await Self.staleVinyl(in: folder, base: base, age: 10 * Self.day)

        let turntable = try Turntable(vinylNamed: "stale", from: .folder(folder), recording: Recording(reRecordAfter: 7 * Self.day, environment: environment))
        let staleness = try #require(turntable.playback.staleness)
        #expect(!staleness.isReRecorded)
        #expect(staleness.description.contains("is stale: recorded 10 days ago, and reRecordAfter is 7 days; replayed as it is"))
        #expect(staleness.oldestRecording.timeIntervalSinceNow < -9 * Self.day)
        let (uuid, _) = try await turntable.data(from: base.appendingPathComponent("uuid"))
        #expect(uuid == old.uuid)
        #expect(turntable.playback.recordedCount == 0 && turntable.playback.misses == 0)
        try turntable.eject()
        #expect(try Data(contentsOf: old.file) == old.bytes)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func withNeverAStaleVinylReplaysAndAFreshOneIsNotStale() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try await Self.staleVinyl(in: folder, base: base, age: 3 * Self.day)

        let never = try Turntable(vinylNamed: "stale", from: .folder(folder), recording: Recording(mode: .never, reRecordAfter: Self.day, environment: [:]))
        #expect(never.playback.staleness?.isReRecorded == false)
        #expect(try await never.data(from: base.appendingPathComponent("uuid")).0 == old.uuid)
        // Younger than the limit, or no limit: not stale, replayed.
        for limit in [4 * Self.day, nil] {
            let fresh = try Turntable(vinylNamed: "stale", from: .folder(folder), recording: Recording(reRecordAfter: limit, environment: [:]))
            #expect(fresh.playback.staleness == nil)
            #expect(try await fresh.data(from: base.appendingPathComponent("uuid")).0 == old.uuid)
        }
        #expect(try Data(contentsOf: old.file) == old.bytes)
    }
}
