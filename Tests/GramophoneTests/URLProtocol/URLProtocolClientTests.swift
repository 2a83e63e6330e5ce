import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the URL loading system expects of a URLProtocol's client calls: none after
/// `stopLoading`, and the whole answer in order when it is not stopped.
@Suite("URLProtocol client calls")
struct URLProtocolClientTests {
    /// The client calls a protocol made, in order.
    final class RecordingClient: NSObject, URLProtocolClient, @unchecked Sendable {
        // @unchecked: `calls` is locked; the other members are the protocol's requirements.
        let calls = Locked<[String]>([])
        private func note(_ call: String) { calls.withLock { $0.append(call) } }
        func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) { note("redirect") }
        func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) { note("cached") }
        func urlProtocol(_ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy policy: URLCache.StoragePolicy) { note("response") }
        func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) { note("data \(data.count)") }
        func urlProtocolDidFinishLoading(_ protocol: URLProtocol) { note("finish") }
        func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) { note("fail") }
        func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) { note("challenge") }
        func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) { note("cancel challenge") }
    }

    static let url = URL(string: "https://api.example.com/slow")!

    func loadingProtocol(_ turntable: Turntable, client: RecordingClient) throws -> LoadingURLProtocol {
        let type = try #require(turntable.urlProtocolClass as? URLProtocol.Type)
        return try #require(type.init(request: URLRequest(url: Self.url), cachedResponse: nil, client: client) as? LoadingURLProtocol)
    }

    @Test func nothingReachesTheClientAfterStopLoading() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(Stub().responding(with: .text("late").delivered(.delayed(30))))
        let client = RecordingClient()
        let loading = try loadingProtocol(turntable, client: client)
        loading.startLoading()
        loading.stopLoading()
        // The load ends at once: stopping cancels its wait.
        await loading.load.withLock { $0 }?.finished()
        #expect(client.calls.withLock { $0 }.isEmpty)
    }

    // On Apple platforms client calls are scheduled on the loading thread's run loop, which a
    // URLSession runs; the paths suite covers them there through real sessions.
    #if canImport(FoundationNetworking)
    @Test func anUnstoppedLoadTellsTheClientEverythingInOrder() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "t", tracks: [Track("GET https://api.example.com/slow", .text("twelve bytes"))]))
        let client = RecordingClient()
        let loading = try loadingProtocol(turntable, client: client)
        loading.startLoading()
        await loading.load.withLock { $0 }?.finished()
        #expect(client.calls.withLock { $0 } == ["response", "data 12", "finish"])
        loading.stopLoading()
    }
    #endif
}
