import Benchmark
import BenchFixtures
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Gramophone

// Benchmark 10 (issue 39): replaying a recorded 1,000-message WebSocket conversation at once
// through `Turntable.webSocketTask(with:)`, against the same messages handed out from an array by
// a hand-written fake (`ArrayWebSocket`). One sample is a whole conversation, from making the task
// to its last message; BENCHMARKS.md gives the figures per message.

/// The Turntables of the two conversations, built once.
let exchangeTurntable = WebSocketFixture.turntable(WebSocketFixture.exchange)
let pushesTurntable = WebSocketFixture.turntable(WebSocketFixture.pushes)

struct WebSocketMismatch: Error, CustomStringConvertible {
    var description: String
}

/// Replay and fake hand out the same 1,000 texts in the same order: checked once before benchmark 10 runs.
func checkSameMessages() async throws {
    let replayedExchange = try await WebSocketFixture.transcript(exchangeTurntable.webSocketTask(with: WebSocketFixture.request), sending: WebSocketFixture.calls)
    let fakeExchange = try await WebSocketFixture.transcript(
        ArrayWebSocket(incoming: WebSocketFixture.answers, expected: WebSocketFixture.calls), sending: WebSocketFixture.calls)
    let replayedPushes = try await WebSocketFixture.transcript(pushesTurntable.webSocketTask(with: WebSocketFixture.request), sending: [])
    let fakePushes = try await WebSocketFixture.transcript(ArrayWebSocket(incoming: WebSocketFixture.pushMessages), sending: [])
    let half = WebSocketFixture.messageCount / 2
    guard replayedExchange.count == half, replayedExchange == fakeExchange, replayedPushes.count == WebSocketFixture.messageCount, replayedPushes == fakePushes else {
        throw WebSocketMismatch(
            description: "exchange: replay \(replayedExchange.count) received, fake \(fakeExchange.count) (expected \(half)); "
                + "pushes: replay \(replayedPushes.count), fake \(fakePushes.count) (expected \(WebSocketFixture.messageCount))")
    }
}

func webSocketBenchmarks() {
    let expected = WebSocketFixture.messageCount

    Benchmark("10 websocket replay: 1,000 messages, 500 sent each answered", configuration: fast, closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let crossed = try await WebSocketFixture.converse(exchangeTurntable.webSocketTask(with: WebSocketFixture.request))
            if crossed != expected { benchmark.error("replay crossed \(crossed) messages") }
        }
    }, setup: checkSameMessages)

    // The same from the main actor, where view models and @MainActor tests talk to sockets from.
    Benchmark("10 websocket replay: 1,000 messages, 500 sent each answered, from the main actor", configuration: fast) { @MainActor benchmark in
        for _ in benchmark.scaledIterations {
            let crossed = try await WebSocketFixture.converse(exchangeTurntable.webSocketTask(with: WebSocketFixture.request))
            if crossed != expected { benchmark.error("replay crossed \(crossed) messages") }
        }
    }

    Benchmark("10 websocket baseline: 1,000 messages, 500 sent each answered, from an array", configuration: fast, closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let crossed = try await WebSocketFixture.converse(ArrayWebSocket(incoming: WebSocketFixture.answers, expected: WebSocketFixture.calls))
            if crossed != expected { benchmark.error("baseline crossed \(crossed) messages") }
        }
    }, setup: checkSameMessages)

    Benchmark("10 websocket replay: 1,000 server pushes", configuration: fast, closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let crossed = try await WebSocketFixture.listen(pushesTurntable.webSocketTask(with: WebSocketFixture.request))
            if crossed != expected { benchmark.error("replay received \(crossed) messages") }
        }
    }, setup: checkSameMessages)

    Benchmark("10 websocket baseline: 1,000 server pushes, from an array", configuration: fast, closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let crossed = try await WebSocketFixture.listen(ArrayWebSocket(incoming: WebSocketFixture.pushMessages))
            if crossed != expected { benchmark.error("baseline received \(crossed) messages") }
        }
    }, setup: checkSameMessages)
}
