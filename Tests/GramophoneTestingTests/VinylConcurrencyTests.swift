import Foundation
import Gramophone
import GramophoneTesting
import Testing

/// Twenty-four tests, run in parallel (and under ThreadSanitizer by scripts/test), each with
/// its own vinyl whose only track answers the same URL with the test's own marker: a test
/// that saw another's Turntable would get the wrong marker (or a miss).
@Suite(.vinyl(store: .bundle(.module)))
struct VinylConcurrencyTests {
    static func expectMarker(_ marker: Int) async throws {
        let turntable = try #require(Turntable.current)
        let client = UserFetcher(session: turntable)
        for _ in 0..<20 {
            // Yield between requests so the parallel tests interleave on the shared pool.
            await Task.yield()
            async let fromChildTask = client.user(1)
            #expect(try await client.user(1).id == marker)
            #expect(try await fromChildTask.id == marker)
        }
        #expect(Turntable.current === turntable)
        #expect(turntable.playback.requestsAnswered == 40)
    }

    @Test func marker01() async throws { try await Self.expectMarker(1) }
    @Test func marker02() async throws { try await Self.expectMarker(2) }
    @Test func marker03() async throws { try await Self.expectMarker(3) }
    @Test func marker04() async throws { try await Self.expectMarker(4) }
    @Test func marker05() async throws { try await Self.expectMarker(5) }
    @Test func marker06() async throws { try await Self.expectMarker(6) }
    @Test func marker07() async throws { try await Self.expectMarker(7) }
    @Test func marker08() async throws { try await Self.expectMarker(8) }
    @Test func marker09() async throws { try await Self.expectMarker(9) }
    @Test func marker10() async throws { try await Self.expectMarker(10) }
    @Test func marker11() async throws { try await Self.expectMarker(11) }
    @Test func marker12() async throws { try await Self.expectMarker(12) }
    @Test func marker13() async throws { try await Self.expectMarker(13) }
    @Test func marker14() async throws { try await Self.expectMarker(14) }
    @Test func marker15() async throws { try await Self.expectMarker(15) }
    @Test func marker16() async throws { try await Self.expectMarker(16) }
    @Test func marker17() async throws { try await Self.expectMarker(17) }
    @Test func marker18() async throws { try await Self.expectMarker(18) }
    @Test func marker19() async throws { try await Self.expectMarker(19) }
    @Test func marker20() async throws { try await Self.expectMarker(20) }
    @Test func marker21() async throws { try await Self.expectMarker(21) }
    @Test func marker22() async throws { try await Self.expectMarker(22) }
    @Test func marker23() async throws { try await Self.expectMarker(23) }
    @Test func marker24() async throws { try await Self.expectMarker(24) }
}
