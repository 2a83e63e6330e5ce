import Foundation
import Testing

@testable import Gramophone

/// `Redaction.default` takes out credentials by name wherever an API puts them, and leaves
/// everything else byte for byte.
@Suite("Default redaction")
struct DefaultRedactionTests {
    static func request(_ url: String, headers: Headers = [:]) -> Track.Request {
        Track.Request(method: "GET", url: URL(string: url)!, headers: headers)
    }

    // Names of credentials in OAuth 2, Google, Stripe, AWS, GitHub, OpenAI and Anthropic
    // requests, in the spellings those APIs use.
    @Test(arguments: [
        "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "apiKey", "API-KEY", "client_secret",
        "password", "passwd", "secret", "session", "session_id", "auth_token", "private_key", "code_verifier",
        "client_assertion", "webhook_secret", "new_password", "x_api_key", "csrf_token", "SecretAccessKey", "SessionToken",
    ])
    func secretKeysAreRecognised(_ name: String) {
        #expect(SensitiveNames.isSecretKey(name))
        #expect(SensitiveNames.isSecretQueryParameter(name, value: "v4lue-0f-it"))
        // Bodies are only parsed when their bytes could name a secret: every name must pass that test.
        #expect(SensitiveNames.mayNameASecret(#"{"data":{"\#(name)":"v"}}"#))
    }

    // Names that sound close but carry no credential: pagination cursors, counts of tokens
    // (OpenAI's `max_tokens`), token metadata, and `key` as a lookup key.
    @Test(arguments: [
        "pageToken", "next_page_token", "NextToken", "continuation_token", "syncToken", "max_tokens", "total_tokens",
        "token_type", "expires_in", "keyboard", "secretary", "password_reset_required_at", "session_count", "user", "key", "sig_count",
    ])
    func lookalikeKeysAreKept(_ name: String) {
        #expect(!SensitiveNames.isSecretKey(name))
    }

    @Test(arguments: [
        "sig", "signature", "Signature", "auth", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token",
        "X-Goog-Signature", "X-Goog-Credential", "GoogleAccessId", "AWSAccessKeyId",
    ])
    func signedURLParametersAreSecretInQueries(_ name: String) {
        #expect(SensitiveNames.isSecretQueryParameter(name, value: "abcdef0123456789"))
    }

    @Test func ordinaryBodiesAreNotParsedForSecretNames() {
        #expect(!SensitiveNames.mayNameASecret(#"{"id":42,"name":"Ada Lovelace","url":"https://api.example.com/users/42?page=2"}"#))
        #expect(SensitiveNames.mayNameASecret("grant_type=client_credentials&CLIENT-SECRET=x"))
    }

    // The one-pass test must say what the compacted text says: a stem split by separators or
    // written in capitals still counts, wherever it starts.
    @Test func theOnePassNameTestAgreesWithTheCompactedText() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["pa", "ss", "to", "ken", "K", "ey", "cred", "enti", "al", "ASSER", "tion", "x", "-", "_", ".", " ", "é", "{\"", "\":", "s", "ig", "v", "erifier"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let compact = SensitiveNames.compacted(text)
            #expect(SensitiveNames.mayNameASecret(text) == SensitiveNames.stems.contains { compact.containsUTF8($0) }, "\(text)")
        }
    }

    @Test func keyIsASecretOnlyWithAKeyShapedValue() {
        #expect(SensitiveNames.isSecretQueryParameter("key", value: "AIza" + "SyD4xQ9wE2rT7yU1iO3pA5sD8fG0hJ6kL2z"))
        #expect(SensitiveNames.isSecretQueryParameter("key", value: "pk_9Ab3Cd5Ef7Gh9Ij1Kl3Mn5"))
        for lookup in ["user-42", "photos/2024/cat.jpg", "550e8400-e29b-41d4-a716-446655440000", "d41d8cd98f00b204e9800998ecf8427e", "ORDER_NUMBER_2024_0001"] {
            #expect(!SensitiveNames.isSecretQueryParameter("key", value: lookup), "\(lookup)")
        }
    }

    @Test func queryValuesBecomeREDACTEDAndTheRestKeepsItsBytes() {
        let redacted = Redaction.default.redact(
            Self.request("https://api.example.com/v1/search?q=jazz%20club&Access_Token=at-9f8e7d6c&page=2&key=AIzaSyD4xQ9wE2rT7yU1iO3pA5sD8fG0hJ6kL2z&pageToken=CAEQAA"))
        #expect(redacted.url.absoluteString == "https://api.example.com/v1/search?q=jazz%20club&Access_Token=REDACTED&page=2&key=REDACTED&pageToken=CAEQAA")
        let plain = Self.request("https://api.example.com/v1/search?b=2&a=%2F&key=user-42")
        #expect(Redaction.default.redact(plain) == plain)
    }

    @Test func formFieldsAndJSONKeysAtAnyDepthBecomePlaceholders() throws {
        let form = Track.Request("POST https://oauth2.example.com/token")
            .body(Data("grant_type=refresh_token&client_id=app-1&client_secret=cs-5a4b3c2d&refresh_token=rt-1a2b3c4d".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(String(decoding: Redaction.default.redact(form).body, as: UTF8.self) == "grant_type=refresh_token&client_id=app-1&client_secret=REDACTED&refresh_token=REDACTED")

        let track = Track(
            request: Track.Request("POST https://api.example.com/login").json(#"{"user":{"name":"ada","credentials":{"password":"hunter22x","otp_hint":"sms"}},"max_tokens":1024}"#),
            outcome: .json(#"{"data":[{"session":{"id":"s-77aa88bb","access_token":"at-55cc66dd"}}],"token_type":"bearer","echo":"pw hunter22x"}"#))
        let redacted = Redaction.default.redact(track)
        #expect(String(decoding: redacted.request.body, as: UTF8.self) == #"{"user":{"name":"ada","credentials":{"password":"REDACTED","otp_hint":"sms"}},"max_tokens":1024}"#)
        #expect(
            String(decoding: try #require(redacted.response).body, as: UTF8.self)
                == #"{"data":[{"session":{"id":"s-77aa88bb","access_token":"REDACTED"}}],"token_type":"bearer","echo":"pw REDACTED"}"#)
    }

    @Test func presignedURLsInHeadersBodiesAndParametersLoseTheirSignatures() throws {
        let credential = "AKIA" + "Q7W3E5R7T9Y1U3I5" + "%2F20261123%2Fus-east-1%2Fs3%2Faws4_request"
        let presigned = "https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=\(credential)&X-Amz-Signature=9c1d7e2f4a6b8c0d&X-Amz-Expires=300"
        let asParameter = presigned.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let track = Track(
            request: Self.request("https://files.example.com/redirect?to=\(asParameter)"),
            response: Track.Response(
                status: 302, headers: ["Location": presigned, "Content-Type": "text/html"],
                body: Data("<a href=\"\(presigned)\">moved</a>".utf8)))
        let redacted = Redaction.default.redact(track)
        let text = "\(redacted.request.url) \(try #require(redacted.response).headers) \(String(decoding: try #require(redacted.response).body, as: UTF8.self))"
        for secret in ["9c1d7e2f4a6b8c0d", "Q7W3E5R7T9Y1U3I5"] { #expect(!text.contains(secret)) }
        #expect(text.contains("X-Amz-Expires=300"), "what is not a secret stays")
        #expect(Vinyl(name: "v", tracks: [redacted]).likelySecrets().isEmpty)
    }

    @Test func aPasswordInTheURLGoes() {
        let request = Self.request("https://ada:hunter22x@ftp.example.com/files?page=2")
        let redacted = Redaction.default.redact(request)
        #expect(redacted.url.absoluteString == "https://ada:REDACTED@ftp.example.com/files?page=2")
        let found = Vinyl(name: "v", tracks: [Track(request: request, outcome: .status(204))]).likelySecrets()
        #expect(found.map(\.place) == ["request.url"])
        #expect(found.first?.reason == "a password in the URL")
        #expect(Vinyl(name: "v", tracks: [Track(request: redacted, outcome: .status(204))]).likelySecrets().isEmpty)
    }

    @Test func redactingTwiceChangesNothing() {
        let track = Track(
            request: Self.request("https://api.example.com/me?access_token=at-9f8e7d6c", headers: ["Authorization": "Bearer at-9f8e7d6c"]),
            outcome: .json(#"{"password":"hunter22x"}"#))
        let once = Redaction.default.redact(track)
        #expect(Redaction.default.redact(once) == once)
    }

    @Test func filtersAddedToTheDefaultDoNotChaseItsPlaceholders() {
        let request = Track.Request("POST https://api.example.com/x?api_key=k-12345678&q=1")
            .body(Data("client_secret=cs-5a4b3c2d&note=REDACTED".utf8), contentType: "application/x-www-form-urlencoded")
        let redacted = (Redaction.default + .query(removing: ["api_key"])).redact(request)
        #expect(redacted.url.absoluteString == "https://api.example.com/x?q=1")
        #expect(String(decoding: redacted.body, as: UTF8.self) == "client_secret=REDACTED&note=REDACTED")
    }

    @Test func allowedPlacesAreLeftAlone() throws {
        let track = Track(
            request: Self.request("https://api.example.com/v1/items?token=public-demo&access_token=at-9f8e7d6c", headers: ["X-Api-Key": "demo-key-1234"]),
            outcome: .json(#"{"build":{"signature":"sha-1234"},"token":"tk-0a1b2c3d4e5f6a7b8c9d0e1f2a3b"}"#))
        let allowed: [SecretPlace] = [.query("TOKEN"), .header("x-api-key", in: .request), .jsonKey("token", in: .request)]
        let redacted = Redaction.default.redact(track, allowing: allowed)
        #expect(redacted.request.url.absoluteString == "https://api.example.com/v1/items?token=public-demo&access_token=REDACTED")
        #expect(redacted.request.headers["X-Api-Key"] == "demo-key-1234")
        // The JSON allowance was for the request: the response's token (credential-shaped: in a
        // response, `token` alone is a secret only then) still goes.
        #expect(String(decoding: try #require(redacted.response).body, as: UTF8.self) == #"{"build":{"signature":"sha-1234"},"token":"REDACTED"}"#)
    }

    @Test func theLiveRequestRedactedTheSameWayMatchesItsTrack() {
        let live = Track.Request("POST https://oauth2.example.com/token?key=AIzaSyD4xQ9wE2rT7yU1iO3pA5sD8fG0hJ6kL2z")
            .body(Data("grant_type=password&username=ada&password=hunter22x".utf8), contentType: "application/x-www-form-urlencoded")
        let recorded = Redaction.default.redact(Track(request: live, outcome: .json(#"{"access_token":"at-1"}"#)))
        let turntable = Turntable(vinyl: Vinyl(name: "redacted", tracks: [recorded]), matching: .attributes([.method, .url, .body]))
        #expect(turntable.play(Redaction.default.redact(live))?.trackIndex == 0)
    }

    @Test func aTurntableWithoutRecordingReplaysRedactedTracksAndCountsOneMissOtherwise() async throws {
        let recorded = Redaction.default.redact(Track(request: Self.request("https://api.example.com/me?access_token=at-9f8e7d6c"), outcome: .json(#"{"id":1}"#)))
        let turntable = Turntable(vinyl: Vinyl(name: "recorded", tracks: [recorded]))
        let (body, _) = try await turntable.data(from: URL(string: "https://api.example.com/me?access_token=at-9f8e7d6c")!)
        #expect(body == Data(#"{"id":1}"#.utf8))
        await #expect(throws: TurntableError.self) { try await turntable.data(from: URL(string: "https://api.example.com/you?access_token=at-9f8e7d6c")!) }
        #expect(turntable.playback.misses == 1)
        #expect(turntable.playback.missReports.count == 1)
        // A hand-written track with the value itself still matches exactly.
        let handWritten = Turntable(vinyl: Vinyl(name: "fixture", tracks: [Track(request: Self.request("https://api.example.com/me?api_key=demo-key-1"), outcome: .json("{}"))]))
        #expect(try await handWritten.data(from: URL(string: "https://api.example.com/me?api_key=demo-key-1")!).0 == Data("{}".utf8))
    }
}
