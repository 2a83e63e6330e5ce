import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Playback timing")
struct PlaybackTimingTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let early = URL(string: "https://api.example.com/early")!
    static let late = URL(string: "https://api.example.com/late")!

    /// `early` was asked first and finished first (t+0.3 s); `late` was asked 1 s later and
    /// took only 0.02 s, so it finished at t+1.02 s. Wide gaps keep the order clear on a busy machine.
    static var vinyl: Vinyl {
        Vinyl(
            name: "timing",
            tracks: [
                Track(request: "GET https://api.example.com/early", response: Track.Response(body: Data("early".utf8)), recordedAt: start, duration: 0.3),
                Track(request: "GET https://api.example.com/late", response: Track.Response(body: Data("late".utf8)), recordedAt: start.addingTimeInterval(1), duration: 0.02),
            ])
    }

    /// Asks for `late` and then `early` at once; returns the order the answers came back in.
    private func completionOrder(_ timing: PlaybackTiming) async -> [String] {
        let turntable = Turntable(vinyl: Self.vinyl)
        turntable.timing = timing
        let order = Locked<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for url in [Self.late, Self.early] {
                group.addTask {
                    let body = (try? await turntable.data(from: url).0).map { String(decoding: $0, as: UTF8.self) } ?? "error"
                    order.withLock { $0.append(body) }
                }
            }
        }
        return order.withLock { $0 }
    }

    @Test("by default, answers carry no delay, even for tracks with long recorded durations")
    func immediateByDefault() async throws {
        let track = Track(request: "GET https://api.example.com/slow", response: Track.Response(body: Data("x".utf8)), duration: 3600)
        let turntable = Turntable(vinyl: Vinyl(name: "slow", tracks: [track]))
        #expect(turntable.timing == .immediate)
        // An hour-long recorded duration would time the test out if it were replayed.
        let (data, _) = try await turntable.data(from: URL(string: "https://api.example.com/slow")!)
        #expect(data == Data("x".utf8))
    }

    @Test("a stub's delay is applied once, whatever the timing", arguments: [PlaybackTiming.immediate, .recordedDuration(speed: 1), .chronological(speed: 1)])
    func stubDelayIsAppliedOnce(timing: PlaybackTiming) async throws {
        let turntable = Turntable(vinyl: Self.vinyl)
        turntable.timing = timing
        turntable.stubs.add(Stub().responding(with: .text("late").delivered(.delayed(0.3))))
        let answer = await turntable.answer(Track.Request("GET https://api.example.com/anything"))
        #expect(turntable.playbackDelay(for: answer) == 0.3)
    }

    @Test("recordedDuration holds each answer for the track's duration")
    func recordedDuration() async throws {
        let track = Track(request: "GET https://api.example.com/slow", response: Track.Response(body: Data("x".utf8)), duration: 0.2)
        let turntable = Turntable(vinyl: Vinyl(name: "slow", tracks: [track]))
        turntable.timing = .recordedDuration()
        let clock = ContinuousClock()
        let started = clock.now
        _ = try await turntable.data(from: URL(string: "https://api.example.com/slow")!)
        #expect(clock.now - started >= .milliseconds(200))

        turntable.timing = .recordedDuration(speed: 4)
        let faster = clock.now
        let done = Locked(false)
        turntable.dataTask(with: URL(string: "https://api.example.com/slow")!) { _, _, _ in done.withLock { $0 = true } }.resume()
        while !done.withLock({ $0 }) { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(clock.now - faster >= .milliseconds(50))
    }

    @Test("momentary timing answers each request after its own duration: the short late one first")
    func momentaryOrder() async {
        #expect(await completionOrder(.recordedDuration()) == ["late", "early"])
    }

    @Test("chronological timing completes concurrent requests in their recorded order")
    func chronologicalOrder() async {
        #expect(await completionOrder(.chronological()) == ["early", "late"])
    }

    @Test("chronological timing applies to tasks, and setting the timing again starts the recording over")
    func chronologicalTasks() async throws {
        let turntable = Turntable(vinyl: Self.vinyl)
        turntable.timing = .chronological(speed: 2)
        _ = try await turntable.data(from: Self.early)
        turntable.timing = .chronological(speed: 2)
        let order = Locked<[String]>([])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let remaining = Locked(2)
            for url in [Self.late, Self.early] {
                turntable.dataTask(with: url) { data, _, _ in
                    order.withLock { $0.append(String(decoding: data ?? Data(), as: UTF8.self)) }
                    if remaining.withLock({
                        $0 -= 1; return $0
                    }) == 0 {
                        continuation.resume()
                    }
                }.resume()
            }
        }
        #expect(order.withLock { $0 } == ["early", "late"])
    }
}
