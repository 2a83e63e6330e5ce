import Foundation
import Testing

@testable import Gramophone

/// The order a recording writes: concurrent exchanges sorted, everything else as recorded.
@Suite struct TrackOrderTests {
    static let start = Date(timeIntervalSince1970: 1_795_424_400)

    static func track(_ path: String, at offset: TimeInterval?, for duration: TimeInterval? = 0.05) -> Track {
        Track(
            request: Track.Request(url: URL(string: "https://api.example.com" + path)!), outcome: .response(Track.Response(status: 200)),
            recordedAt: offset.map { start.addingTimeInterval($0) }, duration: offset == nil ? nil : duration)
    }

    static func paths(_ tracks: [Track]) -> [String] { tracks.map(\.request.url.path) }

    @Test func overlappingExchangesAreSortedWithNumbersByValue() {
        // Completed in this order, all in flight at once.
        let burst = [Self.track("/c10", at: 0.000), Self.track("/c2", at: 0.001), Self.track("/c9", at: 0.002), Self.track("/c1", at: 0.003)]
        #expect(Self.paths(TrackOrder.arranged(burst)) == ["/c1", "/c2", "/c9", "/c10"])
    }

    @Test func exchangesOneAfterAnotherKeepTheirOrder() {
        // A login, then what it unlocks: each sent after the one before came back.
        let sequence = [Self.track("/z-login", at: 0), Self.track("/a-profile", at: 0.1), Self.track("/m-feed", at: 0.2)]
        #expect(Self.paths(TrackOrder.arranged(sequence)) == ["/z-login", "/a-profile", "/m-feed"])
    }

    @Test func tracksWithoutADateStayWhereTheyAre() {
        let tracks = [Self.track("/b", at: 0), Self.track("/hand", at: nil), Self.track("/a", at: 0.001)]
        #expect(Self.paths(TrackOrder.arranged(tracks)) == ["/b", "/hand", "/a"])
    }

    @Test func arrangingTwiceChangesNothing() throws {
        let burst = (1...10).map { Self.track("/c\($0)", at: Double(10 - $0) * 0.001, for: 0.02 + Double($0) * 0.001) }
        let once = TrackOrder.arranged(burst)
        #expect(TrackOrder.arranged(once) == once)
        // Read back from a file (dates to the millisecond), the order holds.
        let reread = try Vinyl(data: Vinyl(name: "burst", tracks: once).encoded(), name: "burst")
        #expect(Self.paths(TrackOrder.arranged(reread.tracks)) == Self.paths(once))
    }
}
