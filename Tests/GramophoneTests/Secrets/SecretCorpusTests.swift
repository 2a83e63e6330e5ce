import Foundation
import Testing

@testable import Gramophone

/// The one list of rules behind `gramophone scan` and the recorder, against realistic token
/// shapes (all fabricated here, pieced together so no whole token sits in the source) and
/// lookalikes that are not secrets. RELIABILITY.md records the false-positive count.
@Suite("Secret corpus")
struct SecretCorpusTests {
    static let alphabet = Array("A7bC9dE2fG4hJ6kL8mN1pQ3rS5tU0vW2xY4zA6bC8dE1fG3hJ5kL7mN9pQ2rS4tU6vW8xY0z")
    /// A fabricated run of mixed letters and digits, different for each seed.
    static func run(_ count: Int, seed: Int) -> String {
        String((0..<count).map { alphabet[($0 * 7 + seed * 13) % alphabet.count] })
    }
    static func upperRun(_ count: Int, seed: Int) -> String {
        String((0..<count).map { Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")[($0 * 5 + seed) % 32] })
    }

    /// Fabricated tokens in the shapes their issuers document.
    static let tokens: [(kind: String, token: String)] = [
        ("GitHub classic", "gh" + "p_" + run(36, seed: 1)),
        ("GitHub OAuth", "gh" + "o_" + run(36, seed: 2)),
        ("GitHub fine-grained", "github" + "_pat_" + run(22, seed: 3) + "_" + run(59, seed: 4)),
        ("Stripe live secret", "sk" + "_live_" + run(24, seed: 5)),
        ("Stripe restricted", "rk" + "_live_" + run(24, seed: 6)),
        ("Stripe test secret", "sk" + "_test_" + run(24, seed: 7)),
        ("AWS access key id", "AK" + "IA" + upperRun(16, seed: 8)),
        ("AWS temporary key id", "AS" + "IA" + upperRun(16, seed: 9)),
        ("Slack bot", "xo" + "xb-" + "2419834562-" + "4820193847561-" + run(24, seed: 10)),
        ("Slack user", "xo" + "xp-" + "2419834562-" + "4820193847561-" + run(32, seed: 11)),
        ("JWT", "ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "ey" + "JzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9." + run(43, seed: 12)),
        ("OpenAI legacy", "sk" + "-" + run(48, seed: 13)),
        ("OpenAI project", "sk" + "-proj-" + run(64, seed: 14) + "_" + run(20, seed: 15)),
        ("Anthropic", "sk" + "-ant-api03-" + run(80, seed: 16) + "-" + run(6, seed: 17) + "AA"),
        ("Google API key", "AI" + "za" + run(35, seed: 18)),
        ("Bearer credential", "Bearer " + run(40, seed: 19)),
        ("PEM private key", "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEow" + run(40, seed: 20)),
    ]

    /// Values that look technical but are not credentials: identifiers, hashes of content,
    /// ETags, versions, and words that start like key prefixes.
    static let lookalikes: [String] = [
        "550e8400-e29b-41d4-a716-446655440000", "550E8400-E29B-41D4-A716-446655440000", "{6F9619FF-8B86-D011-B42D-00C04FC964FF}",
        "d41d8cd98f00b204e9800998ecf8427e", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855",
        "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==",
        "sha256:a3ed95caeb02ffe68cdd9fd84406680ae93d633cb16422d00e8a7c22955b46d4", "W/\"5e15153d-120f\"", "\"33a64df551425fcc55e4d42a148795d9f25f89d4\"",
        "\"9b2cf535f27731c974343645a3985328-12\"", "1.2.3", "v2.11.0-beta.1+build.5", "6.3.1-RELEASE", "2026-11-23T17:57:51Z",
        "sk-learn-compatibility-matrix-2024", "skeleton-key-handbook-v2", "ghost_protocol_chapter_12", "AKIA-style keys start with AKIA",
        "Use a bearer token in the Authorization header", "bearer", "xoxo-hugs-and-kisses", "eyJ0eXAi", "github_page_link",
        "akia0123456789abcdef", "ASIAN_MARKETS_2024_Q3_REPORT", "sk_live", "rk_live_", "AIzaShort", "ghp_short",
        "0x71C7656EC7ab88b098defB751B7401B5f6d8976F", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA",
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    ]

    /// Each value planted where a non-secret name holds it, in every part of a track.
    static func planted(_ value: String) -> Vinyl {
        let query = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
        let body = JSONWriter.compact(.object([("note", .string(value)), ("items", .array([.object([("value", .string(value))])]))]))
        return Vinyl(
            name: "corpus",
            tracks: [
                Track(
                    request: Track.Request(method: "GET", url: URL(string: "https://api.example.com/v1/search?q=\(query)")!, headers: ["X-Debug": value]),
                    response: Track.Response(headers: ["Content-Type": "application/json"], body: Data(body))),
                Track(
                    request: Track.Request(method: "POST", url: URL(string: "https://api.example.com/v1/notes")!, headers: ["Content-Type": "text/plain"], body: Data("note: \(value)\n".utf8)),
                    response: Track.Response(headers: ["Content-Type": "text/plain"], body: Data(value.utf8))),
            ])
    }

    @Test(arguments: tokens)
    func everyTokenShapeIsFoundWherever(_ kind: String, _ token: String) {
        let findings = Self.planted(token).likelySecrets()
        for place in [
            "request.url query \"q\"", "request.headers \"X-Debug\"", "response.body JSON \"note\"", "response.body JSON \"items[0].value\"",
            "request.body", "response.body",
        ] {
            #expect(findings.contains { $0.place == place }, "\(kind) not found at \(place): \(findings)")
        }
        // The report masks what it found.
        #expect(!findings.contains { $0.preview.contains(token) || $0.description.contains(token) })
    }

    @Test func lookalikesAreNotSecrets() {
        var falsePositives: [String] = []
        for value in Self.lookalikes {
            let findings = Self.planted(value).likelySecrets()
            if !findings.isEmpty { falsePositives.append("\(value): \(findings)") }
            // Nor does the default redaction touch them.
            let vinyl = Self.planted(value)
            #expect(vinyl.tracks.map { Redaction.default.redact($0) } == vinyl.tracks, "\(value)")
        }
        // RELIABILITY.md: "false positives on the lookalike corpus".
        print("secret corpus: \(Self.tokens.count) token shapes found; \(falsePositives.count) false positives on \(Self.lookalikes.count) lookalikes")
        #expect(falsePositives.isEmpty, "\(falsePositives.joined(separator: "\n"))")
    }

    /// Whatever the scanner finds under a secret name, the default redaction removes; so the
    /// recorder never refuses what its own defaults could have taken out.
    @Test func theDefaultRemovesEverySecretNamedFindingOfTheScanner() throws {
        let secret = "s3cr3t-" + Self.run(16, seed: 30)
        var tracks: [Track] = []
        for name in ["access_token", "Refresh-Token", "client_secret", "password", "api_key", "session", "X-Amz-Signature", "sig", "auth"] {
            tracks.append(
                Track(
                    request: Track.Request(
                        method: "POST", url: URL(string: "https://api.example.com/x?\(name)=\(secret)&q=1")!,
                        headers: ["X-Api-Key": secret, "Content-Type": "application/x-www-form-urlencoded"], body: Data("a=1&\(name)=\(secret)".utf8)),
                    response: Track.Response(
                        headers: ["Content-Type": "application/json", "Location": "https://cdn.example.com/f?\(name)=\(secret)"],
                        body: Data(#"{"deep":[{"\#(name)":"\#(secret)"}],"link":"https://cdn.example.com/f?\#(name)=\#(secret)"}"#.utf8))))
        }
        let vinyl = Vinyl(name: "named", tracks: tracks)
        let before = vinyl.likelySecrets()
        #expect(before.count >= tracks.count * 4)
        let redacted = Vinyl(name: "named", tracks: vinyl.tracks.map { Redaction.default.redact($0) })
        #expect(redacted.likelySecrets().isEmpty, "\(redacted.likelySecrets())")
        #expect(!String(decoding: try redacted.encoded(as: .gramophone), as: UTF8.self).contains(secret))
    }

    /// A token shape under an ordinary name is not the default's to remove: the recorder
    /// refuses it, naming the place and a filter, and that filter does remove it.
    @Test func theSuggestedFilterRemovesWhatTheCheckFound() throws {
        let token = Self.tokens[0].token
        let vinyl = Self.planted(token)
        let error = try #require(throws: VinylError.self) { try vinyl.redactedForWriting(file: "Vinyls/corpus.json") }
        #expect(error.kind == .containsSecrets)
        #expect(error.place == "tracks[0].request.headers \"X-Debug\"")
        #expect(error.description.contains(#".headers(removing: ["X-Debug"])"#))
        // One line keeps every place of every track, as printed.
        let line = #".allowing([.header("X-Debug"), .query("q"), .jsonKey("note"), .jsonKey("items[0].value"), .body(in: .request), .body(in: .response)])"#
        #expect(error.description.contains(line), "\(error)")
        #expect(throws: Never.self) {
            _ = try vinyl.redactedForWriting(allowing: [.header("X-Debug"), .query("q"), .jsonKey("note"), .jsonKey("items[0].value"), .body(in: .request), .body(in: .response)])
        }
        #expect(error.description.contains(#"tracks[0].request.url query "q": looks like a GitHub token (ghp_********); remove with .query(replacing: ["q": "REDACTED"])"#))
        #expect(error.description.contains("tracks[1].request.body"), "every finding is listed")
        let filtered = (Redaction.default + .query(replacing: ["q": "REDACTED"])).redact(vinyl.tracks[0])
        #expect(!Vinyl(name: "v", tracks: [filtered]).likelySecrets().contains { $0.place == "request.url query \"q\"" })
        let allowed: [SecretPlace] = [.query("q"), .header("X-Debug"), .jsonKey("note"), .jsonKey("value"), .body()]
        #expect(throws: Never.self) { _ = try vinyl.redactedForWriting(allowing: allowed) }
    }
}
