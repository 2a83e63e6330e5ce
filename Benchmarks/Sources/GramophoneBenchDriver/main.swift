import BenchFixtures
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Gramophone
import HeapStats

// GramophoneBenchDriver memory        heap kept alive by the loaded 10,000-track vinyl, as JSON
// GramophoneBenchDriver replay N      N replays of the small track (for callgrind)
// GramophoneBenchDriver lookup N SIZE N hits on the last track of a SIZE-track vinyl (for callgrind)
// GramophoneBenchDriver miss N SIZE   N misses (each naming the nearest track) in a SIZE-track vinyl (for perf)
// GramophoneBenchDriver load          one load of the 10,000-track vinyl (for callgrind)
// GramophoneBenchDriver record N ROUNDS [json|verbose|offline|sequential|plain-only|recording-only]
//                                     benchmark 7 paired round by round against $GRAMOPHONE_HTTPBIN;
//                                     offline records from a replaying Turntable instead, leaving
//                                     only Gramophone's own work (for perf)
// GramophoneBenchDriver stream N [lines|events|chunks|bytes|baseline|floor] [main]
//                                     N replays of benchmark 9's 1,000-event stream read as lines
//                                     (or events, chunks, byte by byte; or the baseline's or floor's split of one Data),
//                                     off the main actor (or on it, with main), then the median
//                                     µs per replay (for callgrind and timing)
// GramophoneBenchDriver websocket N [exchange|pushes] [baseline] [main]
//                                     N conversations of benchmark 10's 1,000 WebSocket messages
//                                     replayed through Turntable.webSocketTask (or, with baseline,
//                                     handed out by the ArrayWebSocket fake), off the main actor (or
//                                     on it, with main), then the median µs per conversation
//                                     (for callgrind, perf and timing)

func heap() -> Int { Int(heap_stats_in_use()) }

/// `count` replays of benchmark 9's stream read as `mode`, each timed in µs; on the main actor or
/// on the caller's executor (`nonisolated(nonsending)`).
nonisolated(nonsending) func streamReplays(_ count: Int, _ mode: String, _ turntable: Turntable) async throws -> (times: [Double], read: Int) {
    var times: [Double] = []
    var read = 0
    for _ in 0..<count {
        let start = ContinuousClock.now
        read = 0
        if mode == "baseline" {
            for line in StreamFixture.baselineLines(StreamFixture.body) { read += line.utf8.count > 0 ? 1 : 0 }
        } else if mode == "floor" {
            for line in StreamFixture.floorLines(StreamFixture.body) { read += line.utf8.count > 0 ? 1 : 0 }
        } else {
            let (bytes, _) = try await turntable.bytes(for: StreamFixture.request)
            switch mode {
            case "events": for try await _ in bytes.events { read += 1 }
            case "chunks": for try await _ in bytes.chunks { read += 1 }
            case "bytes": for try await _ in bytes { read += 1 }
            default: for try await _ in bytes.lines { read += 1 }
            }
        }
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
    }
    return (times, read)
}

/// `count` conversations of benchmark 10, each timed in µs; on the main actor or on the caller's
/// executor (`nonisolated(nonsending)`).
nonisolated(nonsending) func webSocketConversations(_ count: Int, pushes: Bool, baseline: Bool) async throws -> (times: [Double], crossed: Int) {
    let turntable = WebSocketFixture.turntable(pushes ? WebSocketFixture.pushes : WebSocketFixture.exchange)
    var times: [Double] = []
    var crossed = 0
    for _ in 0..<count {
        let start = ContinuousClock.now
        let socket: any WebSocketTask =
            baseline
            ? ArrayWebSocket(incoming: pushes ? WebSocketFixture.pushMessages : WebSocketFixture.answers, expected: pushes ? [] : WebSocketFixture.calls)
            : turntable.webSocketTask(with: WebSocketFixture.request)
        crossed = pushes ? try await WebSocketFixture.listen(socket) : try await WebSocketFixture.converse(socket)
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
    }
    return (times, crossed)
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "memory":
    let file = try Fixtures.mixedFile()
    let fileSize = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
    let data = try Data(contentsOf: file)
    var before = heap()
    let object = try JSONSerialization.jsonObject(with: data)
    let jsonSerialization = heap() - before
    withExtendedLifetime(object) {}
    before = heap()
    let vinyl = try Vinyl(data: data, name: "mixed")
    let vinylBytes = heap() - before
    before = heap()
    let turntable = Turntable(vinyl: vinyl)
    let turntableBytes = heap() - before
    withExtendedLifetime((vinyl, turntable)) {}
    print(#"{"fileBytes": \#(fileSize), "jsonSerializationBytes": \#(jsonSerialization), "vinylBytes": \#(vinylBytes), "turntableIndexBytes": \#(turntableBytes)}"#)
case "replay":
    let count = Int(arguments.dropFirst().first ?? "") ?? 10_000
    let turntable = Turntable(vinyl: Vinyl(name: "small", tracks: [Fixtures.smallTrack]))
    for _ in 0..<count { _ = try await turntable.data(for: Fixtures.smallRequest) }
case "lookup":
    let count = Int(arguments.dropFirst().first ?? "") ?? 10_000
    let size = Int(arguments.dropFirst(2).first ?? "") ?? 10
    let turntable = Turntable(vinyl: Fixtures.tracks(count: size))
    let request = URLRequest(url: Fixtures.url(size - 1))
    for _ in 0..<count { _ = try await turntable.data(for: request) }
case "miss":
    let count = Int(arguments.dropFirst().first ?? "") ?? 10
    let size = Int(arguments.dropFirst(2).first ?? "") ?? 100_000
    let turntable = Turntable(vinyl: Fixtures.tracks(count: size))
    let request = URLRequest(url: URL(string: "https://api.example.com/nowhere?page=1")!)
    for _ in 0..<count { _ = try? await turntable.data(for: request) }
case "load":
    _ = try Vinyl(contentsOf: try Fixtures.mixedFile())
case "record":
    // Benchmark 7 paired: each round sends the same N GETs plainly and through a recording
    // Turntable (new episodes, eject), back to back, alternating which goes first. Loopback
    // httpbin drifts by 10-30% over a minute (which worker and thread serve the connection),
    // more than recording adds, so only rounds side by side in time are compared.
    let count = Int(arguments.dropFirst().first ?? "") ?? 200
    let rounds = max(1, Int(arguments.dropFirst(2).first ?? "") ?? 20)
    let flags = Set(arguments.dropFirst(3))
    let offline = flags.contains("offline")
    func now() -> Double { ProcessInfo.processInfo.systemUptime }
    guard let base = offline ? URL(string: "http://offline.test") : ProcessInfo.processInfo.environment["GRAMOPHONE_HTTPBIN"].flatMap({ URL(string: $0) }) else {
        FileHandle.standardError.write(Data("record: set GRAMOPHONE_HTTPBIN to a running httpbin, or pass offline\n".utf8))
        exit(2)
    }
    let requests = (0..<count).map { URLRequest(url: URL(string: "\(base.absoluteString)/get?i=\($0)")!) }
    // One session for both sides, so both use the same warm connections.
    let session: any NetworkSession = offline
        ? Turntable(vinyl: Vinyl(name: "source", tracks: requests.map { Track(request: Track.Request(url: $0.url!), outcome: Fixtures.smallTrack.outcome) }))
        : URLSession(configuration: .ephemeral)
    for request in requests.prefix(10) { _ = try await session.data(for: request) }
    var plain: [Double] = [], recording: [Double] = [], eject: [Double] = []
    func plainRound() async throws {
        let start = now()
        for request in requests { _ = try await session.data(for: request) }
        plain.append(now() - start)
    }
    func recordingRound() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-driver-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let start = now()
        let turntable = try Turntable(vinylNamed: "recorded", from: .folder(folder), recording: Recording(mode: .newEpisodes, session: session, environment: [:]))
        for request in requests { _ = try await turntable.data(for: request) }
        let ejectStart = now()
        try turntable.eject()
        recording.append(now() - start)
        eject.append(now() - ejectStart)
    }
    if flags.contains("plain-only") { // for perf stat: one side's CPU at a time
        for _ in 0..<rounds { try await plainRound() }
    } else if flags.contains("recording-only") {
        for _ in 0..<rounds { try await recordingRound() }
    } else if flags.contains("sequential") { // as ordo-one runs two benchmarks: shows the drift
        for _ in 0..<rounds { try await plainRound() }
        for _ in 0..<rounds { try await recordingRound() }
    } else {
        for round in 0..<rounds {
            if round % 2 == 0 { try await plainRound(); try await recordingRound() } else { try await recordingRound(); try await plainRound() }
        }
    }
    func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }
    let paired = median(zip(recording, plain).map { $0 / $1 })
    if flags.contains("json") {
        print(#"{"requests": \#(count), "rounds": \#(rounds), "plainMs": \#(median(plain) * 1000), "recordingMs": \#(median(recording) * 1000), "ejectMs": \#(median(eject) * 1000), "pairedRatio": \#(paired)}"#)
    } else {
        func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
        print("\(rounds) rounds of \(count) requests: plain \(ms(median(plain))), recording with eject \(ms(median(recording))) (eject \(ms(median(eject)))); "
            + "recording / plain, median of rounds side by side: \(String(format: "%.3f", paired))")
        if flags.contains("verbose") { print("plain ms:", plain.map { Int($0 * 1000) }, "\nrecording ms:", recording.map { Int($0 * 1000) }) }
    }
case "stream":
    let count = Int(arguments.dropFirst().first ?? "") ?? 1_000
    let mode = arguments.dropFirst(2).first ?? "lines"
    let onMain = arguments.dropFirst(3).first == "main"
    let turntable = try StreamFixture.turntable()
    // Off the main actor unless asked, as the benchmark harness runs its closures; with main, on
    // it: the ResponseStreams' readers run on the caller's actor (next(isolation:)), so reading
    // from the main actor costs no hop per element.
    var (times, read) = onMain ? try await streamReplays(count, mode, turntable)
        : try await Task.detached { try await streamReplays(count, mode, turntable) }.value
    times.sort()
    print("stream \(mode): \(read) items a replay, median \(String(format: "%.1f", times[times.count / 2])) µs over \(count) replays")
case "websocket":
    let count = Int(arguments.dropFirst().first ?? "") ?? 1_000
    let flags = Set(arguments.dropFirst(2))
    let pushes = flags.contains("pushes")
    let baseline = flags.contains("baseline")
    var (times, crossed) = flags.contains("main") ? try await webSocketConversations(count, pushes: pushes, baseline: baseline)
        : try await Task.detached { try await webSocketConversations(count, pushes: pushes, baseline: baseline) }.value
    times.sort()
    let median = times[times.count / 2]
    print("websocket \(pushes ? "pushes" : "exchange")\(baseline ? " baseline" : "")\(flags.contains("main") ? " from the main actor" : ""): \(crossed) messages a conversation, median \(String(format: "%.1f", median)) µs "
        + "(\(String(format: "%.0f", median * 1000 / Double(max(crossed, 1)))) ns a message) over \(count) conversations")
default:
    FileHandle.standardError.write(Data("usage: GramophoneBenchDriver memory | replay N | lookup N SIZE | load | record N ROUNDS [flags] | stream N [lines|events|chunks|bytes|baseline|floor] [main] | websocket N [exchange|pushes] [baseline] [main]\n".utf8))
    exit(2)
}
