import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A redacted value has one spelling wherever the recorder writes one, and the live request is
/// redacted into it before it is matched: a token the app takes from a replayed response and
/// sends back (in a query, a header, a body) meets the track recorded from the real one.
@Suite("One mask for redacted values")
struct OneMaskTests {
    /// The app's flow: log in, take `access_token` from the JSON answer, send it back as a query
    /// parameter, a bearer header and a JSON member. httpbin's `/response-headers` answers with
    /// the query it was sent as a JSON object, so the login's answer carries the token.
    static func loginThenRequest(_ session: any NetworkSession, base: String, token: String, password: String) async throws -> [Int] {
        let login = RecordingFixtures.request(
            "POST", URL(string: "\(base)/response-headers?access_token=\(token)")!, headers: ["Content-Type": "application/json"],
            body: Data(#"{"user":"ada","password":"\#(password)"}"#.utf8))
        let (loginBody, loginResponse) = try await session.data(for: login)
        let answer = try JSONSerialization.jsonObject(with: loginBody) as? [String: Any]
        let received = try #require(answer?["access_token"] as? String, "\(String(decoding: loginBody, as: UTF8.self))")
        var components = URLComponents(string: "\(base)/anything/me")!
        components.queryItems = [URLQueryItem(name: "access_token", value: received)]
        let me = RecordingFixtures.request("GET", components.url!)
        let (_, meResponse) = try await session.data(for: me)
        let refresh = RecordingFixtures.request(
            "POST", URL(string: "\(base)/anything/refresh")!, headers: ["Content-Type": "application/json", "Authorization": "Bearer \(received)"],
            body: Data(#"{"refresh_token":"\#(received)"}"#.utf8))
        let (_, refreshResponse) = try await session.data(for: refresh)
        return [loginResponse, meResponse, refreshResponse].map { ($0 as? HTTPURLResponse)?.statusCode ?? 0 }
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func aLoginThenRequestFlowRecordedWithTheDefaultRedactionReplaysOffline() async throws {
        let base = try HTTPBin.baseURL().absoluteString
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = "tok-" + SecretCorpusTests.run(24, seed: 91)
        let password = "pw-" + SecretCorpusTests.run(16, seed: 92)
        do {
            let recording = try Turntable(vinylNamed: "login", from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
            #expect(try await Self.loginThenRequest(recording, base: base, token: token, password: password) == [200, 200, 200])
            try recording.eject()
        }
        let onDisk = try String(contentsOf: folder.appendingPathComponent("login.json"), encoding: .utf8)
        #expect(!onDisk.contains(token) && !onDisk.contains(password))
        #expect(!onDisk.contains("<redacted>"), "one spelling: \(onDisk)")

        // Replayed without a recording, and on CI with one: the token the app gets back is the
        // mask, which it sends on and which meets the mask recorded in its place.
        let replay = try Turntable(vinylNamed: "login", from: .folder(folder))
        #expect(try await Self.loginThenRequest(replay, base: base, token: token, password: password) == [200, 200, 200])
        #expect(replay.playback.misses == 0)
        let onCI = try Turntable(vinylNamed: "login", from: .folder(folder), recording: Recording(mode: .once, environment: ["CI": "true"]))
        #expect(try await Self.loginThenRequest(onCI, base: base, token: token, password: password) == [200, 200, 200])
        #expect(onCI.playback.misses == 0 && onCI.playback.recordedCount == 0)
    }

    /// Vinyls recorded before the one spelling hold `<redacted>` in JSON: they still replay,
    /// whether the app sends the real secret or the old mask it got back from the vinyl.
    @Test func aVinylWithTheOldJSONMaskStillReplays() async throws {
        let base = "http://api.test"
        let vinyl = Vinyl(
            name: "old",
            tracks: [
                Track(
                    request: Track.Request(
                        method: "POST", url: URL(string: "\(base)/login")!, headers: ["Content-Type": "application/json"],
                        body: Data(#"{"user":"ada","password":"<redacted>"}"#.utf8)),
                    response: Track.Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"access_token":"<redacted>"}"#.utf8))),
                Track(
                    request: Track.Request(method: "GET", url: URL(string: "\(base)/me?access_token=REDACTED")!),
                    response: Track.Response(status: 200, body: Data("me".utf8))),
                Track(
                    request: Track.Request(
                        method: "POST", url: URL(string: "\(base)/refresh")!, headers: ["Content-Type": "application/json"],
                        body: Data(#"{"refresh_token":"<redacted>"}"#.utf8)),
                    response: Track.Response(status: 200, body: Data("refreshed".utf8))),
            ])
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try vinyl.write(to: folder.appendingPathComponent("old.json"))
        for turntable in [
            try Turntable(vinylNamed: "old", from: .folder(folder)),
            try Turntable(vinylNamed: "old", from: .folder(folder), recording: Recording(mode: .once, environment: ["CI": "true"])),
        ] {
            let login = RecordingFixtures.request("POST", URL(string: "\(base)/login")!, headers: ["Content-Type": "application/json"], body: Data(#"{"user":"ada","password":"hunter2-live"}"#.utf8))
            let (body, _) = try await turntable.data(for: login)
            #expect(String(decoding: body, as: UTF8.self) == #"{"access_token":"<redacted>"}"#, "the old vinyl's answer as written")
            var components = URLComponents(string: "\(base)/me")!
            components.queryItems = [URLQueryItem(name: "access_token", value: "<redacted>")]
            let (me, _) = try await turntable.data(for: RecordingFixtures.request("GET", components.url!))
            #expect(String(decoding: me, as: UTF8.self) == "me")
            let refresh = RecordingFixtures.request("POST", URL(string: "\(base)/refresh")!, headers: ["Content-Type": "application/json"], body: Data(#"{"refresh_token":"REDACTED"}"#.utf8))
            let (refreshed, _) = try await turntable.data(for: refresh)
            #expect(String(decoding: refreshed, as: UTF8.self) == "refreshed")
            #expect(turntable.playback.misses == 0)
        }
    }

    /// Every place the default writes a mask spells it the same, and a mask sent back is that mask.
    @Test func theDefaultWritesOneSpellingAndAMaskSentBackIsTheMask() throws {
        let request = Track.Request(
            method: "POST", url: URL(string: "http://api.test/a?access_token=t0ken-abcdef")!, headers: ["Content-Type": "application/json"],
            body: Data(#"{"password":"hunter2-secret","echo":"hunter2-secret"}"#.utf8))
        let redacted = Redaction.default.redact(request)
        #expect(redacted.url.absoluteString == "http://api.test/a?access_token=REDACTED")
        #expect(String(decoding: redacted.body, as: UTF8.self) == #"{"password":"REDACTED","echo":"REDACTED"}"#)
        #expect(Redaction.placeholder == "REDACTED")
        let sentBack = Track.Request(
            method: "POST", url: URL(string: "http://api.test/a?access_token=%3Credacted%3E")!, headers: ["Content-Type": "application/json"],
            body: Data(#"{"password":"<redacted>","echo":"REDACTED"}"#.utf8))
        #expect(Redaction.default.redact(sentBack) == redacted)
    }
}
