// AHC replay through a Turntable, beside a bare HTTPClient to the local httpbin (the ratio) and
// beside Turntable data(for:) (the issue asks for within 2x of the injected URLSession path).
//
//   GRAMOPHONE_HTTPBIN=http://127.0.0.1:PORT swift run -c release ServerSideBench
//
// Each figure is the median of 7 rounds of wall-clock microseconds per request, body read whole,
// from a nonisolated function as server code calls it (top-level code is on the main actor,
// where AsyncHTTPClient's own nonisolated body reading hops off and back on every call).
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

/// Median microseconds per call of `body` over `rounds` rounds of `count` calls.
func measure(_ name: String, count: Int, rounds: Int = 7, _ body: () async throws -> Void) async throws -> Double {
    for _ in 0..<min(count, 50) { try await body() }  // warm-up
    var perCall: [Double] = []
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        for _ in 0..<count { try await body() }
        let elapsed = ContinuousClock.now - start
        perCall.append((Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(count))
    }
    let median = perCall.sorted()[rounds / 2]
    print(String(format: "%-44@ %10.2f µs/request", name as NSString, median))
    return median
}

// One live request gives the track both replays answer from.
let (liveBody, liveResponse) = try await URLSession.shared.data(from: url)
let status = (liveResponse as? HTTPURLResponse)?.statusCode ?? 0
let vinyl = Vinyl(name: "bench", tracks: [Track(request: Track.Request(url: url), outcome: .response(Track.Response(status: status, headers: ["Content-Type": "application/json"], body: liveBody)))])
let turntable = Turntable(vinyl: vinyl)
let request = HTTPClientRequest(url: url.absoluteString)

nonisolated func run(_ turntable: Turntable, _ request: HTTPClientRequest, _ url: URL) async throws {
    let bare = try await measure("bare HTTPClient.shared to local httpbin", count: 200) {
        _ = try await HTTPClient.shared.execute(request, timeout: .seconds(10)).body.collect(upTo: 1 << 20)
    }
    let replayAHC = try await measure("Turntable execute(_:timeout:) (AHC replay)", count: 5000) {
        _ = try await turntable.execute(request, timeout: .seconds(10)).body.collect(upTo: 1 << 20)
    }
    let replayData = try await measure("Turntable data(for:) (URLSession path)", count: 5000) {
        _ = try await turntable.data(for: URLRequest(url: url))
    }
    print(String(format: "AHC replay / bare HTTPClient: %.4f (%.0fx faster)", replayAHC / bare, bare / replayAHC))
    print(String(format: "AHC replay / data(for:):      %.2f", replayAHC / replayData))
}

try await run(turntable, request, url)
