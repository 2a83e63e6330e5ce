import BenchFixtures
import Benchmark
import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Benchmarks of issues 8, 16, 20, 39 and 46. Names start with the benchmark's number so `scripts/bench` can
// pair each with its baseline; BENCHMARKS.md explains what each one measures.

/// Fast paths: many samples, wall clock and allocations per request.
var fast: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
        warmupIterations: 200, maxDuration: .seconds(1), maxIterations: 20_000)
}
/// Replays that take a microsecond or two: 1,000 replays a sample, reported per replay in
/// nanoseconds (whole microseconds would round 1.4 µs and 1.6 µs apart; one replay a sample
/// would add the tool's own ~1 µs of clock and counter reads to each).
var replay: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds,
        warmupIterations: 2, scalingFactor: .kilo, maxDuration: .seconds(1), maxIterations: 2_000)
}
/// Network round trips: fewer samples.
var network: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
        warmupIterations: 20, maxDuration: .seconds(2), maxIterations: 1_000)
}
/// Misses that build a miss report over the whole vinyl: slow on big vinyls, few samples.
var reporting: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
        warmupIterations: 1, maxDuration: .seconds(1), maxIterations: 200)
}
/// Whole-file loads: a few samples. What stays in memory is measured by `GramophoneBenchDriver memory`,
/// outside the malloc interposer.
var loading: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds,
        warmupIterations: 1, maxDuration: .seconds(6), maxIterations: 5)
}
/// 200 real requests per sample (~0.5 s each).
var batches: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds,
        warmupIterations: 2, maxDuration: .seconds(15), maxIterations: 20)
}

/// The local httpbin of `scripts/bench`, when it runs one.
let httpbin = ProcessInfo.processInfo.environment["GRAMOPHONE_HTTPBIN"].flatMap { URL(string: $0) }

/// Turntables for the lookup benchmarks, built once per process (building 100,000 tracks takes a while).
let lookupTurntables: [Int: Turntable] = Dictionary(
    uniqueKeysWithValues: [10, 1_000, 10_000, 100_000].map { count in
        (count, Turntable(vinyl: Fixtures.tracks(count: count)))
    })

/// Turntables for benchmark 8, at the store sizes of the peers' figures.
let peerTurntables: [Int: Turntable] = Dictionary(uniqueKeysWithValues: peerSizes.map { ($0, Turntable(vinyl: Fixtures.tracks(count: $0))) })
/// Their URLSessions, and the model's, made once (globals are made on first use).
let peerTurntableSessions: [Int: URLSession] = peerTurntables.mapValues { $0.makeURLSession() }
let peerModelSession = PeerLookupModel.session()

/// Times `benchmark.scaledIterations` requests through `session`, and only those: on the
/// caller's actor (`nonisolated(nonsending)`), so a `@MainActor` benchmark replays from the
/// main actor, and the hop onto it before the measurement starts is not counted.
nonisolated(nonsending) func measureRequests(_ benchmark: Benchmark, through session: some NetworkSession, _ request: URLRequest) async {
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        do {
            blackHole(try await session.data(for: request))
        } catch {
            benchmark.error("request failed: \(error)")
        }
    }
    benchmark.stopMeasurement()
}

/// The 200 distinct requests of benchmark 7: every one is a new track for the recorder.
func recordingRequests(_ httpbin: URL) -> [URLRequest] {
    (0..<200).map { URLRequest(url: URL(string: "\(httpbin.absoluteString)/get?i=\($0)")!) }
}

let benchmarks: @Sendable () -> Void = {
    // 1: the in-process path a test takes when its code accepts a NetworkSession.
    let turntable = Turntable(vinyl: Vinyl(name: "small", tracks: [Fixtures.smallTrack]))
    Benchmark("1 replay via Turntable.data(for:)", configuration: replay) { benchmark in
        await measureRequests(benchmark, through: turntable, Fixtures.smallRequest)
    }
    // 1 from the main actor: where view models and @MainActor tests call from (issue 20).
    Benchmark("1 replay via Turntable.data(for:) from the main actor", configuration: replay) { @MainActor benchmark in
        await measureRequests(benchmark, through: turntable, Fixtures.smallRequest)
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
    Benchmark(
        "4 real URLSession to local httpbin",
        configuration: {
            var c = network; c.skip = httpbin == nil; return c
        }()
    ) { benchmark in
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

    // 5 (bodies): the same with [.method, .url, .body], every track one URL, bodies told apart by
    // their canonical JSON in the index (key order and spacing of the live body differ).
    for count in [10, 1_000, 10_000, 100_000] {
        var hit = URLRequest(url: URL(string: "\(Fixtures.host)/v1/search")!)
        hit.httpMethod = "POST"
        hit.setValue("application/json", forHTTPHeaderField: "Content-Type")
        hit.httpBody = Data(#"{ "limit": 20, "query": "item \#(count - 1)" }"#.utf8)
        let turntable = Turntable(vinyl: Fixtures.bodyTracks(count: count), matching: [.method, .url, .body])
        Benchmark("5 body lookup hit, \(count) tracks", configuration: replay) { benchmark in
            await measureRequests(benchmark, through: turntable, hit)
        }
    }

    // 5: lookup cost against vinyl size; the hit is the last track, the miss matches nothing.
    for count in [10, 1_000, 10_000, 100_000] {
        let hit = URLRequest(url: Fixtures.url(count - 1))
        let miss = URLRequest(url: URL(string: "\(Fixtures.host)/v1/other/\(count)")!)
        Benchmark("5 lookup hit, \(count) tracks", configuration: replay) { benchmark in
            await measureRequests(benchmark, through: lookupTurntables[count]!, hit)
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

    // 8: issue 20's table of the peers, in one run: the last of N GET entries through the
    // Turntable (injected, off and on the main actor; and its URLSession) and through a model of
    // the peers' lookup, a URLProtocol scanning its entries (PeerLookupModel.swift).
    for count in peerSizes {
        let last = URLRequest(url: Fixtures.url(count - 1))
        Benchmark("8 Turntable.data(for:), \(count) entries", configuration: replay) { benchmark in
            await measureRequests(benchmark, through: peerTurntables[count]!, last)
        }
        Benchmark("8 Turntable.data(for:) from the main actor, \(count) entries", configuration: replay) { @MainActor benchmark in
            await measureRequests(benchmark, through: peerTurntables[count]!, last)
        }
        Benchmark("8 Turntable-backed URLSession, \(count) entries", configuration: fast) { benchmark in
            await measureRequests(benchmark, through: peerTurntableSessions[count]!, last)
        }
        Benchmark("8 peers' lookup (model: URLProtocol scanning its entries), \(count) entries", configuration: count >= 1_000 ? reporting : fast) { benchmark in
            await measureRequests(benchmark, through: peerModelSession, PeerLookupModel.request(last, entries: count))
        }
    }

    // 7: recording. Both sides send the same 200 requests, one after another, through one
    // ephemeral URLSession (so both reuse the same warm loopback connections and the difference
    // is Gramophone's work). The two run a minute apart, and httpbin drifts by more than that
    // difference over a minute: scripts/bench also runs them paired, round by round
    // (`GramophoneBenchDriver record`), and that pairing is the figure BENCHMARKS.md judges. The recording side uses a fresh folder and a fresh Turntable in
    // new-episodes mode each sample and ejects at the end: matching each miss, redaction, the
    // track's storage and writing the 200-track vinyl file are all part of its cost.
    let batchSession = URLSession(configuration: .ephemeral)
    Benchmark(
        "7 record 200 requests through a Turntable (new episodes, eject)",
        configuration: {
            var c = batches; c.skip = httpbin == nil; return c
        }()
    ) { benchmark in
        guard let httpbin else { return }
        let requests = recordingRequests(httpbin)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        benchmark.startMeasurement()
        let turntable = try Turntable(
            vinylNamed: "recorded", from: .folder(folder),
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
    Benchmark(
        "7 baseline: plain URLSession, 200 requests",
        configuration: {
            var c = batches; c.skip = httpbin == nil; return c
        }()
    ) { benchmark in
        guard let httpbin else { return }
        let requests = recordingRequests(httpbin)
        benchmark.startMeasurement()
        for request in requests {
            blackHole(try await batchSession.data(for: request))
        }
        benchmark.stopMeasurement()
    }

    // 9: replaying a recorded 1,000-event stream at once, against the same bytes in one Data
    // (issue 16; StreamBenchmarks.swift).
    streamBenchmarks()

    // 10: replaying a recorded 1,000-message WebSocket conversation at once, against the same
    // messages from an array (issue 39; WebSocketBenchmarks.swift).
    webSocketBenchmarks()

    // 11 to 14: recording large bodies, into a large file, and through makeURLSession(), without
    // a network (issue 46; RecordingBenchmarks.swift).
    recordingBenchmarks()
}
