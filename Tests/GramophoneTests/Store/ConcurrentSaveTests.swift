import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Several writers recording into one vinyl at once (parameterized test cases, two Turntables,
/// two test processes): a save merges with what is on disk at that moment, under a lock that
/// holds across processes, so no writer's tracks are lost to another's save.
@Suite("Concurrent saves")
struct ConcurrentSaveTests {
    /// The lines a recording printed, in place of stderr.
    final class Lines: Sendable {
        let lines = Locked<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func recording(_ mode: RecordMode) -> Recording {
            var recording = Recording(mode: mode, environment: [:])
            recording.reportOutput = { [lines] line in lines.withLock { $0.append(line) } }
            return recording
        }
    }

    static func url(_ base: URL, _ query: String) throws -> URL {
        try #require(URL(string: base.absoluteString + "/get?" + query))
    }

    static func queries(in file: URL) throws -> [String] {
        try Vinyl(contentsOf: file).tracks.map { $0.request.url.query ?? "" }.sorted()
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func twoTurntablesRecordingOneNewVinylKeepBothTracks() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = Lines()
        // Both open the vinyl before either saves: each starts from no file.
        let paris = try Turntable(vinylNamed: "cities", from: .folder(folder), recording: output.recording(.once))
        let oslo = try Turntable(vinylNamed: "cities", from: .folder(folder), recording: output.recording(.once))
        _ = try await paris.data(from: Self.url(base, "city=Paris"))
        _ = try await oslo.data(from: Self.url(base, "city=Oslo"))
        let first = try #require(try paris.eject())
        let second = try #require(try oslo.eject())
        let file = folder.appendingPathComponent("cities.json")
        #expect(try Self.queries(in: file) == ["city=Oslo", "city=Paris"])
        #expect(first.tracksAdded == 1 && first.trackCount == 1)
        #expect(second.tracksAdded == 1 && second.trackCount == 2, "\(second)")
        #expect(second.description.contains("(2 in the file, 1 merged from elsewhere)"), "\(second)")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func aRequestRecordedByTwoWritersIsKeptOnce() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = Lines()
        let one = try Turntable(vinylNamed: "shared", from: .folder(folder), recording: output.recording(.newEpisodes))
        let two = try Turntable(vinylNamed: "shared", from: .folder(folder), recording: output.recording(.newEpisodes))
        // Both need the same configuration, then their own city.
        _ = try await one.data(from: Self.url(base, "config=1"))
        _ = try await two.data(from: Self.url(base, "config=1"))
        _ = try await one.data(from: Self.url(base, "city=Lima"))
        _ = try await two.data(from: Self.url(base, "city=Rome"))
        try one.eject()
        let second = try #require(try two.eject())
        let file = folder.appendingPathComponent("shared.json")
        #expect(try Self.queries(in: file) == ["city=Lima", "city=Rome", "config=1"])
        #expect(second.tracksAdded == 1 && second.trackCount == 3, "\(second)")
        #expect(second.description.contains("1 already recorded by another writer"), "\(second)")

        // Another run in new_episodes mode replays all three and adds nothing.
        let again = try Turntable(vinylNamed: "shared", from: .folder(folder), recording: Recording(mode: .newEpisodes, session: OfflineSession(), environment: [:]))
        for query in ["config=1", "city=Lima", "city=Rome"] { _ = try await again.data(from: Self.url(base, query)) }
        #expect(try again.eject() == nil)
        #expect(try Vinyl(contentsOf: file).tracks.count == 3)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func reRecordingReplacesStaleTracksAndKeepsTheOtherWritersFreshOnes() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cities.json")
        let old = Date(timeIntervalSinceNow: -90 * 86_400)
        let stale = ["city=Paris", "city=Gone"].map { query in
            Track(request: Track.Request(url: URL(string: base.absoluteString + "/get?" + query)!), outcome: .text("stale"), recordedAt: old)
        }
        try Vinyl(name: "cities", tracks: stale).write(to: file)

        let output = Lines()
        let paris = try Turntable(vinylNamed: "cities", from: .folder(folder), recording: output.recording(.all))
        let oslo = try Turntable(vinylNamed: "cities", from: .folder(folder), recording: output.recording(.all))
        _ = try await paris.data(from: Self.url(base, "city=Paris"))
        _ = try await oslo.data(from: Self.url(base, "city=Oslo"))
        try paris.eject()
        let second = try #require(try oslo.eject())
        let vinyl = try Vinyl(contentsOf: file)
        #expect(vinyl.tracks.map { $0.request.url.query ?? "" }.sorted() == ["city=Oslo", "city=Paris"])
        #expect(!vinyl.tracks.contains { $0.recordedAt == nil || $0.recordedAt! < Date(timeIntervalSinceNow: -86_400) }, "no stale track survives")
        #expect(second.trackCount == 2, "\(second)")
        #expect(second.description.contains("1 merged from elsewhere"), "\(second)")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func twoProcessesRecordingOneVinylKeepEveryTrack() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let probe = try BuiltProducts.executable("GramophoneWriterProbe")
        let urls = { (writer: String) in (0..<5).map { base.absoluteString + "/get?writer=\(writer)&n=\($0)" } }
        // Each child opens the vinyl and records five tracks, says "ready", and saves only when
        // told: both have read the (missing) file before either writes it.
        let children = try ["a", "b"].map { writer in
            try HeldProbe(probe, ["--record", folder.path, "together", "new_episodes"] + urls(writer))
        }
        for child in children { try await child.waitUntilReady() }
        let results = try await withThrowingTaskGroup(of: HeldProbe.Result.self) { group in
            for child in children { group.addTask { try await child.release() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results { #expect(result.status == 0, "\(result.output)") }
        let queries = try Self.queries(in: folder.appendingPathComponent("together.json"))
        #expect(queries == (urls("a") + urls("b")).map { String($0.split(separator: "?")[1]) }.sorted())
        let merged = results.map(\.output).joined()
        #expect(merged.contains("(10 in the file, 5 merged from elsewhere)"), "\(merged)")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func newEpisodesIntoADVRCassetteKeepsItADVRCassette() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cassette.json")
        let existing = Track(request: Track.Request(url: try Self.url(base, "old=1")), outcome: .text("from DVR"), recordedAt: Date())
        try Vinyl(name: "cassette", tracks: [existing]).write(to: file, format: .dvr)

        let output = Lines()
        let turntable = try Turntable(vinylNamed: "cassette", from: .folder(folder), recording: output.recording(.newEpisodes))
        _ = try await turntable.data(from: Self.url(base, "new=1"))
        let report = try #require(try turntable.eject())
        let data = try Data(contentsOf: file)
        #expect(try VinylFormat.detect(data: data, fileExtension: "json") == .dvr)
        #expect(try Self.queries(in: file) == ["new=1", "old=1"])
        #expect(report.description.contains("kept as a DVR cassette"), "\(report)")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func newEpisodesIntoAHARFileKeepsItAHARFile() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("site.har")
        let existing = Track(request: Track.Request(url: try Self.url(base, "old=1")), outcome: .text("from the browser"), recordedAt: Date())
        try Vinyl(name: "site", tracks: [existing]).write(to: file, format: .har)

        let turntable = try Turntable(vinylNamed: "site.har", from: .folder(folder), recording: Lines().recording(.newEpisodes))
        _ = try await turntable.data(from: Self.url(base, "new=1"))
        let report = try #require(try turntable.eject())
        #expect(try VinylFormat.detect(data: Data(contentsOf: file), fileExtension: "har") == .har)
        #expect(try Self.queries(in: file) == ["new=1", "old=1"])
        #expect(report.format == .har && report.convertedFrom == nil && report.original == nil, "\(report)")
        #expect(report.description.contains("kept as a HAR file"), "\(report)")
    }

    @Test(.enabled(if: StreamServer.isAvailable))
    func aStreamRecordedIntoADVRCassetteConvertsItAndKeepsTheOriginal() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cassette.json")
        let existing = Track(request: Track.Request(url: URL(string: "https://api.example.com/old")!), outcome: .text("from DVR"), recordedAt: Date())
        try Vinyl(name: "cassette", tracks: [existing]).write(to: file, format: .dvr)
        let original = try Data(contentsOf: file)

        let output = Lines()
        let turntable = try Turntable(vinylNamed: "cassette", from: .folder(folder), recording: output.recording(.newEpisodes))
        let (bytes, _) = try await turntable.bytes(for: URLRequest(url: try StreamServer.url("/sse?count=3")))
        for try await _ in bytes {}
        let report = try #require(try turntable.eject())
        let kept = file.deletingLastPathComponent().appendingPathComponent("cassette.json.dvr-original")
        #expect(try Data(contentsOf: kept) == original, "the DVR original is kept where the report says")
        #expect(report.description.contains("converted from a DVR cassette"), "\(report)")
        #expect(report.description.contains(kept.path), "\(report)")
        #expect(try Vinyl(contentsOf: file).tracks.count == 2)
    }
}

extension ConcurrentSaveTests {
    @Test(arguments: [VinylFormat.dvr, .plist])
    func aConversationRecordedIntoAFormatWithoutOneConvertsItAndKeepsTheOriginal(format: VinylFormat) async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cassette.json")
        let existing = Track(request: Track.Request(url: URL(string: "https://api.example.com/old")!), outcome: .text("from before"), recordedAt: Date())
        try Vinyl(name: "cassette", tracks: [existing]).write(to: file, format: format)
        let original = try Data(contentsOf: file)

        let turntable = try Turntable(vinylNamed: "cassette", from: .folder(folder), recording: Lines().recording(.newEpisodes))
        // As a live conversation ends (WebSocketRecordingTests records them through the trait's client).
        let conversation = WebSocketConversation(messages: [.sent(.text("hi")), .received(.text("hello"))], end: .closed(code: 1000, by: .sent))
        let recorded = Track(request: Track.Request(url: URL(string: "wss://chat.example.com/socket")!), outcome: .response(.webSocket(conversation)))
        turntable.keepRecordedConversation(recorded, with: try #require(turntable.recorder))
        let report = try #require(try turntable.eject())

        let kept = folder.appendingPathComponent("cassette.json.\(format)-original")
        #expect(try Data(contentsOf: kept) == original, "the original is kept where the report says")
        #expect(report.convertedFrom == format && report.format == .gramophone, "\(report)")
        let written = try Vinyl(contentsOf: file)
        #expect(written.tracks.count == 2)
        #expect(written.tracks.contains { $0.response?.conversation == conversation })
    }
}

/// A `GramophoneWriterProbe --record` child that waits, after recording, until it is released.
final class HeldProbe: Sendable {
    struct Result: Sendable {
        var status: Int32
        var output: String
    }

    let process: Unchecked<Process>
    let input: Pipe
    let output: Pipe

    init(_ probe: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = probe
        process.arguments = arguments
        input = Pipe()
        output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        // Unchecked: the Process is started here and then only waited for, on one thread at a time.
        self.process = Unchecked(process)
        try process.run()
    }

    /// Reads the child's output until it says "ready" (it has opened the vinyl and recorded).
    func waitUntilReady() async throws {
        let handle = output.fileHandleForReading
        let said = try await offThePool { () -> String in
            var text = ""
            while !text.contains("ready\n") {
                let data = handle.readData(ofLength: 1)
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        try #require(said.contains("ready\n"), "the probe ended before it was ready: \(said)")
    }

    /// Tells the child to save, and waits for it to end.
    func release() async throws -> Result {
        input.fileHandleForWriting.write(Data("go\n".utf8))
        let process = process
        let handle = output.fileHandleForReading
        return try await offThePool {
            let rest = handle.readDataToEndOfFile()
            process.value.waitUntilExit()
            return Result(status: process.value.terminationStatus, output: String(decoding: rest, as: UTF8.self))
        }
    }
}
