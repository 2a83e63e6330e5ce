import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Secrets never reach the disk, and a redacted track still matches its request.
@Suite("Redaction")
struct RedactionTests {
    static let token = "tok_9f8e7d6c5b4a3f2e1d0c"

    @Test(.enabled(if: HTTPBin.isAvailable))
    func defaultRedactionKeepsTheTokenOffDiskAndReplayStillMatches() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // httpbin echoes request headers in its body: the token must go from there too.
        var request = URLRequest(url: URL(string: base.absoluteString + "/headers")!)
        request.setValue("Bearer \(Self.token)", forHTTPHeaderField: "Authorization")
        request.setValue("key-\(Self.token)", forHTTPHeaderField: "X-Api-Key")
        let live: Data
        do {
            let turntable = try Turntable(vinylNamed: "auth", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
            (live, _) = try await turntable.data(for: request)
            try turntable.eject()
        }
        #expect(String(decoding: live, as: UTF8.self).contains(Self.token), "the live client sees the real response")
        let file = folder.appendingPathComponent("auth.json")
        let onDisk = try String(contentsOf: file, encoding: .utf8)
        #expect(!onDisk.contains(Self.token))
        #expect(!onDisk.contains("tok_9f8e"))
        #expect(try Vinyl(contentsOf: file).likelySecrets().isEmpty)

        let player = try Turntable(vinylNamed: "auth", from: .folder(folder), recording: Recording(mode: .never, session: OfflineSession(), environment: [:]))
        let (replayed, response) = try await player.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: replayed, as: UTF8.self).contains(Redaction.placeholder))
    }

    @Test func defaultRemovesCredentialHeadersOnBothSides() {
        let track = Track(
            request: Track.Request(
                method: "GET", url: URL(string: "https://api.example.com/me")!,
                headers: [
                    "Authorization": "Basic dXNlcjpwYXNz", "Proxy-Authorization": "Basic cHJveHk6cHc=", "Cookie": "sid=abcdef123", "X-API-Key": "k-123456", "X-Auth-Token": "t-123456", "Accept": "*/*",
                ]),
            response: Track.Response(headers: ["Set-Cookie": "sid=abcdef123; Path=/", "Content-Type": "text/plain"], body: Data("your session is abcdef123".utf8)))
        let redacted = Redaction.default.redact(track)
        #expect(redacted.request.headers.fields.map(\.name) == ["Accept"])
        #expect(redacted.response?.headers.fields.map(\.name) == ["Content-Type"])
        #expect(redacted.response?.body == Data("your session is \(Redaction.placeholder)".utf8))
        #expect(Redaction.none.redact(track) == track)
    }

    /// Redaction fuzz target: a removed value repeated in another request header (a proxy's
    /// copy of the credential) was kept there, though the response's headers were scrubbed.
    @Test func aRemovedValueIsScrubbedFromTheRequestsOtherHeaders() {
        let request = Track.Request(
            method: "GET", url: URL(string: "https://api.example.com/me")!,
            headers: ["Authorization": "Bearer abc12345", "X-Forwarded-Credential": "Bearer abc12345", "X-Trace": "token abc12345"])
        let redacted = Redaction.default.redact(request)
        #expect(redacted.headers.fields.map(\.name) == ["X-Forwarded-Credential", "X-Trace"])
        #expect(redacted.headers["X-Forwarded-Credential"] == Redaction.placeholder)
        #expect(redacted.headers["X-Trace"] == "token \(Redaction.placeholder)")
        #expect(Redaction.default.redact(Track(request: request, outcome: .status(204))).request == redacted)
    }

    /// Redaction fuzz target (fourth session): a removed header whose value was only tabs was
    /// left in a body. Such a value, or one that is already a mask (`****`, `<redacted>`), names
    /// no secret; chasing it would replace a body's indentation or another placeholder.
    @Test(arguments: ["\t\t\t\t\t", "        ", "********", "<redacted>"])
    func aValueThatIsOnlyWhiteSpaceOrAMaskIsNotChasedElsewhere(_ value: String) {
        let body = "{\n\(value)\"a\": 1,\n        \"note\": \"********\"\n}"
        let track = Track(
            request: Track.Request(method: "POST", url: URL(string: "https://api.example.com/me")!, headers: ["X-Api-Key": value], body: Data(body.utf8)),
            response: Track.Response(headers: ["Content-Type": "text/plain"], body: Data(body.utf8)))
        let redacted = Redaction.default.redact(track)
        #expect(redacted.request.headers["X-Api-Key"] == nil)
        #expect(redacted.request.body == Data(body.utf8))
        #expect(redacted.response?.body == Data(body.utf8))
    }

    /// Redaction fuzz target: secrets were searched with NSString, which compares characters,
    /// not bytes: a token followed by a combining accent (or ending in one) was not found, so
    /// its bytes stayed in the track.
    @Test(arguments: ["tok3nSecret\u{301}", "\u{301}tok3nSecret", "tok3nSecrete\u{301}x"])
    func aSecretNextToACombiningMarkIsStillScrubbed(_ echoed: String) {
        let track = Track(
            request: Track.Request(method: "GET", url: URL(string: "https://api.example.com/me")!, headers: ["X-Api-Key": "tok3nSecret"]),
            response: Track.Response(headers: ["Content-Type": "text/plain"], body: Data("key: \(echoed)".utf8)))
        let body = Redaction.default.redact(track).response?.body ?? Data()
        #expect(body.range(of: Data("tok3nSecret".utf8)) == nil, "\(String(decoding: body, as: UTF8.self))")
    }

    /// Redaction fuzz target: a removed value that is part of the placeholder (`ted>`) was
    /// scrubbed out of placeholders already there, so each redaction changed the track again.
    @Test func redactingTwiceChangesNothingMore() {
        let track = Track(
            request: Track.Request(method: "GET", url: URL(string: "https://api.example.com/me")!, headers: ["Cookie": "a=ted>"]),
            response: Track.Response(headers: ["Location": "/x?token=\(Redaction.placeholder)", "X-Echo": "a=ted> seen"]))
        let once = Redaction.default.redact(track)
        #expect(once.response?.headers["Location"] == "/x?token=\(Redaction.placeholder)")
        #expect(once.response?.headers["X-Echo"] == "\(Redaction.placeholder) seen")
        #expect(Redaction.default.redact(once) == once)
    }

    /// Redaction fuzz target (fourth session): with `.default + .formFields(replacing:
    /// ["password": "x y"])`, a second pass had the default take `x y` (which the later filter
    /// wrote) and scrub it as a secret, so a converted vinyl no longer matched its live requests.
    /// What a filter writes is never chased.
    @Test(arguments: [
        Redaction.default + .formFields(replacing: ["password": "x y"]),
        Redaction.default + .jsonKeys(replacing: ["password": "not-a-secret"]),
        Redaction.default + .query(replacing: ["access_token": "sample token"]),
    ])
    func whatAFilterWritesIsNotChasedOnASecondPass(_ redaction: Redaction) {
        let track = Track(
            request: Track.Request(
                method: "POST", url: URL(string: "https://api.example.com/login?access_token=hunter22&x=1")!,
                headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("password=hunter22&user=ada&note=password%3Dhunter22".utf8)),
            response: Track.Response(headers: ["Content-Type": "application/json"], body: Data(#"{"password":"hunter22","echo":"hunter22"}"#.utf8)))
        let once = redaction.redact(track)
        #expect(redaction.redact(once) == once)
        let texts = [String(decoding: once.request.body, as: UTF8.self), once.request.url.absoluteString, String(decoding: once.response?.body ?? Data(), as: UTF8.self)]
        #expect(!texts.contains { $0.contains("hunter22") }, "\(texts)")
    }

    // Names that carry credentials wherever the telling word sits, in any case or separator;
    // names that only resemble them stay (the search is on UTF-8 bytes, not NSString).
    @Test(arguments: [
        "X-Api-Key", "api_key", "APIKEY", "X-Client-Secret", "Secret", "X-Password-Hash", "x_auth_token", "token",
        "X-Auth-User", "Proxy-Auth", "Set-Cookie", "X-ÜBER-SECRET",
    ])
    func credentialHeaderNamesAreRecognised(_ name: String) {
        #expect(SensitiveNames.isSensitiveHeader(name))
    }

    @Test(arguments: ["Accept", "Content-Type", "X-Request-Id", "Author", "X-Tokens-Left", "X-Api", "Keyboard", "Authored-By", "Ümlaut", ""])
    func ordinaryHeaderNamesAreKept(_ name: String) {
        #expect(!SensitiveNames.isSensitiveHeader(name))
    }

    @Test func utf8SearchFindsPartsAnywhere() {
        #expect("api-key".containsUTF8("api-key"))
        #expect("x-api-key-v2".containsUTF8("api-key"))
        #expect("ab".containsUTF8(""))
        #expect(!"api-ke".containsUTF8("api-key"))
        #expect(!"aapi-kez".containsUTF8("api-key"))
        #expect("naïve-secret".containsUTF8("secret"))
        #expect("über".containsUTF8("ü"))
        #expect("".containsUTF8(""))
        #expect(!"".containsUTF8("a"))
        #expect("aaab".containsUTF8("aab"))
        #expect("xyz-key".containsUTF8("key"))
        #expect(!"e\u{301}".containsUTF8("é"))  // bytes, not characters
        #expect("a=b".containsUTF8(UInt8(ascii: "=")))
        #expect(!"".containsUTF8(UInt8(ascii: "=")))
        let haystack = Array("abcabc".utf8), needle = Array("bc".utf8)
        let offsets = haystack.withUnsafeBytes { text in needle.withUnsafeBytes { part in (0...7).map { UTF8Search.firstOffset(of: part, in: text, from: $0) } } }
        #expect(offsets == [1, 1, 4, 4, 4, nil, nil, nil])
    }

    @Test func headersCanBeReplacedInsteadOfRemoved() {
        let request = Track.Request(method: "GET", url: URL(string: "https://api.example.com/me")!, headers: ["authorization": "Bearer abc12345"])
        let redacted = Redaction.headers(replacing: ["Authorization": "Bearer <redacted>"]).redact(request)
        #expect(redacted.headers["Authorization"] == "Bearer <redacted>")
    }

    @Test func queryParametersAreRemovedOrReplaced() {
        let request = Track.Request(method: "GET", url: URL(string: "https://api.example.com/search?q=jazz&access_token=s3cret99&sig=abcd1234")!)
        let redaction = Redaction.query(removing: ["ACCESS_TOKEN"]) + .query(replacing: ["sig": "REDACTED"])
        #expect(redaction.redact(request).url.absoluteString == "https://api.example.com/search?q=jazz&sig=REDACTED")
        // Untouched URLs keep their exact bytes.
        let plain = Track.Request(method: "GET", url: URL(string: "https://api.example.com/search?b=2&a=%2F")!)
        #expect(redaction.redact(plain).url == plain.url)
    }

    @Test func pathIsRewritten() {
        let request = Track.Request(method: "GET", url: URL(string: "https://api.example.com/accounts/DE89370400440532013000/balance?x=1")!)
        let redacted = Redaction.path { $0.replacingOccurrences(of: "DE89370400440532013000", with: "ACCOUNT") }.redact(request)
        #expect(redacted.url.absoluteString == "https://api.example.com/accounts/ACCOUNT/balance?x=1")
    }

    @Test func jsonKeysAreRemovedOrReplacedAtAnyDepth() throws {
        let track = Track(
            request: Track.Request("POST https://api.example.com/login").json(#"{"user":{"name":"ada","password":"hunter22"},"remember":true}"#),
            outcome: .json(#"{"items":[{"token":"abcd-efgh","id":1}],"echo":"password was hunter22"}"#))
        let redacted = (Redaction.jsonKeys(removing: ["Password"]) + .jsonKeys(replacing: ["token": "T"])).redact(track)
        #expect(String(decoding: redacted.request.body, as: UTF8.self) == #"{"user":{"name":"ada"},"remember":true}"#)
        #expect(String(decoding: try #require(redacted.response).body, as: UTF8.self) == #"{"items":[{"token":"T","id":1}],"echo":"password was REDACTED"}"#)
    }

    @Test func formFieldsAreRemovedOrReplaced() {
        let request = Track.Request("POST https://auth.example.com/token").body(Data("grant_type=password&username=ada&password=hunter22".utf8), contentType: "application/x-www-form-urlencoded")
        let redacted = (Redaction.formFields(removing: ["password"]) + .formFields(replacing: ["username": "USER"])).redact(request)
        #expect(String(decoding: redacted.body, as: UTF8.self) == "grant_type=password&username=USER")
        // A body of another type is not read as a form.
        let json = Track.Request("POST https://auth.example.com/token").body(Data("password=x".utf8), contentType: "text/plain")
        #expect(Redaction.formFields(removing: ["password"]).redact(json).body == json.body)
    }

    @Test func hooksRunAfterEveryFilter() throws {
        let track = Track(
            request: Track.Request("POST https://api.example.com/x").json(#"{"n":"1"}"#),
            response: Track.Response(headers: ["Content-Type": "application/json", "Content-Length": "9", "Date": "today"], body: Data(#"{"m":"2"}"#.utf8)))
        let redaction =
            Redaction.beforeRecordRequest { request in
                var copy = request
                copy.headers["X-Seen-Body"] = String(decoding: copy.body, as: UTF8.self)
                return copy
            } + .jsonKeys(replacing: ["n": "one", "m": "two-more"])
            + .beforeRecordResponse { response, request in
                var copy = response
                copy.headers["Date"] = nil
                copy.headers["X-Request-Body"] = String(decoding: request.body, as: UTF8.self)
                return copy
            }
        let redacted = redaction.redact(track)
        #expect(redacted.request.headers["X-Seen-Body"] == #"{"n":"one"}"#, "the hook saw the filtered body though listed first")
        let response = try #require(redacted.response)
        #expect(response.body == Data(#"{"m":"two-more"}"#.utf8))
        #expect(response.headers["Content-Length"] == "16", "Content-Length follows the stored body")
        #expect(response.headers["Date"] == nil)
        #expect(response.headers["X-Request-Body"] == #"{"n":"one"}"#)
    }

    @Test func redactedTrackStillMatchesItsLiveRequest() async throws {
        let redaction = Redaction.default + .query(removing: ["api_key"])
        let live = Track.Request(method: "GET", url: URL(string: "https://api.example.com/v1/me?api_key=live-key-123")!, headers: ["Authorization": "Bearer live-token-123"])
        let recorded = redaction.redact(Track(request: live, outcome: .json(#"{"id":1}"#)))
        let turntable = Turntable(vinyl: Vinyl(name: "redacted", tracks: [recorded]), matching: .attributes([.method, .url, .headers("Authorization")]))
        #expect(turntable.play(redaction.redact(live))?.trackIndex == 0)
    }
}
