import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When and how a recording reaches the disk, and that a failure never damages the old file.
@Suite("Recording persistence")
struct RecordingPersistenceTests {
    @Test(.enabled(if: HTTPBin.isAvailable && Unwritable.isPossible))
    func failedWriteLeavesThePreviousVinylByteIdentical() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { Unwritable.undo(folder); try? FileManager.default.removeItem(at: folder) }
        let existing = try await RecordingModeTests.existingVinyl(in: folder, base: base)

        let turntable = try Turntable(vinylNamed: "existing", from: .folder(folder), recording: Recording(mode: .newEpisodes, environment: [:]))
        _ = try await turntable.data(from: URL(string: base.absoluteString + "/uuid")!)
        try #require(Unwritable.make(folder))
        let error = #expect(throws: VinylError.self) { try turntable.eject() }
        #expect(error?.kind == .unwritable)
        #expect(error?.file == existing.file.path)
        #expect(try Data(contentsOf: existing.file) == existing.bytes)
        // No temporary file is left behind either.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["existing.json"])

        // The recorded track was not lost: once the folder is writable, eject writes it.
        Unwritable.undo(folder)
        try turntable.eject()
        #expect(try Vinyl(contentsOf: existing.file).tracks.count == 2)
    }

    // A save that only adds tracks to the file it read keeps the file's bytes and writes the
    // added tracks after them as encoding the whole vinyl would; a file with a member after its
    // tracks is written whole, and the added track is not lost into that member.
    @Test(.enabled(if: HTTPBin.isAvailable), arguments: [false, true])
    func addingTracksWritesWhatEncodingTheWholeVinylWrites(memberAfterTracks: Bool) async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = try await RecordingModeTests.existingVinyl(in: folder, base: base)
        if memberAfterTracks {
            let text = String(decoding: existing.bytes.dropLast(2), as: UTF8.self)
            try Data((text + ",\n  \"zzz\": [\n    1\n  ]\n}\n").utf8).write(to: existing.file)
        }
        let turntable = try Turntable(vinylNamed: "existing", from: .folder(folder), recording: Recording(mode: .newEpisodes, environment: [:]))
        _ = try await turntable.data(from: URL(string: base.absoluteString + "/uuid")!)
        try turntable.eject()
        let vinyl = try Vinyl(contentsOf: existing.file)
        #expect(vinyl.tracks.map(\.request.url.path) == ["/get", "/uuid"])
        #expect(try Data(contentsOf: existing.file) == vinyl.encoded())
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func failingSessionRecordsNothingAndLeavesTheVinylAlone() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = try await RecordingModeTests.existingVinyl(in: folder, base: base)
        let offline = OfflineSession()
        do {
            let turntable = try Turntable(vinylNamed: "existing", from: .folder(folder), recording: Recording(mode: .newEpisodes, session: offline, environment: [:]))
            // The session's error, wrapped in what says which vinyl sent the request live.
            let error = await #expect(throws: LiveRequestError.self) { try await turntable.data(from: URL(string: base.absoluteString + "/uuid")!) }
            #expect((error?.underlyingError as? URLError)?.code == .notConnectedToInternet)
            #expect(turntable.playback.recordedCount == 0)
            try turntable.eject()
        }
        #expect(offline.requestCount == 1)
        #expect(try Data(contentsOf: existing.file) == existing.bytes)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func ejectWritesOnlyWhatIsNew() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("twice.json")
        let turntable = try Turntable(vinylNamed: "twice", from: .folder(folder), recording: Recording(mode: .newEpisodes, environment: [:]))
        try turntable.eject()
        #expect(!FileManager.default.fileExists(atPath: file.path), "nothing recorded, nothing written")
        _ = try await turntable.data(from: URL(string: base.absoluteString + "/get")!)
        try turntable.eject()
        #expect(FileManager.default.fileExists(atPath: file.path))
        // A second eject with nothing new does not write again.
        try FileManager.default.removeItem(at: file)
        try turntable.eject()
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // Recording more after an eject is written by the next one, with every track.
        _ = try await turntable.data(from: URL(string: base.absoluteString + "/uuid")!)
        let report = try #require(try turntable.eject())
        #expect(try Vinyl(contentsOf: file).tracks.count == 2)
        #expect(report.restoredCount == 1 && report.description.contains("1 written again, which the file had lost"), "\(report)")
    }

    @Test func replayOnlyTurntableEjectsNothing() throws {
        let turntable = Turntable(vinyl: Vinyl(name: "plain", tracks: [Track("GET https://example.com/a", .text("a"))]))
        try turntable.eject()
        #expect(turntable.playback.isWriteProtected)
        #expect(turntable.playback.recordedCount == 0)
    }
}
