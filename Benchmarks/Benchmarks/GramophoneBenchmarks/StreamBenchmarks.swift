import Benchmark
import BenchFixtures
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Gramophone

// Benchmark 9 (issue 16): replaying a recorded 1,000-event stream at once, against reading the
// same bytes from one `Data`. Goal: the replay read as lines costs at most 2× the baseline.

/// The recorded stream's Turntable, loaded once from the vinyl's text (`StreamFixture.vinylJSON`).
let streamTurntable: Turntable = try! StreamFixture.turntable()

/// Lines of one replay through `bytes(for:)`, read as a client reads `URLSession.AsyncBytes.lines`,
/// on the caller's actor.
nonisolated(nonsending) func replayedLineCount() async throws -> Int {
    let (bytes, _) = try await streamTurntable.bytes(for: StreamFixture.request)
    var count = 0
    for try await line in bytes.lines {
        blackHole(line)
        count += 1
    }
    return count
}

/// Lines of the body read from one `Data` with no network: split on line feeds, empty lines left out.
func baselineLineCount() -> Int {
    var count = 0
    for line in StreamFixture.baselineLines(StreamFixture.body) {
        blackHole(line)
        count += 1
    }
    return count
}

struct StreamMismatch: Error, CustomStringConvertible {
    var description: String
}

/// The same split in the bytes' buffer: the floor, for scale (not the goal's baseline).
func floorLineCount() -> Int {
    var count = 0
    for line in StreamFixture.floorLines(StreamFixture.body) {
        blackHole(line)
        count += 1
    }
    return count
}

/// Both sides of the comparison read the same lines: checked once before benchmark 9 runs.
func checkSameLines() async throws {
    let (bytes, _) = try await streamTurntable.bytes(for: StreamFixture.request)
    var replayed: [String] = []
    for try await line in bytes.lines { replayed.append(line) }
    let baseline = StreamFixture.baselineLines(StreamFixture.body)
    guard replayed.count == StreamFixture.eventCount, replayed == baseline, StreamFixture.floorLines(StreamFixture.body) == baseline else {
        throw StreamMismatch(description: "replay read \(replayed.count) lines, the baseline \(baseline.count) (expected \(StreamFixture.eventCount))")
    }
}

func streamBenchmarks() {
    let expected = StreamFixture.eventCount

    Benchmark("9 stream replay: 1,000 events through bytes(for:), read as lines", configuration: fast, closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let count = try await replayedLineCount()
            if count != expected { benchmark.error("replay read \(count) lines") }
        }
    }, setup: checkSameLines)

    // The same from the main actor, where view models and @MainActor tests read streams from.
    Benchmark("9 stream replay: 1,000 events through bytes(for:), read as lines from the main actor", configuration: fast) { @MainActor benchmark in
        for _ in benchmark.scaledIterations {
            let count = try await replayedLineCount()
            if count != expected { benchmark.error("replay read \(count) lines") }
        }
    }

    Benchmark("9 stream baseline: the same bytes from one Data, split into lines", configuration: fast, closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let count = baselineLineCount()
            if count != expected { benchmark.error("baseline read \(count) lines") }
        }
    }, setup: checkSameLines)

    Benchmark("9 stream floor: the same bytes from one Data, split in its buffer", configuration: fast, closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let count = floorLineCount()
            if count != expected { benchmark.error("floor read \(count) lines") }
        }
    }, setup: checkSameLines)

    Benchmark("9 stream replay: 1,000 events through bytes(for:), read as events", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations {
            let (bytes, _) = try await streamTurntable.bytes(for: StreamFixture.request)
            var count = 0
            for try await event in bytes.events {
                blackHole(event)
                count += 1
            }
            if count != expected { benchmark.error("replay read \(count) events") }
        }
    }

    Benchmark("9 stream replay: 1,000 events through bytes(for:), read as chunks", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations {
            let (bytes, _) = try await streamTurntable.bytes(for: StreamFixture.request)
            var count = 0
            for try await chunk in bytes.chunks {
                blackHole(chunk)
                count += 1
            }
            if count != expected { benchmark.error("replay read \(count) chunks") }
        }
    }
}
