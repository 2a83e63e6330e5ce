// AHC replay through a Turntable, beside a bare HTTPClient to the local httpbin (the ratio) and
// beside Turntable data(for:) (the issue asks for within 2x of the injected URLSession path).
//
//   GRAMOPHONE_HTTPBIN=http://127.0.0.1:PORT swift run -c release ServerSideBench
//
// Each figure is the median of 11 rounds of wall-clock microseconds per request, body read whole,
// from a nonisolated function as server code calls it (top-level code is on the main actor,
// where AsyncHTTPClient's own nonisolated body reading hops off and back on every call). The two
// replays run in turns within each round and the ratio is the median of the rounds' ratios, so a
// machine that slows down for a while slows both sides of a ratio alike.
//
// `GRAMOPHONE_PROFILE=ahc` (or `data`) runs only that replay, a million times, for `perf record -g`.
import AsyncHTTPClient
import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

guard let base = ProcessInfo.processInfo.environment["GRAMOPHONE_HTTPBIN"].flatMap(URL.init(string:)) else {
    FileHandle.standardError.write(Data("set GRAMOPHONE_HTTPBIN to a local httpbin (scripts/lib/httpbin.sh starts one)\n".utf8))
    exit(2)
}
let url = base.appendingPathComponent("get")

/// Microseconds per call of `body` over `count` calls.
func perCall(count: Int, _ body: () async throws -> Void) async throws -> Double {
    let start = ContinuousClock.now
    for _ in 0..<count { try await body() }
    let elapsed = ContinuousClock.now - start
    return (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(count)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func report(_ name: String, _ microseconds: Double) {
    print(String(format: "%-44@ %10.2f µs/request", name as NSString, microseconds))
}

// One live request gives the track both replays answer from.
let (liveBody, liveResponse) = try await URLSession.shared.data(from: url)
let status = (liveResponse as? HTTPURLResponse)?.statusCode ?? 0
let vinyl = Vinyl(name: "bench", tracks: [Track(request: Track.Request(url: url), outcome: .response(Track.Response(status: status, headers: ["Content-Type": "application/json"], body: liveBody)))])
let turntable = Turntable(vinyl: vinyl)
let request = HTTPClientRequest(url: url.absoluteString)

nonisolated func run(_ turntable: Turntable, _ request: HTTPClientRequest, _ url: URL) async throws {
    let rounds = 11
    let bare: () async throws -> Void = { _ = try await HTTPClient.shared.execute(request, timeout: .seconds(10)).body.collect(upTo: 1 << 20) }
    let replayAHC: () async throws -> Void = { _ = try await turntable.execute(request, timeout: .seconds(10)).body.collect(upTo: 1 << 20) }
    let replayData: () async throws -> Void = { _ = try await turntable.data(for: URLRequest(url: url)) }
    // Warm-up: connections, caches, the track's response head.
    _ = try await perCall(count: 50, bare)
    _ = try await perCall(count: 500, replayAHC)
    _ = try await perCall(count: 500, replayData)
    var bareTimes: [Double] = [], ahcTimes: [Double] = [], dataTimes: [Double] = [], ahcOverData: [Double] = []
    for _ in 0..<rounds {
        bareTimes.append(try await perCall(count: 200, bare))
        let ahc = try await perCall(count: 5000, replayAHC)
        let data = try await perCall(count: 5000, replayData)
        ahcTimes.append(ahc)
        dataTimes.append(data)
        ahcOverData.append(ahc / data)
    }
    report("bare HTTPClient.shared to local httpbin", median(bareTimes))
    report("Turntable execute(_:timeout:) (AHC replay)", median(ahcTimes))
    report("Turntable data(for:) (URLSession path)", median(dataTimes))
    print(String(format: "AHC replay / bare HTTPClient: %.4f (%.0fx faster)", median(ahcTimes) / median(bareTimes), median(bareTimes) / median(ahcTimes)))
    print(String(format: "AHC replay / data(for:):      %.2f (median of %d rounds' ratios, %.2f to %.2f)", median(ahcOverData), rounds, ahcOverData.min()!, ahcOverData.max()!))
}

if let only = ProcessInfo.processInfo.environment["GRAMOPHONE_PROFILE"] {
    try await profile(only, turntable, request, url)
} else {
    try await run(turntable, request, url)
}

/// One replay path alone, for a profiler.
nonisolated func profile(_ path: String, _ turntable: Turntable, _ request: HTTPClientRequest, _ url: URL) async throws {
    for _ in 0..<1_000_000 {
        if path == "ahc" {
            _ = try await turntable.execute(request, timeout: .seconds(10)).body.collect(upTo: 1 << 20)
        } else {
            _ = try await turntable.data(for: URLRequest(url: url))
        }
    }
}
