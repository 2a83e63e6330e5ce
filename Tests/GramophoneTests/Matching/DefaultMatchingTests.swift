import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default strategy tells apart requests that differ only in their body, recording and
/// replaying, as a user of DVR or Polly expects; `[.method, .url]` is the way back.
@Suite("Default matching compares bodies")
struct DefaultMatchingTests {
    static func order(_ json: String, to url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        return request
    }

    static func upload(to url: URL) -> URLRequest {
        let boundary = "Boundary-\(UUID().uuidString)"
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"receipt\"; filename=\"r.txt\"\r\nContent-Type: text/plain\r\n\r\nlatte x3\r\n--\(boundary)--\r\n".utf8)
        return request
    }

    /// The `json` httpbin echoed: what the server saw.
    static func echoedOrder(_ body: Data) throws -> String? {
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        return (object["json"] as? [String: Any])?["order"] as? String
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func postsDifferingOnlyInTheirBodyGetTheirOwnTracks() async throws {
        let url = try HTTPBin.baseURL().appendingPathComponent("anything/chat")
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        do {
            let recorder = try Turntable(
                vinylNamed: "orders", from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
            #expect(try Self.echoedOrder(try await recorder.data(for: Self.order(#"{"order": "espresso", "count": 2}"#, to: url)).0) == "espresso")
            // Same method and URL, another body: recorded, not answered by the espresso track.
            #expect(try Self.echoedOrder(try await recorder.data(for: Self.order(#"{"order": "latte", "count": 3}"#, to: url)).0) == "latte")
            // A multipart upload after a JSON POST to the same URL is a track of its own.
            let uploaded = try await recorder.data(for: Self.upload(to: url)).0
            let echoed = try #require(try JSONSerialization.jsonObject(with: uploaded) as? [String: Any])
            #expect((echoed["files"] as? [String: Any])?["receipt"] as? String == "latte x3")
            // A GET has no body: a track of its own.
            _ = try await recorder.data(from: url)
            #expect(recorder.playback.recordedCount == 4)
            try recorder.eject()
        }

        let player = try Turntable(vinylNamed: "orders", from: .folder(folder))
        // JSON compares by value: key order and spacing are not a difference.
        #expect(try Self.echoedOrder(try await player.data(for: Self.order(#"{"count":3,"order":"latte"}"#, to: url)).0) == "latte")
        #expect(try Self.echoedOrder(try await player.data(for: Self.order(#"{"order":"espresso","count":2}"#, to: url)).0) == "espresso")
        let replayedUpload = try await player.data(for: Self.upload(to: url)).0
        #expect((try JSONSerialization.jsonObject(with: replayedUpload) as? [String: Any])?["files"] != nil)
        _ = try await player.data(from: url)
        // An order never recorded is a miss that names the body's difference.
        do {
            _ = try await player.data(for: Self.order(#"{"order": "mocha", "count": 3}"#, to: url))
            Issue.record("an order never recorded must miss")
        } catch let error as TurntableError {
            let report = try #require(error.missReport)
            // The advice names the way to leave a varying place out, and the way back.
            #expect(report.differences == [#"body.order: "mocha" vs "latte""#], "\(report)")
            #expect(report.advice.contains(#".body(ignoring: ["order"])"#), "\(report.advice)")
            #expect(report.advice.hasSuffix("or match without bodies (matching: [.method, .url])."), "\(report.advice)")
        }

        // The way back: method and URL only, the first track answers every POST.
        let loose = try Turntable(vinylNamed: "orders", from: .folder(folder), matching: [.method, .url])
        #expect(try Self.echoedOrder(try await loose.data(for: Self.order(#"{"order": "mocha", "count": 1}"#, to: url)).0) == "espresso")
    }

    @Test func theDefaultIsMethodURLAndBody() {
        #expect(MatchingStrategy.default.description == "method, url, body")
        let wayBack: MatchingStrategy = [.method, .url]
        #expect(wayBack.description == "method, url")
    }
}
