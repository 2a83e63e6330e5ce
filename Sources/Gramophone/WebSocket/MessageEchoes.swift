import Foundation

extension TurntableWebSocketTask.State {
    /// `message`, due once the client's `gate`th message was sent, with the values the matching
    /// strategy's echoes take from that message as the code sent it (`Echo.jsonValue(at:from:)`:
    /// a per-run id the server repeats); `echoed` says whether it changed. Unchanged without
    /// echoes, for a message the client did not answer, and for a binary one.
    func echoing(_ message: WebSocketMessage, gate: Int) -> (message: WebSocketMessage, echoed: Bool) {
        guard !echoes.isEmpty, message.kind == .text, gate > 0, gate <= liveSent.count, gate <= schedule.expected.count else { return (message, false) }
        let url = handshake?.url ?? URL(fileURLWithPath: "/")
        let live = Track.Request(url: url, body: liveSent[gate - 1].payload)
        let recorded = Track.Request(url: url, body: schedule.expected[gate - 1].payload)
        var response = Track.Response(body: message.payload)
        var echoed = false
        for echo in echoes {
            if let next = echo.apply(to: response, live: live, recorded: recorded) {
                response = next
                echoed = true
            }
        }
        guard echoed else { return (message, false) }
        return (WebSocketMessage(direction: message.direction, kind: .text, payload: response.body, offset: message.offset), true)
    }
}
