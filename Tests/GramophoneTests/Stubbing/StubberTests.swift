import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The process-wide stubber: URLSession.shared and sessions from its configurations, ignore
/// rules, unhandled modes, throttled delivery, and the real network once it is disabled.
///
/// The stubber is global state, so these tests run one at a time and each leaves it clean and
/// disabled.
///
/// It also needs a process of its own: on Linux `URLSession.shared` is intercepted only when the
/// stubber is enabled before anything in the process creates a session, and other suites
/// create sessions in parallel. `scripts/test` runs this suite alone with
/// `GRAMOPHONE_STUBBER_SUITE=1`; a plain `swift test` skips it.
@Suite(.serialized, .enabled(if: StubberProcess.isOwn, "process-wide stubber: run alone with GRAMOPHONE_STUBBER_SUITE=1 (scripts/test does)"))
struct StubberTests {

    private let stubber = HTTPStubber.shared

    init() {
        // Before anything in this suite touches URLSession.shared (see LINUX-NOTES).
        stubber.enable()
        stubber.reset()
    }

    private func cleanUp() {
        stubber.reset()
        stubber.disable()
    }

    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test func sharedSessionIsAnsweredFromStubs() async throws {
        defer { cleanUp() }
        try #require(stubber.interceptsSharedSession, "URLSession.shared was used before HTTPStubber.enable(); it cannot be intercepted on Linux")
        stubber.stubs.add(
            try Stub().matching(.host("api.stubbed.test")).matching(.path("/users/{id}"))
                .responding(with: .text("user {{id}}", status: 203).header("X-Stub", "yes")))
        let (data, response) = try await URLSession.shared.data(from: try url("https://api.stubbed.test/users/5"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 203)
        #expect(http.value(forHTTPHeaderField: "X-Stub") == "yes")
        #expect(String(decoding: data, as: UTF8.self) == "user 5")
    }

    @Test func aWebSocketStubbedForTheSharedSessionFailsSayingWhereItCanBeAnswered() async throws {
        defer { cleanUp() }
        try #require(stubber.interceptsSharedSession)
        stubber.stubs.add(Stub().matching(.host("chat.stubbed.test")).responding(with: .webSocket(WebSocketScript().replying(with: .echo))))
        #if canImport(FoundationNetworking)
        // Linux Foundation refuses a WebSocket task before any URLProtocol: the handshake as
        // Apple's task sends it (https, `Upgrade: websocket`) is what reaches the stubber.
        var handshake = URLRequest(url: try url("https://chat.stubbed.test/socket"))
        handshake.setValue("websocket", forHTTPHeaderField: "Upgrade")
        let error = await #expect(throws: URLError.self) { _ = try await URLSession.shared.data(for: handshake) }
        #else
        let socket = URLSession.shared.webSocketTask(with: try url("wss://chat.stubbed.test/socket"))
        socket.resume()
        let error = await #expect(throws: (any Error).self) { _ = try await socket.receive() }
        #endif
        #expect(String(describing: error).contains("a URLProtocol sees at most the opening handshake"), "\(String(describing: error))")
    }

    @Test func postBodiesAreMatchedThroughTheSharedSession() async throws {
        defer { cleanUp() }
        try #require(stubber.interceptsSharedSession)
        struct Login: Codable { var user: String }
        stubber.stubs.add(try Stub().matching(.json(encoding: Login(user: "mark"))).responding(to: "POST", with: .echo(status: 201)))
        var request = URLRequest(url: try url("https://api.stubbed.test/login"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{ "user" : "mark" }"#.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        let echo = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(echo["method"] as? String == "POST")
        #expect(echo["body"] as? String == #"{ "user" : "mark" }"#)
    }

    @Test func sessionsFromItsConfigurationAreIntercepted() async throws {
        defer { cleanUp() }
        stubber.stubs.add(Stub().responding(with: .text("configured")))
        let session = stubber.session(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(from: try url("https://anything.stubbed.test/"))
        #expect(String(decoding: data, as: UTF8.self) == "configured")
        // The caller's configuration is left as it was.
        let base = URLSessionConfiguration.ephemeral
        _ = stubber.configuration(base)
        #expect(base.protocolClasses?.contains { $0 == HTTPStubber.protocolClass } != true)
    }

    @Test func stubErrorsReachTheClient() async throws {
        defer { cleanUp() }
        stubber.stubs.add(Stub().responding(with: .error(.timedOut)))
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        do {
            _ = try await session.data(from: try url("https://slow.stubbed.test/"))
            Issue.record("expected a timeout")
        } catch {
            #expect((error as NSError).code == URLError.timedOut.rawValue)
        }
    }

    @Test func optOutFailsUnmatchedRequestsListingEveryStub() async throws {
        defer { cleanUp() }
        stubber.unhandledMode = .optOut
        stubber.stubs.add(Stub("users").matching(try .path("/users/{id}")).responding(with: .status(200)))
        stubber.stubs.add(Stub("admin only").matching(.host("admin.stubbed.test")).responding(with: .status(200)))
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        do {
            _ = try await session.data(from: try url("https://api.stubbed.test/orders/1"))
            Issue.record("an unmatched request must fail in opt-out mode")
        } catch {
            let text = String(describing: error)
            #expect(text.contains("No stub matches GET https://api.stubbed.test/orders/1"))
            #expect(text.contains("\"users\": path /orders/1 does not fit /users/{id}"))
            #expect(text.contains("\"admin only\": host"))
            #expect(text.contains("unhandledMode = .optIn"))
        }
    }

    @Test func handlesTellWhatTheSharedSessionSentAndSequencesAnswerInOrder() async throws {
        defer { cleanUp() }
        try #require(stubber.interceptsSharedSession)
        let login = stubber.stubs.add(
            Stub("login").matching(.host("api.stubbed.test")).matching(.method("POST"))
                .responding(with: [.status(500), .json(#"{"token":"t"}"#)]))
        var request = URLRequest(url: try url("https://api.stubbed.test/login"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"user":"mark"}"#.utf8)
        let (_, first) = try await URLSession.shared.data(for: request)
        let (data, second) = try await URLSession.shared.data(for: request)
        #expect((first as? HTTPURLResponse)?.statusCode == 500)
        #expect((second as? HTTPURLResponse)?.statusCode == 200 && String(decoding: data, as: UTF8.self) == #"{"token":"t"}"#)
        // Counted once per answer, not each time the URL loading system asked whether to claim it.
        #expect(login.requestCount == 2)
        #expect(login.requests.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"user":"mark"}"#, #"{"user":"mark"}"#])
        stubber.reset()
        #expect(login.requests.isEmpty, "reset forgets what the stubs answered")
    }

    @Test func anExhaustedStubIsPassedOverAndOptOutSaysWhy() async throws {
        defer { cleanUp() }
        stubber.unhandledMode = .optOut
        let once = stubber.stubs.add(Stub("once").matching(.host("api.stubbed.test")).responding(with: .text("only once")).times(1))
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(from: try url("https://api.stubbed.test/a"))
        #expect(String(decoding: data, as: UTF8.self) == "only once")
        do {
            _ = try await session.data(from: try url("https://api.stubbed.test/b"))
            Issue.record("the stub answered its one request; the second must fail in opt-out mode")
        } catch {
            #expect(String(describing: error).contains(#""once": matches, but has answered all its 1 request (.times(1))"#))
        }
        #expect(once.requests.map(\.url.path) == ["/a"])
    }

    @Test(.enabled(if: HTTPBin.isAvailable)) func optInSendsUnmatchedRequestsToTheNetwork() async throws {
        defer { cleanUp() }
        let base = try HTTPBin.baseURL()
        stubber.unhandledMode = .optIn
        stubber.stubs.add(Stub().matching(.host("api.stubbed.test")).responding(with: .text("stub")))
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: base.appendingPathComponent("status/418"))
        #expect((response as? HTTPURLResponse)?.statusCode == 418)
        #expect(!data.isEmpty)
    }

    @Test(.enabled(if: HTTPBin.isAvailable)) func ignoreRulesPassRequestsToTheNetworkEvenInOptOut() async throws {
        defer { cleanUp() }
        let base = try HTTPBin.baseURL()
        stubber.unhandledMode = .optOut
        stubber.stubs.add(Stub().responding(with: .text("stubbed everything")))
        stubber.ignore(.host(base.host ?? ""))
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(from: base.appendingPathComponent("get"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["url"] as? String == base.appendingPathComponent("get").absoluteString)
        let (other, _) = try await session.data(from: try url("https://elsewhere.stubbed.test/"))
        #expect(String(decoding: other, as: UTF8.self) == "stubbed everything")
    }

    @Test(.enabled(if: HTTPBin.isAvailable)) func disablingRestoresTheRealNetworkForTheSharedSession() async throws {
        defer { cleanUp() }
        try #require(stubber.interceptsSharedSession)
        let target = try HTTPBin.baseURL().appendingPathComponent("uuid")
        stubber.stubs.add(Stub().matching(.url(target)).responding(with: .text("stubbed uuid")))
        let (stubbed, _) = try await URLSession.shared.data(from: target)
        #expect(String(decoding: stubbed, as: UTF8.self) == "stubbed uuid")

        stubber.disable()
        let (real, response) = try await URLSession.shared.data(from: target)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let object = try #require(try JSONSerialization.jsonObject(with: real) as? [String: Any])
        #expect(object["uuid"] is String)

        stubber.enable()
        let (again, _) = try await URLSession.shared.data(from: target)
        #expect(String(decoding: again, as: UTF8.self) == "stubbed uuid")
    }

    #if canImport(FoundationNetworking)
    /// Pins the Linux limit Gramophone.docc/Stubbing.md describes: a session made later from `.default`
    /// does not get registered protocol classes, so it reaches the network. If this starts
    /// failing, the toolchain changed and the documentation should say so.
    @Test(.enabled(if: HTTPBin.isAvailable)) func plainDefaultSessionsAreNotInterceptedOnLinux() async throws {
        defer { cleanUp() }
        let target = try HTTPBin.baseURL().appendingPathComponent("uuid")
        stubber.stubs.add(Stub().responding(with: .text("stubbed")))
        let session = URLSession(configuration: .default)
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(from: target)
        #expect(String(decoding: data, as: UTF8.self) != "stubbed")
    }
    #endif

    @Test func networkDownOverridesEveryStub() async throws {
        defer { cleanUp() }
        stubber.stubs.add(Stub().responding(with: .text("fine")))
        stubber.networkCondition = .down
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        do {
            _ = try await session.data(from: try url("https://api.stubbed.test/"))
            Issue.record("the network is down")
        } catch {
            #expect((error as NSError).code == URLError.notConnectedToInternet.rawValue)
        }
    }

    /// The scenario table of EveryPathTests through the stubber's two paths (its own session,
    /// async and delegate, and `URLSession.shared`), against the Turntable's async answer.
    @Test(arguments: PathScenario.all)
    func everyScenarioThroughTheStubberAnswersAsATurntableDoes(_ scenario: PathScenario) async throws {
        defer { cleanUp() }
        try #require(stubber.interceptsSharedSession)
        let reference = await TurntablePath.asyncData.run(scenario)
        scenario.installStubs(on: stubber.stubs)
        let request = URLRequest(url: scenario.url)
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        let viaSession = await PathRunner.async(cancel: scenario.cancelledByCaller) { try await session.data(for: request) }
        let viaShared = await PathRunner.async(cancel: scenario.cancelledByCaller) { try await URLSession.shared.data(for: request) }
        let recorder = DelegateRecorder()
        let delegateSession = stubber.session(delegate: recorder, delegateQueue: recorder.queue)
        defer { delegateSession.finishTasksAndInvalidate() }
        var viaDelegate = await PathRunner.delegate(recorder, cancel: scenario.cancelledByCaller, delegateSession.dataTask(with: request))
        let calls = viaDelegate.delegateCalls
        viaDelegate.delegateCalls = nil
        #expect(viaSession == reference, "\(scenario.name) through HTTPStubber.shared.session()")
        #expect(viaShared == reference, "\(scenario.name) through URLSession.shared")
        #expect(viaDelegate == reference, "\(scenario.name) through a stubber session's delegate")
        // The delegate hears what a Turntable task's delegate hears.
        let taskCalls = try #require(await TurntablePath.delegate.run(scenario).delegateCalls)
        #expect(
            PathExceptions.delegateCalls(calls ?? [], path: .urlSessionDelegate, scenario: scenario)
                == PathExceptions.delegateCalls(taskCalls, path: .delegate, scenario: scenario), "\(scenario.name): delegate calls")
    }

    /// The live reference of LiveReferenceTests through the stubber's paths: each httpbin answer,
    /// fetched with a plain URLSession and recorded, installed as stubs from the vinyl, then
    /// fetched through the stubber's session (async and delegate) and `URLSession.shared`.
    @Test(.enabled(if: HTTPBin.isAvailable, "needs the local httpbin (scripts/test starts it)"), arguments: LiveReferenceTests.endpoints)
    func theLiveReferenceThroughTheStubberEqualsTheLiveResult(_ endpoint: String) async throws {
        defer { cleanUp() }
        let url = try #require(URL(string: endpoint, relativeTo: try HTTPBin.baseURL())?.absoluteURL)
        let request = URLRequest(url: url)
        // Sessions made from .ephemeral do not see the stubber on Linux (nor on Apple platforms):
        // these two reach httpbin itself.
        let live = URLSession(configuration: .ephemeral)
        defer { live.finishTasksAndInvalidate() }
        let reference = LiveExceptions.comparable(await PathRunner.async(cancel: false) { try await live.data(for: request) }, endpoint: endpoint)
        let folder = try makeTemporaryFolder(prefix: "gramophone-live-stubber")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = Recording(mode: .once, redaction: .none, environment: [:]).allowing([.header("Set-Cookie", in: .response), .query("Set-Cookie")])
        let recorder = try Turntable(vinylNamed: "live", from: .folder(folder), recording: recording)
        _ = await PathRunner.async(cancel: false) { try await recorder.data(for: request) }
        try recorder.eject()

        let vinyl = try Vinyl(contentsOf: folder.appendingPathComponent("live.json"))
        PathScenario(name: endpoint, url: url, entries: vinyl.tracks.map { .init(request: $0.request, outcome: $0.outcome) }).installStubs(on: stubber.stubs)
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        let viaSession = await PathRunner.async(cancel: false) { try await session.data(for: request) }
        let viaShared = await PathRunner.async(cancel: false) { try await URLSession.shared.data(for: request) }
        let recorderDelegate = DelegateRecorder()
        let delegateSession = stubber.session(delegate: recorderDelegate, delegateQueue: recorderDelegate.queue)
        defer { delegateSession.finishTasksAndInvalidate() }
        var viaDelegate = await PathRunner.delegate(recorderDelegate, cancel: false, delegateSession.dataTask(with: request))
        viaDelegate.delegateCalls = nil
        #expect(LiveExceptions.comparable(viaSession, endpoint: endpoint) == reference, "\(endpoint) through HTTPStubber.shared.session()")
        #expect(LiveExceptions.comparable(viaShared, endpoint: endpoint) == reference, "\(endpoint) through URLSession.shared")
        #expect(LiveExceptions.comparable(viaDelegate, endpoint: endpoint) == reference, "\(endpoint) through a stubber session's delegate")
    }

    @Test func bodiesSentAsStreamsAreMatched() async throws {
        defer { cleanUp() }
        // Apple moves httpBody into httpBodyStream before a URLProtocol is asked; a stream body
        // must still reach body matchers (0.x claimed by httpBody alone and let it through).
        stubber.stubs.add(try Stub().matching(.json(#"{"user":"ada"}"#)).responding(with: .text("matched the stream")))
        var request = URLRequest(url: try url("https://api.stubbed.test/login"))
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: Data(#"{ "user": "ada" }"#.utf8))
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "matched the stream")
    }

    @Test(.enabled(if: HTTPBin.isAvailable, "needs the local httpbin (scripts/test starts it)"))
    func streamBodiesNoStubAnswersReachTheNetworkWhole() async throws {
        defer { cleanUp() }
        let base = try HTTPBin.baseURL()
        stubber.stubs.add(try Stub().matching(.json(#"{"user":"ada"}"#)).responding(with: .text("stubbed")))
        var request = URLRequest(url: base.appendingPathComponent("anything"))
        request.httpMethod = "POST"
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        request.httpBodyStream = InputStream(data: Data("not the stubbed body".utf8))
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        // Claimed while the body was unknown, then sent on by the stubber itself, body and all.
        let (data, response) = try await session.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("not the stubbed body"))
    }

    @Test func throttledBodiesArriveWholeThroughHandlersAndAsync() async throws {
        defer { cleanUp() }
        // 0.x lost all but the last chunk here on Linux (3,584 of 16,384 bytes).
        let body = Data((0..<(16 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        stubber.stubs.add(Stub().responding(with: .data(body).delivered(.throughput(.wifi))))
        let session = stubber.session()
        defer { session.finishTasksAndInvalidate() }
        let (asyncBody, _) = try await session.data(from: try url("https://big.stubbed.test/async"))
        #expect(asyncBody == body)
        let (sharedBody, _) = try await URLSession.shared.data(from: try url("https://big.stubbed.test/shared"))
        #expect(sharedBody == body)
        let handlerBody: Data? = await withCheckedContinuation { continuation in
            session.dataTask(with: URLRequest(url: URL(string: "https://big.stubbed.test/handler")!)) { data, _, _ in
                continuation.resume(returning: data)
            }.resume()
        }
        #expect(handlerBody == body)
    }

    @Test func throughputTakesTheTimeOfA64KiBBody() async throws {
        defer { cleanUp() }
        let body = Data((0..<(64 * 1024)).map { UInt8(truncatingIfNeeded: $0) })
        stubber.stubs.add(Stub().responding(with: .data(body).delivered(.throughput(.dsl))))
        let recorder = ChunkRecorder()
        let session = stubber.session(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        let clock = ContinuousClock()
        let start = clock.now
        let error = await recorder.run(session.dataTask(with: try url("https://big.stubbed.test/file")))
        let elapsed = clock.now - start
        #expect(error == nil)
        let chunks = recorder.chunks
        #expect(chunks.reduce(Data(), +) == body)
        // 65 536 bytes at 64 000 bytes/s: at least ~1 s.
        #expect(elapsed >= .milliseconds(950))
        // Linux Foundation keeps only the last `didLoad` of a URLProtocol for completion-handler
        // and async tasks; a delegate's task is told apart (LoadingTask.receivesPieces), so it
        // hears the pieces there too, as on Apple platforms (Gramophone.docc/Platforms.md).
        #expect(chunks.count >= 5)
    }
}

/// Collects the pieces of a body as a data delegate receives them.
private final class ChunkRecorder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let state = Locked<(chunks: [Data], done: CheckedContinuation<(any Error)?, Never>?)>(([], nil))

    var chunks: [Data] { state.withLock { $0.chunks } }

    func run(_ task: URLSessionDataTask) async -> (any Error)? {
        await withCheckedContinuation { continuation in
            state.withLock { $0.done = continuation }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.chunks.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let done = state.withLock { state -> CheckedContinuation<(any Error)?, Never>? in
            defer { state.done = nil }
            return state.done
        }
        done?.resume(returning: error)
    }
}

/// Whether this test process was started for the stubber suite alone.
enum StubberProcess {
    static var isOwn: Bool { ProcessInfo.processInfo.environment["GRAMOPHONE_STUBBER_SUITE"] == "1" }
}
