import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The drift server `scripts/test` starts (scripts/lib/drift_server.py): one small API, v1 and
/// v2 on two ports.
enum DriftServer {
    static var v1: URL? { ProcessInfo.processInfo.environment["GRAMOPHONE_DRIFT_V1"].flatMap { URL(string: $0) } }
    static var v2: URL? { ProcessInfo.processInfo.environment["GRAMOPHONE_DRIFT_V2"].flatMap { URL(string: $0) } }

    /// Use as `@Test(.enabled(if: DriftServer.isAvailable))`, as `HTTPBin.isAvailable`.
    static var isAvailable: Bool { v1 != nil || HTTPBin.isRequired }

    static func urls(sourceLocation: SourceLocation = #_sourceLocation) throws -> (v1: URL, v2: URL) {
        let message: Comment = "GRAMOPHONE_DRIFT_V1/V2 are not set: run the suite with scripts/test, which starts the drift server"
        return (try #require(v1, message, sourceLocation: sourceLocation), try #require(v2, message, sourceLocation: sourceLocation))
    }

    /// Records every endpoint of v1 into `folder/api.json` as a user's test would, and returns the file.
    static func recordV1(in folder: URL) async throws -> URL {
        let base = try urls().v1.absoluteString
        let turntable = try Turntable(vinylNamed: "api", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        for path in ["/users/1", "/items", "/settings", "/legacy", "/health", "/events"] {
            _ = try await turntable.data(from: URL(string: base + path)!)
        }
        var me = URLRequest(url: URL(string: base + "/me")!)
        me.setValue("Bearer letmein", forHTTPHeaderField: "Authorization")
        _ = try await turntable.data(for: me)
        var order = URLRequest(url: URL(string: base + "/orders")!)
        order.httpMethod = "POST"
        order.setValue("application/json", forHTTPHeaderField: "Content-Type")
        order.httpBody = Data(#"{"item": 1}"#.utf8)
        _ = try await turntable.data(for: order)
        try turntable.eject()
        return folder.appendingPathComponent("api.json")
    }

    /// What v2 changed, per path, as `verify` words it.
    static let v2Drifts: [String: [String]] = [
        "/users/1": ["body.nickname: removed", "body.handle: added (string)"],
        "/items": ["body.items[].price: number → string"],
        "/settings": ["headers.Cache-Control: added", "body.language: added (string)"],
        "/legacy": ["status: 200 → 410"],
        "/events": ["events.done: removed", "events.end: added"],
    ]
}

@Suite("Drift: a vinyl checked against the live API")
struct DriftTests {
    static let token: Headers = ["Authorization": "Bearer letmein"]

    @Test(.enabled(if: DriftServer.isAvailable))
    func aVinylRecordedFromV1ReportsExactlyWhatV2Changed() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vinyl = try Vinyl(contentsOf: try await DriftServer.recordV1(in: folder))
        // The token was redacted: it is not in the file, and verify fills it from the check.
        #expect(vinyl.tracks.first { $0.request.url.path == "/me" }?.request.headers["Authorization"] == nil)

        let report = await vinyl.verify(against: DriftCheck(baseURL: try DriftServer.urls().v2, headers: Self.token))
        var found: [String: [String]] = [:]
        for track in report.drifted { found[track.request.url.path] = track.changes.map(\.description) }
        #expect(found == DriftServer.v2Drifts)
        #expect(report.failed.isEmpty)
        #expect(report.skipped.count == 1)
        #expect(vinyl.tracks[report.skipped[0]].request.method == "POST")
        #expect(report.hasDrift)
        #expect(report.summary.contains("7 tracks checked, 5 drifted, 1 skipped"))
        #expect(report.description.contains("    body.items[].price: number → string"))
    }

    @Test(.enabled(if: DriftServer.isAvailable))
    func nothingDriftsAgainstTheServerItWasRecordedFrom() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vinyl = try Vinyl(contentsOf: try await DriftServer.recordV1(in: folder))
        let report = await vinyl.verify(against: DriftCheck(headers: Self.token, includesUnsafe: true))
        #expect(!report.hasDrift, "\(report)")
        #expect(report.checked.count == 8 && report.skipped.isEmpty)

        // /health's time differs on every call: only a value comparison sees it.
        let values = await vinyl.verify(against: DriftCheck(headers: Self.token, comparesValues: true))
        #expect(values.drifted.map(\.request.url.path) == ["/health"])
        #expect(values.drifted.first?.changes.map(\.place) == ["body.time"])
    }

    @Test(.enabled(if: DriftServer.isAvailable))
    func redactedCredentialsAreFilledFromTheCheckAndNeverKept() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vinyl = try Vinyl(contentsOf: try await DriftServer.recordV1(in: folder))
        let me = try #require(vinyl.tracks.firstIndex { $0.request.url.path == "/me" })

        let without = await vinyl.verify()
        let drift = try #require(without.checked.first { $0.index == me })
        #expect(drift.changes.map(\.description) == ["status: 200 → 401", "body.user: removed", "body.error: added (string)"])
        // Through a placeholder name that is a credential header, as `--env`/`--placeholders` give it.
        let filled = await vinyl.verify(against: DriftCheck(placeholders: ["Authorization": "Bearer letmein"]))
        #expect(filled.checked.first { $0.index == me }?.hasDrifted == false)
    }

    @Test(.enabled(if: DriftServer.isAvailable))
    func updatingReRecordsTheDriftedTracksOnlyAndASecondCheckIsClean() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await DriftServer.recordV1(in: folder)
        let vinyl = try Vinyl(contentsOf: file)
        let check = DriftCheck(baseURL: try DriftServer.urls().v2, headers: Self.token, includesUnsafe: true)
        let report = await vinyl.verify(against: check)
        let updated = try report.updating(vinyl, file: file.path)
        try updated.write(to: file)

        let reread = try Vinyl(contentsOf: file)
        let drifted = Set(report.drifted.map(\.index))
        #expect(drifted.count == 6)
        for index in vinyl.tracks.indices {
            // Requests stay as recorded, so the same client code still finds its tracks.
            #expect(reread.tracks[index].request == vinyl.tracks[index].request)
            if !drifted.contains(index) { #expect(reread.tracks[index] == vinyl.tracks[index]) }
        }
        #expect(!(await reread.verify(against: check)).hasDrift)
        // The filled token went out and did not come back into the file.
        #expect(!(try String(contentsOf: file, encoding: .utf8)).contains("letmein"))
    }

    /// In code as on the command line: a vinyl of which nothing was sent is not a clean report.
    @Test(.enabled(if: DriftServer.isAvailable))
    func aReportThatSentNothingSaysSoAndWhichPropertyWouldSendIt() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vinyl = try Vinyl(contentsOf: try await DriftServer.recordV1(in: folder))
        var posts = vinyl
        posts.tracks = vinyl.tracks.filter { $0.request.method == "POST" }
        let report = await posts.verify()
        #expect(report.checkedNothing && !report.hasDrift)
        #expect(report.summary == #"vinyl "api": nothing checked, 1 skipped (unsafe method: sent only with --include-unsafe)"#)
        #expect(!(await posts.verify(against: DriftCheck(includesUnsafe: true))).checkedNothing)
        #expect((await Vinyl(name: "empty", tracks: []).verify()).summary == #"vinyl "empty": nothing checked (no tracks)"#)
    }

    @Test func shapesCompareKindsKeysAndElementsNotValues() throws {
        func changes(_ recorded: String, _ live: String, values: Bool = false) -> [String] {
            let json: Headers = ["Content-Type": "application/json"]
            return ResponseShape.changes(
                from: Track.Response(headers: json, body: Data(recorded.utf8)), to: Track.Response(headers: json, body: Data(live.utf8)),
                comparingValues: values
            ).map(\.description)
        }
        #expect(changes(#"{"a": 1, "b": "x"}"#, #"{"b": "y", "a": 2}"#).isEmpty)
        #expect(changes(#"{"a": null}"#, #"{"a": "now set"}"#).isEmpty)
        #expect(changes(#"{"list": []}"#, #"{"list": [{"id": 1}]}"#).isEmpty)
        #expect(changes(#"[{"id": 1}, {"id": 2, "extra": true}]"#, #"[{"id": "1"}]"#) == ["body[].id: number → string", "body[].extra: removed"])
        #expect(changes(#"{"a": {"b": [1]}}"#, #"{"a": {"b": {}}}"#) == ["body.a.b: array → object"])
        #expect(changes(#"{"a": 1}"#, #"{"a": 2}"#, values: true) == ["body.a: 1 → 2"])
        #expect(changes(#"{"a": [1, 2]}"#, #"{"a": [1]}"#, values: true) == ["body.a: 2 elements → 1 element"])
    }
}
