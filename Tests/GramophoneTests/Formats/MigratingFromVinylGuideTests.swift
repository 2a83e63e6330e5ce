import Foundation
import Gramophone
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The table of "Migrating from Vinyl", row by row: each test is named after its row and runs
/// the row's Gramophone side, against Vinyl's own fixture files (in this bundle's `Fixtures/vinyl`).
@Suite struct MigratingFromVinylGuideTests {
    /// The guide's matcher for Vinyl's `.headers`: the same names, values equal ignoring case.
    static let vinylHeaders = Matcher.custom("headers, values in any case") { live, recorded in
        func lowered(_ headers: Headers) -> [String: String] {
            Dictionary(headers.map { ($0.name.lowercased(), $0.value.lowercased()) }, uniquingKeysWith: { $1 })
        }
        return lowered(live.headers) == lowered(recorded.headers)
    }

    /// The guide's matcher for Vinyl's `.url`: the URL as written, query order counting.
    static let urlAsWritten = Matcher.custom("url as written") { $0.url == $1.url }

    private let api = URL(string: "http://api.test.com")!
    private let api1 = URL(string: "http://api.test1.com")!

    private func fixture(_ name: String, matching: MatchingStrategy? = nil, recording: Recording? = nil) throws -> Turntable {
        try Turntable(vinylNamed: "Fixtures/vinyl/" + name, from: .bundle(.module), matching: matching, recording: recording)
    }

    private func body(_ turntable: Turntable, _ url: URL) async throws -> String {
        String(decoding: try await turntable.data(from: url).0, as: UTF8.self)
    }

    private func missesNext(_ turntable: Turntable, _ url: URL) async {
        await #expect {
            _ = try await turntable.data(from: url)
        } throws: { error in
            if case .noMatchingTrack = error as? TurntableError { return true }
            return false
        }
    }

    @Test func turntableVinylName() async throws {
        #expect(try await body(fixture("vinyl_single"), api) == "hello")
    }

    @Test func turntableCassetteName() async throws {
        let turntable = try fixture("dvr_single")
        #expect(turntable.vinyl.format == .dvr)
        #expect(try await body(turntable, api) == "hello")
    }

    @Test func turntableVinylConfiguration() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "code", tracks: [Track("GET http://api.test.com", .text("hello"))]), matching: [.method, .url])
        #expect(try await body(turntable, api) == "hello")
    }

    @Test func load() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.load(vinyl: Vinyl(name: "code", tracks: [Track("GET http://api.test.com", .text("hello"))]))
        #expect(try await body(turntable, api) == "hello")
        try turntable.load(vinylNamed: "Fixtures/vinyl/dvr_single", from: .bundle(.module))
        #expect(try await body(turntable, api) == "hello")
    }

    @Test func requestAttributes() async throws {
        let turntable = try fixture("vinyl_multiple", matching: .attributes([.url], playOnce: true))
        _ = try await turntable.data(from: api1)
        await missesNext(turntable, api1)
    }

    @Test func trackOrder() async throws {
        let turntable = try fixture("vinyl_multiple", matching: .trackOrder())
        let (_, response) = try await turntable.data(from: URL(string: "http://elsewhere.test")!)
        #expect(response.url == api1)
    }

    /// Vinyl's default played each track once, matched by method and URL.
    @Test func defaultStrategy() async throws {
        let turntable = try fixture("vinyl_single", matching: .attributes([.method, .url], playOnce: true))
        #expect(try await body(turntable, api) == "hello")
        await missesNext(turntable, api)
    }

    @Test func recordingModeNone() async throws {
        #expect(throws: VinylError.self) {
            try fixture("missing", recording: Recording(mode: .never, environment: [:]))
        }
    }

    /// The dog-food session of Vinyl's own recording tests: a Turntable answers the "network".
    private func recording(_ mode: RecordMode, to file: URL) throws -> Recording {
        Recording(mode: mode, session: try fixture("vinyl_multiple"), environment: [:]).writing(to: file)
    }

    @Test func recordingModeMissingVinyl() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("new.json")
        let turntable = try fixture("missing", recording: recording(.once, to: file))
        _ = try await turntable.data(from: api1)
        #expect(try turntable.eject()?.file == file)
        #expect(try Vinyl(contentsOf: file).tracks.count == 1)
    }

    @Test func recordingModeMissingTracks() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("grown.json")
        let turntable = try fixture("vinyl_single", recording: recording(.newEpisodes, to: file))
        _ = try await turntable.data(from: api1)
        _ = try await turntable.data(from: api)
        #expect(try turntable.eject()?.tracksAdded == 2)
    }

    /// Vinyl recorded a missing vinyl by default; a Turntable records when given `recording:`
    /// and otherwise throws for the missing file.
    @Test func defaultRecordingMode() throws {
        #expect(throws: VinylError.self) { try fixture("missing") }
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Turntable(vinylNamed: "missing", from: .folder(folder), recording: Recording(mode: .once, session: URLSession.shared, environment: [:]))
    }

    @Test func recordingPath() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Recorded/users.json")
        let turntable = try fixture("vinyl_single", recording: recording(.newEpisodes, to: file))
        _ = try await turntable.data(from: api1)
        let report = try #require(try turntable.eject())
        #expect(report.file == file)
        #expect(report.copiedCount == 1)
        #expect(report.description.contains(file.path))
        // The whole vinyl: the played track and the recorded one.
        #expect(try Vinyl(contentsOf: file).tracks.map(\.request.url) == [api, api1])
    }

    @Test func urlSession() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(
            vinylNamed: "users", from: .folder(folder), recording: Recording(session: try fixture("vinyl_multiple"), environment: [:]))
        #expect((try await turntable.data(from: api1).1 as? HTTPURLResponse)?.statusCode == 200)
        #expect(turntable.playback.recordedCount == 1)
    }

    @Test func stopRecording() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("copy.json")
        let turntable = try fixture("vinyl_single", recording: recording(.newEpisodes, to: file))
        _ = try await turntable.data(from: api)
        #expect(try turntable.eject() == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try turntable.eject(evenIfUnchanged: true)?.trackCount == 1)
        #expect(try Vinyl(contentsOf: file).tracks.map(\.request.url) == [api])
    }

    @Test func delegateQueue() async throws {
        let turntable = try fixture("vinyl_single")
        let queue = OperationQueue()
        turntable.setDelegate(nil, queue: queue)
        let ranOnQueue = await withCheckedContinuation { continuation in
            turntable.dataTask(with: api) { _, _, _ in continuation.resume(returning: OperationQueue.current === queue) }.resume()
        }
        #expect(ranOnQueue)
    }

    @Test func delegate() throws {
        final class Delegate: NSObject, URLSessionDataDelegate, Sendable {}
        let turntable = try fixture("vinyl_single")
        #expect(turntable.delegate == nil)
        let delegate = Delegate()
        let queue = OperationQueue()
        turntable.setDelegate(delegate, queue: queue)
        #expect(turntable.delegate === delegate)
        #expect(turntable.delegateQueue === queue)
    }

    @Test func errorHandler() async throws {
        let turntable = try fixture("vinyl_single")
        let error = await withCheckedContinuation { continuation in
            turntable.dataTask(with: api1) { _, _, error in continuation.resume(returning: error) }.resume()
        }
        guard case .noMatchingTrack = error as? TurntableError else {
            Issue.record("expected noMatchingTrack, got \(String(describing: error))")
            return
        }
        #expect(turntable.playback.missReports.count == 1)
    }

    @Test func configuration() throws {
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = ["X-UniqueHeader": "Vinyl"]
        let turntable = try fixture("vinyl_single", recording: Recording(mode: .newEpisodes, session: URLSession(configuration: configuration), environment: [:]))
        #expect(turntable.makeURLSessionConfiguration().httpAdditionalHeaders?["X-UniqueHeader"] as? String == "Vinyl")
        // Without a recording session: an ephemeral configuration, routed to the Turntable.
        #expect(try fixture("vinyl_single").makeURLSessionConfiguration().httpAdditionalHeaders?["X-UniqueHeader"] == nil)
    }

    @Test func trackFactory() async throws {
        let valid = Track(Track.Request(url: api), .data(Data("hello".utf8), contentType: nil, headers: Headers(["X-A": "1"])))
        let bad = Track(Track.Request(url: api1), .status(404))
        let turntable = Turntable(vinyl: Vinyl(name: "factory", tracks: [valid, bad]))
        #expect(try await body(turntable, api) == "hello")
        #expect((try await turntable.data(from: api1).1 as? HTTPURLResponse)?.statusCode == 404)
    }

    /// `createBadTrack(url:statusCode:error:)`: the response, then the error, both handed to the
    /// completion handler.
    @Test func trackFactoryBadTrackWithAnError() async throws {
        let error = NSError(domain: "com.example.vinyl", code: 7)
        let track = Track(Track.Request(url: api), .status(400).failing(with: error))
        #expect(track.response?.status == 400)
        #expect(track.response?.failure?.domain == "com.example.vinyl")
        let turntable = Turntable(vinyl: Vinyl(name: "factory", tracks: [track]))
        let (status, replayed) = await withCheckedContinuation { continuation in
            turntable.dataTask(with: api) { _, response, error in
                continuation.resume(returning: ((response as? HTTPURLResponse)?.statusCode, error.map { ($0 as NSError).domain + " \(($0 as NSError).code)" }))
            }.resume()
        }
        #expect(status == 400)
        #expect(replayed == "com.example.vinyl 7")
    }

    @Test func matchers() async throws {
        let recorded = Track(Track.Request(url: URL(string: "http://api.test.com/users?a=1&b=2")!).header("Accept", "application/json"), .status(200))
        var live = URLRequest(url: URL(string: "http://api.test.com/users?b=2&a=1")!)
        live.setValue("APPLICATION/JSON", forHTTPHeaderField: "Accept")
        func answers(_ strategy: MatchingStrategy) async -> Bool {
            (try? await Turntable(vinyl: Vinyl(name: "m", tracks: [recorded]), matching: strategy).data(for: live)) != nil
        }
        #expect(await answers([.method, .path, .query]))
        #expect(await answers([.url]))  // parameters in any order
        #expect(await !answers([Self.urlAsWritten]))  // Vinyl's `.url`: as written
        #expect(await !answers([.allHeaders()]))  // values exactly
        #expect(await answers([Self.vinylHeaders]))  // Vinyl's `.headers`: values in any case
    }
}
