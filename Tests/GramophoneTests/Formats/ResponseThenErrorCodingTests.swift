import Foundation
import Testing

@testable import Gramophone

/// A transfer that failed after its response (`Track.Response.failure`) in every writable
/// format: Gramophone's vinyl keeps it as its stream's end, HAR as Chrome's `_error` beside the
/// status, DVR and property lists as an `error` beside the response.
@Suite struct ResponseThenErrorCodingTests {
    static let failure = Track.Failure(domain: "com.example.feed", code: 42, description: "the feed broke off")
    static let vinyl = Vinyl(
        name: "broken",
        tracks: [
            Track("GET https://api.example.com/bad", .status(400).failing(with: NSError(domain: "com.example.feed", code: 42, userInfo: [NSLocalizedDescriptionKey: "the feed broke off"]))),
            Track("GET https://api.example.com/partial", .text("half a bo", status: 200).failing(with: URLError(.networkConnectionLost))),
        ])

    @Test func theBuilderSetsTheResponsesFailure() throws {
        let response = try #require(Self.vinyl.tracks[0].response)
        #expect(response.status == 400)
        #expect(response.body.isEmpty)
        #expect(response.failure == Self.failure)
        #expect(Self.vinyl.tracks[1].response?.failure?.code == URLError.Code.networkConnectionLost.rawValue)
        #expect(Self.vinyl.tracks[1].response?.body == Data("half a bo".utf8))
    }

    @Test func removingTheFailureGivesTheResponseBackAsItWas() throws {
        var response = try #require(Self.vinyl.tracks[1].response)
        response.failure = nil
        #expect(response == Track.Response(status: 200, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data("half a bo".utf8)))
    }

    @Test(arguments: [VinylFormat.gramophone, .har, .dvr, .plist])
    func roundTrips(format: VinylFormat) throws {
        let read = try Vinyl(data: try Self.vinyl.encoded(as: format), name: "broken", format: format)
        #expect(read.tracks.map(\.request) == Self.vinyl.tracks.map(\.request))
        #expect(read.tracks.map { $0.response?.status } == [400, 200])
        #expect(read.tracks.map { $0.response?.body } == Self.vinyl.tracks.map { $0.response?.body })
        #expect(read.tracks.map { $0.response?.failure } == Self.vinyl.tracks.map { $0.response?.failure })
        #expect(read.issues.isEmpty)
    }

    @Test func gramophonesVinylWritesItAsTheStreamsEnd() throws {
        let text = String(decoding: try Self.vinyl.encoded(as: .gramophone), as: UTF8.self)
        let written = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let tracks = try #require(written["tracks"] as? [[String: Any]])
        let stream = try #require((tracks[0]["response"] as? [String: Any])?["stream"] as? [String: Any])
        #expect((stream["chunks"] as? [Any])?.isEmpty == true)
        let error = try #require((stream["end"] as? [String: Any])?["error"] as? [String: Any])
        #expect(error["domain"] as? String == "com.example.feed")
        #expect(error["code"] as? Int == 42)
        #expect(tracks[0]["error"] == nil)
    }

    /// A recording into a HAR, DVR or property-list file keeps that format when it can hold the
    /// tracks: a response that then failed, body in one piece, it can; a stream's chunks and
    /// times only Gramophone's vinyl holds (a property list dropped them).
    @Test func aFileKeepsItsFormatWhenItCanHoldTheTracks() throws {
        for format in [VinylFormat.har, .dvr, .plist, .gramophone] { #expect(format.canHold(Self.vinyl), "\(format)") }
        var streamed = Track.Response(status: 200, body: Data("ab".utf8))
        streamed.stream = TrackStream(chunks: [.init(offset: 0.01, length: 1), .init(offset: 0.02, length: 1)], end: .failed(Self.failure))
        let recorded = Vinyl(name: "streamed", tracks: [Track(request: "https://api.example.com/sse", outcome: .response(streamed))])
        for format in [VinylFormat.har, .dvr, .plist] { #expect(!format.canHold(recorded), "\(format)") }
        #expect(VinylFormat.gramophone.canHold(recorded))
    }

    /// An `error` beside the `response`, as DVR cassettes hold it, reads the same in a Gramophone
    /// vinyl; one that contradicts the stream's end is refused with its place.
    @Test func anErrorBesideTheResponseIsTheStreamsEnd() throws {
        let beside = #"""
            [{"request": {"url": "https://api.example.com/bad"}, "response": {"status": 400},
              "error": {"domain": "com.example.feed", "code": 42, "description": "the feed broke off"}}]
            """#
        #expect(try Vinyl(data: Data(beside.utf8), name: "beside").tracks.first?.response?.failure == Self.failure)
        let both = #"""
            [{"request": {"url": "https://api.example.com/bad"},
              "response": {"status": 400, "stream": {"chunks": [], "end": {"error": {"domain": "a", "code": 1}}}},
              "error": {"domain": "b", "code": 2}}]
            """#
        #expect { try Vinyl(data: Data(both.utf8), name: "both") } throws: { error in
            (error as? VinylError)?.place?.contains("error") == true
        }
    }

    /// Chrome writes `_error` beside the status for a body cut short (and `null` when nothing failed).
    @Test func chromesErrorBesideAStatusReadsAsAFailureAfterTheResponse() throws {
        let har = #"""
            {"log": {"entries": [
              {"request": {"method": "GET", "url": "https://example.com/video"},
               "response": {"status": 200, "headers": [], "content": {"size": 4, "mimeType": "text/plain", "text": "abcd"},
                            "_error": "net::ERR_INCOMPLETE_CHUNKED_ENCODING"}},
              {"request": {"method": "GET", "url": "https://example.com/ok"},
               "response": {"status": 200, "headers": [], "content": {"size": 2, "text": "ok"}, "_error": null}}
            ]}}
            """#
        let vinyl = try Vinyl(data: Data(har.utf8), name: "chrome", format: .har)
        let failure = try #require(vinyl.tracks[0].response?.failure)
        #expect(failure.code == URLError.Code.networkConnectionLost.rawValue)
        #expect(failure.description == "net::ERR_INCOMPLETE_CHUNKED_ENCODING")
        #expect(vinyl.tracks[0].response?.body == Data("abcd".utf8))
        #expect(vinyl.tracks[1].response?.failure == nil)
    }
}
