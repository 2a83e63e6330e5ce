import BenchFixtures
import Foundation
import Gramophone

// Benchmark 10 (issue 39): a 1,000-message WebSocket conversation, beside the fake reading an
// array. Commits before WebSockets drop this file (and WebSocketFixture.swift).

let exchangeTurntable = WebSocketFixture.turntable(WebSocketFixture.exchange)

let webSocketWorkloads: [Workload] = [
    Workload("10 websocket replay: 1,000 messages, 500 sent each answered") { count in
        try await timed(count) {
            let crossed = try await WebSocketFixture.converse(exchangeTurntable.webSocketTask(with: WebSocketFixture.request))
            if crossed != WebSocketFixture.messageCount { throw BenchFailure(description: "replay crossed \(crossed) messages") }
        }
    },
    Workload("10 websocket baseline: 1,000 messages, 500 sent each answered, from an array") { count in
        try await timed(count) {
            _ = try await WebSocketFixture.converse(ArrayWebSocket(incoming: WebSocketFixture.answers, expected: WebSocketFixture.calls))
        }
    },
]
