import Foundation
import Gramophone
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Vinyl's `TrackTests` properties, ported: `TrackFactory`'s tracks built with Gramophone's track
/// builders (`Track(_:_:)`), and its base64, UTF-8 and JSON readers as a vinyl file in Vinyl's
/// format read by `Vinyl(data:name:)`. Each track is checked as Vinyl checked it, and as the
/// caller sees it replayed. A bad track created with an error is a response that then failed
/// (`.status(400).failing(with: error)`, `Track.Response.failure`).
@Suite struct VinylTrackTests {
    /// What a caller is handed for `track`'s request.
    private func replayed(_ track: Track) async throws -> (Data, HTTPURLResponse) {
        let turntable = Turntable(vinyl: Vinyl(name: "track", tracks: [track]))
        let (data, response) = try await turntable.data(for: URLRequest(url: track.request.url))
        return (data, try #require(response as? HTTPURLResponse))
    }

    /// Vinyl's `isValidTrack`: status 200, the body, the headers, the URL, on both sides.
    private func expectValid(_ track: Track, data: Data, headers: [String: String], url: String) async throws {
        #expect(track.response?.status == 200)
        #expect(track.response?.body == data)
        // Headers keep their order; Vinyl's are a dictionary.
        #expect(track.response.map { Dictionary($0.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }) } == headers)
        #expect(track.request.url.absoluteString == url)
        let (body, response) = try await replayed(track)
        #expect(response.statusCode == 200)
        #expect(body == data)
        var seen: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields { seen[name] = value }
        #expect(seen == headers)
        #expect(response.url?.absoluteString == url)
    }

    /// One track in Vinyl's own file format.
    private func vinylFile(url: String, body: Any, headers: [String: String]) throws -> Track {
        let track: [String: Any] = ["request": ["url": url], "response": ["url": url, "body": body, "status": 200, "headers": headers]]
        let data = try JSONSerialization.data(withJSONObject: [track])
        return try #require(try Vinyl(data: data, name: "vinyl").tracks.first)
    }

    @Test func badTracksContainNoBody() async throws {
        var cases = Cases(seed: 11)
        for _ in 0..<Cases.count {
            let url = cases.urlString()
            let track = Track(Track.Request(url: URL(string: url)!), .status(400))
            #expect(track.response?.status == 400)
            #expect(track.request.url.absoluteString == url)
            #expect(track.response?.body.isEmpty == true)
            let (body, response) = try await replayed(track)
            #expect(response.statusCode == 400)
            #expect(response.url?.absoluteString == url)
            #expect(body.isEmpty)
        }
    }

    /// Vinyl's `createBadTrack(url:statusCode:error:)` for any URL, error domain and positive code:
    /// the track has the status and the error, and replays both, as URLSession reports a transfer
    /// that failed after its response: the completion handler gets the response and the error.
    @Test func badTracksCreatedWithAnErrorReflectThatError() async throws {
        var cases = Cases(seed: 16)
        for _ in 0..<Cases.count {
            let url = cases.urlString()
            let domain = cases.string()
            let code = Int.random(in: 1...Int(Int32.max), using: &cases)
            let error = NSError(domain: domain, code: code)
            let track = Track(Track.Request(url: URL(string: url)!), .status(400).failing(with: error))
            #expect(track.response?.status == 400)
            #expect(track.response?.failure?.domain == domain)
            #expect(track.response?.failure?.code == code)

            let turntable = Turntable(vinyl: Vinyl(name: "track", tracks: [track]))
            let calls = HandlerCalls<HandlerCall>()
            turntable.dataTask(with: URL(string: url)!, completionHandler: calls.handler).resume()
            let call = try #require(await calls.first(1).first)
            #expect(call.status == 400)
            #expect(call.url == url)
            #expect(call.data == nil)
            let replayedError = try #require(call.error) as NSError
            #expect(replayedError.domain == domain)
            #expect(replayedError.code == code)
        }
    }

    @Test func wellMadeTracksAreWellMade() async throws {
        var cases = Cases(seed: 12)
        for _ in 0..<Cases.count {
            let url = cases.urlString()
            let data = Data(cases.string().utf8)
            let headers = cases.headers()
            let track = Track(Track.Request(url: URL(string: url)!), .data(data, contentType: nil, headers: Headers(headers)))
            try await expectValid(track, data: data, headers: headers, url: url)
        }
    }

    @Test func wellMadeTracksForBase64() async throws {
        var cases = Cases(seed: 13)
        for _ in 0..<Cases.count {
            let url = cases.urlString()
            let bytes = Data((0..<Int.random(in: 0...40, using: &cases)).map { _ in UInt8.random(in: 0...255, using: &cases) })
            // Vinyl's files hold a body of any other content type as base64.
            let headers = cases.headers().merging(["Content-Type": "application/octet-stream"]) { $1 }
            let track = try vinylFile(url: url, body: bytes.base64EncodedString(), headers: headers)
            try await expectValid(track, data: bytes, headers: headers, url: url)
        }
    }

    @Test func wellMadeTracksForUTF8() async throws {
        var cases = Cases(seed: 14)
        for _ in 0..<Cases.count {
            let url = cases.urlString()
            let body = cases.string()
            let headers = cases.headers().merging(["Content-Type": "text/plain"]) { $1 }
            let track = try vinylFile(url: url, body: body, headers: headers)
            try await expectValid(track, data: Data(body.utf8), headers: headers, url: url)
        }
    }

    @Test func wellMadeTracksForJSON() async throws {
        var cases = Cases(seed: 15)
        for _ in 0..<Cases.count {
            let url = cases.urlString()
            // Vinyl's `basicJSONDic`: string keys, string values.
            let json = Dictionary((0..<Int.random(in: 0...5, using: &cases)).map { _ in (cases.lowerString(), cases.string()) }, uniquingKeysWith: { $1 })
            let headers = cases.headers().merging(["Content-Type": "application/json"]) { $1 }
            let track = try vinylFile(url: url, body: json, headers: headers)
            // The body as JSON: the same value (Vinyl compared its own pretty-printed bytes).
            let body = try #require(track.response?.body)
            #expect(try JSONSerialization.jsonObject(with: body) as? [String: String] == json)
            let (replayedBody, response) = try await replayed(track)
            #expect(try JSONSerialization.jsonObject(with: replayedBody) as? [String: String] == json)
            #expect(response.statusCode == 200)
            var seen: [String: String] = [:]
            for case let (name as String, value as String) in response.allHeaderFields { seen[name] = value }
            #expect(seen == headers)
            #expect(response.url?.absoluteString == url)
            #expect(track.request.url.absoluteString == url)
        }
    }
}
