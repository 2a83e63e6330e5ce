import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WebSocket conversations written in code, through the Turntable's stub registry and its
/// verification: pushes on open, reply rules, a close after N messages.
@Suite struct WebSocketStubTests {
    static let url = URL(string: "wss://chat.example.com/socket")!

    static func text(_ message: URLSessionWebSocketTask.Message) -> String? {
        if case .string(let text) = message { return text }
        return nil
    }

    @Test func aScriptPushesRepliesByRuleAndClosesAfterItsCount() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let handle = turntable.stubs.add(
            try Stub().matching(.path("/socket")).responding(
                with: .webSocket(
                    WebSocketScript()
                        .pushing(.text("hello"))
                        .replying(to: "ping", with: .text("pong"))
                        .replying(with: .json(template: #"{"id":{{id}},"echo":"{{text}}"}"#))
                        .closing(after: 3, code: 4000, reason: "bye"))))
        let socket = turntable.webSocketTask(with: Self.url)
        socket.resume()
        #expect(Self.text(try await socket.receive()) == "hello")
        try await socket.send(.string("ping"))
        #expect(Self.text(try await socket.receive()) == "pong")
        try await socket.send(.string(#"{"id":7,"text":"hi"}"#))
        #expect(Self.text(try await socket.receive()) == #"{"id":7,"echo":"hi"}"#)
        try await socket.send(.string(#"{"id":8,"text":"last"}"#))
        #expect(Self.text(try await socket.receive()) == #"{"id":8,"echo":"last"}"#)
        await #expect(throws: POSIXError.self) { try await socket.receive() }
        #expect(socket.closeCodeValue == 4000)
        #expect(socket.closeReason == Data("bye".utf8))
        #expect(handle.requests.count == 1)
        #expect(handle.requests.first?.url == Self.url)
    }

    @Test func echoRepliesWithTheMessageItself() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(Stub().responding(with: .webSocket(WebSocketScript().replying(with: .echo))))
        let socket = turntable.webSocketTask(with: Self.url)
        socket.resume()
        try await socket.send(.data(Data([9, 8])))
        guard case .data(let bytes) = try await socket.receive() else {
            Issue.record("a binary message echoed as text")
            return
        }
        #expect(bytes == Data([9, 8]))
    }

    @Test func aStubLimitedToOneConnectionLetsTheNextGoToTheVinyl() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let handle = turntable.stubs.add(Stub().responding(with: .webSocket(WebSocketScript().pushing(.text("once")))).times(1))
        let first = turntable.webSocketTask(with: Self.url)
        first.resume()
        #expect(Self.text(try await first.receive()) == "once")
        let second = turntable.webSocketTask(with: Self.url)
        second.resume()
        await #expect(throws: TurntableError.self) { try await second.receive() }
        #expect(handle.requestCount == 1)
    }

    @Test func aConversationAsAStubReplaysInCausalOrder() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(
            Stub().responding(with: .webSocket(WebSocketConversation(messages: [.sent(.text("a")), .received(.text("A"))], end: .closed(code: 1000, by: .received)))))
        let socket = turntable.webSocketTask(with: Self.url)
        socket.resume()
        try await socket.send(.string("a"))
        #expect(Self.text(try await socket.receive()) == "A")
        await #expect(throws: POSIXError.self) { try await socket.receive() }
    }
}
