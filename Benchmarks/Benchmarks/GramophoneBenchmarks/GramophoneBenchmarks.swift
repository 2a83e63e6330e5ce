import Benchmark
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BenchFixtures
import Gramophone

// Benchmarks of issue 8. Names start with the benchmark's number so `scripts/bench` can pair
// each with its baseline; BENCHMARKS.md explains what each one measures.

/// Fast paths: many samples, wall clock and allocations per request.
var fast: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
                                   warmupIterations: 200, maxDuration: .seconds(1), maxIterations: 20_000) }
/// Network round trips: fewer samples.
var network: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
                                      warmupIterations: 20, maxDuration: .seconds(2), maxIterations: 1_000) }
/// Misses that build a miss report over the whole vinyl: slow on big vinyls, few samples.
var reporting: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
                                      warmupIterations: 1, maxDuration: .seconds(1), maxIterations: 200) }
/// Whole-file loads: a few samples. What stays in memory is measured by `GramophoneBenchDriver memory`,
/// outside the malloc interposer.
var loading: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds,
                                      warmupIterations: 1, maxDuration: .seconds(6), maxIterations: 5) }

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

    // 2: the same track through a URLSession whose URLProtocol is the Turntable's.
    let turntableSession = turntable.makeURLSession()
    Benchmark("2 replay via Turntable-backed URLSession", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations {
            do {
                blackHole(try await turntableSession.data(for: Fixtures.smallRequest))
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
        Benchmark("5 lookup miss, \(count) tracks", configuration: count >= 1_000 ? reporting : fast) { benchmark in
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
        let data = try Data(contentsOf: Fixtures.mixedFile())
        benchmark.startMeasurement()
        let vinyl = try Vinyl(data: data, name: "mixed")
        benchmark.stopMeasurement()
        blackHole(vinyl)
    }
    Benchmark("6 baseline: JSONSerialization parse", configuration: loading) { benchmark in
        let data = try Data(contentsOf: Fixtures.mixedFile())
        benchmark.startMeasurement()
        let object = try JSONSerialization.jsonObject(with: data)
        benchmark.stopMeasurement()
        blackHole(object)
    }
    Benchmark("6 load 10,000-track vinyl into a Turntable", configuration: loading) { benchmark in
        benchmark.startMeasurement()
        let turntable = Turntable(vinyl: try Vinyl(contentsOf: Fixtures.mixedFile()))
        benchmark.stopMeasurement()
        blackHole(turntable)
    }
}
