import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a fixture file says a track answers, read with Foundation's own JSON reader so the
/// check does not lean on the decoders it checks.
struct ExpectedTrack {
    enum Body {
        case bytes(Data)
        /// A JSON value stored in the file: compared as JSON, since the file's layout is not the body's.
        case json(Any)
    }

    var method: String
    var url: String
    var status: Int
    var headers: [String: String]
    var body: Body
}

enum FixtureExpectations {
    /// The tracks a DVR, Vinyl or HAR fixture holds, by the rules its writer followed.
    static func tracks(in file: URL) throws -> [ExpectedTrack] {
        var text = try String(contentsOf: file, encoding: .utf8)
        // The Vinyl library's fixtures have trailing commas, which Foundation refuses.
        text = text.replacingOccurrences(of: #",(\s*[}\]])"#, with: "$1", options: .regularExpression)
        let document = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        if let object = document as? [String: Any], let log = object["log"] as? [String: Any] {
            return try (log["entries"] as? [[String: Any]] ?? []).map(harEntry)
        }
        if let object = document as? [String: Any], let interactions = object["interactions"] as? [[String: Any]] {
            return try interactions.map { try track($0, textWithoutType: false) }
        }
        let items = try #require(document as? [[String: Any]], "\(file.lastPathComponent) is not a list of tracks")
        return try items.map { try track($0, textWithoutType: true) }
    }

    private static func track(_ item: [String: Any], textWithoutType: Bool) throws -> ExpectedTrack {
        let request = try #require(item["request"] as? [String: Any])
        let response = try #require(item["response"] as? [String: Any])
        let headers = response["headers"] as? [String: String] ?? [:]
        let type = headers.first { $0.key.lowercased() == "content-type" }?.value.lowercased()
        let body: ExpectedTrack.Body
        switch response["body"] {
        case nil, is NSNull: body = .bytes(Data())
        case let string as String:
            if let type, type.hasPrefix("text/") {
                body = .bytes(Data(string.utf8))
            } else if type == nil && textWithoutType {
                body = .bytes(Data(string.utf8))
            } else {
                body = .bytes(try #require(Data(base64Encoded: string), "a DVR body under \(type ?? "no type") is base64"))
            }
        case let value?: body = .json(value)
        }
        return ExpectedTrack(
            method: request["method"] as? String ?? "GET", url: try #require(request["url"] as? String),
            status: try #require(response["status"] as? Int), headers: headers, body: body)
    }

    private static func harEntry(_ entry: [String: Any]) throws -> ExpectedTrack {
        let request = try #require(entry["request"] as? [String: Any])
        let response = try #require(entry["response"] as? [String: Any])
        var headers: [String: String] = [:]
        for field in response["headers"] as? [[String: String]] ?? [] {
            headers[field["name"] ?? ""] = field["value"]
        }
        let content = response["content"] as? [String: Any] ?? [:]
        var body = Data((content["text"] as? String ?? "").utf8)
        if content["encoding"] as? String == "base64" { body = try #require(Data(base64Encoded: content["text"] as? String ?? "")) }
        return ExpectedTrack(
            method: request["method"] as? String ?? "GET", url: try #require(request["url"] as? String),
            status: try #require(response["status"] as? Int), headers: headers, body: .bytes(body))
    }
}

enum Replay {
    /// Plays every track of `vinyl` through a Turntable, in order, and checks each answer
    /// against what the fixture file says.
    /// - Parameter headersDroppedByHAR: HAR stores bodies decoded, so its reader drops a stale
    ///   `Content-Encoding` and `Content-Length`; those two are not compared then.
    static func check(
        _ vinyl: Vinyl, against expected: [ExpectedTrack], headersDroppedByHAR: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try #require(vinyl.tracks.count == expected.count, "track count", sourceLocation: sourceLocation)
        let turntable = Turntable(vinyl: vinyl, matching: .trackOrder(checking: [.method, .url]))
        for (index, expectation) in expected.enumerated() {
            var request = URLRequest(url: try #require(URL(string: expectation.url)))
            request.httpMethod = expectation.method
            let (body, response) = try await turntable.data(for: request)
            let http = try #require(response as? HTTPURLResponse, sourceLocation: sourceLocation)
            #expect(http.statusCode == expectation.status, "track \(index) status", sourceLocation: sourceLocation)
            for (name, value) in expectation.headers {
                if headersDroppedByHAR && ["content-encoding", "content-length"].contains(name.lowercased()) { continue }
                #expect(http.value(forHTTPHeaderField: name) == value, "track \(index) header \(name)", sourceLocation: sourceLocation)
            }
            switch expectation.body {
            case .bytes(let bytes):
                #expect(body == bytes, "track \(index) body bytes", sourceLocation: sourceLocation)
            case .json(let value):
                // Same JSON, compared in one canonical spelling (sorted keys) on every platform.
                let replayed = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
                let canonical: (Any) throws -> Data = { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .fragmentsAllowed]) }
                #expect(try canonical(replayed) == canonical(value), "track \(index) JSON body", sourceLocation: sourceLocation)
            }
        }
        #expect(turntable.playback.allPlayed, sourceLocation: sourceLocation)
    }
}

/// A small seeded generator, so a failing property test can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Test files of this capability (small fixtures written for these tests).
enum FormatFiles {
    static func resource(_ path: String) -> URL {
        // Our folders sit beside Fixtures in the copied Resources folder.
        TestFiles.fixtures.deletingLastPathComponent().appendingPathComponent(path)
    }
}

/// Expects `read` to refuse its input as malformed, naming `place` and saying `problem`.
func expectMalformed(place: String, problem: String, sourceLocation: SourceLocation = #_sourceLocation, _ read: () throws -> Void) {
    do {
        try read()
        Issue.record("read malformed input", sourceLocation: sourceLocation)
    } catch let error as VinylError {
        #expect(error.kind == .malformed, sourceLocation: sourceLocation)
        #expect(error.place == place, sourceLocation: sourceLocation)
        #expect(error.problem.contains(problem), "\(error.problem)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}
