import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request is answered with, and where the answer came from: the one value every API
/// style (async, tasks, URLSession) receives from `Turntable.answer(_:)`.
struct Answer: Sendable {
    enum Source: Sendable {
        /// A stub; `delay` is the time its network condition takes.
        case stub(delay: TimeInterval)
        /// The vinyl's track at this position; held back as the Turntable's timing says.
        case track(Int, recordedDuration: TimeInterval?)
        /// The real network (recorded, or a host the recording leaves alone): it took its time already.
        case network
        /// Nothing answered: the outcome is the miss report, or the error that ended the way
        /// through (too many redirects, a replay deadline passed).
        case miss
    }

    var outcome: Result<(HTTPURLResponse, Data), any Error>
    var source: Source
    /// How the body was streamed (a recorded stream, a streaming stub): it is delivered piece
    /// by piece where the API allows (Session/StreamPlayback.swift).
    var stream: TrackStream?
    /// A live stream handed on while it is recorded; the outcome's body is empty then.
    var relayed: ChunkSource?
    /// The response's head in each client library's form, where the answer has one ready (a
    /// track's, built on its first play; a live AsyncHTTPClient response's). Nil where only the
    /// outcome's `HTTPURLResponse` has it.
    var head: ResponseHead?
    /// A WebSocket stub's conversation: a recorded one, or a script (Stubbing/WebSocketScript.swift).
    var conversation: WebSocketConversation? {
        get { webSocket?.conversation }
        set { webSocket = WebSocketStub(conversation: newValue, script: webSocketScript) }
    }
    var webSocketScript: WebSocketScript? {
        get { webSocket?.script }
        set { webSocket = WebSocketStub(conversation: conversation, script: newValue) }
    }
    /// Boxed: few answers have one, and every replay moves its answer through a few frames.
    var webSocket: WebSocketStub?

    final class WebSocketStub: Sendable {
        let conversation: WebSocketConversation?
        let script: WebSocketScript?
        init(conversation: WebSocketConversation?, script: WebSocketScript?) { (self.conversation, self.script) = (conversation, script) }
    }
    /// A stub's network condition: where the API allows, its body arrives at the condition's
    /// pace (a URLSession's delegate sees the pieces); elsewhere after its whole delay (`source`).
    var condition: NetworkCondition = .immediate
    /// Whether a URLSession may cache the response (a stub's `cachePolicy(_:)`).
    var cachePolicy: URLCache.StoragePolicy = .notAllowed

    /// The response is a `text/event-stream`: its events are cut at empty lines.
    var isEventStream: Bool {
        guard case .success(let (response, _)) = outcome else { return false }
        return response.isEventStream
    }

    /// The vinyl position of the track that answered, if one did.
    var trackIndex: Int? {
        if case .track(let index, _) = source { return index }
        return nil
    }
}
