import Foundation
import Testing

@testable import Gramophone

/// Property tests: random tracks written in one format and read back keep method, URL,
/// headers, status and body bytes, whatever the bytes and content types.
@Suite struct FormatRoundTripTests {
    static let contentTypes: [String?] = [
        nil, "text/plain", "text/plain; charset=utf-8", "text/html", "application/json", "application/problem+json",
        "application/octet-stream", "image/png", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
    ]

    static func randomBody(_ rng: inout SplitMix64) -> Data {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: return Data()
        case 1: return Data((0..<Int.random(in: 1..<64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
        case 2: return Data([0xC3, 0x28, 0xFF]) + Data("text".utf8)  // invalid UTF-8
        case 3: return Data(#"{"id":1,"tags":["a","b"],"nested":{"x":1.50}}"#.utf8)
        case 4: return Data(#"{"id": 1, broken"#.utf8)  // invalid JSON
        case 5: return Data("héllo wörld ✓ \u{1F600}\n\ttab \"quote\" \\".utf8)
        default: return Data("   ".utf8)
        }
    }

    static func randomHeaders(_ rng: inout SplitMix64, contentType: String?) -> Headers {
        var headers = Headers()
        for index in 0..<Int.random(in: 0..<4, using: &rng) {
            headers.add(name: "X-Field-\(index)", value: String((0..<Int.random(in: 0..<20, using: &rng)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x21...0x7E, using: &rng))) }))
        }
        if Bool.random(using: &rng) {
            headers.add(name: "Set-Cookie", value: "a=1; Path=/")
            headers.add(name: "Set-Cookie", value: "b=2")
        }
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        return headers
    }

    static func randomURL(_ rng: inout SplitMix64) -> URL {
        var components = URLComponents()
        components.scheme = Bool.random(using: &rng) ? "https" : "http"
        components.host = "host\(Int.random(in: 0..<5, using: &rng)).example.com"
        if Bool.random(using: &rng) { components.port = Int.random(in: 1024..<65535, using: &rng) }
        components.path = "/" + (0..<Int.random(in: 0..<4, using: &rng)).map { "seg\($0) x" }.joined(separator: "/")
        if Bool.random(using: &rng) {
            components.queryItems = (0..<Int.random(in: 1..<4, using: &rng)).map { URLQueryItem(name: "k\($0)", value: ["v", "a b", "ü&=", ""].randomElement(using: &rng)) }
        }
        return components.url!
    }

    static func randomVinyl(seed: UInt64) -> Vinyl {
        var rng = SplitMix64(seed: seed)
        let tracks = (0..<Int.random(in: 1..<8, using: &rng)).map { _ -> Track in
            let requestType = contentTypes.randomElement(using: &rng)!
            let request = Track.Request(
                method: ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PROPFIND"].randomElement(using: &rng)!,
                url: randomURL(&rng), headers: randomHeaders(&rng, contentType: requestType), body: randomBody(&rng))
            let outcome: Track.Outcome
            if Int.random(in: 0..<10, using: &rng) == 0 {
                outcome = .failure(Track.Failure(.timedOut))
            } else {
                let responseType = contentTypes.randomElement(using: &rng)!
                outcome = .response(
                    Track.Response(
                        status: [200, 201, 204, 301, 404, 418, 500, 599].randomElement(using: &rng)!,
                        headers: randomHeaders(&rng, contentType: responseType), body: randomBody(&rng)))
            }
            return Track(
                request: request, outcome: outcome,
                recordedAt: Bool.random(using: &rng) ? Date(timeIntervalSince1970: 1_700_000_000.125) : nil,
                duration: Bool.random(using: &rng) ? 0.25 : nil)
        }
        return Vinyl(name: "random-\(seed)", tracks: tracks)
    }

    /// Header fields grouped by name in a stable order: JSON formats group repeats and sort names.
    static func normalised(_ headers: Headers) -> [Headers.Field] {
        headers.fields.enumerated().sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }.map(\.element)
    }

    static func expectSame(_ read: Vinyl, _ original: Vinyl, _ format: VinylFormat, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(read.tracks.count == original.tracks.count, "\(format) \(original.name): track count", sourceLocation: sourceLocation)
        for (index, (a, b)) in zip(read.tracks, original.tracks).enumerated() {
            let label = "\(format) \(original.name) track \(index)"
            #expect(a.request.method == b.request.method, "\(label) method", sourceLocation: sourceLocation)
            #expect(a.request.url.absoluteString == b.request.url.absoluteString, "\(label) url", sourceLocation: sourceLocation)
            #expect(normalised(a.request.headers) == normalised(b.request.headers), "\(label) request headers", sourceLocation: sourceLocation)
            #expect(a.request.body == b.request.body, "\(label) request body", sourceLocation: sourceLocation)
            switch (a.outcome, b.outcome) {
            case let (.response(x), .response(y)):
                #expect(x.status == y.status, "\(label) status", sourceLocation: sourceLocation)
                #expect(normalised(x.headers) == normalised(y.headers), "\(label) response headers", sourceLocation: sourceLocation)
                #expect(x.body == y.body, "\(label) response body", sourceLocation: sourceLocation)
            case let (.failure(x), .failure(y)):
                #expect(x.domain == y.domain && x.code == y.code, "\(label) error", sourceLocation: sourceLocation)
            default:
                Issue.record("\(label): outcome kind changed", sourceLocation: sourceLocation)
            }
        }
    }

    static let seeds: [UInt64] = Array(1...40)

    @Test(arguments: VinylFormat.allCases.filter(\.isWritable))
    func nativeToFormatAndBackKeepsEveryTrack(_ format: VinylFormat) throws {
        for seed in Self.seeds {
            let original = Self.randomVinyl(seed: seed)
            let written = try original.encoded(as: format)
            let read = try Vinyl(data: written, name: original.name)
            Self.expectSame(read, original, format)
            // And on to native JSON and back, the path `gramophone convert` takes.
            let native = try Vinyl(data: try read.encoded(as: .gramophone), name: original.name)
            Self.expectSame(native, original, format)
        }
    }

    @Test func generatorCoversTheHardCases() {
        // The property is only as good as its inputs: make sure the awkward bodies occur.
        let tracks = Self.seeds.flatMap { Self.randomVinyl(seed: $0).tracks }
        let responses = tracks.compactMap(\.response)
        #expect(responses.contains { $0.headers.mediaType == "text/plain" && !UTF8Validation.isValid($0.body) })
        #expect(responses.contains { $0.headers.mediaType == "application/json" && (try? JSONParser.parse($0.body)) == nil && !$0.body.isEmpty })
        #expect(responses.contains { $0.body.isEmpty })
        #expect(tracks.contains { $0.failure != nil })
        #expect(tracks.contains { $0.request.url.query != nil })
    }

    @Test func harKeepsDatesAndUnknownDatesStayUnknown() throws {
        let original = Self.randomVinyl(seed: 11)
        let read = try Vinyl(data: try original.encoded(as: .har), name: "other")
        #expect(read.tracks.map(\.recordedAt) == original.tracks.map(\.recordedAt))
        #expect(original.tracks.contains { $0.recordedAt == nil } && original.tracks.contains { $0.recordedAt != nil })
    }

    @Test func plistKeepsNamesDatesAndDurations() throws {
        let original = Self.randomVinyl(seed: 7)
        let read = try Vinyl(data: try original.encoded(as: .plist), name: "other")
        #expect(read.name == original.name)
        #expect(read.tracks.map(\.recordedAt) == original.tracks.map(\.recordedAt))
        #expect(read.tracks.map(\.duration) == original.tracks.map(\.duration))
        #expect(read == original)
    }
}
