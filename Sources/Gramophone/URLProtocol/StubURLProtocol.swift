import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` through which `HTTPStubber` answers requests of `URLSession`s it does not
/// own: `URLSession.shared` once registered, and sessions made from its configurations.
///
/// It claims a request only while the stubber is enabled and a stub (or opt-out mode) is to
/// answer it; every other request goes to the next protocol, the real network.
@available(watchOS, unavailable)  // with HTTPStubber, whose state it reads
final class StubURLProtocol: URLProtocol, LoadingURLProtocol {
    /// Locked: set by startLoading and read by stopLoading, which the system may call from other threads.
    let load = Locked<ProtocolLoad?>(nil)

    override class func canInit(with request: URLRequest) -> Bool {
        HTTPStubber.shared.claims(request)
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let request = self.request
        // A WebSocket's messages never reach a URLProtocol, and Linux Foundation cannot finish a
        // download one loads (LoadingTask.refusal): both fail saying so.
        #if canImport(FoundationNetworking)
        let refused = self.task is URLSessionDownloadTask || LoadingTask.opensWebSocket(self.task, request)
        #else
        let refused = LoadingTask.opensWebSocket(self.task, request)
        #endif
        let refusal = refused ? LoadingTask(self.task, request: request).refusal(for: request, recording: false) : nil
        let started = ProtocolLoad(self) { calls in
            if let refusal { return await URLProtocolDelivery.deliver(.failure(refusal), to: calls, chunks: []) }
            var answer: StubAnswer
            do {
                var live = try Track.Request(request)
                answer = await Self.answer(live)
                var hops = 0
                // A stubbed redirect to a stubbed target is followed as URLSession would.
                while let (response, next) = Turntable.redirectRequest(after: Answer(outcome: answer.outcome, source: .network), of: live),
                    let nextRequest = try? Track.Request(next), case .stubbed = HTTPStubber.shared.stubs.resolve(nextRequest)
                {
                    #if canImport(FoundationNetworking)
                    // Linux Foundation traps on `wasRedirectedTo`: follow here (Gramophone.docc/Platforms.md).
                    guard hops < Turntable.redirectLimit else {
                        answer = StubAnswer(outcome: .failure(URLError(.httpTooManyRedirects)), condition: .immediate, cachePolicy: .notAllowed)
                        break
                    }
                    hops += 1
                    live = nextRequest
                    answer = await Self.answer(live)
                    #else
                    _ = hops
                    await URLProtocolDelivery.redirect(to: next, after: response, body: (try? answer.outcome.get().1) ?? Data(), through: calls)
                    return
                    #endif
                }
            } catch {
                answer = StubAnswer(outcome: .failure(error), condition: .immediate, cachePolicy: .notAllowed)
            }
            let byteCount = (try? answer.outcome.get().1.count) ?? 0
            let plan = answer.condition.deliveryPlan(byteCount: byteCount)
            guard await URLProtocolDelivery.wait(plan.initialDelay) else { return }
            if let stream = answer.stream, case .success(let (response, body)) = answer.outcome, let url = response.url {
                // A streaming stub's chunks, at its own intervals.
                let streamed = StreamPlan(stream, body: body, url: url, chunking: .asRecorded, eventStream: response.isEventStream, scale: 1)
                return await URLProtocolDelivery.deliver(
                    answer.outcome, to: calls, cachePolicy: answer.cachePolicy,
                    chunks: URLProtocolDelivery.chunks(of: streamed), ending: streamed.ending)
            }
            await URLProtocolDelivery.deliver(answer.outcome, to: calls, cachePolicy: answer.cachePolicy, chunks: plan.chunks)
        }
        load.withLock { $0 = started }
    }

    /// The stubber's answer to `live`: a stub's, the opt-out failure, or the network's.
    private static func answer(_ live: Track.Request) async -> StubAnswer {
        switch HTTPStubber.shared.stubs.resolve(live, answering: true) {
        case .stubbed(let response, let stubRequest, let placeholders, let condition):
            return await StubAnswer.make(response, for: stubRequest, placeholders: placeholders, condition: condition)
        case .unmatched(let report, .optOut):
            return StubAnswer(outcome: .failure(StubError.noMatchingStub(report)), condition: .immediate, cachePolicy: .notAllowed)
        case .unmatched(_, .optIn), .ignored:
            // Claimed while its body was a stream (or an ignore rule came meanwhile):
            // too late to hand it back, so it goes to the network from here.
            return StubAnswer(outcome: await PassThrough.send(live), condition: .immediate, cachePolicy: .notAllowed)
        }
    }

    override func stopLoading() {
        load.withLock { $0?.stop() }
    }
}

/// The network, for requests the stubber claimed and then found no stub for: a session of its
/// own without the stubber's protocol, made on first need.
@available(watchOS, unavailable)
enum PassThrough {
    /// Locked: made once, on first need, from any loading task.
    private static let session = Locked<URLSession?>(nil)

    static func send(_ live: Track.Request) async -> Result<(HTTPURLResponse, Data), any Error> {
        let session = session.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = (configuration.protocolClasses ?? []).filter { $0 != StubURLProtocol.self }
            let made = URLSession(configuration: configuration)
            session = made
            return made
        }
        do {
            let (body, response) = try await session.data(for: live.urlRequest)
            guard let http = response as? HTTPURLResponse else { return .failure(URLError(.badServerResponse)) }
            return .success((http, body))
        } catch {
            return .failure(error)
        }
    }
}
