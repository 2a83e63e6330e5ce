import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads, forms and JSON posts recorded from the real local httpbin through URLSession, then
/// replayed by a second run of the same client code: fresh multipart boundaries, new
/// timestamps and request ids, and still every request answered from the vinyl.
@Suite("Recording bodies, replaying them with what varies")
struct BodyRecordingTests {
    /// Client code as an app writes it: a new boundary, nonce and timestamp on every call.
    struct UploadClient {
        var session: any NetworkSession
        var base: URL

        func uploadAvatar(_ image: Data, caption: String) async throws -> Data {
            let boundary = "Boundary-\(UUID().uuidString)"
            var body = Data()
            func field(_ name: String, _ value: String) {
                body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
            }
            field("caption", caption)
            field("nonce", UUID().uuidString)
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"avatar.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
            body += image + Data("\r\n--\(boundary)--\r\n".utf8)
            var request = URLRequest(url: base.appendingPathComponent("post"))
            request.httpMethod = "POST"
            request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
            return try await session.data(for: request).0
        }

        func search(_ text: String) async throws -> Data {
            var request = URLRequest(url: base.appendingPathComponent("post"))
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            let query = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
            request.httpBody = Data("ts=\(Date().timeIntervalSince1970)&q=\(query)&page=1".utf8)
            return try await session.data(for: request).0
        }

        func report(_ ids: [Int]) async throws -> Data {
            var components = URLComponents(url: base.appendingPathComponent("anything/report"), resolvingAgainstBaseURL: false)!
            components.queryItems = [URLQueryItem(name: "ts", value: "\(Date().timeIntervalSince1970)"), URLQueryItem(name: "v", value: "2")]
            var request = URLRequest(url: components.url!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-Id")
            let items = ids.map { #"{"id":\#($0),"timestamp":\#(Date().timeIntervalSince1970)}"# }.joined(separator: ",")
            request.httpBody = Data(#"{"meta":{"requestId":"\#(UUID().uuidString)","client":"tests"},"items":[\#(items)]}"#.utf8)
            return try await session.data(for: request).0
        }
    }

    static let strategy: MatchingStrategy = [
        .method, .path, .query(ignoring: ["ts"]),
        .body(ignoring: ["nonce", "ts", "meta.requestId", "items[].timestamp"]),
    ]

    static let image = Data((0..<1_024).map { UInt8(($0 * 7) % 256) })

    @Test(.enabled(if: HTTPBin.isAvailable))
    func aSecondRunWithNewBoundariesAndVolatileFieldsReplaysTheFirst() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        var live: [Data] = []
        do {
            let recorder = try Turntable(
                vinylNamed: "bodies", from: .folder(folder), matching: Self.strategy,
                recording: Recording(mode: .newEpisodes, environment: RecordingFixtures.localEnvironment))
            let client = UploadClient(session: recorder, base: base)
            live.append(try await client.uploadAvatar(Self.image, caption: "me"))
            live.append(try await client.search("nina simone"))
            live.append(try await client.report([1, 2, 3]))
            #expect(recorder.playback.recordedCount == 3)
            try recorder.eject()
        }
        // httpbin saw the upload as a real multipart form: the bytes went over the wire as built.
        let echoed = try #require(try JSONSerialization.jsonObject(with: live[0]) as? [String: Any])
        #expect((echoed["form"] as? [String: Any])?["caption"] as? String == "me")
        #expect((echoed["files"] as? [String: Any])?["avatar"] != nil)

        let offline = OfflineSession()
        let player = try Turntable(
            vinylNamed: "bodies", from: .folder(folder), matching: Self.strategy,
            recording: Recording(mode: .never, session: offline, environment: RecordingFixtures.localEnvironment))
        let client = UploadClient(session: player, base: base)
        #expect(try await client.uploadAvatar(Self.image, caption: "me") == live[0])
        #expect(try await client.search("nina simone") == live[1])
        #expect(try await client.report([1, 2, 3]) == live[2])
        #expect(offline.requestCount == 0)

        // What really changed is still a miss, explained in the body's terms.
        do {
            _ = try await client.uploadAvatar(Self.image + Data([0]), caption: "me")
            Issue.record("a larger image must miss")
        } catch let error as TurntableError {
            let report = try #require(error.missReport)
            #expect(report.differences.contains(#"multipart part "avatar": 1,025 vs 1,024 bytes"#), "\(report)")
            #expect(report.differences.contains(#"multipart part "nonce": ignored"#), "\(report)")
        }
        do {
            _ = try await client.report([1, 2, 4])
            Issue.record("another id must miss")
        } catch let error as TurntableError {
            let report = try #require(error.missReport)
            #expect(report.differences.first == "body.items[2].id: 4 vs 3", "\(report)")
        }
    }
}
