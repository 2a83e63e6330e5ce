import Foundation

// A WebSocket conversation is redacted message by message: each text message that is JSON goes
// through the body steps as a JSON body of its own (the client's as a request's, the server's as
// a response's), so `password`, `api_key` and the keys of `.jsonKeys(…)` are taken out of
// payloads as out of bodies; then every value taken out anywhere in the track (the handshake's
// Authorization token, say) is scrubbed from every payload, text or binary.
extension Redaction {
    /// Redacts `conversation`'s payloads, adding what the steps took out to `secrets`.
    func redactConversation(_ conversation: inout WebSocketConversation?, allowed: [SecretPlace], secrets: inout [String]) {
        for (index, message) in (conversation?.messages ?? []).enumerated() where message.kind == .text {
            guard (try? JSONParser.parse(message.payload)) != nil else { continue }
            let side: SecretPlace.Side = message.direction == .sent ? .request : .response
            // `.webSocketMessages(in:)` allowed: the default leaves the payload as sent.
            conversation?.messages[index].payload = redactJSONPart(
                message.payload, side: side, names: !SecretPlace.any(allowed, cover: .webSocketMessages, on: side), allowed: allowed, secrets: &secrets)
        }
    }

    /// A message the code under test sent, redacted as the recorded ones were, to compare with
    /// them on replay (the recording holds `<redacted>` where the live message has the secret).
    func redactSent(_ message: WebSocketMessage, request: Track.Request, allowing allowed: [SecretPlace] = []) -> WebSocketMessage {
        var track = Track(request: request, outcome: .response(.webSocket(WebSocketConversation(messages: [message]))))
        track = redact(track, allowing: allowed)
        return track.response?.conversation?.messages.first ?? message
    }
}
