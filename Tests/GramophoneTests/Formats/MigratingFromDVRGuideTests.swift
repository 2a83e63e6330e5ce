import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The table of "Migrating from DVR", row by row: each test is named after its row and runs
/// the row's Gramophone side, against DVR's own cassettes and the local httpbin.
@Suite struct MigratingFromDVRGuideTests {
    static let dvr = TestFiles.fixture("dvr")

    private func body(_ turntable: Turntable, _ request: URLRequest) async throws -> String {
        String(decoding: try await turntable.data(for: request).0, as: UTF8.self)
    }

    private func example(_ foo: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: "http://example.com")!)
        if let foo { request.setValue(foo, forHTTPHeaderField: "Foo") }
        return request
    }

    /// A test file's folder holding `Vinyls/`, as `Tests/<Target>/` does.
    private func targetFolder(with cassettes: [String]) throws -> (folder: URL, testFile: String) {
        let folder = try TestFiles.temporaryFolder()
        try Data("// swift-tools-version:6.0\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        let vinyls = folder.appendingPathComponent("Tests/AppTests/Vinyls")
        try FileManager.default.createDirectory(at: vinyls, withIntermediateDirectories: true)
        for name in cassettes {
            try FileManager.default.copyItem(at: Self.dvr.appendingPathComponent(name + ".json"), to: vinyls.appendingPathComponent(name + ".json"))
        }
        return (folder, folder.appendingPathComponent("Tests/AppTests/ExampleTests.swift").path)
    }

    @Test func sessionCassetteName() async throws {
        let target = try targetFolder(with: ["example"])
        defer { try? FileManager.default.removeItem(at: target.folder) }
        // `Turntable(vinylNamed: "example")`, called from Tests/AppTests/ExampleTests.swift.
        let turntable = try Turntable(vinylNamed: "example", from: nil, matching: nil, recording: nil, sourcePath: target.testFile)
        #expect(try await body(turntable, example()) == "hello")
    }

    @Test func testBundle() async throws {
        // This test bundle holds DVR's cassettes in Fixtures/dvr.
        let turntable = try Turntable(vinylNamed: "Fixtures/dvr/example", from: .bundle(.module))
        #expect(try await body(turntable, example()) == "hello")
    }

    @Test(.enabled(if: HTTPBin.isAvailable)) func sessionOutputDirectory() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let turntable = try Turntable(vinylNamed: "users", from: .folder(folder), recording: Recording(environment: [:]))
            _ = try await turntable.data(from: URL(string: base.absoluteString + "/get")!)
            try turntable.eject()
        }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("users.json").path))
    }

    @Test(.enabled(if: HTTPBin.isAvailable)) func backingSession() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(vinylNamed: "users", from: .folder(folder), recording: Recording(session: URLSession.shared, environment: [:]))
        let (_, response) = try await turntable.data(from: URL(string: base.absoluteString + "/get")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(turntable.playback.recordedCount == 1)
    }

    @Test func backingSessionHTTPAdditionalHeaders() async throws {
        // DVR's test session added `testSessionHeader` to every request; here the request carries it.
        let json = """
            {"name": "session-header", "interactions": [
              {"recorded_at": 1, "request": {"method": "GET", "url": "http://example.com", "headers": {"testSessionHeader": "a"}},
               "response": {"status": 200, "url": "http://example.com", "headers": {"Content-Type": "text/plain"}, "body": "for a"}},
              {"recorded_at": 2, "request": {"method": "GET", "url": "http://example.com", "headers": {"testSessionHeader": "b"}},
               "response": {"status": 200, "url": "http://example.com", "headers": {"Content-Type": "text/plain"}, "body": "for b"}}]}
            """
        let turntable = Turntable(vinyl: try Vinyl(data: Data(json.utf8), name: "session-header"), matching: .dvr(headersToCheck: ["testSessionHeader"]))
        var request = example()
        request.setValue("a", forHTTPHeaderField: "testSessionHeader")
        #expect(try await body(turntable, request) == "for a")
    }

    @Test func matchingMethodURLAndBodyTheLastOfSeveral() async throws {
        let chosen = try Turntable(vinylNamed: "different-headers", from: .folder(Self.dvr))
        #expect(try await body(chosen, example("Bar1")) == "hello again")
        let named = try Turntable(vinylNamed: "different-headers", from: .folder(Self.dvr), matching: .default)
        #expect(try await body(named, example("Bar1")) == "hello")
    }

    @Test func headersToCheck() async throws {
        let turntable = try Turntable(vinylNamed: "different-headers", from: .folder(Self.dvr), matching: .dvr(headersToCheck: ["Foo"]))
        #expect(try await body(turntable, example("Bar1")) == "hello")
        #expect(try await body(turntable, example("Bar2")) == "hello again")
    }

    @Test func parametersToIgnore() async throws {
        // DVR's text-with-param cassette, as its SessionTests replay it.
        let json = """
            {"name": "text-with-param", "interactions": [{"recorded_at": 1,
              "request": {"method": "POST", "url": "http://example.com?status=Available&key=Wmw0860", "headers": {"Content-Type": "text/plain"}, "body": "Some text."},
              "response": {"status": 200, "url": "http://example.com", "headers": {"Content-Type": "text/plain"}, "body": "hello"}}]}
            """
        let vinyl = try Vinyl(data: Data(json.utf8), name: "text-with-param")
        var request = URLRequest(url: URL(string: "http://example.com?status=Available&key=other")!)
        request.httpMethod = "POST"
        request.httpBody = Data("Some text.".utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        #expect(try await body(Turntable(vinyl: vinyl, matching: .dvr(parametersToIgnore: ["key"])), request) == "hello")
        await #expect(throws: TurntableError.self) { try await Turntable(vinyl: vinyl).data(for: request) }
    }

    @Test func recordingEnabledFalse() async throws {
        let turntable = try Turntable(vinylNamed: "example", from: .folder(Self.dvr))
        #expect(turntable.playback.isWriteProtected)
        await #expect(throws: TurntableError.self) { try await turntable.data(from: URL(string: "http://example.com/other")!) }
    }

    @Test(.enabled(if: HTTPBin.isAvailable)) func recordingEnabledTrue() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(vinylNamed: "fresh", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        _ = try await turntable.data(from: URL(string: base.absoluteString + "/get")!)
        #expect(turntable.playback.recordedCount == 1)
        // The variable does the same without a code change.
        #expect(try Recording(environment: ["GRAMOPHONE_RECORD_MODE": "once", "CI": "1"]).resolvedMode() == .once)
    }

    /// `testBundle:` with DVR's default `recordingEnabled`: this test target has no `Vinyls`
    /// folder, yet the cassette replays; only a request it would record fails, naming where it
    /// would write.
    @Test func recordingEnabledTrueWithTestBundle() async throws {
        let turntable = try Turntable(
            vinylNamed: "Fixtures/dvr/example", from: .bundle(.module), recording: Recording(mode: .once, session: OfflineSession(), environment: [:]))
        #expect(try await body(turntable, example()) == "hello")
        let miss = await #expect(throws: TurntableError.self) { try await turntable.data(from: URL(string: "http://example.com/other")!) }
        #expect(miss.map { "\($0)" }?.contains("write-protected") == true)
        let recording = try Turntable(
            vinylNamed: "Fixtures/dvr/example", from: .bundle(.module), recording: Recording(mode: .newEpisodes, session: OfflineSession(), environment: [:]))
        let wouldRecord = await #expect(throws: TurntableError.self) { try await recording.data(from: URL(string: "http://example.com/other")!) }
        #expect(wouldRecord.map { "\($0)" }?.contains("would write a build product") == true)
    }

    @Test func aRequestTheCassetteLacks() async throws {
        let turntable = try Turntable(vinylNamed: "example", from: .folder(Self.dvr))
        do {
            _ = try await turntable.data(from: URL(string: "http://example.com/missing")!)
            Issue.record("expected a miss")
        } catch TurntableError.noMatchingTrack(let report) {
            #expect(report.nearestTrackIndex == 0)
            #expect(report.description.contains("url: http://example.com/missing vs http://example.com"))
        }
        // The Turntable goes on answering after a miss.
        #expect(try await body(turntable, example()) == "hello")
    }

    @Test(.enabled(if: HTTPBin.isAvailable)) func beginRecordingEndRecording() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(vinylNamed: "several", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        _ = try await turntable.data(from: URL(string: base.absoluteString + "/get?a=1")!)
        _ = try await turntable.data(from: URL(string: base.absoluteString + "/get?a=2")!)
        try turntable.eject()
        #expect(try Vinyl(contentsOf: folder.appendingPathComponent("several.json")).tracks.count == 2)
    }

    @Test func backingSessionDelegate() async throws {
        let turntable = try Turntable(vinylNamed: "example", from: .folder(Self.dvr))
        let delegate = DelegateRecorder()
        turntable.setDelegate(delegate, queue: delegate.queue)
        turntable.dataTask(with: example()).resume()
        #expect(await delegate.waitForCompletion())
        #expect(delegate.log.withLock { $0.chunks.reduce(Data(), +) } == Data("hello".utf8))
        #expect(delegate.log.withLock { $0.completed } == 1)
    }

    @Test func aBodyDVRReadAsNil() async throws {
        let vinyl = try Vinyl(data: Data(DVRReadingTests.cassetteWithABadBody.utf8), name: "fail")
        #expect(vinyl.issues.map(\.place) == ["interactions[0].response.body"])
        let turntable = Turntable(vinyl: vinyl)
        #expect(try await turntable.data(from: URL(string: "https://api.example.com/fail")!).0.isEmpty)
        #expect(try await body(turntable, URLRequest(url: URL(string: "https://api.example.com/ok")!)) == "fine")
    }
}
