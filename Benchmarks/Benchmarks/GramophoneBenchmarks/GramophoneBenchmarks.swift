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
/// 200 real requests per sample (~0.5 s each).
var batches: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds,
                                      warmupIterations: 2, maxDuration: .seconds(15), maxIterations: 20) }

/// The local httpbin of `scripts/bench`, when it runs one.
let httpbin = ProcessInfo.processInfo.environment["GRAMOPHONE_HTTPBIN"].flatMap { URL(string: $0) }

/// Turntables for the lookup benchmarks, built once per process (building 100,000 tracks takes a while).
let lookupTurntables: [Int: Turntable] = Dictionary(uniqueKeysWithValues: [10, 1_000, 10_000, 100_000].map { count in
    (count, Turntable(vinyl: Fixtures.tracks(count: count)))
})

/// The 200 distinct requests of benchmark 7: every one is a new track for the recorder.
func recordingRequests(_ httpbin: URL) -> [URLRequest] {
    (0..<200).map { URLRequest(url: URL(string: "\(httpbin.absoluteString)/get?i=\($0)")!) }
}

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

    // 7: recording. Both sides send the same 200 requests, one after another, through one
    // ephemeral URLSession (so both reuse the same warm loopback connections and the difference
    // is Gramophone's work). The two run a minute apart, and httpbin drifts by more than that
    // difference over a minute: scripts/bench also runs them paired, round by round
    // (`GramophoneBenchDriver record`), and that pairing is the figure BENCHMARKS.md judges. The recording side uses a fresh folder and a fresh Turntable in
    // new-episodes mode each sample and ejects at the end: matching each miss, redaction, the
    // track's storage and writing the 200-track vinyl file are all part of its cost.
    let batchSession = URLSession(configuration: .ephemeral)
    Benchmark("7 record 200 requests through a Turntable (new episodes, eject)",
              configuration: { var c = batches; c.skip = httpbin == nil; return c }()) { benchmark in
        guard let httpbin else { return }
        let requests = recordingRequests(httpbin)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        benchmark.startMeasurement()
        let turntable = try Turntable(vinylNamed: "recorded", from: .folder(folder),
                                      recording: Recording(mode: .newEpisodes, session: batchSession, environment: [:]))
        for request in requests {
            blackHole(try await turntable.data(for: request))
        }
        try turntable.eject()
        benchmark.stopMeasurement()
        if turntable.playback.recordedCount != requests.count {
            benchmark.error("recorded \(turntable.playback.recordedCount) of \(requests.count) requests")
        }
    }
    Benchmark("7 baseline: plain URLSession, 200 requests",
              configuration: { var c = batches; c.skip = httpbin == nil; return c }()) { benchmark in
        guard let httpbin else { return }
        let requests = recordingRequests(httpbin)
        benchmark.startMeasurement()
        for request in requests {
            blackHole(try await batchSession.data(for: request))
        }
        benchmark.stopMeasurement()
    }
}
