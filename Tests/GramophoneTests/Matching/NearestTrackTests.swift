import Foundation
import Testing

@testable import Gramophone

/// A miss report's nearest track comes from `NearestTrackIndex`, which ranks only the tracks
/// sharing the request's method and host (and path) when no other could rank higher. It must
/// name the track that judging every track names (`MissReport.nearestByScan`).
@Suite struct NearestTrackTests {
    /// A few values of each part, so tracks share methods, hosts, paths and queries often and
    /// every tier of the index and every tie is reached; plus URLs whose parts could print alike
    /// (IPv6, decoded hosts, relative), which the index judges with the matchers.
    static let methods = ["GET", "POST", "get", "DELETE"]
    static let bases = [
        "https://api.example.com", "https://API.example.com:443", "http://api.example.com", "https://other.example.com",
        "https://api.example.com:8443", "http://[::1]:8080", "https://a%3A1",
    ]
    static let paths = ["", "/", "/users", "/users/42", "/a;b", "/%C3%A9"]
    static let queries = ["", "?", "?page=1", "?page=2", "?b=2&a=1", "?a=1&b=2", "?a%3Db", "?flag", "#frag", "?page=1#x"]
    static let odd = ["=/", "//=", "users/42", "?x=1"]
    static let matchers: [Matcher] = [
        .method, .url, .scheme, .host, .port, .path, .query, .body, .headers("Accept"),
        .custom("same body size") { $0.body.count == $1.body.count },
    ]

    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        mutating func pick<T>(_ values: [T]) -> T { values[next(values.count)] }
    }

    static func request(_ generator: inout Generator) -> Track.Request {
        let text = generator.next(12) == 0 ? generator.pick(odd) : generator.pick(bases) + generator.pick(paths) + generator.pick(queries)
        var request = Track.Request(method: generator.pick(methods), url: URL(string: text) ?? URL(string: "https://api.example.com/")!)
        if generator.next(3) == 0 { request.headers["Accept"] = generator.pick(["application/json", "text/plain"]) }
        if generator.next(3) == 0 { request.body = Data(generator.pick([#"{"a":1}"#, #"{ "a": 1 }"#, "a=1&b=2", "xyz"]).utf8) }
        return request
    }

    @Test func theIndexNamesTheTrackAScanOfEveryTrackNames() {
        var generator = Generator(state: 20)
        var pastTheFirst = 0
        for _ in 0..<3_000 {
            let tracks = (0..<(1 + generator.next(40))).map { _ in Track(request: Self.request(&generator), outcome: .status(200)) }
            let strategy = (0..<generator.next(4)).map { _ in generator.pick(Self.matchers) }
            // Half the vinyls grow by appending, as recorded tracks do.
            let split = generator.next(2) == 0 ? tracks.count : generator.next(tracks.count + 1)
            var index = TrackIndex(tracks: Array(tracks[..<split]), matchers: strategy)
            for track in tracks[split...] { _ = index.append(track) }
            for _ in 0..<5 {
                let live = Self.request(&generator)
                let liveParts = RequestParts(live)
                let judges = MissReport.judges(for: strategy)
                let allParts = tracks.map { RequestParts($0.request) }
                let scanned = MissReport.nearestByScan(to: live, parts: liveParts, in: tracks, parts: allParts, judges: judges)
                let indexed = index.firstNearest(to: live, parts: liveParts, judges: judges)
                #expect(
                    indexed == scanned,
                    "\(live.method) \(live.url.absoluteString), matching \(strategy.map(\.description)), tracks \(tracks.map { "\($0.request.method) \($0.request.url.absoluteString)" })")
                // The report may name another track of the same score that differs in fewer places.
                if let scanned, let reported = index.nearest(to: live, matchers: strategy) {
                    let score = { (position: Int) in MissReport.score(of: tracks[position].request, allParts[position], against: live, liveParts, judges: judges) }
                    #expect(score(reported.index) == score(scanned))
                    let scannedDifferences = MissReport.differences(between: live, liveParts, and: tracks[scanned].request, allParts[scanned], matchers: strategy)
                    #expect(TrackIndex.placeCount(reported.differences) <= TrackIndex.placeCount(scannedDifferences))
                }
                if let scanned, scanned > 0 { pastTheFirst += 1 }
            }
        }
        #expect(pastTheFirst > 3_000, "the nearest is often not simply the first track")
    }

    /// The strategy's matchers outweigh sharing the path: a track elsewhere with the same query
    /// beats the one on the same path, so the candidates on that path are not enough.
    @Test func aTrackOutsideTheCandidatesStillWinsWhenItScoresHigher() throws {
        let tracks = [
            Track("GET https://api.example.com/users?page=1", .json("[]")),
            Track("GET https://api.example.com/search?page=2", .json("[]")),
        ]
        let live = Track.Request(url: URL(string: "https://api.example.com/users?page=2")!)
        let index = TrackIndex(tracks: tracks, matchers: [.method, .query])
        let nearest = try #require(index.nearest(to: live, matchers: [.method, .query]))
        #expect(nearest.index == 1)
        #expect(nearest.differences.isEmpty)
    }

    /// The benchmark's miss: a path no track has, in a vinyl of one host; every track ties and
    /// the first is named, as before.
    @Test func aNewPathInABigVinylNamesTheFirstTrack() throws {
        let tracks = (0..<20_000).map { Track(request: Track.Request(url: URL(string: "https://api.example.com/v1/items/\($0)?page=\($0 % 7)")!), outcome: .status(200)) }
        let index = TrackIndex(tracks: tracks, matchers: [.method, .url])
        let nearest = try #require(index.nearest(to: Track.Request(url: URL(string: "https://api.example.com/v1/other/3")!), matchers: [.method, .url]))
        #expect(nearest.index == 0)
        #expect(nearest.differences == ["path: /v1/other/3 vs /v1/items/0", "query: (empty) vs page=0"])
    }
}
