import Foundation
import Gramophone
import GramophoneTestSupport
import GramophoneTesting
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `VinylTestCase` recording against the local httpbin, with the YAHTTPVCR-style hook that
/// re-records tests whose name carries a marker.
final class RecordingXCTests: VinylTestCase {
    override class var vinylDefaults: VinylConfiguration {
        VinylConfiguration(store: .folder(RecordingFolder.root), mode: .newEpisodes, recording: Recording(environment: [:]))
    }

    /// A stale vinyl is written here, just before the vinyl is opened (before setUp).
    override func configureVinyl(_ configuration: inout VinylConfiguration) {
        if name.contains("Rerecord") {
            configuration.mode = .all
            let stale = Vinyl(name: "stale", tracks: [Track("GET http://127.0.0.1:1/uuid", .text("stale"))])
            XCTAssertNoThrow(try stale.write(to: RecordingFolder.root.appendingPathComponent("RecordingXCTests/testRerecordMarkerReplacesTheVinyl.json")))
        }
    }

    private func httpbin() throws -> URL {
        if let url = HTTPBin.url { return url }
        try XCTSkipUnless(HTTPBin.isRequired, "GRAMOPHONE_HTTPBIN is not set: run the suite with scripts/test")
        return try XCTUnwrap(HTTPBin.url, "GRAMOPHONE_HTTPBIN is not set but the suite requires it")
    }

    func testRecordsThenReplaysOffline() async throws {
        let uuidURL = try httpbin().appendingPathComponent("uuid")
        let recorded = try await turntable.data(from: uuidURL).0
        try turntable.eject()
        XCTAssertEqual(vinyl?.name, "RecordingXCTests/testRecordsThenReplaysOffline")

        let offline = VinylConfiguration(store: .folder(RecordingFolder.root), mode: .never, recording: Recording(session: NoNetwork(), environment: [:]))
        let replay = try TestVinyl(name: "RecordingXCTests/testRecordsThenReplaysOffline", configuration: offline)
        let replayed = try await replay.turntable.data(from: uuidURL).0
        XCTAssertEqual(replayed, recorded)
        XCTAssertTrue(replay.finish().isEmpty)
    }

    func testRerecordMarkerReplacesTheVinyl() async throws {
        let uuidURL = try httpbin().appendingPathComponent("uuid")
        let body = try await turntable.data(from: uuidURL).0
        XCTAssertNotEqual(String(decoding: body, as: UTF8.self), "stale")
        XCTAssertEqual(turntable.playback.mode, .all)
        try turntable.eject()
        let saved = try Vinyl(contentsOf: RecordingFolder.root.appendingPathComponent("RecordingXCTests/testRerecordMarkerReplacesTheVinyl.json"))
        XCTAssertEqual(saved.tracks.map(\.request.url.path), ["/uuid"])
    }
}
