import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A vinyl name with a typo must not quietly become a new recording: starting a new vinyl says
/// so once (the file, the mode, the nearest existing names), and a live request that fails
/// while recording says which vinyl sent it to the network, in which mode, and why.
@Suite("New vinyl notice")
struct NewVinylNoticeTests {
    final class Lines: Sendable {
        let lines = Locked<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func recording(_ mode: RecordMode = .once) -> Recording {
            var recording = Recording(mode: mode, environment: [:])
            recording.reportOutput = { [lines] line in lines.withLock { $0.append(line) } }
            return recording
        }
    }

    static func folderWithVinyls() throws -> URL {
        let folder = try TestFiles.temporaryFolder()
        let track = Track(request: Track.Request(url: URL(string: "https://api.example.com/items/1")!), outcome: .text("item"))
        for name in ["RESTClientTest/missingItems", "RESTClientTest/listsItems", "RESTClientTest/createsItem"] {
            try Vinyl(name: name, tracks: [track]).write(to: folder.appendingPathComponent(name + ".json"))
        }
        return folder
    }

    @Test func startingANewVinylSaysSoOnceWithTheNearestNames() async throws {
        let folder = try Self.folderWithVinyls()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = Lines()
        let turntable = try Turntable(vinylNamed: "RESTClientTest/missingItem", from: .folder(folder), recording: output.recording())
        #expect(turntable.playback.isNew)
        // Nothing yet: a test that asks its new vinyl for nothing (stubs only) is not told.
        #expect(output.all.isEmpty)
        // Nothing listens on port 1 of the loopback: the first live request says where it comes from.
        let url = try #require(URL(string: "http://127.0.0.1:1/items/1"))
        _ = try? await turntable.data(from: url)
        let file = folder.appendingPathComponent("RESTClientTest/missingItem.json")
        #expect(output.all.count == 1)
        let notice = try #require(output.all.first)
        #expect(notice.contains(#"starting a new vinyl "RESTClientTest/missingItem""#), "\(notice)")
        #expect(notice.contains(file.path), "\(notice)")
        #expect(notice.contains("record mode once"), "\(notice)")
        #expect(notice.contains(#"Did you mean "RESTClientTest/missingItems"?"#), "\(notice)")

        // Once per vinyl: a second Turntable (a parameterized test's next case) says nothing.
        let next = try Turntable(vinylNamed: "RESTClientTest/missingItem", from: .folder(folder), recording: output.recording())
        _ = try? await next.data(from: url)
        #expect(output.all.count == 1)
    }
}
