import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Compressed responses, recorded from the real local httpbin on every URLSession path: the
/// vinyl's headers describe the body it stores, `gramophone lint` passes it, the report says
/// what was rewritten, and each path replays the bytes it received live.
@Suite("Recording compressed responses")
struct EncodedBodyRecordingTests {
    enum Path: String, CaseIterable, Sendable {
        case turntable, urlProtocol, bytes
    }

    /// Fetches `url` through `turntable` the way `path` says, as client code would.
    static func fetch(_ url: URL, through turntable: Turntable, path: Path) async throws -> (Data, HTTPURLResponse) {
        switch path {
        case .turntable:
            let (body, response) = try await turntable.data(for: URLRequest(url: url))
            return (body, try #require(response as? HTTPURLResponse))
        case .urlProtocol:
            let session = turntable.makeURLSession()
            defer { session.finishTasksAndInvalidate() }
            let (body, response) = try await session.data(for: URLRequest(url: url))
            return (body, try #require(response as? HTTPURLResponse))
        case .bytes:
            let (bytes, response) = try await turntable.bytes(for: URLRequest(url: url))
            var body = Data()
            for try await byte in bytes { body.append(byte) }
            return (body, try #require(response as? HTTPURLResponse))
        }
    }

    @Test(.enabled(if: HTTPBin.isAvailable), arguments: Path.allCases)
    func aGzipResponseIsStoredSoLintPassesAndReplaysAsReceived(path: Path) async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = Locked<[String]>([])
        var recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment)
        recording.reportOutput = { line in reports.withLock { $0.append(line) } }

        var live: [Data] = []
        do {
            let recorder = try Turntable(vinylNamed: "compressed", from: .folder(folder), recording: recording)
            for route in ["gzip", "deflate"] {
                let (body, _) = try await Self.fetch(base.appendingPathComponent(route), through: recorder, path: path)
                // The client got the decoded JSON.
                #expect((try JSONSerialization.jsonObject(with: body) as? [String: Any])?[route == "gzip" ? "gzipped" : "deflated"] as? Bool == true)
                live.append(body)
            }
            let report = try #require(try recorder.eject())
            #expect(report.rewritten.map(\.description) == [#"response.headers "Content-Encoding" ×2"#], "\(report)")
            #expect(report.description.contains("rewrote: response.headers \"Content-Encoding\" ×2"), "\(report)")
        }

        let file = folder.appendingPathComponent("compressed.json")
        let vinyl = try Vinyl(contentsOf: file)
        for track in vinyl.tracks {
            let response = try #require(track.response)
            #expect(response.headers["Content-Encoding"] == nil)
            if let length = response.headers["Content-Length"] { #expect(Int(length) == response.body.count) }
        }
        let lint = try await CLITests.run("lint", file.path)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")

        let player = try Turntable(vinylNamed: "compressed", from: .folder(folder))
        for (offset, route) in ["gzip", "deflate"].enumerated() {
            let (body, response) = try await Self.fetch(base.appendingPathComponent(route), through: player, path: path)
            #expect(body == live[offset])
            #expect(response.value(forHTTPHeaderField: "Content-Encoding") == nil)
        }
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func keepingContentEncodingStoresTheHeadersAsReceived() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment)
        recording.keepsContentEncoding = true
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "kept", from: .folder(folder), recording: recording)
        let (live, _) = try await recorder.data(from: base.appendingPathComponent("gzip"))
        let report = try #require(try recorder.eject())
        #expect(report.rewritten.isEmpty)
        let track = try #require(try Vinyl(contentsOf: folder.appendingPathComponent("kept.json")).tracks.first)
        #expect(track.response?.headers["Content-Encoding"] == "gzip")
        #expect(track.response?.body == live)
    }

    @Test func lintJudgesEveryCompressionByTheStoredBytes() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = Data(#"{"ok":true}"#.utf8)
        func track(_ path: String, _ encoding: String, _ body: Data) -> Track {
            Track(
                request: Track.Request(url: URL(string: "https://api.example.com/\(path)")!),
                response: Track.Response(status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": encoding], body: body))
        }
        let gzipBytes = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03])
        let vinyl = Vinyl(
            name: "encodings",
            tracks: [
                track("a", "gzip", gzipBytes),  // still compressed: fine
                track("b", "br", json),  // decoded under br: a problem
                track("c", "deflate", json),  // decoded under deflate: a problem
                track("d", "identity", json),  // no compression: fine
            ])
        let file = folder.appendingPathComponent("encodings.json")
        try vinyl.write(to: file)
        let lint = try await CLITests.run("lint", file.path)
        #expect(lint.status == 1)
        let lines = lint.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("tracks[1].response.headers: Content-Encoding says br but the body is stored decoded") }, "\(lines)")
        #expect(lines.contains { $0.contains("tracks[2].response.headers: Content-Encoding says deflate but the body is stored decoded") }, "\(lines)")
        #expect(lines.count == 2, "\(lines)")
    }
}
