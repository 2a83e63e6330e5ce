// Fuzz target: the matcher. Builds a vinyl and a strategy from the fuzz bytes, then plays
// live requests against it: every request gets a track or a miss report, never a crash; and
// the URL-part matchers, which compare parts, answer as comparing their text would.
// fuzz-seeds: vinyl dvr
// fuzz-max-len: 2048
import Foundation

@testable import Gramophone

private let methods = ["GET", "POST", "PUT", "DELETE", "get", "PATCH", "HEAD"]
private let urlPieces = [
    "https://", "http://", "api.example.com", "EXAMPLE.com", ":443", ":80", ":8080", "/", "/users", "/42",
    "?", "&", "=", "page=1", "a=", "#frag", "%20", "%zz", "[::1]", "@", "ws://", "file:///", "mailto:x",
]
private let headerNames = ["Content-Type", "content-type", "Accept", "X-Id", "Authorization"]
private let headerValues = ["application/json", "application/x-www-form-urlencoded", "text/plain", "image/png", "", "1"]
private let bodies = [#"{"a":1,"b":[1,2]}"#, #"{"b":[1,2],"a":1.0}"#, "a=1&b=2", "b=2&a=1", "[", "", " {}"]

private func request(_ input: inout FuzzBytes) -> Track.Request? {
    guard let url = URL(string: input.text(from: urlPieces)) else { return nil }
    var request = Track.Request(method: input.pick(methods), url: url)
    for _ in 0..<input.int(3) { request.headers.add(name: input.pick(headerNames), value: input.pick(headerValues)) }
    switch input.int(3) {
    case 0: request.body = Data(input.pick(bodies).utf8)
    case 1: request.body = input.data(limit: 16)
    default: break
    }
    return request
}

private func strategy(_ input: inout FuzzBytes) -> MatchingStrategy {
    let all: [Matcher] = [
        .method, .url, .scheme, .host, .port, .path, .query, .body, .headers("Content-Type", "X-Id"),
        .custom("same body size") { $0.body.count == $1.body.count },
    ]
    var matchers: [Matcher] = []
    for _ in 0..<input.int(5) { matchers.append(input.pick(all)) }
    switch input.int(3) {
    case 0: return .trackOrder(checking: matchers)
    case 1: return .attributes(matchers, playOnce: true)
    default: return .attributes(matchers)
    }
}

/// The URL-part matchers compare parts, not built text; their answer must be the texts' answer.
private func checkPartMatchers(_ live: Track.Request, against tracks: [Track]) {
    let liveParts = RequestParts(live)
    for track in tracks {
        let parts = RequestParts(track.request)
        for matcher in [Matcher.method, .url, .scheme, .host, .port, .path, .query]
        where matcher.matches(live: live, liveParts: liveParts, recorded: track.request, recordedParts: parts)
            != (matcher.keyComponent(liveParts) == matcher.keyComponent(parts))
        {
            fuzzFailure("\(matcher) compares \(live.url.absoluteString) with \(track.request.url.absoluteString) unlike its text")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: data, count: size))
    var tracks: [Track] = []
    for _ in 0..<input.int(8) {
        guard let recorded = request(&input) else { continue }
        let outcome: Track.Outcome = input.byte() & 1 == 0 ? .status(200 + input.int(400)) : .error(.timedOut)
        tracks.append(Track(request: recorded, outcome: outcome))
    }
    let turntable = Turntable(vinyl: Vinyl(name: "fuzz", tracks: tracks), matching: strategy(&input))
    var answered = 0, missed = 0
    // A bounded number of requests keeps each run fast; the corpus covers long sequences.
    while !input.isExhausted, answered + missed < 16 {
        guard let live = request(&input) else { continue }
        checkPartMatchers(live, against: tracks)
        // The way through without stubs or a recorder: the vinyl, then a miss.
        let answer = turntable.play(live) ?? turntable.miss(live)
        if let index = answer.trackIndex {
            guard tracks.indices.contains(index) else { fuzzFailure("answered from track \(index) of \(tracks.count)") }
            answered += 1
        } else {
            guard case .failure(let error) = answer.outcome, let miss = (error as? TurntableError)?.missReport else {
                fuzzFailure("a request without a track did not get a miss report")
            }
            _ = miss.description
            missed += 1
        }
    }
    let playback = turntable.playback
    guard playback.requestsAnswered == answered, playback.misses == missed else {
        fuzzFailure("playback counted \(playback.requestsAnswered)/\(playback.misses), expected \(answered)/\(missed)")
    }
    return 0
}
