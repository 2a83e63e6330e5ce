import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A track whose transfer failed after its response (`Track.Response.failure`) replays as
/// URLSession reports one: the response, the body received, then the error, on every surface.
@Suite struct ResponseThenErrorReplayTests {
    static let url = URL(string: "https://api.example.com/feed")!
    static let body = Data("partial".utf8)

    static func turntable() -> Turntable {
        let outcome = Track.Outcome.data(body, status: 206, contentType: "text/plain").failing(with: URLError(.networkConnectionLost))
        return Turntable(vinyl: Vinyl(name: "broken", tracks: [Track(Track.Request(url: url), outcome)]))
    }

    static func isConnectionLost(_ error: (any Error)?) -> Bool { (error as? URLError)?.code == .networkConnectionLost }

    @Test func asyncCallsThrowTheError() async throws {
        let turntable = Self.turntable()
        await #expect { try await turntable.data(for: URLRequest(url: Self.url)) } throws: { Self.isConnectionLost($0) }
        await #expect { try await turntable.upload(for: URLRequest(url: Self.url), from: Data()) } throws: { Self.isConnectionLost($0) }
        await #expect { try await turntable.download(for: URLRequest(url: Self.url)) } throws: { Self.isConnectionLost($0) }
    }

    @Test func aCompletionHandlerGetsTheResponseAndTheErrorWithoutData() async throws {
        // Apple: "If the request fails, the data parameter is nil"; the response is there once one arrived.
        let calls = HandlerCalls<HandlerCall>()
        Self.turntable().dataTask(with: URLRequest(url: Self.url), completionHandler: calls.handler).resume()
        let call = try #require(await calls.first(1).first)
        #expect(call.status == 206)
        #expect(call.data == nil)
        #expect(Self.isConnectionLost(call.error))
    }

    @Test func aDownloadCompletionHandlerGetsTheResponseAndTheErrorWithoutAFile() async throws {
        let (file, response, error) = await withCheckedContinuation { continuation in
            Self.turntable().downloadTask(with: URLRequest(url: Self.url)) { file, response, error in
                continuation.resume(returning: (file, (response as? HTTPURLResponse)?.statusCode, Self.isConnectionLost(error)))
            }.resume()
        }
        #expect(file == nil)
        #expect(response == 206)
        #expect(error)
    }

    @Test func aDelegateGetsTheResponseTheBodyThenTheError() async throws {
        let recorder = DelegateRecorder()
        let turntable = Self.turntable().delegating(to: recorder, queue: recorder.queue)
        let task = turntable.dataTask(with: Self.url)
        task.resume()
        #expect(await recorder.waitForCompletion())
        #expect(recorder.foldedEvents == ["response", "data", "complete"])
        #expect(recorder.log.withLock { $0.chunks }.reduce(Data(), +) == Self.body)
        #expect(Self.isConnectionLost(recorder.log.withLock { $0.error }))
        #expect((task.response as? HTTPURLResponse)?.statusCode == 206)
    }

    @Test func aURLSessionFromTheTurntableReportsTheResponseTheBodyThenTheError() async throws {
        let recorder = DelegateRecorder()
        // A session from a Turntable answers while the Turntable lives.
        let turntable = Self.turntable()
        let session = turntable.makeURLSession(delegate: recorder, delegateQueue: recorder.queue)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: Self.url).resume()
        #expect(await recorder.waitForCompletion())
        #expect(recorder.foldedEvents == ["response", "data", "complete"])
        #expect(recorder.log.withLock { $0.response?.statusCode } == 206)
        #expect(recorder.log.withLock { $0.chunks }.reduce(Data(), +) == Self.body)
        #expect(Self.isConnectionLost(recorder.log.withLock { $0.error }))

        let plain = turntable.makeURLSession()
        defer { plain.finishTasksAndInvalidate() }
        await #expect { try await plain.data(for: URLRequest(url: Self.url)) } throws: { Self.isConnectionLost($0) }
    }
}
