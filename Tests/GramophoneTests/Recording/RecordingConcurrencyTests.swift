import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many tasks recording through one Turntable at once: nothing lost, nothing doubled.
@Suite("Recording Concurrency")
struct RecordingConcurrencyTests {
    @Test(.enabled(if: HTTPBin.isAvailable))
    func thousandConcurrentRequestsRecordExactlyThousandTracks() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 1_000
        let turntable = try Turntable(vinylNamed: "crowd", from: .folder(folder), recording: Recording(mode: .newEpisodes, environment: [:]))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<count {
                group.addTask {
                    let (_, response) = try await turntable.data(from: URL(string: base.absoluteString + "/get?n=\(number)")!)
                    #expect((response as? HTTPURLResponse)?.statusCode == 200)
                }
            }
            try await group.waitForAll()
        }
        #expect(turntable.playback.recordedCount == count)
        try turntable.eject()
        let vinyl = try Vinyl(contentsOf: folder.appendingPathComponent("crowd.json"))
        #expect(vinyl.tracks.count == count)
        let numbers = Set(vinyl.tracks.compactMap { URLComponents(url: $0.request.url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value })
        #expect(numbers == Set((0..<count).map(String.init)))

        // Every new track answers its request again, from the vinyl.
        let offline = OfflineSession()
        let player = try Turntable(vinylNamed: "crowd", from: .folder(folder), recording: Recording(mode: .never, session: offline, environment: [:]))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in stride(from: 0, to: count, by: 7) {
                group.addTask { _ = try await player.data(from: URL(string: base.absoluteString + "/get?n=\(number)")!) }
            }
            try await group.waitForAll()
        }
        #expect(offline.requestCount == 0)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func ejectWhileRecordingLosesNoTrack() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 200
        let turntable = try Turntable(vinylNamed: "busy", from: .folder(folder), recording: Recording(mode: .newEpisodes, environment: [:]))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<count {
                group.addTask { _ = try await turntable.data(from: URL(string: base.absoluteString + "/anything/\(number)")!) }
                if number % 20 == 0 { group.addTask { try turntable.eject() } }
            }
            try await group.waitForAll()
        }
        try turntable.eject()
        #expect(try Vinyl(contentsOf: folder.appendingPathComponent("busy.json")).tracks.count == count)
    }
}
