import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every scenario of the table through every way a request reaches a Turntable: the caller
/// sees the same status, headers, body, final URL, error and delegate calls on each, but for
/// the differences Foundation itself makes, which are named in `PathExceptions` and checked.
@Suite("Every byte on every path")
struct EveryPathTests {
    @Test(arguments: PathScenario.all)
    func everyPathAnswersAlike(_ scenario: PathScenario) async throws {
        var results: [TurntablePath: PathResult] = [:]
        for path in TurntablePath.allCases { results[path] = await path.run(scenario) }
        let reference = try #require(results[.asyncData])
        for path in TurntablePath.allCases where path != .asyncData {
            let seen = try #require(results[path])
            var expected = reference
            expected.delegateCalls = seen.delegateCalls
            #expect(
                PathExceptions.comparable(seen, path: path, scenario: scenario) == PathExceptions.comparable(expected, path: path, scenario: scenario),
                "\(scenario.name) through \(path.rawValue)")
        }
        // The two delegate paths make the same calls in the same order.
        let taskCalls = try #require(results[.delegate]?.delegateCalls)
        let sessionCalls = try #require(results[.urlSessionDelegate]?.delegateCalls)
        #expect(
            PathExceptions.delegateCalls(sessionCalls, path: .urlSessionDelegate, scenario: scenario) == PathExceptions.delegateCalls(taskCalls, path: .delegate, scenario: scenario),
            "\(scenario.name): delegate calls")
        // And what each path sees is what the scenario says.
        try Self.expectMatchesScenario(reference, scenario)
    }

    static func expectMatchesScenario(_ seen: PathResult, _ scenario: PathScenario) throws {
        if scenario.cancelledByCaller {
            #expect(seen.errorCode == URLError.cancelled.rawValue)
            return
        }
        // The answer is the last entry a redirect leads to, or the only one.
        let final = try #require(scenario.entries.last)
        switch final.outcome {
        case .response(let response):
            #expect(seen.status == response.status)
            #expect(seen.body == response.body)
            #expect(seen.finalURL == final.request.url.absoluteString)
        case .failure(let failure):
            #expect(seen.errorCode == failure.code)
        }
    }
}

/// Where Foundation makes a path differ, named and checked like the rest: each entry narrows
/// what is compared only for the path and platform it names, and says why.
enum PathExceptions {
    /// What of `result` is compared for `path`.
    static func comparable(_ result: PathResult, path: TurntablePath, scenario: PathScenario) -> PathResult {
        var result = result
        if let calls = result.delegateCalls { result.delegateCalls = delegateCalls(calls, path: path, scenario: scenario) }
        return result
    }

    /// The delegate calls compared for `path`.
    static func delegateCalls(_ calls: [String], path: TurntablePath, scenario: PathScenario) -> [String] {
        #if canImport(FoundationNetworking)
        // Linux Foundation traps when a URLProtocol reports a redirect (`wasRedirectedTo`), so a
        // Turntable-backed URLSession follows it inside the protocol and its delegate is not
        // asked (Gramophone.docc/Platforms.md). The task path asks; the comparison leaves the question out.
        return calls.filter { !$0.hasPrefix("redirect") }
        #else
        return calls
        #endif
    }
}

/// The reference is the real thing: what a plain URLSession gets from the local httpbin is
/// recorded, then replayed through every path, each of which must give the live result.
@Suite("Every path against live httpbin", .enabled(if: HTTPBin.isAvailable, "needs the local httpbin (scripts/test starts it)"))
struct LiveReferenceTests {
    /// What httpbin can serve of the scenario table: statuses, bytes, redirects (relative and
    /// absolute), repeated headers, a dripped body and a delayed one.
    static let endpoints = [
        "status/200", "status/201", "status/204", "status/304", "status/404", "status/500",
        "bytes/1048576?seed=7", "json", "robots.txt",
        "response-headers?Set-Cookie=a%3D1&Set-Cookie=b%3D2",
        "redirect-to?url=%2Fget&status_code=301", "redirect-to?url=%2Fget&status_code=302",
        "redirect-to?url=%2Fget&status_code=307", "redirect-to?url=%2Fget&status_code=308",
        "absolute-redirect/1", "relative-redirect/2",
        "drip?numbytes=64&duration=0.2&delay=0", "delay/0.2",
    ]

    @Test(arguments: endpoints)
    func replayThroughEveryPathEqualsTheLiveResult(_ endpoint: String) async throws {
        let base = try HTTPBin.baseURL()
        let url = try #require(URL(string: endpoint, relativeTo: base)?.absoluteURL)
        let request = URLRequest(url: url)
        let live = URLSession(configuration: .ephemeral)
        defer { live.finishTasksAndInvalidate() }
        let reference = await PathRunner.async(cancel: false) { try await live.data(for: request) }

        let folder = try makeTemporaryFolder(prefix: "gramophone-live-paths")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Exactly what came back: no redaction (httpbin's cookies here are test values).
        let recording = Recording(mode: .once, redaction: .none, environment: [:]).allowing([.header("Set-Cookie", in: .response), .query("Set-Cookie")])
        let recorder = try Turntable(vinylNamed: "live", from: .folder(folder), recording: recording)
        let recorded = await PathRunner.async(cancel: false) { try await recorder.data(for: request) }
        try recorder.eject()
        try #require(recorded.status == reference.status, "\(endpoint): the recording saw what the live session saw")

        let vinyl = try Vinyl(contentsOf: folder.appendingPathComponent("live.json"))
        let scenario = PathScenario(name: endpoint, url: url, entries: vinyl.tracks.map { .init(request: $0.request, outcome: $0.outcome) })
        for path in TurntablePath.allCases {
            var seen = await path.run(scenario)
            seen.delegateCalls = nil
            #expect(
                LiveExceptions.comparable(seen, endpoint: endpoint) == LiveExceptions.comparable(reference, endpoint: endpoint),
                "\(endpoint) through \(path.rawValue)")
        }
    }
}

/// Where replay cannot equal the live result, and why; checked like the rest.
enum LiveExceptions {
    static func comparable(_ result: PathResult, endpoint: String) -> PathResult {
        var result = result
        // httpbin's Date header is the time of the request; the replay keeps the recorded one,
        // which the live request compared here came a moment before.
        result.headers["date"] = nil
        return result
    }
}
