import Benchmark
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Gramophone

// Benchmarks of issue 8. Names start with the benchmark's number so `scripts/bench` can pair
// each with its baseline; BENCHMARKS.md explains what each one measures.

/// Fast paths: many samples, wall clock and allocations per request.
var fast: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
                                   warmupIterations: 200, maxDuration: .seconds(2), maxIterations: 50_000) }
/// Network round trips: fewer samples.
var network: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
                                      warmupIterations: 20, maxDuration: .seconds(3), maxIterations: 2_000) }
/// Heap bytes a benchmark's result keeps alive (after minus before, result still referenced).
var retained: BenchmarkMetric { BenchmarkMetric.custom("retained heap bytes", polarity: .prefersSmaller, useScalingFactor: false) }
/// Whole-file loads: a few samples, plus what stays in memory.
var loading: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal, retained], timeUnits: .milliseconds,
                                      warmupIterations: 1, maxDuration: .seconds(8), maxIterations: 12) }

/// The local httpbin of `scripts/bench`, when it runs one.
let httpbin = ProcessInfo.processInfo.environment["GRAMOPHONE_HTTPBIN"].flatMap { URL(string: $0) }

/// Turntables for the lookup benchmarks, built once per process (building 100,000 tracks takes a while).
let lookupTurntables: [Int: Turntable] = Dictionary(uniqueKeysWithValues: [10, 1_000, 10_000, 100_000].map { count in
    (count, Turntable(vinyl: Fixtures.tracks(count: count)))
})

let benchmarks: @Sendable () -> Void = {
    // 1: the in-process path a test takes when its code accepts a NetworkSession.
    let turntable = Turntable(vinyl: Vinyl(name: "small", tracks: [Fixtures.smallTrack]))
    Benchmark("1 replay via Turntable.data(for:)", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations {
            do {
                blackHole(try await turntable.data(for: Fixtures.smallRequest))
            } catch {
                benchmark.error("replay failed: \(error)")
            }
        }
    }

    // 3: the baseline: a URLProtocol stub answering with a constant response.
    let stubSession = ConstantStub.session()
    Benchmark("3 baseline: bare URLProtocol stub", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations {
            do {
                blackHole(try await stubSession.data(for: Fixtures.smallRequest))
            } catch {
                benchmark.error("stub failed: \(error)")
            }
        }
    }

    // 4: what not stubbing costs: a real request to the local httpbin.
    let realSession = URLSession(configuration: .ephemeral)
    Benchmark("4 real URLSession to local httpbin", configuration: { var c = network; c.skip = httpbin == nil; return c }()) { benchmark in
        guard let httpbin else { return }
        let request = URLRequest(url: httpbin.appendingPathComponent("json"))
        for _ in benchmark.scaledIterations {
            do {
                blackHole(try await realSession.data(for: request))
            } catch {
                benchmark.error("httpbin request failed: \(error)")
            }
        }
    }

    // 5: lookup cost against vinyl size; the hit is the last track, the miss matches nothing.
    for count in [10, 1_000, 10_000, 100_000] {
        let hit = URLRequest(url: Fixtures.url(count - 1))
        let miss = URLRequest(url: URL(string: "\(Fixtures.host)/v1/other/\(count)")!)
        Benchmark("5 lookup hit, \(count) tracks", configuration: fast) { benchmark in
            let turntable = lookupTurntables[count]!
            for _ in benchmark.scaledIterations {
                do {
                    blackHole(try await turntable.data(for: hit))
                } catch {
                    benchmark.error("lookup missed: \(error)")
                }
            }
        }
        Benchmark("5 lookup miss, \(count) tracks", configuration: count >= 10_000 ? network : fast) { benchmark in
            let turntable = lookupTurntables[count]!
            for _ in benchmark.scaledIterations {
                do {
                    blackHole(try await turntable.data(for: miss))
                    benchmark.error("a miss was answered")
                } catch {
                    blackHole(error)
                }
            }
        }
    }

    // 6: loading a 10,000-track file with mixed bodies, against a bare JSONSerialization parse.
    Benchmark("6 load 10,000-track vinyl", configuration: loading) { benchmark in
        let data = try Data(contentsOf: Fixtures.mixedFile)
        let before = HeapUsage.inUse()
        benchmark.startMeasurement()
        let vinyl = try Vinyl(data: data, name: "mixed")
        benchmark.stopMeasurement()
        benchmark.measurement(retained, HeapUsage.inUse() - before)
        blackHole(vinyl)
    }
    Benchmark("6 baseline: JSONSerialization parse", configuration: loading) { benchmark in
        let data = try Data(contentsOf: Fixtures.mixedFile)
        let before = HeapUsage.inUse()
        benchmark.startMeasurement()
        let object = try JSONSerialization.jsonObject(with: data)
        benchmark.stopMeasurement()
        benchmark.measurement(retained, HeapUsage.inUse() - before)
        blackHole(object)
    }
    Benchmark("6 load 10,000-track vinyl into a Turntable", configuration: loading) { benchmark in
        let before = HeapUsage.inUse()
        benchmark.startMeasurement()
        let turntable = Turntable(vinyl: try Vinyl(contentsOf: Fixtures.mixedFile))
        benchmark.stopMeasurement()
        benchmark.measurement(retained, HeapUsage.inUse() - before)
        blackHole(turntable)
    }
}
