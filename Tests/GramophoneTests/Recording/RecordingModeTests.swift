import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What each record mode may do with the network and the vinyl file.
@Suite("Recording modes")
struct RecordingModeTests {
    /// A vinyl file holding one track recorded from httpbin's /get, and its bytes.
    static func existingVinyl(in folder: URL, base: URL) async throws -> (file: URL, bytes: Data) {
        do {
            let turntable = try Turntable(vinylNamed: "existing", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
            _ = try await turntable.data(from: URL(string: base.absoluteString + "/get")!)
            try turntable.eject()
        }
        let file = folder.appendingPathComponent("existing.json")
        return (file, try Data(contentsOf: file))
    }

    static func url(_ base: URL, _ path: String) -> URL { URL(string: base.absoluteString + path)! }

    // MARK: Choosing the mode

    @Test func defaultModeIsOnceLocallyAndNoneOnCI() {
        #expect((try? Recording(environment: [:]).resolvedMode()) == .once)
        #expect((try? Recording(environment: ["CI": "1"]).resolvedMode()) == .never)
        #expect((try? Recording(environment: ["CI": "true"]).resolvedMode()) == .never)
        #expect((try? Recording(environment: ["CI": "false"]).resolvedMode()) == .once)
        // A mode written in code is committed with the test: on CI it does not record either.
        #expect((try? Recording(mode: .newEpisodes, environment: ["CI": "1"]).resolvedMode()) == .never)
        #expect((try? Recording(mode: .all, environment: ["CI": "1"]).resolvedMode()) == .never)
        #expect((try? Recording(mode: .newEpisodes, environment: ["CI": "0"]).resolvedMode()) == .newEpisodes)
    }

    /// Issue 31: with `Recording(mode: .once)`, `CI=1` and no vinyl, the test went to the network
    /// and failed with a bare connection error. CI wins: the Turntable is not made, and the error
    /// says why the mode is never and how to record on CI if that is what is wanted.
    @Test func anExplicitModeOnCIWithAMissingVinylSaysCIWins() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = CountingSession()
        let error = #expect(throws: VinylError.self) {
            try Turntable(vinylNamed: "fresh", from: .folder(folder), recording: Recording(mode: .once, session: session, environment: ["CI": "1"]))
        }
        #expect(error?.kind == .notFound)
        #expect(error?.description.contains("the CI variable is set: the mode once given in code records on your machine, not on CI") == true)
        #expect(error?.fix.contains("GRAMOPHONE_RECORD_MODE=once for this CI run") == true)
        #expect(session.requestCount == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("fresh.json").path))
    }

    @Test(arguments: [
        ("never", RecordMode.never), ("none", .never), (" Never ", .never), ("once", .once), ("new_episodes", .newEpisodes), ("new-episodes", .newEpisodes), ("ALL", .all), (" all ", .all),
    ])
    func environmentVariableOverridesTheMode(value: String, expected: RecordMode) {
        #expect((try? Recording(mode: .once, environment: ["GRAMOPHONE_RECORD_MODE": value]).resolvedMode()) == expected)
        #expect((try? Recording(environment: ["GRAMOPHONE_RECORD_MODE": value, "CI": "1"]).resolvedMode()) == expected)
    }

    @Test func unknownModeInTheEnvironmentIsAnErrorNamingTheVariable() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: RecordingError.self) {
            try Turntable(vinylNamed: "x", from: .folder(folder), recording: Recording(environment: ["GRAMOPHONE_RECORD_MODE": "sometimes"]))
        }
        #expect(error?.description.contains("GRAMOPHONE_RECORD_MODE=\"sometimes\"") == true)
        #expect(throws: RecordingError.invalidMode("sometimes")) { try Recording(environment: ["GRAMOPHONE_RECORD_MODE": "sometimes"]).resolvedMode() }
    }

    // MARK: none

    @Test func noneWithoutAFileIsNotFound() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: VinylError.self) {
            try Turntable(vinylNamed: "missing", from: .folder(folder), recording: Recording(mode: .never, session: OfflineSession(), environment: [:]))
        }
        #expect(error?.kind == .notFound)
        #expect(error?.file?.hasSuffix("missing.json") == true)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func ciForbidsRecordingByDefault() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = try await Self.existingVinyl(in: folder, base: base)
        let session = CountingSession()
        let turntable = try Turntable(vinylNamed: "existing", from: .folder(folder), recording: Recording(session: session, environment: ["CI": "1"]))
        #expect(turntable.playback.mode == .never)
        #expect(turntable.playback.isWriteProtected)
        // Recorded tracks still play…
        _ = try await turntable.data(from: Self.url(base, "/get"))
        // …and a miss is the miss report, not a network call.
        await #expect(throws: TurntableError.self) { try await turntable.data(from: Self.url(base, "/uuid")) }
        try turntable.eject()
        #expect(session.requestCount == 0)
        #expect(try Data(contentsOf: existing.file) == existing.bytes)
        // A missing vinyl on CI is an error at once, not a recording.
        #expect(throws: VinylError.self) {
            try Turntable(vinylNamed: "fresh", from: .folder(folder), recording: Recording(session: session, environment: ["CI": "1"]))
        }
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func environmentOverrideRecordsEvenOnCI() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(vinylNamed: "ci", from: .folder(folder), recording: Recording(mode: .never, environment: ["CI": "1", "GRAMOPHONE_RECORD_MODE": "new-episodes"]))
        _ = try await turntable.data(from: Self.url(base, "/uuid"))
        try turntable.eject()
        #expect(try Vinyl(contentsOf: folder.appendingPathComponent("ci.json")).tracks.count == 1)
    }

    // MARK: once

    @Test(.enabled(if: HTTPBin.isAvailable))
    func onceRecordsANewVinyl() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = CountingSession()
        let turntable = try Turntable(vinylNamed: "Suite/new", from: .folder(folder), recording: Recording(mode: .once, session: session, environment: [:]))
        #expect(turntable.playback.isNew)
        #expect(!turntable.playback.isWriteProtected)
        let (first, _) = try await turntable.data(from: Self.url(base, "/uuid"))
        // Within the run, the same request again is another visit, recorded as its next occurrence.
        let (again, _) = try await turntable.data(from: Self.url(base, "/uuid"))
        #expect(first != again)
        #expect(session.requestCount == 2)
        #expect(turntable.playback.recordedCount == 2)
        #expect(turntable.playback.requestsAnswered == 0)
        try turntable.eject()
        // Intermediate folders are created.
        let vinyl = try Vinyl(contentsOf: folder.appendingPathComponent("Suite/new.json"))
        #expect(vinyl.tracks.count == 2)
        #expect(vinyl.name == "new")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func onceNeverWritesToAnExistingVinyl() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = try await Self.existingVinyl(in: folder, base: base)
        let session = CountingSession()
        do {
            let turntable = try Turntable(vinylNamed: "existing", from: .folder(folder), recording: Recording(mode: .once, session: session, environment: [:]))
            #expect(!turntable.playback.isNew)
            #expect(turntable.playback.isWriteProtected)
            _ = try await turntable.data(from: Self.url(base, "/get"))
            let error = await #expect(throws: TurntableError.self) { try await turntable.data(from: Self.url(base, "/uuid")) }
            #expect(error?.missReport?.note?.contains("write-protected") == true)
            try turntable.eject()
        }
        // Neither the eject nor the release touched the file, and the miss never reached the server.
        #expect(try Data(contentsOf: existing.file) == existing.bytes)
        #expect(session.requestCount == 0)
    }

    // MARK: new episodes

    @Test(.enabled(if: HTTPBin.isAvailable))
    func newEpisodesReplaysMatchesAndAppendsMisses() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = try await Self.existingVinyl(in: folder, base: base)
        let original = try Vinyl(contentsOf: existing.file)
        let session = CountingSession()
        do {
            let turntable = try Turntable(vinylNamed: "existing", from: .folder(folder), recording: Recording(mode: .newEpisodes, session: session, environment: [:]))
            _ = try await turntable.data(from: Self.url(base, "/get"))
            #expect(session.requestCount == 0)
            let (recorded, _) = try await turntable.data(from: Self.url(base, "/uuid"))
            #expect(session.requestCount == 1)
            // The old track answers its repeats; a request only this run recorded is a new visit.
            _ = try await turntable.data(from: Self.url(base, "/get"))
            let (again, _) = try await turntable.data(from: Self.url(base, "/uuid"))
            #expect(again != recorded)
            #expect(session.requestCount == 2)
            let playback = turntable.playback
            #expect(playback.mode == .newEpisodes && !playback.isNew && !playback.isWriteProtected)
            #expect(playback.requestsAnswered == 2 && playback.recordedCount == 2 && playback.file == existing.file)
            #expect(turntable.playback.misses == 0)
        }
        // Released without eject: written anyway, old track first and unchanged.
        let vinyl = try Vinyl(contentsOf: existing.file)
        #expect(vinyl.tracks.count == 3)
        #expect(vinyl.tracks[0] == original.tracks[0])
        #expect(vinyl.tracks[1].request.url.path == "/uuid" && vinyl.tracks[2].request.url.path == "/uuid")
    }

    // MARK: all

    @Test(.enabled(if: HTTPBin.isAvailable))
    func allRecordsEverythingAndReplacesTheVinyl() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = try await Self.existingVinyl(in: folder, base: base)
        // An earlier recording, dated an hour back: `.all` keeps tracks dated from its run's start
        // (less 5 ms, for dates written to the millisecond), and on a fast machine the one just
        // recorded can fall in that margin.
        var earlier = try Vinyl(contentsOf: existing.file)
        earlier.tracks = earlier.tracks.map { track in
            var track = track
            track.recordedAt = track.recordedAt?.addingTimeInterval(-3_600)
            return track
        }
        try earlier.write(to: existing.file)
        let session = CountingSession()
        do {
            let turntable = try Turntable(vinylNamed: "existing", from: .folder(folder), recording: Recording(mode: .all, session: session, environment: [:]))
            // Even what is recorded goes to the server again.
            _ = try await turntable.data(from: Self.url(base, "/anything/one"))
            _ = try await turntable.data(from: Self.url(base, "/anything/one"))
            #expect(session.requestCount == 2)
            try turntable.eject()
        }
        let vinyl = try Vinyl(contentsOf: existing.file)
        #expect(vinyl.tracks.map(\.request.url.path) == ["/anything/one", "/anything/one"])
    }

    // MARK: Hosts

    @Test(.enabled(if: HTTPBin.isAvailable))
    func otherHostsGoToTheRealSessionUntouched() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = CountingSession()
        do {
            let turntable = try Turntable(
                vinylNamed: "filtered", from: .folder(folder),
                recording: Recording(mode: .newEpisodes, session: session, hosts: ["api.example.com"], environment: [:]))
            var request = URLRequest(url: Self.url(base, "/headers"))
            request.setValue("Bearer pass-through-token", forHTTPHeaderField: "Authorization")
            let (data, response) = try await turntable.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            // Sent as is: the server saw the header the default redaction would have removed.
            #expect(String(decoding: data, as: UTF8.self).contains("pass-through-token"))
            #expect(turntable.playback.recordedCount == 0)
            #expect(turntable.vinyl.tracks.isEmpty)
        }
        #expect(session.requestCount == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("filtered.json").path))
        #expect(Recording(hosts: ["example.com"]).records(URL(string: "https://API.example.com/x")!))
        #expect(!Recording(hosts: ["example.com"]).records(URL(string: "https://notexample.com/x")!))
    }

    /// Hosts compare without case however they were set: through the initializer or, as
    /// `configureVinyl` does, through the property.
    @Test func hostsSetThroughThePropertyMatchAnyCase() {
        var recording = Recording()
        recording.hosts = ["API.Example.com"]
        #expect(recording.records(URL(string: "https://api.example.com/x")!))
        #expect(recording.records(URL(string: "https://eu.API.EXAMPLE.com/x")!))
        #expect(!recording.records(URL(string: "https://example.com/x")!))
    }
}
