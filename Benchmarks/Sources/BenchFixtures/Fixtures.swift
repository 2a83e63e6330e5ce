import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Gramophone

/// The vinyls the benchmarks play, built in code so every run measures the same data.
public enum Fixtures {
    public static let host = "https://api.example.com"

    /// The one small JSON track of benchmarks 1 to 3.
    public static let smallTrack = Track("GET https://api.example.com/users/42", .json(#"{"id":42,"name":"Ada Lovelace","admin":false}"#))
    public static let smallRequest = URLRequest(url: URL(string: "https://api.example.com/users/42")!)
    public static let smallBody = Data(#"{"id":42,"name":"Ada Lovelace","admin":false}"#.utf8)

    /// The URL of track `index` in a vinyl of `tracks(count:)`.
    public static func url(_ index: Int) -> URL {
        URL(string: "\(host)/v1/items/\(index)?expand=owner&page=\(index % 7)")!
    }

    /// `count` small GET tracks with distinct URLs: what a large recorded suite looks like to the index.
    public static func tracks(count: Int) -> Vinyl {
        Vinyl(name: "lookup-\(count)", tracks: (0..<count).map { index in
            Track(request: Track.Request(method: "GET", url: url(index), headers: ["Accept": "application/json"]),
                  outcome: .response(Track.Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"id":\#(index)}"#.utf8))))
        })
    }

    /// `count` POSTs to one URL that differ only in their JSON body: what `[.method, .url, .body]`
    /// must tell apart through the index (bodies compared as values, not bytes).
    public static func bodyTracks(count: Int) -> Vinyl {
        Vinyl(name: "body-lookup-\(count)", tracks: (0..<count).map { index in
            Track(Track.Request(method: "POST", url: URL(string: "\(host)/v1/search")!).json(bodyText(index)), .json(#"{"page":\#(index)}"#))
        })
    }

    public static func bodyText(_ index: Int) -> String { #"{"query":"item \#(index)","limit":20}"# }

    /// A 10,000-track vinyl with JSON, text and binary (base64) bodies, about 20 MB on disk.
    public static func mixedVinyl(count: Int = 10_000) -> Vinyl {
        var generator = SplitMix(seed: 42)
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]
        func sentence(_ length: Int) -> String {
            (0..<length).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
        }
        var tracks: [Track] = []
        tracks.reserveCapacity(count)
        for index in 0..<count {
            let request = Track.Request(method: index % 5 == 0 ? "POST" : "GET", url: url(index),
                                        headers: ["Accept": "*/*", "User-Agent": "Bench/1.0", "Authorization": "Bearer <redacted>"],
                                        body: index % 5 == 0 ? Data(#"{"query":"\#(sentence(8))","limit":20}"#.utf8) : Data())
            let headers: Headers
            let body: Data
            switch index % 3 {
            case 0:
                headers = ["Content-Type": "application/json", "Cache-Control": "no-cache", "X-Request-Id": "req-\(index)", "Date": "Mon, 23 Nov 2026 09:00:00 GMT"]
                let items = (0..<9).map { item in
                    #"{"id":\#(index * 100 + item),"title":"\#(sentence(6))","score":\#(Double(item) / 3),"tags":["\#(words[item % 12])","\#(words[(item + 5) % 12])"],"active":\#(item % 2 == 0)}"#
                }
                body = Data(#"{"page":\#(index % 7),"items":[\#(items.joined(separator: ","))],"next":null}"#.utf8)
            case 1:
                headers = ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache", "X-Request-Id": "req-\(index)", "Date": "Mon, 23 Nov 2026 09:00:00 GMT"]
                body = Data((0..<7).map { _ in sentence(20) }.joined(separator: "\n").utf8)
            default:
                headers = ["Content-Type": "application/octet-stream", "Cache-Control": "no-cache", "X-Request-Id": "req-\(index)", "Date": "Mon, 23 Nov 2026 09:00:00 GMT"]
                body = Data((0..<1_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            }
            tracks.append(Track(request: request, outcome: .response(Track.Response(status: 200, headers: headers, body: body)),
                                recordedAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(index)), duration: 0.05))
        }
        return Vinyl(name: "mixed-\(count)", tracks: tracks)
    }

    /// The mixed vinyl's file in the temporary folder, written on first use.
    public static func mixedFile() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-bench-mixed-10000.json")
        if !FileManager.default.fileExists(atPath: file.path) {
            try mixedVinyl().write(to: file)
        }
        return file
    }
}

/// Benchmark 9: a recorded streamed answer of 1,000 server-sent events, each an LLM-style delta
/// (`data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"tok N"}}]}` and the empty
/// line that ends it, 79-81 bytes), one recorded chunk per event, all at offset 0.
public enum StreamFixture {
    public static let eventCount = 1_000
    public static let url = URL(string: "https://api.example.com/v1/chat/completions")!
    public static var request: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        return request
    }

    /// The text of event `index`, its terminating empty line included.
    public static func event(_ index: Int) -> String {
        #"data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"tok \#(index)"}}]}"# + "\n\n"
    }

    /// The whole body in one piece: what the baseline reads.
    public static let body = Data((0..<eventCount).map(event).joined().utf8)

    /// The vinyl file's text: one track, its response streamed (`"stream"`, no `"body"`).
    public static let vinylJSON: Data = {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n") + "\""
        }
        let chunks = (0..<eventCount).map { #"{"offsetMs": 0, "text": \#(quoted(event($0)))}"# }.joined(separator: ",\n      ")
        return Data("""
        {"tracks": [{"request": {"method": "POST", "url": "\(url.absoluteString)"},
          "response": {"status": 200, "headers": {"Content-Type": "text/event-stream"},
            "stream": {"chunks": [
              \(chunks)
            ], "end": "finished"}}}]}
        """.utf8)
    }()

    /// A Turntable holding that one track, loaded from the file's text.
    public static func turntable() throws -> Turntable {
        Turntable(vinyl: try Vinyl(data: vinylJSON, name: "stream-1000"))
    }

    /// The baseline: the body's lines as a client without a network reads them from one `Data`,
    /// split on line feeds into Strings, empty lines left out.
    public static func baselineLines(_ data: Data) -> [String] {
        data.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The same lines split in the bytes' buffer rather than through `Data`'s generic indexing:
    /// the least a reader of lines into Strings costs (not what the goal is judged against).
    public static func floorLines(_ data: Data) -> [String] {
        data.withUnsafeBytes { raw in
            raw.bindMemory(to: UInt8.self).split(separator: 0x0A).map { String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self) }
        }
    }
}

/// A small deterministic generator: the same bodies on every run.
public struct SplitMix {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

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
            [WebSocketMessage.sent(.text(call(index)), at: Double(index) * 0.02),
             WebSocketMessage.received(.text(answer(index)), at: Double(index) * 0.02 + 0.01)]
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
