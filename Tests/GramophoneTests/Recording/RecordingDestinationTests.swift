import Foundation
import Gramophone
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 45: `Recording.writing(to:)` plays a vinyl from its store and writes the whole vinyl,
/// played and recorded tracks, to a file the user names (Vinyl's `recordingPath`), merging with
/// what that file holds as any write does. The "network" here is another Turntable, as in
/// Vinyl's own recording tests.
@Suite struct RecordingDestinationTests {
    let users = URL(string: "https://api.example.com/users")!
    let posts = URL(string: "https://api.example.com/posts")!
    let tags = URL(string: "https://api.example.com/tags")!

    /// A folder holding the played vinyl (`played.json`, one track for `users`), and a network
    /// that answers `posts` and `tags`.
    private func setUp() throws -> (folder: URL, network: Turntable) {
        let folder = try TestFiles.temporaryFolder()
        try Vinyl(name: "played", tracks: [Track("GET https://api.example.com/users", .text("alice"))]).write(to: folder.appendingPathComponent("played.json"))
        let network = Turntable(
            vinyl: Vinyl(
                name: "network",
                tracks: [Track("GET https://api.example.com/posts", .text("post")), Track("GET https://api.example.com/tags", .text("tag"))]),
            matching: [.method, .url])
        return (folder, network)
    }

    private func turntable(_ folder: URL, _ network: Turntable, _ mode: RecordMode, to file: URL) throws -> Turntable {
        let recording = Recording(mode: mode, session: network, environment: [:]).writing(to: file)
        return try Turntable(vinylNamed: "played", from: .folder(folder), matching: [.method, .url], recording: recording)
    }

    @Test func writesTheWholeVinylToTheDestinationAndLeavesThePlayedFile() async throws {
        let (folder, network) = try setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let played = try Data(contentsOf: folder.appendingPathComponent("played.json"))
        let destination = folder.appendingPathComponent("out/recorded.json")
        let turntable = try turntable(folder, network, .newEpisodes, to: destination)
        _ = try await turntable.data(from: users)
        _ = try await turntable.data(from: posts)
        let report = try #require(try turntable.eject())
        #expect(report.file == destination)
        #expect(report.copiedFrom?.lastPathComponent == "played.json")
        #expect(report.copiedCount == 1)
        #expect(report.tracksAdded == 2)
        #expect(report.description.contains("1 copied from"))
        #expect(try Vinyl(contentsOf: destination).tracks.map(\.request.url) == [users, posts])
        #expect(try Data(contentsOf: folder.appendingPathComponent("played.json")) == played)
    }

    @Test func aLaterRunMergesIntoTheDestinationWithoutCopyingTwice() async throws {
        let (folder, network) = try setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("recorded.json")
        let first = try turntable(folder, network, .newEpisodes, to: destination)
        _ = try await first.data(from: posts)
        try first.eject()
        let second = try turntable(folder, network, .newEpisodes, to: destination)
        _ = try await second.data(from: tags)
        let report = try #require(try second.eject())
        #expect(report.copiedCount == 0)
        #expect(report.tracksAdded == 1)
        #expect(try Vinyl(contentsOf: destination).tracks.map(\.request.url) == [users, posts, tags])
    }

    @Test func onceRecordsOnlyWhenThePlayedVinylIsMissing() async throws {
        let (folder, network) = try setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("recorded.json")
        let present = try turntable(folder, network, .once, to: destination)
        await #expect(throws: TurntableError.self) { _ = try await present.data(from: posts) }
        #expect(try present.eject() == nil)
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        let missing = try Turntable(
            vinylNamed: "absent", from: .folder(folder), matching: [.method, .url],
            recording: Recording(mode: .once, session: network, environment: [:]).writing(to: destination))
        _ = try await missing.data(from: posts)
        #expect(try missing.eject()?.trackCount == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("absent.json").path))
    }

    @Test func evenIfUnchangedWritesThePlayedVinyl() async throws {
        let (folder, network) = try setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("copy.json")
        let turntable = try turntable(folder, network, .newEpisodes, to: destination)
        _ = try await turntable.data(from: users)
        #expect(try turntable.eject() == nil)
        let report = try #require(try turntable.eject(evenIfUnchanged: true))
        #expect(report.copiedCount == 1)
        #expect(try Vinyl(contentsOf: destination).tracks.map(\.request.url) == [users])
        // Once copied, a second forced write finds nothing to copy and keeps the file's track.
        #expect(try turntable.eject(evenIfUnchanged: true)?.trackCount == 1)
    }
}
