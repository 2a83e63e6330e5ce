import Foundation
import Testing

@testable import Gramophone

/// `gramophone convert` writes what a recording would: redacted by the defaults and checked,
/// unless `--keep-secrets` says to write it as read.
@Suite("gramophone convert and secrets")
struct ConvertSecretsTests {
    static let bearer = "at-" + SecretCorpusTests.run(30, seed: 80)
    static let sessionCookie = "sess-" + SecretCorpusTests.run(24, seed: 81)
    static let queryToken = "qt-" + SecretCorpusTests.run(20, seed: 82)

    /// What a proxy (mitmproxy, Charles) or a browser exports: the session cookie and the
    /// bearer token as sent, a token in a query, and Set-Cookie in the response.
    static func proxyCapture(responseText: String = #"{\"id\":42}"#) -> String {
        """
        {"log": {"version": "1.2", "creator": {"name": "mitmproxy", "version": "10"}, "entries": [{
          "startedDateTime": "2026-11-23T10:30:00.000Z", "time": 12,
          "request": {"method": "GET", "url": "https://api.example.com/v1/me?include=teams&access_token=\(queryToken)", "httpVersion": "HTTP/1.1",
            "cookies": [{"name": "session", "value": "\(sessionCookie)"}],
            "headers": [{"name": "Authorization", "value": "Bearer \(bearer)"}, {"name": "Cookie", "value": "session=\(sessionCookie)"}, {"name": "Accept", "value": "application/json"}],
            "queryString": [{"name": "include", "value": "teams"}, {"name": "access_token", "value": "\(queryToken)"}], "headersSize": -1, "bodySize": 0},
          "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
            "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Set-Cookie", "value": "session=\(sessionCookie); Path=/; HttpOnly"}],
            "content": {"size": 9, "mimeType": "application/json", "text": "\(responseText)"}, "redirectURL": "", "headersSize": -1, "bodySize": 9},
          "cache": {}, "timings": {"send": 0, "wait": 12, "receive": 0}}]}}
        """
    }

    @Test(arguments: ["out.json", "out.har", "out.plist"])
    func aProxyCaptureIsRedactedOnTheWayIn(_ name: String) async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try CLITests.write(Self.proxyCapture(), to: "capture.har", in: folder)
        let output = folder.appendingPathComponent(name)
        let result = try await CLITests.run("convert", input, output.path)
        #expect(result.status == 0, "\(result.stderr)")
        let written = try Data(contentsOf: output)
        for secret in [Self.bearer, Self.sessionCookie, Self.queryToken] {
            #expect(written.range(of: Data(secret.utf8)) == nil, "\(secret.prefix(6))… reached \(name)")
        }
        let vinyl = try Vinyl(contentsOf: output)
        #expect(vinyl.likelySecrets().isEmpty)
        #expect(vinyl.tracks[0].request.url.absoluteString == "https://api.example.com/v1/me?include=teams&access_token=REDACTED")
        #expect(vinyl.tracks[0].request.headers["Accept"] == "application/json", "the rest is kept")
    }

    /// What convert took out is said, as a recording's report says it, on stderr (stdout may
    /// be the vinyl), with the way to keep it (issue 40, item 9: it redacted without a word).
    @Test func convertSaysWhatItRedactedAndHowToKeepIt() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try CLITests.write(Self.proxyCapture(), to: "capture.har", in: folder)
        let output = folder.appendingPathComponent("out.json")
        let redacted = #"redacted: request.headers "Authorization" ×1, request.headers "Cookie" ×1, request.url query "access_token" ×1, response.headers "Set-Cookie" ×1"#

        let result = try await CLITests.run("convert", input, output.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("converted \(input) → \(output.path) (gramophone, 1 track)\n  \(redacted)\n"), "\(result.stderr)")
        #expect(result.stderr.contains("--keep-secrets"))
        for secret in [Self.bearer, Self.sessionCookie, Self.queryToken] { #expect(!result.stderr.contains(secret)) }

        // To stdout: the vinyl alone there, the report on stderr.
        let piped = try await CLITests.run("convert", input, "-")
        #expect(piped.status == 0)
        #expect(try Vinyl(data: Data(piped.stdout.utf8), name: "piped", format: .gramophone).tracks.count == 1)
        #expect(piped.stderr.contains(redacted), "\(piped.stderr)")

        // Nothing to take out: it says that too; and --keep-secrets says nothing was redacted.
        let clean = try await CLITests.run("convert", output.path, folder.appendingPathComponent("again.json").path)
        #expect(clean.stderr.contains("(gramophone, 1 track); nothing redacted\n"), "\(clean.stderr)")
        let kept = try await CLITests.run("convert", input, folder.appendingPathComponent("kept.json").path, "--keep-secrets")
        #expect(kept.stderr.contains("(gramophone, 1 track); nothing redacted (--keep-secrets)\n"), "\(kept.stderr)")
    }

    @Test func keepSecretsWritesItAsRead() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try CLITests.write(Self.proxyCapture(), to: "capture.har", in: folder)
        let output = folder.appendingPathComponent("out.json")
        let result = try await CLITests.run("convert", input, output.path, "--keep-secrets")
        #expect(result.status == 0, "\(result.stderr)")
        let vinyl = try Vinyl(contentsOf: output)
        #expect(vinyl.tracks[0].request.headers["Authorization"] == "Bearer \(Self.bearer)")
        #expect(vinyl.tracks[0].request.headers["Cookie"] == "session=\(Self.sessionCookie)")
    }

    @Test func aSecretTheDefaultsCannotNameStopsTheConversion() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = SecretCorpusTests.tokens[3].token  // a Stripe key under an ordinary name
        let input = try CLITests.write(Self.proxyCapture(responseText: #"{\"note\":\"\#(token)\"}"#), to: "capture.har", in: folder)
        let output = try CLITests.write("previous", to: "out.json", in: folder)
        let result = try await CLITests.run("convert", input, output)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"out.json: tracks[0].response.body JSON "note": looks like a Stripe secret key"#), "\(result.stderr)")
        #expect(result.stderr.contains(#".jsonKeys(replacing: ["note": Redaction.placeholder])"#))
        #expect(result.stderr.contains("--keep-secrets"))
        #expect(!result.stderr.contains(token))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous", "nothing is written")
        // To stdout too: nothing but the error comes out.
        let piped = try await CLITests.run("convert", input, "-")
        #expect(piped.status == 1 && piped.stdout.isEmpty)
    }
}
