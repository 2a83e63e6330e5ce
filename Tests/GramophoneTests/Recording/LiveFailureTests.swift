import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request that goes to the network while recording and fails there: the error says which
/// vinyl sent it live, in which mode, and that no track matched it; the client's own error stays
/// reachable as `underlyingError`.
@Suite("Live failures while recording")
struct LiveFailureTests {
    @Test func aLiveFailureWhileRecordingNamesTheVinylTheModeAndWhyItWentLive() async throws {
        let folder = try NewVinylNoticeTests.folderWithVinyls()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = NewVinylNoticeTests.Lines()
        let turntable = try Turntable(vinylNamed: "RESTClientTest/missingItem", from: .folder(folder), recording: output.recording())
        // Nothing listens on port 1 of the loopback: the real connection is refused.
        let url = try #require(URL(string: "http://127.0.0.1:1/items/1"))
        let error = await #expect(throws: LiveRequestError.self) { try await turntable.data(from: url) }
        let failure = try #require(error)
        let text = failure.description
        #expect(text.contains(#"vinyl "RESTClientTest/missingItem""#), "\(text)")
        #expect(text.contains("the record mode is once with a new vinyl"), "\(text)")
        #expect(text.contains("It went to the network because no track of vinyl"), "\(text)")
        #expect(text.contains("GET http://127.0.0.1:1/items/1"), "\(text)")
        #expect(text.contains(#"Did you mean "RESTClientTest/missingItems"?"#), "\(text)")
        #expect(failure.localizedDescription == text)
        // The client's own error stays reachable.
        #expect(failure.underlyingError is URLError, "\(failure.underlyingError)")
        #expect(failure.mode == .once && failure.isNewVinyl)
        #expect(turntable.playback.recordedCount == 0, "a failed request is not recorded")
    }
}
