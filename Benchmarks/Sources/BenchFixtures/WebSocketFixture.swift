import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Benchmark 10's conversations (issue 39), apart from the other fixtures: bench-compare drops
// this file when it builds these sources against a commit without WebSockets.

/// Benchmark 10: recorded WebSocket conversations of 1,000 messages each, replayed at once through
/// `Turntable.webSocketTask(with:)`, and the same messages handed out by a hand-written fake.
///
/// - The exchange: 500 JSON-RPC calls the client sends, each answered by one the server sends
///   (`{"id":N,"method":"chat.send",...}` then `{"id":N,"result":...}`, 60-70 bytes each), 20 ms apart.
/// - The pushes: 1,000 server messages with no client message (`{"type":"tick","seq":N,...}`),
///   10 ms apart, as a live feed sends them.
///
/// Both close with 1000 from the server after the last message. The offsets are what a recording
/// has; the Turntable plays them `.immediate`, so no message waits for its recorded gap.
public enum WebSocketFixture {
    public static let messageCount = 1_000
    public static let url = URL(string: "wss://api.example.com/v1/realtime")!
    public static var request: URLRequest { URLRequest(url: url) }

    public static func call(_ index: Int) -> String {
        #"{"id":\#(index),"method":"chat.send","params":{"room":"general","text":"message \#(index)"}}"#
    }

    public static func answer(_ index: Int) -> String {
        #"{"id":\#(index),"result":{"ok":true,"seq":\#(index * 2 + 1)}}"#
    }

    public static func push(_ index: Int) -> String {
        #"{"type":"tick","seq":\#(index),"symbol":"GRMP","price":\#(100 + index % 50).25}"#
    }

    /// 500 calls, each followed by its answer.
    public static let exchange = WebSocketConversation(
        messages: (0..<messageCount / 2).flatMap { index in
            [
                WebSocketMessage.sent(.text(call(index)), at: Double(index) * 0.02),
                WebSocketMessage.received(.text(answer(index)), at: Double(index) * 0.02 + 0.01),
            ]
        },
        end: .closed(code: 1000, by: .received))

    /// 1,000 server pushes, no client message.
    public static let pushes = WebSocketConversation(
        messages: (0..<messageCount).map { WebSocketMessage.received(.text(push($0)), at: Double($0) * 0.01) },
        end: .closed(code: 1000, by: .received))

    /// A Turntable holding `conversation` as the handshake track of `url`, timing immediate.
    public static func turntable(_ conversation: WebSocketConversation) -> Turntable {
        let track = Track(request: Track.Request(url: url), outcome: .response(.webSocket(conversation)))
        let turntable = Turntable(vinyl: Vinyl(name: "websocket-\(conversation.messages.count)", tracks: [track]))
        turntable.timing = .immediate
        return turntable
    }

    /// What the client sends in the exchange, as the code under test holds it.
    public static let calls: [URLSessionWebSocketTask.Message] = (0..<messageCount / 2).map { .string(call($0)) }
    /// The server's side of each conversation, as a hand-written fake holds it.
    public static let answers: [URLSessionWebSocketTask.Message] = (0..<messageCount / 2).map { .string(answer($0)) }
    public static let pushMessages: [URLSessionWebSocketTask.Message] = (0..<messageCount).map { .string(push($0)) }

    /// The client's side of the exchange: each call sent, then its answer received. Returns the
    /// messages that crossed (1,000), or throws what the socket threw.
    nonisolated(nonsending) public static func converse(_ socket: any WebSocketTask) async throws -> Int {
        socket.resume()
        var crossed = 0
        for call in calls {
            try await socket.send(call)
            blackHoleMessage(try await socket.receive())
            crossed += 2
        }
        socket.cancel(with: .normalClosure, reason: nil)
        return crossed
    }

    /// The client's side of the pushes: 1,000 messages received.
    nonisolated(nonsending) public static func listen(_ socket: any WebSocketTask) async throws -> Int {
        socket.resume()
        var crossed = 0
        for _ in 0..<messageCount {
            blackHoleMessage(try await socket.receive())
            crossed += 1
        }
        socket.cancel(with: .normalClosure, reason: nil)
        return crossed
    }

    /// The texts a socket hands out over a whole conversation (the close ends it): what the
    /// benchmarks check once, so replay and fake are seen to deliver the same messages.
    nonisolated(nonsending) public static func transcript(_ socket: any WebSocketTask, sending: [URLSessionWebSocketTask.Message]) async throws -> [String] {
        socket.resume()
        var texts: [String] = []
        for call in sending {
            try await socket.send(call)
            if case .string(let text) = try await socket.receive() { texts.append(text) }
        }
        while true {
            guard let message = try? await socket.receive() else { break }
            if case .string(let text) = message { texts.append(text) }
        }
        return texts
    }
}

/// Keeps a received message alive so the optimiser cannot drop the receive (the harness's
/// `blackHole` is not visible to this target).
@inline(never) public func blackHoleMessage(_ message: URLSessionWebSocketTask.Message) {
    withExtendedLifetime(message) {}
}

/// Benchmark 10's baseline: the fake a test writes by hand without Gramophone. The server's
/// messages sit in an array and each receive hands out the next; each send is compared with the
/// one expected at its place (as the replay compares it with the recording). A lock guards the
/// two positions, as `WebSocketTask` must be `Sendable`. No causal order, no pacing, no close.
public final class ArrayWebSocket: WebSocketTask, @unchecked Sendable {
    public typealias Message = URLSessionWebSocketTask.Message

    struct Mismatch: Error {}
    struct Exhausted: Error {}

    private let lock = NSLock()
    private let incoming: [Message]
    private let expected: [Message]
    // Guarded by `lock`.
    private var nextIncoming = 0
    private var nextExpected = 0

    public init(incoming: [Message], expected: [Message] = []) {
        self.incoming = incoming
        self.expected = expected
    }

    public func resume() {}

    nonisolated(nonsending) public func send(_ message: Message) async throws {
        guard accept(message) else { throw Mismatch() }
    }

    public func send(_ message: Message, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        completionHandler(accept(message) ? nil : Mismatch())
    }

    nonisolated(nonsending) public func receive() async throws -> Message {
        guard let message = next() else { throw Exhausted() }
        return message
    }

    public func receive(completionHandler: @escaping @Sendable (Result<Message, any Error>) -> Void) {
        completionHandler(next().map { .success($0) } ?? .failure(Exhausted()))
    }

    /// Whether `message` is the one expected at its place; moves on past it if so.
    private func accept(_ message: Message) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard nextExpected < expected.count, Self.same(message, expected[nextExpected]) else { return false }
        nextExpected += 1
        return true
    }

    /// The next server message, nil once all have been handed out.
    private func next() -> Message? {
        lock.lock()
        defer { lock.unlock() }
        guard nextIncoming < incoming.count else { return nil }
        nextIncoming += 1
        return incoming[nextIncoming - 1]
    }

    public func sendPing(pongReceiveHandler: @escaping @Sendable ((any Error)?) -> Void) { pongReceiveHandler(nil) }
    public func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {}
    public func cancel(withCloseCodeValue code: Int, reason: Data?) {}
    public var closeCode: URLSessionWebSocketTask.CloseCode { .invalid }
    public var closeReason: Data? { nil }
    public var closeCodeValue: Int { 0 }

    static func same(_ a: Message, _ b: Message) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        default: return false
        }
    }
}
