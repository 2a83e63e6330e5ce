import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebSocket opened through `makeURLSession()`: the session's own `URLSessionWebSocketTask`,
/// whose messages no URLProtocol sees. Its handshake fails at once saying how to reach a
/// replayed conversation, instead of being answered as an HTTP request. (On Linux Foundation
/// refuses the task before the URLProtocol; the handshake as Apple sends it, an `http(s)`
/// request with `Upgrade: websocket`, is what reaches the protocol there.)
@Suite struct WebSocketThroughURLProtocolTests {
    static let url = URL(string: "ws://chat.example.com/socket")!

    static func turntable() -> Turntable {
        let conversation = WebSocketConversation(messages: [.received(.text("welcome"))], end: .closed(code: 1000, by: .received))
        return Turntable(vinyl: Vinyl(name: "chat", tracks: [Track(request: Track.Request(url: url), outcome: .response(.webSocket(conversation)))]))
    }

    @Test func aSocketFromMakeURLSessionFailsSayingToUseTheTurntablesWebSocketTask() async throws {
        let turntable = Self.turntable()
        let session = turntable.makeURLSession()
        let socket = session.webSocketTask(with: Self.url)
        socket.resume()
        let error = await #expect(throws: (any Error).self) { _ = try await socket.receive() }
        #if canImport(FoundationNetworking)
        // Linux Foundation refuses the task itself, before any URLProtocol is asked.
        #expect(String(describing: error).contains("WebSockets not supported by libcurl"), "\(String(describing: error))")
        #else
        #expect(String(describing: error).contains("a URLProtocol sees at most the opening handshake"), "\(String(describing: error))")
        #endif
        #expect(turntable.playback.misses == 0)
    }

    @Test func anHTTPRequestAskingToUpgradeIsAHandshakeAsApplePlatformsSendIt() throws {
        // Apple's URLSessionWebSocketTask hands its URLProtocol an https request with the upgrade headers.
        var handshake = URLRequest(url: try #require(URL(string: "https://chat.example.com/socket")))
        handshake.setValue("websocket", forHTTPHeaderField: "Upgrade")
        #expect(LoadingTask.opensWebSocket(nil, handshake))
        #expect(LoadingTask.opensWebSocket(nil, URLRequest(url: Self.url)))
        #expect(!LoadingTask.opensWebSocket(nil, URLRequest(url: try #require(URL(string: "https://chat.example.com/socket")))))
        // The scheme in any case, and only the scheme: a host or path spelling "ws" is not one.
        for text in ["WSS://chat.example.com/socket", "Ws://chat.example.com/socket", "wss://chat.example.com"] {
            #expect(LoadingTask.opensWebSocket(nil, URLRequest(url: try #require(URL(string: text)))), "\(text)")
        }
        for text in ["wsx://chat.example.com/", "http://ws/socket", "https://wss.example.com/ws:"] {
            #expect(!LoadingTask.opensWebSocket(nil, URLRequest(url: try #require(URL(string: text)))), "\(text)")
        }
        var h2c = URLRequest(url: try #require(URL(string: "http://chat.example.com/")))
        h2c.setValue("h2c", forHTTPHeaderField: "Upgrade")
        #expect(!LoadingTask.opensWebSocket(nil, h2c))
    }

    @Test func aDataTaskToTheHandshakeURLFailsTheSameWay() async throws {
        // Through makeURLSession() a handshake has no other answer: a 101 with no connection would
        // leave the code waiting on messages that never come.
        var handshake = URLRequest(url: try #require(URL(string: "http://chat.example.com/socket")))
        handshake.setValue("websocket", forHTTPHeaderField: "Upgrade")
        let turntable = Self.turntable()
        let error = await #expect(throws: URLError.self) { _ = try await turntable.makeURLSession().data(for: handshake) }
        #expect(error?.code == .unsupportedURL)
        #expect(error?.localizedDescription.contains("a URLProtocol sees at most the opening handshake") == true, "\(String(describing: error))")
        #expect(turntable.playback.misses == 0)
    }
}
