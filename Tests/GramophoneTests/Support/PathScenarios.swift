import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One exchange every way a request can reach Gramophone must answer alike: what the vinyl (or
/// a stub) holds, and what the client asks. Data, not code: the suites run each through every path.
struct PathScenario: Sendable, CustomTestStringConvertible {
    struct Entry: Sendable {
        var request: Track.Request
        var outcome: Track.Outcome
        /// A stub's delivery; entries with one are stubs, the others tracks.
        var delivery: NetworkCondition?
    }

    var name: String
    var url: URL
    var entries: [Entry]
    /// The caller cancels the request once it has started.
    var cancelledByCaller = false

    var testDescription: String { name }

    /// A Turntable playing the tracks, with the stubs on it.
    func turntable() -> Turntable {
        let turntable = Turntable(vinyl: Vinyl(name: name, tracks: entries.filter { $0.delivery == nil }.map { Track(request: $0.request, outcome: $0.outcome) }))
        install(entries.filter { $0.delivery != nil }, on: turntable.stubs)
        return turntable
    }

    /// Every entry as a stub, for the process-wide stubber.
    func installStubs(on registry: StubRegistry) {
        install(entries, on: registry)
    }

    private func install(_ entries: [Entry], on registry: StubRegistry) {
        for entry in entries {
            registry.add(
                Stub().matching(.method(entry.request.method)).matching(.url(entry.request.url))
                    .responding(with: StubResponse(entry.outcome).delivered(entry.delivery ?? .immediate)))
        }
    }

    static let base = URL(string: "https://paths.example.com")!

    static func get(_ path: String) -> Track.Request { Track.Request(url: base.appendingPathComponent(path)) }

    static func single(_ name: String, _ outcome: Track.Outcome, delivery: NetworkCondition? = nil) -> PathScenario {
        let request = get(name)
        return PathScenario(name: name, url: request.url, entries: [Entry(request: request, outcome: outcome, delivery: delivery)])
    }

    static var all: [PathScenario] {
        var scenarios: [PathScenario] = []
        for status in [200, 201, 204, 304, 404, 500] {
            scenarios.append(single("status-\(status)", [204, 304].contains(status) ? .status(status) : .text("status \(status)", status: status)))
        }
        scenarios.append(single("empty-body", .data(Data())))
        scenarios.append(single("small-text", .text("Hello, Gramophone")))
        scenarios.append(single("binary-1MB", .data(Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }))))
        scenarios.append(single("json", .json(#"{"id":42,"tags":["a","b"],"nested":{"ok":true}}"#)))
        scenarios.append(
            single(
                "two-set-cookies",
                .response(
                    Track.Response(
                        status: 200,
                        headers: Headers([
                            .init(name: "Set-Cookie", value: "a=1; Path=/"), .init(name: "Set-Cookie", value: "b=2; Secure"), .init(name: "Content-Type", value: "text/plain"),
                        ]), body: Data("cookies".utf8)))))
        for status in [301, 302, 307, 308] {
            for absolute in [false, true] {
                let target = get("target-\(status)-\(absolute ? "absolute" : "relative")")
                let location = absolute ? target.url.absoluteString : target.url.path
                let source = get("redirect-\(status)-\(absolute ? "absolute" : "relative")")
                scenarios.append(
                    PathScenario(
                        name: source.url.lastPathComponent, url: source.url,
                        entries: [
                            Entry(request: source, outcome: .status(status, headers: ["Location": location])),
                            Entry(request: target, outcome: .text("arrived after \(status)")),
                        ]))
            }
        }
        scenarios.append(single("error-timed-out", .error(.timedOut)))
        scenarios.append(single("error-offline", .error(.notConnectedToInternet)))
        var cancelled = single("cancelled-by-caller", .text("never seen"), delivery: .delayed(60))
        cancelled.cancelledByCaller = true
        scenarios.append(cancelled)
        scenarios.append(single("delayed", .text("late"), delivery: .delayed(0.2)))
        scenarios.append(single("throughput-wifi-64KB", .data(Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0) })), delivery: .throughput(.wifi)))
        return scenarios
    }
}

/// What the caller saw: compared across paths.
struct PathResult: Equatable, CustomStringConvertible {
    var status: Int?
    /// Names lowercased (Foundation respells them); repeated fields as Foundation joins them.
    var headers: [String: String] = [:]
    var body: Data?
    var finalURL: String?
    var errorDomain: String?
    var errorCode: Int?
    /// Delegate calls in order, runs of `data` folded (chunk sizes are the network's); nil
    /// for paths without a delegate.
    var delegateCalls: [String]?

    init(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?, delegateCalls: [String]? = nil) {
        if let error {
            errorDomain = (error as NSError).domain
            errorCode = (error as NSError).code
        } else {
            body = data ?? Data()
        }
        if let http = response as? HTTPURLResponse, error == nil {
            status = http.statusCode
            finalURL = http.url?.absoluteString
            for case let (name as String, value as String) in http.allHeaderFields { headers[name.lowercased()] = value }
        }
        self.delegateCalls = delegateCalls
    }

    var description: String {
        let shownBody = body.map { $0.count > 40 ? "\($0.count) bytes" : String(decoding: $0, as: UTF8.self) } ?? "-"
        return
            "status \(status.map(String.init) ?? "-") url \(finalURL ?? "-") body \(shownBody) error \(errorCode.map { "\(errorDomain ?? "") \($0)" } ?? "-") headers \(headers.sorted { $0.key < $1.key }) calls \(delegateCalls ?? [])"
    }
}

/// The ways a request reaches a Turntable in one process (the stubber's two are in StubberTests).
enum TurntablePath: String, CaseIterable, Sendable {
    case asyncData = "Turntable.data(for:)"
    case completionHandler = "Turntable task, completion handler"
    case delegate = "Turntable task, delegate"
    case urlSessionAsync = "makeURLSession(), async"
    case urlSessionDelegate = "makeURLSession(), delegate"

    func run(_ scenario: PathScenario) async -> PathResult {
        let turntable = scenario.turntable()
        let request = URLRequest(url: scenario.url)
        switch self {
        case .asyncData:
            return await PathRunner.async(cancel: scenario.cancelledByCaller) { try await turntable.data(for: request) }
        case .completionHandler:
            return await PathRunner.handler(cancel: scenario.cancelledByCaller) { turntable.dataTask(with: request, completionHandler: $0) }
        case .delegate:
            let recorder = DelegateRecorder()
            turntable.setDelegate(recorder, queue: recorder.queue)
            return await PathRunner.delegate(recorder, cancel: scenario.cancelledByCaller, turntable.dataTask(with: request))
        case .urlSessionAsync:
            let session = turntable.makeURLSession()
            defer { session.finishTasksAndInvalidate() }
            return await PathRunner.async(cancel: scenario.cancelledByCaller) { try await session.data(for: request) }
        case .urlSessionDelegate:
            let recorder = DelegateRecorder()
            let session = turntable.makeURLSession(delegate: recorder, delegateQueue: recorder.queue)
            defer { session.finishTasksAndInvalidate() }
            return await PathRunner.delegate(recorder, cancel: scenario.cancelledByCaller, session.dataTask(with: request))
        }
    }
}

/// Running one request the way each API style does, cancelling it when the scenario says so.
enum PathRunner {
    static func async(cancel: Bool, _ fetch: @escaping @Sendable () async throws -> (Data, URLResponse)) async -> PathResult {
        let task = Task { () -> PathResult in
            do {
                let (data, response) = try await fetch()
                return PathResult(data, response, nil)
            } catch {
                return PathResult(nil, nil, error)
            }
        }
        if cancel { task.cancel() }
        return await task.value
    }

    static func handler(cancel: Bool, _ make: (@escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionTask) async -> PathResult {
        await withCheckedContinuation { continuation in
            let task = make { data, response, error in continuation.resume(returning: PathResult(data, response, error)) }
            task.resume()
            if cancel { task.cancel() }
        }
    }

    static func delegate(_ recorder: DelegateRecorder, cancel: Bool, _ task: URLSessionTask) async -> PathResult {
        task.resume()
        if cancel { task.cancel() }
        _ = await recorder.waitForCompletion()
        let calls = recorder.foldedEvents
        return recorder.log.withLock { log in
            PathResult(log.chunks.reduce(Data(), +), log.response, log.error, delegateCalls: calls)
        }
    }
}
