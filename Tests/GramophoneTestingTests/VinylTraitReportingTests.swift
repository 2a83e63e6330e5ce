import Foundation
import Gramophone
import GramophoneTesting
import Testing

/// What the `.vinyl` trait reports when a test ends: each test expects the failure it
/// provokes (`.expectingIssue` wraps the vinyl's scope), so the suite stays green only if
/// the failure is reported with the text a user needs.
@Suite struct VinylTraitReportingTests {
    func client() throws -> UserFetcher {
        UserFetcher(session: try #require(Turntable.current))
    }

    @Test(
        .expectingIssue(containing: "GET https://api.example.com/users/41", "nearest track #0: GET https://api.example.com/users/42", "path: /users/41 vs /users/42", atTestLocation: true),
        .vinyl("UsersClientTraitTests/fetchesUser", store: .bundle(.module)))
    func swallowedMissFailsTheTestWithTheNearestTrackDiff() async throws {
        // The client turns every error into nil, so only the trait can tell the test missed.
        #expect(try await client().userIfAvailable(41) == nil)
    }

    @Test(
        .expectingIssue(containing: "path: /users/41 vs /users/42"),
        .vinyl("UsersClientTraitTests/fetchesUser", store: .bundle(.module)))
    func thrownMissFailsTheTest() async throws {
        _ = try await client().user(41)
    }

    @Test(
        .expectingIssue(containing: "1 of 2 tracks", "were never played", "track #1: GET https://api.example.com/users?page=2", atTestLocation: true),
        .vinyl("UsersClientTraitTests/listsUsersPageByPage", store: .bundle(.module), allTracksMustPlay: true))
    func unplayedTracksFailTheTestWhenAllMustPlay() async throws {
        #expect(try await client().users(page: 1).count == 2)
    }

    @Test(.vinyl("UsersClientTraitTests/listsUsersPageByPage", store: .bundle(.module)))
    func unplayedTracksAreFineByDefault() async throws {
        #expect(try await client().users(page: 1).count == 2)
    }

    @Test(
        .expectingIssue(containing: "path: /users/41 vs /users/42", atTestLocation: true),
        .vinyl("UsersClientTraitTests/fetchesUser", store: .bundle(.module)))
    func swallowedMissFailsTheTestAfterTheVinylIsReloaded() async throws {
        // A miss the client swallowed, then another vinyl put on and a new strategy chosen:
        // the ledger keeps the miss, so the test still fails for it (issue 43 item 4).
        let turntable = try #require(Turntable.current)
        #expect(try await client().userIfAvailable(41) == nil)
        try turntable.load(vinylNamed: "UsersClientTraitTests/listsUsersPageByPage", from: .bundle(.module))
        turntable.matching = [.method, .url]
        #expect(try await client().users(page: 1).count == 2)
    }

    @Test(
        .expectingIssue(containing: "VinylTraitReportingTests/missingVinylFailsTheTest.json: no such file"),
        .vinyl(store: .bundle(.module)))
    func missingVinylFailsTheTest() async throws {
        // A missing vinyl fails the test that asks it for a track (issue 40 item 6).
        _ = await (try client()).userIfAvailable(1)
    }
}

/// The end-of-test checks the trait and `VinylTestCase` share.
@Suite struct TestVinylTests {
    @Test func missCarriedByTheThrownErrorIsNotReportedTwice() async throws {
        let vinyl = try TestVinyl(name: "UsersClientTraitTests/fetchesUser", configuration: VinylConfiguration(store: .bundle(.module)))
        let client = UserFetcher(session: vinyl.turntable)
        let error = await #expect(throws: TurntableError.self) { try await client.user(41) }
        #expect(vinyl.finish(thrown: error).isEmpty)
        #expect(vinyl.finish().map(\.kind) == [.miss])
    }

    @Test func everyMissIsReportedInOrder() async throws {
        let vinyl = try TestVinyl(name: "UsersClientTraitTests/fetchesUser", configuration: VinylConfiguration(store: .bundle(.module)))
        let client = UserFetcher(session: vinyl.turntable)
        _ = await client.userIfAvailable(1)
        _ = await client.userIfAvailable(2)
        let problems = vinyl.finish()
        #expect(problems.map { $0.missReport?.request.url.path } == ["/users/1", "/users/2"])
    }

    @Test func configurationDefaultsAreFilledIn() throws {
        let vinyl = try TestVinyl(name: "users", configuration: VinylConfiguration(store: .bundle(.module)))
        #expect(vinyl.configuration.name == "users")
        #expect(vinyl.configuration.allTracksMustPlay == false)
        #expect(vinyl.file.lastPathComponent == "users.json")
    }

    @Test func recordModeNoneMeansNeverRecordNotInherit() async throws {
        #expect(VinylConfiguration(mode: .never).mode == RecordMode.never)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A missing vinyl in a folder would be recorded by the default mode; `.never` does not
        // record it: a request that reaches it misses, saying the file is missing.
        let never = try TestVinyl(name: "missing", configuration: VinylConfiguration(store: .folder(folder), mode: .never, recording: Recording(environment: [:])))
        #expect(never.turntable.playback.mode == .never)
        _ = try? await never.turntable.data(from: try #require(URL(string: "https://api.example.com/users/1")))
        #expect(never.finish().first?.message.contains("missing.json: no such file, and the record mode is never") == true)
        let recording = try TestVinyl(name: "missing", configuration: VinylConfiguration(store: .folder(folder), recording: Recording(environment: [:])))
        #expect(recording.turntable.playback.mode == .once)
    }

    @Test func aConversationSentShortOfItsRecordingFailsAllTracksMustPlay() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try #require(URL(string: "wss://chat.example.com/room"))
        let chat = WebSocketConversation(
            messages: [.sent(.text("a")), .received(.text("a")), .sent(.text("b")), .received(.text("b"))], end: .closed(code: 1000, by: .received))
        try Vinyl(name: "chat", tracks: [Track(request: Track.Request(url: url), outcome: .response(.webSocket(chat)))])
            .write(to: folder.appendingPathComponent("chat.json"))
        let vinyl = try TestVinyl(name: "chat", configuration: VinylConfiguration(store: .folder(folder), allTracksMustPlay: true))
        let socket = vinyl.turntable.webSocketTask(with: url)
        socket.resume()
        try await socket.send(.string("a"))
        _ = try await socket.receive()
        socket.cancel(with: .normalClosure, reason: nil)
        let problems = vinyl.finish()
        #expect(problems.map(\.kind) == [.unplayedTracks])
        #expect(problems.first?.message.contains("track #0: GET wss://chat.example.com/room: 1 of 2 client messages sent") == true, "\(problems)")
    }

    @Test func testsOwnValuesWinOverTheSuites() {
        let suite = VinylConfiguration(name: "suite", allTracksMustPlay: true)
        let test = VinylConfiguration(allTracksMustPlay: false)
        let merged = test.merged(over: suite)
        #expect(merged.name == "suite")
        #expect(merged.allTracksMustPlay == false)
    }
}
