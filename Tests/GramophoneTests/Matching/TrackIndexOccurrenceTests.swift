import Foundation
import Testing

@testable import Gramophone

/// The index answers a request with its next recorded occurrence: the first unplayed track
/// that matches (by key, then by the body's bytes), else the last (by key, then by bytes). It
/// keeps a count of unplayed tracks per bucket so a repeat skips the search for an unplayed
/// one; whatever plays, is given back or is recorded, the answer stays the one a scan gives.
@Suite struct TrackIndexOccurrenceTests {
    static let url = URL(string: "https://e.com/search")!

    static func post(_ body: String, _ contentType: String = "application/json", run: String = "1") -> Track.Request {
        Track.Request(method: "POST", url: url, headers: ["Content-Type": contentType, "X-Run": run], body: Data(body.utf8))
    }

    /// Plays what the index answers, as the Turntable does.
    static func play(_ live: Track.Request, in index: inout TrackIndex) -> Int? {
        let answer = index.nextOccurrence(for: live, parts: RequestParts(live))
        if let answer { index.setPlayed(answer, true) }
        return answer
    }

    @Test func occurrencesAnswerInOrderThenTheLastRepeats() {
        let live = Track.Request("GET https://e.com/counter")
        var index = TrackIndex(
            tracks: [Track(live, .text("1")), Track("GET https://e.com/other", .text("x")), Track(live, .text("2"))],
            matchers: [.method, .url, .body])
        #expect(Self.play(live, in: &index) == 0)
        #expect(Self.play(live, in: &index) == 2)
        #expect(Self.play(live, in: &index) == 2, "every occurrence played: the last repeats")
        #expect(Self.play(live, in: &index) == 2)
        #expect(index.unplayedCount == 1, "the other track is still unplayed")
        #expect(index.firstMatch(for: live, parts: RequestParts(live), skippingPlayed: true) == nil, "playing each once, the request misses")
    }

    /// A conversation that moved to another track gives its first one back: that track answers
    /// the next request again, before any later occurrence.
    @Test func aTrackGivenBackAnswersBeforeLaterOccurrences() {
        let live = Track.Request("GET https://e.com/counter")
        var index = TrackIndex(tracks: (1...3).map { Track(live, .text("\($0)")) }, matchers: [.method, .url])
        #expect(Self.play(live, in: &index) == 0)
        #expect(Self.play(live, in: &index) == 1)
        index.setPlayed(0, false)
        #expect(index.unplayedCount == 2)
        #expect(Self.play(live, in: &index) == 0)
        #expect(Self.play(live, in: &index) == 2)
        index.setPlayed(1, false)
        #expect(index.firstMatch(for: live, parts: RequestParts(live), skippingPlayed: true) == 1)
    }

    /// A recorded track answered the request that recorded it: it is played, and answers the
    /// repeats once the occurrences before it have played.
    @Test func aRecordedTrackCountsAsPlayed() {
        let live = Self.post(#"{"q":1}"#)
        var index = TrackIndex(tracks: [Track(live, .text("old"))], matchers: [.method, .url, .body])
        let recorded = index.append(Track(live, .text("new")), played: true)
        #expect(index.unplayedCount == 1)
        #expect(Self.play(live, in: &index) == 0)
        #expect(index.unplayedCount == 0)
        #expect(Self.play(live, in: &index) == recorded)
    }

    /// Bytes equal to a recorded body match whatever the content types make of them: such tracks
    /// answer in turn after the ones the key finds, and the last of them repeats.
    @Test func tracksFoundByTheirBytesAnswerInTurn() {
        let json = Self.post(#"{"a":1}"#)
        let plain = Self.post(#"{"a":1}"#, "text/plain")
        var index = TrackIndex(tracks: [Track(json, .text("0")), Track(plain, .text("1")), Track(json, .text("2"))], matchers: [.method, .url, .body])
        #expect(Self.play(plain, in: &index) == 1, "by key first")
        #expect(Self.play(plain, in: &index) == 0, "then by bytes, in track order")
        #expect(Self.play(plain, in: &index) == 2)
        #expect(Self.play(plain, in: &index) == 1, "the last by key repeats")
        #expect(Self.play(json, in: &index) == 2)
    }

    /// Random plays, give-backs and recordings, with a custom rule the key cannot answer: each
    /// answer is the one a scan of every track gives, and the unplayed count is the recount.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func answersAgreeWithAScanOfEveryTrack(seed: UInt64) {
        let pool = [
            Self.post(#"{"a":1}"#), Self.post(#"{ "a" : 1 }"#), Self.post(#"{"a":1}"#, "text/plain"), Self.post(""),
            Self.post(#"{"a":2}"#), Self.post(#"{"a":1}"#, run: "2"), Self.post("", run: "2"),
        ]
        let sameRun = Matcher.custom("run") { live, recorded in live.headers["X-Run"] == recorded.headers["X-Run"] }
        let matchers: [Matcher] = [.method, .url, .body, sameRun]
        var random = SplitMix64(seed: seed)
        var tracks = (0..<12).map { Track(pool[Int.random(in: 0..<pool.count, using: &random)], .text("\($0)")) }
        var index = TrackIndex(tracks: tracks, matchers: matchers)
        var played = Array(repeating: false, count: tracks.count)

        func scan(_ live: Track.Request, lastToo: Bool) -> Int? {
            let agrees = { (track: Track) in
                [Matcher.method, .url, sameRun].allSatisfy { $0.matches(live: live, liveParts: RequestParts(live), recorded: track.request, recordedParts: RequestParts(track.request)) }
            }
            let bodyKey = { (request: Track.Request) in Matcher.body.keyComponent(request, RequestParts(request)) }
            let keyed = tracks.indices.filter { agrees(tracks[$0]) && bodyKey(live) == bodyKey(tracks[$0].request) }
            let bytes = tracks.indices.filter { agrees(tracks[$0]) && !live.body.isEmpty && tracks[$0].request.body == live.body }
            let unplayed = keyed.first { !played[$0] } ?? bytes.first { !played[$0] }
            return lastToo ? unplayed ?? keyed.last ?? bytes.last : unplayed
        }

        for step in 0..<400 {
            let live = pool[Int.random(in: 0..<pool.count, using: &random)]
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let expected = scan(live, lastToo: true)
                #expect(Self.play(live, in: &index) == expected, "step \(step)")
                if let expected { played[expected] = true }
            case 5, 6:
                #expect(index.firstMatch(for: live, parts: RequestParts(live), skippingPlayed: true) == scan(live, lastToo: false), "step \(step)")
            case 7, 8:
                guard let given = played.indices.filter({ played[$0] }).randomElement(using: &random) else { continue }
                index.setPlayed(given, false)
                played[given] = false
            default:
                let track = Track(live, .text("recorded"))
                tracks.append(track)
                played.append(true)
                #expect(index.append(track, played: true) == tracks.count - 1)
            }
            #expect(index.played == played, "step \(step)")
            #expect(index.unplayedCount == played.filter { !$0 }.count, "step \(step)")
        }
    }
}
