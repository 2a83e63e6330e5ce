import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// `gramophone verify` and `gramophone lint --max-age` through the built executable, against
/// the drift server's v1 and v2.
@Suite("gramophone verify and lint --max-age")
struct VerifyCommandTests {
    static let token = "Authorization: Bearer letmein"

    @Test(.enabled(if: DriftServer.isAvailable))
    func verifyPrintsEachDriftAndExitsOneAgainstV2AndZeroAgainstV1() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await DriftServer.recordV1(in: folder).path
        let (_, v2) = try DriftServer.urls()

        let drifted = try await Self.run(["verify", file, "--base-url", v2.absoluteString, "--header", Self.token])
        #expect(drifted.status == 1, "\(drifted.stderr)")
        for line in DriftServer.v2Drifts.values.joined() { #expect(drifted.stdout.contains("      " + line + "\n"), "\(line)") }
        #expect(drifted.stdout.contains("/health: ok"))
        #expect(drifted.stdout.contains("7 tracks checked, 5 drifted, 1 skipped (unsafe method"))

        let clean = try await Self.run(["verify", file, "--header", Self.token])
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("7 tracks checked, 0 drifted, 1 skipped"))

        // The unsafe POST is sent only when asked, and its drift shows.
        let unsafe = try await Self.run(["verify", file, "--base-url", v2.absoluteString, "--header", Self.token, "--include-unsafe"])
        #expect(unsafe.status == 1)
        #expect(unsafe.stdout.contains("POST ") && unsafe.stdout.contains("      body.total: number → string\n"))
        #expect(unsafe.stdout.contains("8 tracks checked, 6 drifted\n"))
    }

    @Test(.enabled(if: DriftServer.isAvailable))
    func verifyJSONIsOneObjectForTools() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await DriftServer.recordV1(in: folder).path
        let placeholders = try CLITests.write(#"{"Authorization": "Bearer letmein"}"#, to: "secrets.json", in: folder)

        let run = try await Self.run(["verify", file, "--base-url", try DriftServer.urls().v2.absoluteString, "--placeholders", placeholders, "--json"])
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["checked"] as? Int == 7 && object["drifted"] as? Int == 5 && object["skipped"] as? Int == 1 && object["failed"] as? Int == 0)
        let vinyl = try #require((object["vinyls"] as? [[String: Any]])?.first)
        #expect(vinyl["file"] as? String == file && vinyl["name"] as? String == "api" && vinyl["updated"] as? Bool == false)
        let tracks = try #require(vinyl["tracks"] as? [[String: Any]])
        let items = try #require(tracks.first { ($0["url"] as? String)?.hasSuffix("/items") == true })
        #expect(items["drifted"] as? Bool == true && items["method"] as? String == "GET")
        let change = try #require((items["changes"] as? [[String: Any]])?.first)
        #expect(change["place"] as? String == "body.items[].price")
        #expect(change["recorded"] as? String == "number" && change["live"] as? String == "string")
        #expect(change["line"] as? String == "body.items[].price: number → string")
        // The /me track was checked with the filled token: no drift.
        #expect(tracks.first { ($0["url"] as? String)?.hasSuffix("/me") == true }?["drifted"] as? Bool == false)
    }

    @Test(.enabled(if: DriftServer.isAvailable))
    func updateReRecordsTheDriftedTracksAndASecondVerifyIsClean() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await DriftServer.recordV1(in: folder).path
        let before = try Vinyl(contentsOf: URL(fileURLWithPath: file))
        let v2 = try DriftServer.urls().v2.absoluteString

        let update = try await Self.run(["verify", file, "--base-url", v2, "--header", Self.token, "--update"])
        #expect(update.status == 1)
        #expect(update.stderr.contains("updated \(file): 5 drifted tracks re-recorded, 3 untouched"))
        let again = try await Self.run(["verify", file, "--base-url", v2, "--header", Self.token])
        #expect(again.status == 0, "\(again.stdout)")

        let after = try Vinyl(contentsOf: URL(fileURLWithPath: file))
        #expect(after.tracks.map(\.request) == before.tracks.map(\.request))
        let untouched = ["/health", "/me", "/orders"]
        for (old, new) in zip(before.tracks, after.tracks) where untouched.contains(old.request.url.path) { #expect(old == new) }
        #expect(!(try String(contentsOfFile: file, encoding: .utf8)).contains("letmein"))
    }

    @Test(.enabled(if: DriftServer.isAvailable))
    func updateWritesNothingWhenTheLiveAnswerHoldsASecret() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (v1, v2) = try DriftServer.urls()
        let turntable = try Turntable(vinylNamed: "deploy", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        _ = try await turntable.data(from: v1.appendingPathComponent("deploy"))
        try turntable.eject()
        let file = folder.appendingPathComponent("deploy.json")
        let bytes = try Data(contentsOf: file)

        let update = try await Self.run(["verify", file.path, "--base-url", v2.absoluteString, "--update"])
        #expect(update.status == 1)
        #expect(update.stdout.contains("      body.note: added (string)\n"))
        #expect(update.stderr.contains("error: \(file.path) was not updated:"))
        #expect(update.stderr.contains("AWS access key"))
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test(.enabled(if: DriftServer.isAvailable))
    func envFillsTheRedactedTokenFromTheEnvironment() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await DriftServer.recordV1(in: folder).path
        let filled = try await Self.run(["verify", file, "--env", "Authorization=DRIFT_TEST_TOKEN"], environment: ["DRIFT_TEST_TOKEN": "Bearer letmein"])
        #expect(filled.status == 0, "\(filled.stdout)")
        #expect(filled.stdout.contains("/me: ok"))
        // Without it, the /me track drifts to 401: the filled value is what made the difference.
        let without = try await Self.run(["verify", file])
        #expect(without.status == 1 && without.stdout.contains("      status: 200 → 401\n"))
    }

    /// A vinyl with HTTP tracks and a WebSocket conversation (issue 44, item 7: the handshake was
    /// sent as an HTTP request, failed with Foundation's -1000, was counted as checked and as not
    /// reached, and verify exited 1 against the unchanged server).
    @Test(.enabled(if: DriftServer.isAvailable))
    func aMixedVinylVerifiesItsHTTPTracksAndSkipsItsConversationSayingSo() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded = try await DriftServer.recordV1(in: folder)
        var vinyl = try Vinyl(contentsOf: recorded)
        let http = vinyl.tracks.count
        let socketURL = try #require(URL(string: "ws://127.0.0.1:9/chat"))
        let chat = WebSocketConversation(messages: [.sent(.text("hi")), .received(.text("hi"))], end: .closed(code: 1000, by: .received))
        vinyl.tracks.append(Track(request: Track.Request(url: socketURL), outcome: .response(.webSocket(chat))))
        try vinyl.write(to: recorded)

        let run = try await Self.run(["verify", recorded.path, "--header", Self.token])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // The file's own path (a temporary folder named by a UUID) may hold "-1000" by chance.
        let report = run.stdout.replacingOccurrences(of: recorded.path, with: "")
        #expect(!report.contains("-1000") && !report.contains("not reached"), "\(run.stdout)")
        #expect(run.stdout.contains("track #\(http): skipped (a WebSocket conversation: verify checks HTTP exchanges only)"), "\(run.stdout)")
        #expect(run.stdout.contains("7 tracks checked, 0 drifted, 1 skipped (unsafe method"), "\(run.stdout)")
        #expect(run.stdout.contains("1 skipped (WebSocket conversation: verify sends HTTP requests and checks no conversation)"), "\(run.stdout)")

        let json = try await Self.run(["verify", recorded.path, "--header", Self.token, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        // Each track counted once: 7 checked, 1 unsafe and 1 conversation skipped, of 9.
        #expect(object["checked"] as? Int == 7 && object["failed"] as? Int == 0 && object["skipped"] as? Int == 2, "\(json.stdout)")
        #expect(http + 1 == 9)
    }

    /// An API of POSTs only (most LLM APIs): without --include-unsafe nothing is sent, and that
    /// is not a pass (issue 40, item 8: it exited 0, so a CI drift check was green forever).
    @Test(.enabled(if: DriftServer.isAvailable))
    func verifyThatCheckedNothingExitsThreeAndNamesTheFlag() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(vinylNamed: "orders", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        var order = URLRequest(url: try DriftServer.urls().v1.appendingPathComponent("orders"))
        order.httpMethod = "POST"
        order.setValue("application/json", forHTTPHeaderField: "Content-Type")
        order.httpBody = Data(#"{"item": 1}"#.utf8)
        _ = try await turntable.data(for: order)
        try turntable.eject()
        let file = folder.appendingPathComponent("orders.json").path

        let skipped = try await Self.run(["verify", file])
        #expect(skipped.status == 3, "\(skipped.stdout)\(skipped.stderr)")
        #expect(skipped.stdout.contains(#"vinyl "orders": nothing checked, 1 skipped (unsafe method: sent only with --include-unsafe"#), "\(skipped.stdout)")
        #expect(skipped.stderr.contains("\(file): nothing checked"), "\(skipped.stderr)")
        #expect(skipped.stderr.contains("--include-unsafe"))
        let json = try await Self.run(["verify", file, "--json"])
        #expect(json.status == 3)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["checked"] as? Int == 0 && object["skipped"] as? Int == 1)
        #expect((object["vinyls"] as? [[String: Any]])?.first?["checkedNothing"] as? Bool == true)

        let included = try await Self.run(["verify", file, "--include-unsafe"])
        #expect(included.status == 0, "\(included.stdout)\(included.stderr)")
        #expect(included.stdout.contains("1 track checked, 0 drifted"))

        // A vinyl without tracks checks nothing either; beside a checked one, the exit still says so.
        let empty = folder.appendingPathComponent("empty.json")
        try Vinyl(name: "empty", tracks: []).write(to: empty)
        let both = try await Self.run(["verify", file, empty.path, "--include-unsafe"])
        #expect(both.status == 3, "\(both.stdout)")
        #expect(both.stdout.contains(#"vinyl "empty": nothing checked (no tracks)"#), "\(both.stdout)")
        // Drift outranks it: exit 1.
        let drifted = try await Self.run(["verify", file, empty.path, "--include-unsafe", "--base-url", try DriftServer.urls().v2.absoluteString])
        #expect(drifted.status == 1)
        let help = try await CLITests.run("verify", "--help")
        #expect(help.stdout.contains("3 nothing checked"))
    }

    /// A status drift shows what the server said, with --values; without, the report says how to see it.
    @Test(.enabled(if: DriftServer.isAvailable))
    func aStatusDriftShowsTheLiveErrorBodyWithValues() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await DriftServer.recordV1(in: folder).path

        let values = try await Self.run(["verify", file, "--values"])
        #expect(values.status == 1)
        #expect(values.stdout.contains("      status: 200 → 401\n"), "\(values.stdout)")
        #expect(values.stdout.contains(#"      live body: {"error": "unauthorized"}"# + "\n"), "\(values.stdout)")
        let json = try await Self.run(["verify", file, "--values", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tracks = try #require((object["vinyls"] as? [[String: Any]])?.first?["tracks"] as? [[String: Any]])
        #expect(tracks.first { ($0["url"] as? String)?.hasSuffix("/me") == true }?["liveBody"] as? String == #"{"error": "unauthorized"}"#)

        let shapes = try await Self.run(["verify", file])
        #expect(shapes.stdout.contains("      status: 200 → 401\n      live body: shown with --values\n"), "\(shapes.stdout)")
        #expect(!shapes.stdout.contains("unauthorized"))
    }

    /// Headers set with --header go on every request; an endpoint that echoes the request's
    /// headers (httpbin's /headers) reports them back. Those places are left out of the
    /// comparison, and the report says which; the values sent never reach the output.
    @Test(.enabled(if: HTTPBin.isAvailable))
    func headersSentOnEveryRequestAreNotDriftWhereAnEndpointEchoesThem() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(vinylNamed: "echo", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        _ = try await turntable.data(from: try HTTPBin.baseURL().appendingPathComponent("headers"))
        try turntable.eject()
        let file = folder.appendingPathComponent("echo.json").path
        let token = "Bearer " + SecretCorpusTests.run(32, seed: 40)

        let run = try await Self.run(["verify", file, "--header", "X-Tenant: acme-corp", "--header", "Authorization: \(token)"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("/headers: ok"), "\(run.stdout)")
        #expect(run.stdout.contains("      left out (echoes a --header sent on every request): body.headers.X-Tenant: added (string)\n"), "\(run.stdout)")
        #expect(run.stdout.contains("      left out (echoes a --header sent on every request): body.headers.Authorization: added (string)\n"))
        let values = try await Self.run(["verify", file, "--values", "--header", "X-Tenant: acme-corp", "--header", "Authorization: \(token)"])
        #expect(!values.stdout.contains(token) && !values.stdout.contains("acme-corp"), "\(values.stdout)")
        #expect(!values.stdout.contains("    body.headers.Authorization") && !values.stdout.contains("    body.headers.X-Tenant"))
    }

    @Test func verifyUsageErrorsExitTwo() async throws {
        #expect(try await CLITests.run("verify").status == 2)
        let header = try await CLITests.run("verify", "a.json", "--header", "no colon")
        #expect(header.status == 2 && header.stderr.contains("--header needs 'Name: value'"))
        let base = try await CLITests.run("verify", "a.json", "--base-url", "ftp://example.com")
        #expect(base.status == 2 && base.stderr.contains("--base-url needs an http or https URL"))
        let env = try await CLITests.run("verify", "a.json", "--env", "api_key=GRAMOPHONE_SURELY_UNSET_VARIABLE")
        #expect(env.status == 2 && env.stderr.contains("GRAMOPHONE_SURELY_UNSET_VARIABLE is not set"))
        let missing = try await CLITests.run("verify", "/nonexistent/a.json")
        #expect(missing.status == 1 && missing.stderr.contains("no such file"))
        let help = try await CLITests.run("verify", "--help")
        #expect(help.status == 0 && help.stdout.contains("USAGE: gramophone verify VINYL..."))
    }

    @Test func lintMaxAgeReportsTracksOlderThanTheAge() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("old.json")
        let url = URL(string: "https://api.example.com/users")!
        try Vinyl(
            name: "old",
            tracks: [
                Track(request: Track.Request(url: url), outcome: .response(Track.Response()), recordedAt: Date(timeIntervalSinceNow: -100 * 86_400)),
                Track(request: Track.Request(url: url.appendingPathComponent("1")), outcome: .response(Track.Response()), recordedAt: Date()),
                Track(request: Track.Request(url: url.appendingPathComponent("2")), outcome: .response(Track.Response())),
            ]
        ).write(to: file)

        let old = try await CLITests.run("lint", file.path, "--max-age", "90d")
        #expect(old.status == 1)
        let lines = old.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("\(file.path): tracks[0]: recorded ") == true)
        #expect(lines.first?.contains("(100 days ago), older than --max-age 90d") == true)
        #expect(try await CLITests.run("lint", file.path, "--max-age", "2000h").status == 1)
        #expect(try await CLITests.run("lint", file.path, "--max-age", "120d").status == 0)
        #expect(try await CLITests.run("lint", file.path).status == 0)
        for bad in ["90", "90w", "d", "-3d"] {
            let run = try await CLITests.run("lint", file.path, "--max-age", bad)
            #expect(run.status == 2 && run.stderr.contains("--max-age needs a number and a unit"), "\(bad)")
        }
    }

    /// Runs the executable with `environment` over this process's (see `ChildProcess`).
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CLITests.Run {
        let child = try await ChildProcess.run(
            try CLITests.binary(), arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        return CLITests.Run(status: child.status, stdout: child.stdout, stderr: child.stderr)
    }
}
