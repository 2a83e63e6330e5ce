import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// `gramophone scan`, run as the built binary the way CI runs it.
@Suite("gramophone scan")
struct ScanCommandTests {
    /// Foundation on Linux takes the copied `Resources` folder itself as the bundle's resource
    /// folder, Apple platforms do not: look in both places.
    static var scanFixtures: URL {
        let resources = Bundle.module.resourceURL ?? Bundle.module.bundleURL
        let candidates = [resources.appendingPathComponent("Scan"), resources.appendingPathComponent("Resources/Scan")]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates[1]
    }

    /// The `gramophone` executable the build made (see `BuiltProducts`).
    static func binary() throws -> URL {
        try BuiltProducts.executable("gramophone")
    }

    static func run(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        let child = try await ChildProcess.run(try binary(), arguments)
        return (child.status, child.stdout, child.stderr)
    }

    @Test func findsPlantedSecretsWithFileTrackAndPlace() async throws {
        let file = Self.scanFixtures.appendingPathComponent("planted-secrets.json").path
        let result = try await Self.run(["scan", file])
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        for expected in [
            "track #0 (GET https://api.example.com/v1/me): request.headers \"Authorization\"",
            "track #0 (GET https://api.example.com/v1/me): request.url query \"access_token\"",
            "track #0 (GET https://api.example.com/v1/me): response.headers \"Set-Cookie\"",
            "track #1 (POST https://api.example.com/v1/login): request.headers \"X-Api-Key\"",
            "track #1 (POST https://api.example.com/v1/login): request.body JSON \"user.password\"",
            "track #1 (POST https://api.example.com/v1/login): response.body JSON \"access_token\"",
            "track #2 (POST https://auth.example.com/oauth/token): request.body form field \"client_secret\"",
            "track #2 (POST https://auth.example.com/oauth/token): response.body JSON \"note\": looks like a bearer token",
        ] {
            #expect(lines.contains { $0.hasPrefix(file + ": " + expected) }, "missing: \(expected)")
        }
        // The report does not repeat the secrets it found.
        for secret in ["sk_live_4f9a8b7c6d5e4f3a2b1c", "abcdef1234567890", "hunter2-correct-horse", "s3cr3t-v4lu3-here", "0a1b2c3d4e5f6a7b8c9d"] {
            #expect(!result.out.contains(secret))
        }
    }

    @Test func passesACleanVinyl() async throws {
        let result = try await Self.run(["scan", Self.scanFixtures.appendingPathComponent("clean.json").path])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.isEmpty)
        // A one-line summary on stderr, as lint gives, so a clean run says it ran.
        #expect(result.err == "1 file scanned, no likely secrets\n")
        let two = try await Self.run(["scan", Self.scanFixtures.appendingPathComponent("clean.json").path, Self.scanFixtures.appendingPathComponent("clean.json").path])
        #expect(two.status == 0 && two.err == "2 files scanned, no likely secrets\n")
    }

    @Test func oneDirtyFileAmongCleanOnesFails() async throws {
        let result = try await Self.run(["scan", Self.scanFixtures.appendingPathComponent("clean.json").path, Self.scanFixtures.appendingPathComponent("planted-secrets.json").path])
        #expect(result.status == 1)
        #expect(!result.out.contains("clean.json"))
    }

    @Test func findsTokensInAConversationsSentAndReceivedMessages() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = SecretCorpusTests.tokens[0].token
        let conversation = WebSocketConversation(messages: [
            .sent(.text(#"{"type":"auth","api_key":"k-\#(token)"}"#)),
            .received(.text("welcome")),
            .received(.text(#"{"event":"session","session":{"token":"\#(token)"}}"#)),
        ])
        let file = folder.appendingPathComponent("chat.json")
        try Vinyl(name: "chat", tracks: [Track(request: Track.Request(url: URL(string: "wss://chat.example.com/socket?room=1")!), outcome: .response(.webSocket(conversation)))])
            .write(to: file)
        let result = try await Self.run(["scan", file.path])
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "\(file.path): track #0 (GET wss://chat.example.com/socket): response.webSocket.messages[0] (sent) JSON \"api_key\": a secret-named JSON key (k-gh********)",
                "\(file.path): track #0 (GET wss://chat.example.com/socket): response.webSocket.messages[2] (received) JSON \"session.token\": a secret-named JSON key (ghp_********)",
            ], "\(result.out)")
        #expect(result.err.contains("2 likely secrets found"))
        #expect(!result.out.contains(token))
    }

    @Test func usageErrorsExitWithTwo() async throws {
        #expect(try await Self.run(["scan"]).status == 2)
        #expect(try await Self.run(["scan", "--bogus", "x.json"]).status == 2)
    }

    @Test func unreadableFileFailsAndIsNamed() async throws {
        let result = try await Self.run(["scan", "/nonexistent/vinyl.json"])
        #expect(result.status == 1)
        #expect(result.err.contains("/nonexistent/vinyl.json"))
    }
}
