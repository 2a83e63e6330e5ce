import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Recording with nothing but the defaults keeps credentials off disk, wherever a real API
/// puts them, and the file still answers the same requests, secrets and all, with no network.
@Suite("Recording keeps secrets off disk")
struct RecordingSecretsTests {
    /// A fabricated credential, distinct per seed and easy to search the file for.
    static func secret(_ seed: Int) -> String { "plant\(seed)x" + SecretCorpusTests.run(18, seed: 40 + seed) }

    static func presignedURL(base: String, signature: String, keyID: String) -> String {
        "\(base)?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=\(keyID)%2F20261123%2Fus-east-1%2Fs3%2Faws4_request"
            + "&X-Amz-Date=20261123T175700Z&X-Amz-Expires=300&X-Amz-SignedHeaders=host&X-Amz-Signature=\(signature)"
    }

    static func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func plantedCredentialsNeverReachTheFileAndReplayAnswersEveryRequest() async throws {
        let base = try HTTPBin.baseURL().absoluteString
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let googleKey = "AI" + "za" + SecretCorpusTests.run(35, seed: 60)
        let keyID = "AK" + "IA" + SecretCorpusTests.upperRun(16, seed: 61)
        let signatures = [String(repeating: "9c1d7e2f", count: 8), String(repeating: "4a6b8c0d", count: 8)]
        let s = (0...12).map(Self.secret)
        let secrets = s + [googleKey, keyID] + signatures

        let requests = [
            // URL query and headers; httpbin echoes all of them in its body.
            RecordingFixtures.request(
                "GET", URL(string: "\(base)/anything/search?q=jazz&access_token=\(s[0])&api_key=\(s[1])&key=\(googleKey)")!,
                headers: ["Authorization": "Bearer \(s[2])", "X-Api-Key": s[3], "Cookie": "sid=\(s[4])"]),
            // An OAuth 2 token request's form body.
            RecordingFixtures.request(
                "POST", URL(string: "\(base)/anything/oauth/token")!, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("grant_type=password&username=ada&password=\(s[5])&client_id=app&client_secret=\(s[6])".utf8)),
            // A JSON body with credentials at depth.
            RecordingFixtures.request(
                "POST", URL(string: "\(base)/anything/login")!, headers: ["Content-Type": "application/json"],
                body: Data(#"{"user":{"name":"ada","credentials":{"password":"\#(s[7])"}},"devices":[{"refresh_token":"\#(s[8])","id_token":"\#(s[9])"}]}"#.utf8)),
            // A Location header carrying a presigned S3 URL.
            RecordingFixtures.request(
                "GET", URL(string: "\(base)/response-headers?Location=\(Self.encoded(Self.presignedURL(base: "https://bucket.s3.amazonaws.com/report.pdf", signature: signatures[0], keyID: keyID)))")!),
            // A redirect to a presigned URL, followed: the final URL and the echo carry the signature.
            RecordingFixtures.request("GET", URL(string: "\(base)/redirect-to?url=\(Self.encoded(Self.presignedURL(base: "\(base)/get", signature: signatures[1], keyID: keyID)))")!),
            // A session token in the query, set as a cookie by the server and echoed back.
            RecordingFixtures.request("GET", URL(string: "\(base)/cookies/set?session=\(s[10])")!),
            // A signed webhook-style URL (Azure SAS) and a Firebase-style auth parameter.
            RecordingFixtures.request("GET", URL(string: "\(base)/anything/blob?sv=2024-11-04&se=2026-11-24&sig=\(s[11])&auth=\(s[12])")!),
        ]
        let matching = MatchingStrategy.attributes([.method, .url, .body])
        var liveBodies: [Data] = []
        do {
            let turntable = try Turntable(vinylNamed: "secrets", from: .folder(folder), matching: matching, recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
            for request in requests {
                let (body, response) = try await turntable.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(request.url!)")
                liveBodies.append(body)
            }
            try turntable.eject()
        }
        // The code under test saw the real exchange.
        #expect(String(decoding: liveBodies[0], as: UTF8.self).contains(s[0]))
        #expect(String(decoding: liveBodies[2], as: UTF8.self).contains(s[7]))

        let file = folder.appendingPathComponent("secrets.json")
        let onDisk = try String(contentsOf: file, encoding: .utf8)
        for secret in secrets {
            #expect(!onDisk.contains(secret), "\(secret.prefix(8))… reached the file: \(onDisk.components(separatedBy: secret).first?.suffix(300) ?? "")")
        }
        #expect(!onDisk.contains(String(keyID.dropFirst(4))), "no part of the AWS key id either")
        #expect(try Vinyl(contentsOf: file).likelySecrets().isEmpty, "gramophone scan agrees")
        #expect(onDisk.contains("REDACTED") && onDisk.contains(Redaction.placeholder))

        let offline = OfflineSession()
        let player = try Turntable(
            vinylNamed: "secrets", from: .folder(folder), matching: matching,
            recording: Recording(mode: .never, session: offline, environment: RecordingFixtures.localEnvironment))
        for request in requests {
            let (_, response) = try await player.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(request.url!)")
        }
        #expect(offline.requestCount == 0)
        #expect(player.playback.allPlayed)

        // A Turntable without a Recording (how tests usually replay) answers them too.
        let plain = try Turntable(vinylNamed: "secrets", from: .folder(folder), matching: matching)
        for request in requests {
            let (_, response) = try await plain.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(request.url!)")
        }
        #expect(plain.playback.allPlayed && plain.playback.misses == 0)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func ejectRefusesATokenTheDefaultsCannotNameAndWritesNothing() async throws {
        let base = try HTTPBin.baseURL().absoluteString
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = SecretCorpusTests.tokens[0].token
        let request = URLRequest(url: URL(string: "\(base)/anything/notes?q=\(token)")!)
        let turntable = try Turntable(vinylNamed: "leak", from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
        _ = try await turntable.data(for: request)

        let error = try #require(throws: VinylError.self) { try turntable.eject() }
        #expect(error.kind == .containsSecrets)
        #expect(error.place == "tracks[0].request.url query \"q\"")
        #expect(error.description.contains("GitHub token"))
        #expect(error.description.contains(#".query(replacing: ["q": "REDACTED"])"#))
        #expect(error.description.contains("tracks[0].response.body JSON \"args.q\""), "the echo is named too")
        #expect(!error.description.contains(token))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("leak.json").path), "nothing is written")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no temporary file either")
        // Still refused on a second try: the tracks stay pending, nothing slips through.
        #expect(throws: VinylError.self) { try turntable.eject() }
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func allowingAPlaceWritesAValueKnownNotToBeASecret() async throws {
        let base = try HTTPBin.baseURL().absoluteString
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A public demo key that has a key's shape, sent where a credential would be.
        let demo = "AI" + "za" + SecretCorpusTests.run(35, seed: 70)
        let request = URLRequest(url: URL(string: "\(base)/anything/maps?key=\(demo)&access_token=\(Self.secret(71))")!)
        let recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment)
            .allowing([.query("key"), .jsonKey("args.key"), .jsonKey("url", in: .response)])
        #expect(recording.allowedSecrets.count == 3)
        do {
            let turntable = try Turntable(vinylNamed: "demo", from: .folder(folder), recording: recording)
            _ = try await turntable.data(for: request)
            try turntable.eject()
        }
        let onDisk = try String(contentsOf: folder.appendingPathComponent("demo.json"), encoding: .utf8)
        #expect(onDisk.contains(demo), "the allowed value is kept")
        #expect(!onDisk.contains(Self.secret(71)), "the rest is redacted as always")
        // It replays from the file with the same allowance.
        let player = try Turntable(vinylNamed: "demo", from: .folder(folder), recording: Recording(mode: .never, session: OfflineSession(), environment: [:]).allowing(recording.allowedSecrets))
        #expect(try await (player.data(for: request).1 as? HTTPURLResponse)?.statusCode == 200)
    }
}

/// The refusal in one round trip: every place at once with the one line that keeps them all,
/// and the explicit switch for a deliberate raw recording of fake credentials.
extension RecordingSecretsTests {
    /// httpbin's echo of a request with a bearer token and an `api_key`, recorded raw.
    private static func recordEcho(_ recording: Recording, in folder: URL, token: String, key: String) async throws -> Turntable {
        let base = try HTTPBin.baseURL().absoluteString
        let turntable = try Turntable(vinylNamed: "echo", from: .folder(folder), recording: recording)
        let request = RecordingFixtures.request("GET", try #require(URL(string: "\(base)/anything?api_key=\(key)")), headers: ["Authorization": "Bearer \(token)"])
        _ = try await turntable.data(for: request)
        return turntable
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func oneRefusalNamesEveryPlaceAndItsAllowingLineRecords() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (token, key) = (Self.secret(80), Self.secret(81))
        let raw = Recording(mode: .once, redaction: .none, environment: RecordingFixtures.localEnvironment)

        let refused = try await Self.recordEcho(raw, in: folder, token: token, key: key)
        let error = try #require(throws: VinylError.self) { try refused.eject() }
        #expect(error.kind == .containsSecrets)
        let text = error.description
        for place in [
            #"tracks[0].request.headers "Authorization": a credential header"#,
            #"tracks[0].request.url query "api_key": a secret-named query parameter"#,
            #"tracks[0].response.body JSON "args.api_key": a secret-named JSON key"#,
            #"tracks[0].response.body JSON "headers.Authorization": a secret-named JSON key"#,
            #"tracks[0].response.body JSON "url" query "api_key""#,
        ] {
            #expect(text.contains(place), "the one refusal names \(place): \(text)")
        }
        // The line to paste, written once, covering every place above.
        let line = #"Recording(…).allowing([.header("Authorization"), .query("api_key"), .jsonKey("args.api_key"), .jsonKey("headers.Authorization")])"#
        #expect(text.contains(line), "\(text)")
        #expect(!text.contains(token) && !text.contains(key), "the refusal does not repeat the values")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("echo.json").path))

        // That line, pasted, records on the next run.
        let allowed = raw.allowing([.header("Authorization"), .query("api_key"), .jsonKey("args.api_key"), .jsonKey("headers.Authorization")])
        try await Self.recordEcho(allowed, in: folder, token: token, key: key).eject()
        let onDisk = try String(contentsOf: folder.appendingPathComponent("echo.json"), encoding: .utf8)
        #expect(onDisk.contains(token) && onDisk.contains(key), "kept as sent, on purpose")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func allowingAllSecretsRecordsFakeCredentialsAsSentAndReplaysThem() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (token, key) = (Self.secret(82), Self.secret(83))
        // Even with the default redaction: every place is allowed, so it keeps everything.
        let recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment).allowingAllSecrets()
        try await Self.recordEcho(recording, in: folder, token: token, key: key).eject()
        let vinyl = try Vinyl(contentsOf: folder.appendingPathComponent("echo.json"))
        #expect(vinyl.tracks.first?.request.headers["Authorization"] == "Bearer \(token)")
        #expect(vinyl.tracks.first?.request.url.query == "api_key=\(key)")
        #expect(!vinyl.likelySecrets().isEmpty, "scan still tells what such a vinyl holds")

        // Filters of your own still apply.
        let filtered = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: filtered) }
        let trimmed = Recording(mode: .once, redaction: .default + .headers(removing: ["Authorization"]), environment: RecordingFixtures.localEnvironment).allowingAllSecrets()
        try await Self.recordEcho(trimmed, in: filtered, token: token, key: key).eject()
        let trimmedVinyl = try Vinyl(contentsOf: filtered.appendingPathComponent("echo.json"))
        #expect(trimmedVinyl.tracks.first?.request.headers["Authorization"] == nil)
        #expect(trimmedVinyl.tracks.first?.request.url.query == "api_key=\(key)")

        // And it replays, offline, as recorded.
        let player = try Turntable(vinylNamed: "echo", from: .folder(folder), recording: Recording(mode: .never, session: OfflineSession(), environment: [:]).allowingAllSecrets())
        let base = try HTTPBin.baseURL().absoluteString
        let request = RecordingFixtures.request("GET", try #require(URL(string: "\(base)/anything?api_key=\(key)")), headers: ["Authorization": "Bearer \(token)"])
        #expect(try await (player.data(for: request).1 as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func theAllowingLineHoldsEachPlaceOnceAndKeepsSidesOnlyWhereTheyMatter() {
        let found: [SecretPlace] = [
            .header("Authorization", in: .request), .query("api_key", in: .request), .query("API_KEY", in: .response),
            .jsonKey("args.api_key", in: .response), .url(in: .request), .body(in: .response), .body(in: .response),
        ]
        #expect(
            SecretPlace.covering(found).map(\.code) == [
                #".header("Authorization")"#, #".query("api_key")"#, #".jsonKey("args.api_key")"#, ".url(in: .request)", ".body(in: .response)",
            ])
    }
}
