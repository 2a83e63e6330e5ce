import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `eject()` says it wrote: the file, the tracks added, every place the redaction changed,
/// once per write, on stderr unless quiet, and as a value a test helper can attach.
@Suite("Recording report")
struct RecordingReportTests {
    /// The lines the recorder printed, in place of stderr.
    final class Lines: Sendable {
        let lines = Locked<[String]>([])
        /// The reports; the notice that a new vinyl starts (NewVinylNoticeTests) is left out.
        var all: [String] { lines.withLock { $0 }.filter { !$0.hasPrefix("Gramophone: starting a new vinyl") } }
        func recording(_ environment: [String: String] = RecordingFixtures.localEnvironment) -> Recording {
            var recording = Recording(mode: .once, environment: environment)
            recording.reportOutput = { [lines] line in lines.withLock { $0.append(line) } }
            return recording
        }
    }

    static func echo(_ base: URL, _ password: String, attempt: Int) -> URLRequest {
        RecordingFixtures.request(
            "POST", base.appendingPathComponent("anything/login/\(attempt)"), headers: ["Authorization": "Bearer tok-5f4e3d2c1b0a", "Content-Type": "application/json"],
            body: Data(#"{"user":"ada","password":"\#(password)"}"#.utf8))
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func ejectReportsTheFileTheTracksAndEachRedactedPlaceOnce() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = Lines()
        let turntable = try Turntable(vinylNamed: "login", from: .folder(folder), recording: output.recording())
        _ = try await turntable.data(for: Self.echo(base, "hunter2-first", attempt: 1))
        _ = try await turntable.data(for: Self.echo(base, "hunter2-second", attempt: 2))
        let report = try #require(try turntable.eject())
        #expect(report.file.lastPathComponent == "login.json")
        #expect(report.tracksAdded == 2 && report.trackCount == 2)
        let places = Dictionary(report.redacted.map { ($0.place, $0.count) }, uniquingKeysWith: +)
        #expect(places[#"request.headers "Authorization""#] == 2, "\(report)")
        #expect(places[#"request.body JSON "password""#] == 2, "\(report)")
        // httpbin echoes what it was sent: the echo is redacted too, and said so.
        #expect(places[#"response.body JSON "json.password""#] == 2, "\(report)")
        #expect(places[#"response.body JSON "headers.Authorization""#] == 2, "\(report)")
        #expect(!places.keys.contains { $0.contains("user") }, "\(report)")
        // The length that follows the shorter body is not a redaction.
        #expect(!places.keys.contains { $0.contains("Content-Length") }, "\(report)")
        #expect(output.all == [report.description])
        #expect(report.description.hasPrefix("Gramophone: wrote 2 tracks to \(folder.appendingPathComponent("login.json").path) (2 in the file)"))
        #expect(report.description.contains(#"request.headers "Authorization" ×2"#))
        // Once: nothing new, nothing written, nothing said.
        #expect(try turntable.eject() == nil)
        #expect(output.all.count == 1)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func aReleasedTurntableReportsWhatItWrote() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = Lines()
        do {
            let turntable = try Turntable(vinylNamed: "released", from: .folder(folder), recording: output.recording())
            _ = try await turntable.data(from: base.appendingPathComponent("get"))
        }
        #expect(output.all.count == 1)
        #expect(output.all.first?.hasPrefix("Gramophone: wrote 1 track to ") == true)
        #expect(output.all.first?.hasSuffix("(1 in the file); nothing redacted") == true, "\(output.all)")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func quietKeepsTheReportOffStderrButReturnsIt() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = Lines()
        let recording = output.recording(["GRAMOPHONE_QUIET": "1"])
        #expect(recording.isQuiet)
        let turntable = try Turntable(vinylNamed: "quiet", from: .folder(folder), recording: recording)
        _ = try await turntable.data(from: base.appendingPathComponent("get"))
        #expect(try turntable.eject()?.tracksAdded == 1)
        #expect(output.all.isEmpty)
        // The property wins over the environment, either way.
        var loud = output.recording(["GRAMOPHONE_QUIET": "1"])
        loud.isQuiet = false
        #expect(!loud.isQuiet)
        #expect(!output.recording(["GRAMOPHONE_QUIET": "0"]).isQuiet)
    }

    /// The issue's stream: `data: {"token":"Hel"}` replayed as `<redacted>`. Now the tokens are
    /// kept, the report says nothing was redacted, and the replay gives the text back.
    @Test(.enabled(if: StreamServer.isAvailable))
    func streamedModelTokensAreKeptAndTheReportSaysSo() async throws {
        let url = try StreamServer.url("/tokens?gap=5")
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = Lines()
        let recorder = try Turntable(vinylNamed: "tokens", from: .folder(folder), recording: output.recording())
        let (bytes, _) = try await recorder.bytes(for: URLRequest(url: url))
        var live: [String] = []
        for try await event in bytes.events { live.append(event.data) }
        let report = try #require(try recorder.eject())
        #expect(report.redacted.isEmpty, "\(report)")
        #expect(report.description.hasSuffix("nothing redacted"))
        let player = try Turntable(vinylNamed: "tokens", from: .folder(folder))
        let (replayed, _) = try await player.bytes(for: URLRequest(url: url))
        var events: [String] = []
        for try await event in replayed.events { events.append(event.data) }
        #expect(events == live)
        #expect(events.prefix(3) == [#"{"token": "Hel"}"#, #"{"token": "lo"}"#, #"{"token": "!"}"#])
    }

    /// A credential in streamed events is still taken out, and the report names each place.
    @Test(.enabled(if: StreamServer.isAvailable))
    func redactedEventsAreCountedInTheReport() async throws {
        let url = try StreamServer.url("/secret?gap=5")
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = Lines()
        let recorder = try Turntable(vinylNamed: "secret", from: .folder(folder), recording: output.recording())
        let (bytes, _) = try await recorder.bytes(for: URLRequest(url: url))
        for try await _ in bytes.chunks {}
        let report = try #require(try recorder.eject())
        #expect(
            report.redacted == [
                RecordingReport.Redacted(place: #"response.body JSON "access_token""#, count: 1),
                RecordingReport.Redacted(place: #"response.body JSON "echo""#, count: 1),
            ], "\(report)")
    }
}
