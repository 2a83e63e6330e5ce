import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a URLProtocol learns of the task it loads (URLProtocol/LoadingTask.swift). On Linux it is
/// read from Foundation's internals: these tests fail when a toolchain changes them.
@Suite("The task behind a URLProtocol's load")
struct LoadingTaskTests {
    /// A URLProtocol that notes what `LoadingTask` sees and answers 204.
    struct Seen: Sendable {
        var body: Data?
        var probeHeader: String?
        var isDownload: Bool
        var isBodyUnreadable: Bool
        var receivesPieces: Bool
    }

    final class Probe: URLProtocol {
        static let seen = Locked<[String: Seen]>([:])

        override class func canInit(with request: URLRequest) -> Bool { true }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
        override func startLoading() {
            let task = LoadingTask(self.task, request: request)
            let key = request.url?.lastPathComponent ?? ""
            let completed = task.completed(request)
            let seen = Seen(
                body: completed.httpBody, probeHeader: completed.value(forHTTPHeaderField: "X-Probe"), isDownload: task.isDownload,
                isBodyUnreadable: task.isBodyUnreadable, receivesPieces: task.receivesPieces)
            Self.seen.withLock { $0[key] = seen }
            let response = HTTPURLResponse(url: request.url!, statusCode: 204, httpVersion: nil, headerFields: [:])!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocolDidFinishLoading(self)
        }
        override func stopLoading() {}
    }

    final class Quiet: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked: holds nothing; the session calls it from its queue.
        let done = Locked<[CheckedContinuation<Void, Never>]>([])
        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            for waiter in done.withLock({ waiters in
                defer { waiters = [] }; return waiters
            }) { waiter.resume() }
        }
    }

    static func session(delegate: (any URLSessionDelegate)? = nil) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [Probe.self]
        configuration.httpAdditionalHeaders = ["X-Probe": "configured"]
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    @Test("an upload task's body, the configuration's headers and the kind of task reach the URLProtocol's load")
    func uploadTaskIsSeen() async throws {
        let session = Self.session()
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: URL(string: "https://probe.example.com/upload")!)
        request.httpMethod = "POST"
        _ = try await session.upload(for: request, from: Data("uploaded".utf8))
        let seen = try #require(Probe.seen.withLock { $0["upload"] })
        #expect(seen.isDownload == false)
        #if canImport(FoundationNetworking)
        #expect(seen.body == Data("uploaded".utf8))
        #expect(seen.isBodyUnreadable == false)
        #expect(seen.probeHeader == "configured")
        // An async task keeps only the last piece on Linux.
        #expect(seen.receivesPieces == false)
        #endif
    }

    @Test("a delegate data task is one that hears every piece")
    func delegateTaskReceivesPieces() async throws {
        let delegate = Quiet()
        let session = Self.session(delegate: delegate)
        defer { session.finishTasksAndInvalidate() }
        await withCheckedContinuation { continuation in
            delegate.done.withLock { $0.append(continuation) }
            session.dataTask(with: URL(string: "https://probe.example.com/delegate")!).resume()
        }
        let seen = try #require(Probe.seen.withLock { $0["delegate"] })
        #expect(seen.receivesPieces)
    }
}
