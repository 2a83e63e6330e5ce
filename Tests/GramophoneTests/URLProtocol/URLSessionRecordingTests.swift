import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Recording through a `URLSession` a Turntable answers (`makeURLSession()`,
/// `makeURLSessionConfiguration(base:)`): what reaches the live server is what the client's
/// session sends, and that is what the track holds.
@Suite("Recording through a Turntable's URLSession", .enabled(if: HTTPBin.isAvailable))
struct URLSessionRecordingTests {
    /// A Turntable recording everything into a fresh folder (removed by the caller).
    static func recordingTurntable(raw: Bool = false) throws -> (Turntable, URL) {
        let folder = try makeTemporaryFolder(prefix: "urlsession-recording")
        var recording = Recording(mode: .all, redaction: raw ? .none : .default, environment: [:])
        if raw { recording = recording.allowingAllSecrets() }
        recording.isQuiet = true
        return (try Turntable(vinylNamed: "live", from: .folder(folder), recording: recording), folder)
    }

    /// The `data` field httpbin's `/anything` echoes: the body it received, as text.
    static func echoedBody(_ data: Data?) -> String? {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["data"] as? String
    }

    /// The headers httpbin's `/anything` echoes, by lowercased name.
    static func echoedHeaders(_ data: Data?) -> [String: String] {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let headers = object["headers"] as? [String: String]
        else { return [:] }
        return Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// A POST of text (without a type, Foundation sends a form, which httpbin echoes as `form`).
    static func post(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        return request
    }

    @Test("an upload's body reaches the server while recording and is in the track, in every upload style")
    func uploadBodiesAreSentAndRecorded() async throws {
        let base = try HTTPBin.baseURL()
        let (turntable, folder) = try Self.recordingTurntable()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = turntable.makeURLSession()
        defer { session.finishTasksAndInvalidate() }

        var expected: [String: String] = [:]
        /// The body reached the server (and is expected in the track). On Apple platforms, where
        /// an upload task's body reaches no URLProtocol, the task may fail saying so instead, and
        /// then nothing is recorded for it.
        func check(_ seen: Seen, _ name: String, _ text: String, isUploadTask: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
            #if !canImport(FoundationNetworking)
            if isUploadTask, seen.errorCode == URLError.cannotDecodeRawData.rawValue { return }
            #endif
            #expect(Self.echoedBody(seen.body) == text, sourceLocation: sourceLocation)
            expected[name] = text
        }

        let asyncUpload = await Seen.async { try await session.upload(for: Self.post(base.appendingPathComponent("anything/async")), from: Data("async upload".utf8)) }
        check(asyncUpload, "async", "async upload")

        let handler = await Seen.handler { session.uploadTask(with: Self.post(base.appendingPathComponent("anything/handler")), from: Data("handler upload".utf8), completionHandler: $0) }
        check(handler, "handler", "handler upload")

        let file = folder.appendingPathComponent("body.txt")
        try Data("file upload".utf8).write(to: file)
        let fileUpload = await Seen.async { try await session.upload(for: Self.post(base.appendingPathComponent("anything/file")), fromFile: file) }
        check(fileUpload, "file", "file upload")

        var withBody = Self.post(base.appendingPathComponent("anything/body"))
        withBody.httpBody = Data("request body".utf8)
        check(await Seen.async { try await session.data(for: withBody) }, "body", "request body", isUploadTask: false)

        let recorded = Dictionary(turntable.vinyl.tracks.map { ($0.request.url.lastPathComponent, String(decoding: $0.request.body, as: UTF8.self)) }, uniquingKeysWith: { $1 })
        #expect(recorded == expected)
        #if canImport(FoundationNetworking)
        #expect(expected.count == 4)
        #endif
    }

    @Test("a delegate upload task on a session from makeURLSessionConfiguration(base:) sends and records its body")
    func delegateUploadIsSentAndRecorded() async throws {
        let base = try HTTPBin.baseURL()
        let (turntable, folder) = try Self.recordingTurntable()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = DelegateRecorder()
        let session = URLSession(configuration: turntable.makeURLSessionConfiguration(base: .default), delegate: recorder, delegateQueue: recorder.queue)
        defer { session.finishTasksAndInvalidate() }
        session.uploadTask(with: Self.post(base.appendingPathComponent("post")), from: Data("delegate upload".utf8)).resume()
        #expect(await recorder.waitForCompletion())
        #if !canImport(FoundationNetworking)
        // Apple hands an upload task's body to no URLProtocol: refused with a reason, nothing recorded.
        if (recorder.log.withLock { $0.error } as? URLError)?.code == .cannotDecodeRawData {
            #expect(turntable.vinyl.tracks.isEmpty)
            return
        }
        #endif
        #expect(Self.echoedBody(recorder.log.withLock { $0.chunks.reduce(Data(), +) }) == "delegate upload")
        #expect(turntable.vinyl.tracks.map(\.request.body) == [Data("delegate upload".utf8)])
    }

    @Test("the configuration's additional headers reach the server while recording and are in the track; the request's own win")
    func configurationHeadersAreSentAndRecorded() async throws {
        let base = try HTTPBin.baseURL()
        let (turntable, folder) = try Self.recordingTurntable()
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-From-Configuration": "yes", "X-Overridden": "configuration"]
        let session = URLSession(configuration: turntable.makeURLSessionConfiguration(base: configuration))
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: base.appendingPathComponent("anything/headers"))
        request.setValue("request", forHTTPHeaderField: "X-Overridden")
        let (data, _) = try await session.data(for: request)
        let echoed = Self.echoedHeaders(data)
        #expect(echoed["x-from-configuration"] == "yes")
        #expect(echoed["x-overridden"] == "request")
        let track = try #require(turntable.vinyl.tracks.first)
        #expect(track.request.headers["X-From-Configuration"] == "yes")
        #expect(track.request.headers["X-Overridden"] == "request")
    }

    @Test("cookies a live response sets go to the configuration's storage and are sent, and recorded, with the next request")
    func cookiesFollowTheConfigurationStorage() async throws {
        let base = try HTTPBin.baseURL()
        // The default redaction takes cookies out of the track: recorded raw here to see what was sent.
        let (turntable, folder) = try Self.recordingTurntable(raw: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = URLSessionConfiguration.ephemeral
        let session = URLSession(configuration: turntable.makeURLSessionConfiguration(base: configuration))
        defer { session.finishTasksAndInvalidate() }
        var setting = URLComponents(url: base.appendingPathComponent("response-headers"), resolvingAgainstBaseURL: false)!
        setting.queryItems = [URLQueryItem(name: "Set-Cookie", value: "flavour=oat; Path=/")]
        _ = try await session.data(for: URLRequest(url: setting.url!))
        let (data, _) = try await session.data(for: URLRequest(url: base.appendingPathComponent("anything/cookies")))
        #expect(Self.echoedHeaders(data)["cookie"] == "flavour=oat")
        let track = try #require(turntable.vinyl.tracks.last)
        #expect(track.request.headers["Cookie"] == "flavour=oat")
    }
}

/// Download tasks on a session a Turntable answers (`makeURLSessionConfiguration(base:)`), which
/// Linux Foundation cannot finish through a URLProtocol: they complete, never crash.
@Suite("Download tasks on a Turntable's URLSession")
struct URLSessionDownloadTests {
    static let file = URL(string: "https://api.example.com/file.bin")!
    static let body = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0) })

    static func turntable() -> Turntable {
        Turntable(vinyl: Vinyl(name: "downloads", tracks: [Track("GET https://api.example.com/file.bin", .data(body))]))
    }

    @Test("a delegate download task completes: with the file on Apple platforms, with an error saying why on Linux")
    func delegateDownloadCompletes() async throws {
        let turntable = Self.turntable()
        let recorder = DelegateRecorder()
        let session = URLSession(configuration: turntable.makeURLSessionConfiguration(), delegate: recorder, delegateQueue: recorder.queue)
        defer { session.finishTasksAndInvalidate() }
        session.downloadTask(with: Self.file).resume()
        #expect(await recorder.waitForCompletion())
        let (downloaded, error) = recorder.log.withLock { ($0.downloaded, $0.error) }
        #if canImport(FoundationNetworking)
        #expect(downloaded == nil)
        #expect((error as? URLError)?.code == .unsupportedURL)
        #expect(error?.localizedDescription.contains("download") == true)
        #else
        #expect(error == nil)
        #expect(downloaded == Self.body)
        #endif
    }

    @Test("an async download completes: with the file on Apple platforms, with an error saying why on Linux")
    func asyncDownloadCompletes() async throws {
        let turntable = Self.turntable()
        let session = URLSession(configuration: turntable.makeURLSessionConfiguration())
        defer { session.finishTasksAndInvalidate() }
        #if canImport(FoundationNetworking)
        await #expect(throws: URLError.self) { _ = try await session.download(for: URLRequest(url: Self.file)) }
        #else
        let (location, _) = try await session.download(for: URLRequest(url: Self.file))
        #expect(try Data(contentsOf: location) == Self.body)
        #endif
    }
}

/// Streams recorded through a Turntable's URLSession reach the client piece by piece, while
/// the server is still sending, and each piece is recorded with its own time.
@Suite("Streams recorded through a Turntable's URLSession", .enabled(if: StreamServer.isAvailable))
struct URLSessionStreamRecordingTests {
    @Test("a delegate data task gets the first event while the stream is still open, and the track keeps each piece's time")
    func streamIsLiveWhileRecording() async throws {
        let key = UUID().uuidString
        let gate = try StreamServer.url("/gate?key=\(key)")
        let opener = try StreamServer.url("/open?key=\(key)")
        let (turntable, folder) = try URLSessionRecordingTests.recordingTurntable()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = DelegateRecorder()
        // The server holds the second event until the gate opens; the gate opens when the client has
        // the first. Live, the first piece holds only the first event; held back (the server gives
        // up waiting after 20 s), both arrive together.
        let opened = Locked(false)
        recorder.onData = { _ in
            guard
                opened.withLock({ opened in
                    defer { opened = true }; return !opened
                })
            else { return }
            URLSession.shared.dataTask(with: opener).resume()
        }
        let session = turntable.makeURLSession(delegate: recorder, delegateQueue: recorder.queue)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: gate).resume()
        #expect(await recorder.waitForCompletion())
        let chunks = recorder.log.withLock { $0.chunks }
        let first = String(decoding: chunks.first ?? Data(), as: UTF8.self)
        #expect(first.contains("before"))
        #expect(!first.contains("after"))
        #expect(String(decoding: chunks.reduce(Data(), +), as: UTF8.self).contains("after"))
        let stream = try #require(turntable.vinyl.tracks.first?.response?.stream)
        #expect(stream.chunks.count >= 2)
        #expect(Set(stream.chunks.map(\.offset)).count == stream.chunks.count)
    }
}
