import Foundation
import Gramophone
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// DVR's own `SessionTests`, ported to Gramophone as the DVR guide (<doc:MigratingFromDVR>) spells
/// each call, against DVR's cassettes unchanged, every assertion kept. DVR's `Session` recorded by
/// default (`recordingEnabled` true): `recording: Recording(mode: .once, session: backingSession)`,
/// its cassettes in the test bundle (`testBundle:` → `.bundle(…)`), which has no `Vinyls` folder.
@Suite struct DVRSessionTests {
    /// DVR's `session`: the `example` cassette, a backing session adding `testSessionHeader`.
    static func session() throws -> Turntable {
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = ["testSessionHeader": "testSessionHeaderValue"]
        let backingSession = URLSession(configuration: configuration)
        return try cassette("example", backingSession: backingSession)
    }

    /// `Session(cassetteName:backingSession:headersToCheck:)` with recording left on, as DVR's default.
    static func cassette(
        _ name: String, backingSession: URLSession? = nil, headersToCheck: [String] = [], recordingEnabled: Bool = true
    ) throws -> Turntable {
        let recording = recordingEnabled ? Recording(mode: .once, session: backingSession, environment: Peers.localEnvironment) : nil
        return try Peers.turntable("dvr/" + name, matching: .dvr(headersToCheck: headersToCheck), recording: recording)
    }

    let request = URLRequest(url: URL(string: "http://example.com")!)

    @Test func initialiser() throws {
        #expect(try Self.session().vinyl.name == "example")
    }

    /// The accepted difference: DVR added its backing session's `httpAdditionalHeaders` to the
    /// task's request; a Turntable keeps the request as the caller made it (the DVR guide's
    /// `backingSession`'s `httpAdditionalHeaders` row).
    private func expectBackingSessionHeader(_ task: URLSessionTask) {
        withKnownIssue("DVR's backing-session httpAdditionalHeaders: an accepted difference, documented in MigratingFromDVR") {
            #expect(task.originalRequest?.allHTTPHeaderFields?["testSessionHeader"] == "testSessionHeaderValue")
        }
    }

    @Test func dataTask() throws {
        let session = try Self.session()
        let dataTask = session.dataTask(with: request)
        expectBackingSessionHeader(dataTask)
        #expect(dataTask.currentRequest?.url?.absoluteString == request.url?.absoluteString)
    }

    @Test func dataTaskWithCompletion() throws {
        let dataTask = try Self.session().dataTask(with: request) { _, _, _ in }
        expectBackingSessionHeader(dataTask)
    }

    @Test func dataTaskWithURL() throws {
        let dataTask = try Self.session().dataTask(with: URL(string: "http://example.com")!)
        expectBackingSessionHeader(dataTask)
    }

    @Test func dataTaskWithURLAndCompletion() throws {
        let dataTask = try Self.session().dataTask(with: URL(string: "http://example.com")!) { _, _, _ in }
        expectBackingSessionHeader(dataTask)
    }

    @Test func playback() async throws {
        try await expectHello(Self.cassette("example", recordingEnabled: false), request)
    }

    /// DVR's check of a playback: the body `hello`, status 200.
    private func expectHello(_ session: Turntable, _ request: URLRequest) async {
        let calls = HandlerCalls<HandlerCall>()
        session.dataTask(with: request, completionHandler: calls.handler).resume()
        let call = await calls.first(1)[0]
        #expect(call.data.map { String(decoding: $0, as: UTF8.self) } == "hello")
        #expect(call.status == 200)
    }

    @Test func textPlayback() async throws {
        let session = try Self.cassette("text", recordingEnabled: false)
        var request = URLRequest(url: URL(string: "http://example.com")!)
        request.httpMethod = "POST"
        request.httpBody = Data("Some text.".utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        await expectHello(session, request)
    }

    @Test func download() async throws {
        let session = try Self.cassette("json-example", recordingEnabled: false)
        let request = URLRequest(url: URL(string: "https://www.howsmyssl.com/a/check")!)
        // The file is the handler's only while it runs: read it there.
        let calls = HandlerCalls<(data: Data?, status: Int?)>()
        session.downloadTask(with: request) { location, response, _ in
            calls.record((location.flatMap { try? Data(contentsOf: $0) }, (response as? HTTPURLResponse)?.statusCode))
        }.resume()
        let call = await calls.first(1)[0]
        let data = try #require(call.data)
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(json?["tls_version"] as? String == "TLS 1.2")
        #expect(call.status == 200)
    }

    /// `beginRecording()` / `endRecording()`: the Turntable records from the start, and
    /// `eject()` writes (here nothing: both requests are in the cassette).
    @Test func multiple() async throws {
        let session = try Self.cassette("multiple")
        let apple = HandlerCalls<HandlerCall>()
        let google = HandlerCalls<HandlerCall>()
        session.dataTask(with: URLRequest(url: URL(string: "http://apple.com")!)) { data, response, error in
            apple.record(HandlerCall(data, response, error))
            DispatchQueue.main.async {
                session.dataTask(with: URLRequest(url: URL(string: "http://google.com")!), completionHandler: google.handler).resume()
            }
        }.resume()
        #expect(await apple.first(1)[0].status == 200)
        #expect(await google.first(1)[0].status == 200)
        #expect(throws: Never.self) { try session.eject() }
    }

    /// DVR's backing session's delegate: `setDelegate(_:)`.
    @Test func taskDelegate() async throws {
        final class Delegate: NSObject, URLSessionTaskDelegate, Sendable {
            let completed = HandlerCalls<Int?>()
            func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
                completed.record((task.response as? HTTPURLResponse)?.statusCode)
            }
        }
        let delegate = Delegate()
        let session = try Self.cassette("example", backingSession: URLSession(configuration: .default), recordingEnabled: false)
        session.setDelegate(delegate)
        session.dataTask(with: request).resume()
        #expect(await delegate.completed.first(1)[0] == 200)
    }

    @Test func dataDelegate() async throws {
        final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
            let received = HandlerCalls<Data>()
            func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
                received.record(data)
            }
        }
        let delegate = Delegate()
        let session = try Self.cassette("example", backingSession: URLSession(configuration: .default), recordingEnabled: false)
        session.setDelegate(delegate)
        session.dataTask(with: request).resume()
        #expect(await delegate.received.first(1)[0] == Data("hello".utf8))
    }

    @Test func recordingStatusCodeForFailedRequest() async throws {
        let request = URLRequest(url: URL(string: "http://cdn.contentful.com/spaces/cfexampleapi/entries")!)
        let session = try Self.cassette("failed-request-example", backingSession: URLSession(configuration: .default))
        let calls = HandlerCalls<HandlerCall>()
        session.dataTask(with: request, completionHandler: calls.handler).resume()
        let call = await calls.first(1)[0]
        #expect(call.status != 200)
        #expect(call.status == 401)
    }

    @Test func sameRequestWithDifferentHeaders() async throws {
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = ["testSessionHeader": "testSessionHeaderValue"]
        let session = try Self.cassette(
            "different-headers", backingSession: URLSession(configuration: configuration), headersToCheck: ["Foo"], recordingEnabled: false)
        var request = URLRequest(url: URL(string: "http://example.com")!)
        request.setValue("Bar1", forHTTPHeaderField: "Foo")
        let first = HandlerCalls<HandlerCall>()
        session.dataTask(with: request, completionHandler: first.handler).resume()
        request.setValue("Bar2", forHTTPHeaderField: "Foo")
        let second = HandlerCalls<HandlerCall>()
        session.dataTask(with: request, completionHandler: second.handler).resume()
        let one = await first.first(1)[0]
        #expect(one.data.map { String(decoding: $0, as: UTF8.self) } == "hello")
        #expect(one.status == 200)
        let two = await second.first(1)[0]
        #expect(two.data.map { String(decoding: $0, as: UTF8.self) } == "hello again")
        #expect(two.status == 200)
    }
}
