import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Recording an API again whose answers did not change leaves the vinyl as it was but for the
/// dates: tracks in a stable order, JSON bodies readable however they came, a stream stored once.
@Suite("Re-recording an unchanged API")
struct ReRecordingTests {
    /// Records a burst of `count` concurrent requests into `folder`, and returns the file's text.
    static func recordBurst(_ count: Int, into folder: URL, base: URL) async throws -> String {
        var recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment)
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "burst", from: .folder(folder), recording: recording)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 1...count {
                group.addTask {
                    var request = URLRequest(url: base.appendingPathComponent("anything/c\(index)"))
                    request.setValue("application/json", forHTTPHeaderField: "Accept")
                    _ = try await recorder.data(for: request)
                }
            }
            try await group.waitForAll()
        }
        try recorder.eject()
        return try String(contentsOf: folder.appendingPathComponent("burst.json"), encoding: .utf8)
    }

    /// The lines of `a` and `b` that differ, paired by position (the files have as many lines).
    static func differingLines(_ a: String, _ b: String) -> [(String, String)] {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false), y = b.split(separator: "\n", omittingEmptySubsequences: false)
        guard x.count == y.count else { return [(String(x.count), String(y.count))] }
        return zip(x, y).filter { $0 != $1 }.map { (String($0), String($1)) }
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func aBurstRecordedTwiceDiffersOnlyInItsDates() async throws {
        let base = try HTTPBin.baseURL()
        let first = try TestFiles.temporaryFolder(), second = try TestFiles.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let a = try await Self.recordBurst(10, into: first, base: base)
        let b = try await Self.recordBurst(10, into: second, base: base)
        let differing = Self.differingLines(a, b)
        // One line per track holds when it was recorded and how long it took; the server's own
        // `Date` header is the only other date.
        let recordedLines = differing.filter { $0.0.contains(#""recorded": "#) }
        let others = differing.filter { !$0.0.contains(#""recorded": "#) && !$0.0.contains(#""Date": "#) }
        #expect(others.isEmpty, "\(others.prefix(6))")
        #expect(recordedLines.count <= 10)
        // The tracks are in request order: c1, c2, …, c10.
        let vinyl = try Vinyl(contentsOf: first.appendingPathComponent("burst.json"))
        #expect(vinyl.tracks.map(\.request.url.lastPathComponent) == (1...10).map { "c\($0)" })
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func jsonBodiesAreStoredReadablyRedactedOrNotAndReplayTheirBytes() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment)
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "json", from: .folder(folder), recording: recording)
        // httpbin answers pretty-printed JSON (two spaces, a final newline).
        let (plain, _) = try await recorder.data(from: base.appendingPathComponent("json"))
        #expect(plain.starts(with: Data("{\n  \"".utf8)))
        // The echo holds the token sent: the redaction takes it out of the answer as well.
        var secret = URLRequest(url: base.appendingPathComponent("anything/me"))
        secret.setValue("Bearer sk-live-123456789abcdef", forHTTPHeaderField: "Authorization")
        let (echoed, _) = try await recorder.data(for: secret)
        try recorder.eject()

        let file = folder.appendingPathComponent("json.json")
        let document = try JSONParser.parse(try Data(contentsOf: file))
        guard case .array(let tracks)? = document["tracks"] else { Issue.record("no tracks"); return }
        for track in tracks {
            // Both answers are stored as JSON values, reviewable as JSON, not as an escaped string.
            guard case .object? = track["response"]?["body"] else {
                Issue.record("body stored as \(track["response"]?["body"]?.kindName ?? "nothing")")
                continue
            }
        }
        let player = try Turntable(vinylNamed: "json", from: .folder(folder))
        // The exact bytes come back.
        #expect(try await player.data(from: base.appendingPathComponent("json")).0 == plain)
        var replayed = URLRequest(url: base.appendingPathComponent("anything/me"))
        replayed.setValue("Bearer sk-live-123456789abcdef", forHTTPHeaderField: "Authorization")
        let redacted = try await player.data(for: replayed).0
        #expect(!String(decoding: redacted, as: UTF8.self).contains("sk-live-123456789abcdef"))
        // The redacted answer keeps the layout it came in: only the secret changed.
        #expect(redacted.starts(with: Data("{\n  \"".utf8)) && redacted.last == 0x0A, "\(String(decoding: redacted, as: UTF8.self))")
        #expect(String(decoding: redacted, as: UTF8.self).split(separator: "\n").count == String(decoding: echoed, as: UTF8.self).split(separator: "\n").count)
    }

    @Test(.enabled(if: StreamServer.isAvailable))
    func aServerSentEventStreamIsStoredOnce() async throws {
        let url = try StreamServer.url("/sse?count=4&gap=10")
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment)
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "events", from: .folder(folder), recording: recording)
        let (bytes, _) = try await recorder.bytes(for: URLRequest(url: url))
        var live = Data()
        for try await byte in bytes { live.append(byte) }
        try recorder.eject()

        let file = folder.appendingPathComponent("events.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let document = try JSONParser.parse(Data(text.utf8))
        guard case .array(let tracks)? = document["tracks"], let response = tracks.first?["response"] else {
            Issue.record("no track")
            return
        }
        #expect(response["body"] == nil, "the chunks make the body: stored once")
        #expect(response["stream"]?["chunks"] != nil)
        // Each event's text appears once in the file.
        #expect(text.components(separatedBy: #"\"index\": 1"#).count == 2, "\(text)")
        let stored = try #require(try Vinyl(contentsOf: file).tracks.first?.response)
        #expect(stored.body == live)
        #expect((stored.stream?.chunks.count ?? 0) >= 2)
    }

    @Test func vinylsOfTheFirstLayoutStillReadAndWriteBackInTheNewOne() throws {
        let old = try Vinyl(contentsOf: FormatFiles.resource("Gramophone/first-layout.json"))
        #expect(old.tracks.count == 2)
        let json = try #require(old.tracks[0].response)
        #expect(json.body == Data("{\n  \"slideshow\": {\n    \"author\": \"Yours Truly\",\n    \"slides\": []\n  }\n}\n".utf8))
        #expect(old.tracks[0].duration == 0.0125)
        #expect(old.tracks[0].recordedAt == ISO8601.parse("2026-11-20T10:15:02.120Z"))
        let events = try #require(old.tracks[1].response)
        #expect(events.stream?.chunks.count == 2)
        #expect(events.body.count == events.stream?.chunks.reduce(0) { $0 + $1.length })

        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("rewritten.json")
        try old.write(to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(#""recorded": "2026-11-20T10:15:02.120Z/PT0.0125S""#), "\(text)")
        #expect(!text.contains(#""duration""#) && !text.contains(#""recordedAt""#))
        let again = try Vinyl(contentsOf: file)
        #expect(again.tracks == old.tracks)
        // Written twice, the same bytes.
        try again.write(to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
    }
}
